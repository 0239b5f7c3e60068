import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAvc } from '../../../proto/h264.ts';
import type { LiveTestServer } from '../../live/test-harness.ts';
import { SIM_CAMERA_CHANNELS } from '../../sim/terminal.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { VideoViewer } from '../../test/video-viewer.ts';
import type { DeviceChannels } from './channels.ts';

let fleet: SimFleet | undefined;
let server: LiveTestServer;
let base: string;
let adminToken: string;
/** Vehicles whose simulated terminals are online. */
let online: number[];

/** A viewer of this file's server. */
const viewer = (token: string, vehicleId: number, channel: number, stream = 1) => new VideoViewer(base, token, vehicleId, channel, stream);

beforeAll(async () => {
  fleet = await startSimFleet(20, 7);
  server = fleet.server;
  adminToken = fleet.adminToken;
  const { port } = server.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${port}`;
  online = fleet.online.map((v) => v.vehicleId);
});

afterAll(async () => {
  await fleet?.close();
});

describe('live video from a simulated terminal', () => {
  it('plays one upstream for two viewers, keeps it for the one who stays, and stops the terminal after the last leaves', async () => {
    const vehicleId = online[0]!;
    const a = viewer(adminToken, vehicleId, 1);
    const b = viewer(adminToken, vehicleId, 1);
    await until(() => a.frames.length >= 10 && b.frames.length >= 10);
    expect(a.states()).toEqual(['connecting', 'playing']);
    expect(a.frames[0]!.key).toBe(true);
    expect(describeAvc(a.frames[0]!.payload)).toMatchObject({ width: 320, height: 180 });
    expect(server.app.media.hub.stats.channels).toBe(1);
    a.close();
    await a.closed;
    const had = b.frames.length;
    await until(() => b.frames.length >= had + 10);
    expect(server.app.media.hub.stats.channels).toBe(1);
    b.close();
    await b.closed;
    await until(() => server.app.media.hub.stats.channels === 0);
    // 0x9102 reached the terminal: its media stream stops, no more packets arrive.
    await new Promise((r) => setTimeout(r, 300));
    const packets = server.app.media.port.stats.packets;
    await new Promise((r) => setTimeout(r, 400));
    expect(server.app.media.port.stats.packets).toBe(packets);
  });

  it('refuses a channel the terminal reported no camera for with "no camera on device", without asking it to stream', async () => {
    const vehicleId = online[1]!;
    await until(async () => (await server.app.storage.channels.attributes(vehicleId)) !== undefined);
    const streamsBefore = server.app.media.hub.stats.channels;
    const v = viewer(adminToken, vehicleId, 9);
    await v.closed;
    expect(v.states()).toEqual(['stopped:noCamera']);
    expect(server.app.media.hub.stats.channels).toBe(streamsBefore);
  });

  it('refuses a vehicle that is not online', async () => {
    const all = await server.app.storage.terminals.allVehicles();
    const silent = all.find((v) => !online.includes(v.vehicleId))!;
    const v = viewer(adminToken, silent.vehicleId, 1);
    await v.closed;
    expect(v.states()).toEqual(['stopped:vehicleOffline']);
  });

  it('enforces the daily live-video connection count with the spec message, and logs each connection', async () => {
    const operator = await server.login('operator', 'operator123');
    const me = (await server.call<{ user: { id: number } }>('GET', '/service-priv/user/current', { token: operator })).data.user;
    const set = await server.call('POST', '/service-priv/stream/setStream', { token: adminToken, body: { userId: me.id, dailyLimit: 1 } });
    expect(set.code).toBe(200);
    const first = viewer(operator, online[2]!, 2);
    await until(() => first.frames.length >= 3);
    first.close();
    await first.closed;
    const second = viewer(operator, online[2]!, 2);
    await second.closed;
    expect(second.states()).toEqual(['stopped:dailyLimit']);
    const grant = await server.call('POST', '/service-priv/stream/addUserStreamTimes', { token: adminToken, body: { userId: me.id, times: 1 } });
    expect(grant.code).toBe(200);
    const third = viewer(operator, online[2]!, 2);
    await until(() => third.frames.length >= 1);
    third.close();
    const log = await server.call<{ total: number; records: { userId: number; vehicleId: number; channel: number; bytes: number }[] }>(
      'GET', `/service-priv/stream/queryUserStreamLog?userId=${me.id}&startTime=0&endTime=${Date.now() + 60_000}`, { token: adminToken });
    expect(log.data.total).toBe(2);
    expect(log.data.records.every((r) => r.vehicleId === online[2] && r.channel === 2)).toBe(true);
  });

  it('answers 403 to a user without the video page, before any upgrade', async () => {
    const safety = await server.login('safety', 'safety123');
    const v = viewer(safety, online[0]!, 1);
    const code = await new Promise<number>((resolve) => v.ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(code).toBe(403);
  });

  it('lists the cameras each simulated terminal reported in its 0x1003 (what it streams), unnamed, and nothing for one that never connected', async () => {
    for (const vehicleId of online) {
      await until(async () => (await server.app.storage.channels.attributes(vehicleId)) !== undefined);
      const r = await server.call<DeviceChannels>('GET', `/service-priv/channel/device?vehicleId=${vehicleId}`, { token: adminToken, lang: 'en' });
      expect(r.data.source).toBe('terminal');
      expect(r.data.channels).toEqual(Array.from({ length: SIM_CAMERA_CHANNELS }, (_, i) => ({ channel: i + 1, kind: 'video', name: '' })));
    }
    const never = await server.call<DeviceChannels>('GET', `/service-priv/channel/device?vehicleId=${fleet!.offlineVehicle}`, { token: adminToken, lang: 'en' });
    expect(never.data).toEqual({ source: 'unknown', reportedTime: null, channels: [] });
  });
});
