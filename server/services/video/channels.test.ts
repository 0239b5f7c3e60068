import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { MediaStatus } from '../../../proto/media-frame.ts';
import type { AvAttributes } from '../../gateway/jt808/index.ts';
import { location, type TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { ScriptedFleet } from '../../test/scripted-fleet.ts';
import { until } from '../../test/sim-fleet.ts';
import type { DeviceChannels } from './channels.ts';

// Issue 12 §4: the channels of a terminal come from its device record or its own 0x1003, never from
// one list shared by every terminal. The old answer ("Driver", "Road ahead", "Cabin", "Rear" for any
// vehicle) let an operator open cameras a truck does not have and hid the ones it has.

let server: LiveTestServer;
let fleet: ScriptedFleet;
let admin: string;

const attributes = (maxVideoChannels: number): AvAttributes => ({
  msgId: 0x1003, audioEncoding: 6, audioChannels: 1, samplingRate: 0, samplingBits: 0, audioFrameLength: 320,
  audioOutput: true, videoEncoding: 98, maxAudioChannels: 1, maxVideoChannels,
});

const queries = (t: TestTerminal) => t.commands.filter((c) => c.message.msgId === 0x9003).length;

/** A logged-in terminal that stays silent on commands: tests answer 0x9003 themselves. */
async function silentTerminal(v: { deviceNo: string }): Promise<TestTerminal> {
  const t = await fleet.terminal(v);
  t.commandResult = null;
  return t;
}

/** Waits for the platform's 0x9003, answers it with `maxVideoChannels` cameras, waits until it is kept. */
async function answer(t: TestTerminal, vehicleId: number, maxVideoChannels: number): Promise<void> {
  await until(() => queries(t) >= 1);
  t.send(attributes(maxVideoChannels));
  await until(async () => (await server.app.storage.channels.attributes(vehicleId)) !== undefined);
}

async function channels(vehicleId: number, lang: 'zh' | 'en' = 'zh'): Promise<DeviceChannels> {
  const r = await server.call<DeviceChannels>('GET', `/service-priv/channel/device?vehicleId=${vehicleId}`, { token: admin, lang });
  expect(r.code).toBe(200);
  return r.data;
}

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 40 });
  fleet = await ScriptedFleet.open(server);
  admin = await server.login('admin', 'admin123');
});

afterAll(async () => {
  await fleet?.close();
  await server?.close();
});

describe('channels of a device (channel/device)', () => {
  it('asks each terminal with 0x9003 when it authenticates and lists the cameras it reports, different per terminal', async () => {
    const a = fleet.fresh();
    const b = fleet.fresh();
    const ta = await silentTerminal(a);
    const tb = await silentTerminal(b);
    await answer(ta, a.vehicleId, 2);
    await answer(tb, b.vehicleId, 8);
    const ca = await channels(a.vehicleId);
    expect(ca.source).toBe('terminal');
    expect(ca.reportedTime).toBeGreaterThan(0);
    expect(ca.channels).toEqual([{ channel: 1, kind: 'video', name: '' }, { channel: 2, kind: 'video', name: '' }]);
    expect((await channels(b.vehicleId)).channels.map((c) => c.channel)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The answer carries counts, not names: nothing is named that the terminal did not name.
    expect(ca.channels.every((c) => c.name === '')).toBe(true);
  });

  it('asks once and keeps the answer: a terminal that authenticates again is not asked again', async () => {
    const v = fleet.fresh();
    const first = await silentTerminal(v);
    await answer(first, v.vehicleId, 3);
    await first.close();
    const again = await silentTerminal(v);
    // Give the platform the time it would take to ask, then check that it did not.
    await again.report(location({ lng: 121.5, lat: 31.2, time: Math.floor(server.clock.now() / 1000) * 1000 }));
    await new Promise((r) => setTimeout(r, 300));
    expect(queries(again)).toBe(0);
    expect((await channels(v.vehicleId)).channels).toHaveLength(3);
  });

  it('says "unknown" with no channels for a terminal that never answered and has no record, instead of inventing four', async () => {
    const v = fleet.fresh();
    const t = await silentTerminal(v);
    await until(() => queries(t) >= 1);
    expect(await channels(v.vehicleId)).toEqual({ source: 'unknown', reportedTime: null, channels: [] });
    // A vehicle whose terminal never connected is unknown too.
    const never = fleet.fresh();
    expect(await channels(never.vehicleId)).toEqual({ source: 'unknown', reportedTime: null, channels: [] });
  });

  it('lists no channel for a terminal that reports no camera, and the video socket answers "no camera on device" without asking it to stream', async () => {
    const v = fleet.fresh();
    const t = await silentTerminal(v);
    await answer(t, v.vehicleId, 0);
    expect(await channels(v.vehicleId)).toMatchObject({ source: 'terminal', channels: [] });
    await t.report(location({ lng: 121.5, lat: 31.2, time: Math.floor(server.clock.now() / 1000) * 1000 }));
    const { port } = server.app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws-service/video?token=${admin}&vehicleId=${v.vehicleId}&channel=1`);
    const statuses: MediaStatus[] = [];
    ws.on('message', (data) => statuses.push(JSON.parse(String(data)) as MediaStatus));
    await new Promise((resolve) => ws.on('close', resolve));
    expect(statuses).toEqual([{ type: 'status', state: 'stopped', reason: 'noCamera' }]);
    expect(t.commands.some((c) => c.message.msgId === 0x9101)).toBe(false);
  });

  it('prefers the device record (numbers, names, audio/video) over the terminal answer', async () => {
    const v = fleet.fresh();
    const t = await silentTerminal(v);
    await answer(t, v.vehicleId, 4);
    await server.app.storage.channels.setRecorded(v.vehicleId, [
      { channel: 33, kind: 'audio', name: '驾驶室拾音' },
      { channel: 2, kind: 'video', name: '前方道路' },
      { channel: 1, kind: 'video', name: '驾驶员' },
    ]);
    expect(await channels(v.vehicleId)).toEqual({
      source: 'record', reportedTime: null,
      channels: [{ channel: 1, kind: 'video', name: '驾驶员' }, { channel: 2, kind: 'video', name: '前方道路' }, { channel: 33, kind: 'audio', name: '驾驶室拾音' }],
    });
  });

  it('keeps nothing from a connection that has not authenticated as the terminal (a forged 0x1003)', async () => {
    const v = fleet.fresh();
    const { TestTerminal } = await import('../../gateway/terminal-client.ts');
    const intruder = await TestTerminal.connect(server.gatewayPort, v.deviceNo);
    try {
      intruder.send(attributes(16));
      await new Promise((r) => setTimeout(r, 300));
      expect(await server.app.storage.channels.attributes(v.vehicleId)).toBeUndefined();
      expect((await channels(v.vehicleId)).source).toBe('unknown');
    } finally {
      await intruder.close();
    }
  });

  it('answers 404 for a vehicle outside the caller\'s companies', async () => {
    const branch = await server.login('branch', 'branch123');
    const outside = fleet.fresh(false);
    const r = await server.call('GET', `/service-priv/channel/device?vehicleId=${outside.vehicleId}`, { token: branch });
    expect(r.code).toBe(404);
  });
});

describe('snapshots that name no channel (photoSnap / snapMedia)', () => {
  it('ask only the cameras the terminal reported, not channels 1–4 of every vehicle', async () => {
    server.app.multimedia.snapTimeoutMs = 300;
    try {
      const v = fleet.fresh();
      const t = await silentTerminal(v);
      await answer(t, v.vehicleId, 2);
      const r = await server.call('POST', '/service-command/command/snapMedia', { token: admin, lang: 'en', body: { vehicleId: v.vehicleId } });
      expect(r.status).toBe(504); // the silent terminal takes no photo
      const asked = t.commands.filter((c) => c.message.msgId === 0x8801).map((c) => (c.message as { channel: number }).channel);
      expect(asked.sort()).toEqual([1, 2]);
    } finally {
      server.app.multimedia.snapTimeoutMs = 30_000;
    }
  });

  it('answer "no camera on device" for a terminal that reported none, without asking it', async () => {
    const v = fleet.fresh();
    const t = await silentTerminal(v);
    await answer(t, v.vehicleId, 0);
    const r = await server.call('POST', '/service-command/command/snapMedia', { token: admin, lang: 'en', body: { vehicleId: v.vehicleId } });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('No camera on the device for that channel');
    expect(t.commands.some((c) => c.message.msgId === 0x8801)).toBe(false);
  });
});
