import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decodeMediaFrame, type MediaFrame } from '../../proto/media-frame.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import type { TalkStatus } from '../media/talk.ts';
import { simIntercom } from './intercom.ts';
import { startSimulator, type RunningSimulator } from './simulator.ts';

const until = async (cond: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  expect(cond()).toBe(true);
};

describe('a simulated terminal’s intercom', () => {
  let server: LiveTestServer;
  let sim: RunningSimulator;
  let vehicles: { vehicleId: number; deviceNo: string }[];

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 3 });
    vehicles = await server.app.storage.terminals.allVehicles();
    sim = startSimulator({
      port: server.gatewayPort, terminals: vehicles.map((v) => ({ deviceNo: v.deviceNo })), seed: 3, tickMs: 10,
      rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 },
    });
    await until(() => vehicles.every((v) => server.app.live.gateway.isReachable(v.vehicleId) && server.app.live.store.slotOf(v.vehicleId) >= 0));
  });
  afterAll(async () => {
    await sim.stop();
    await server.close();
  });

  it('answers 0x9101 type 2 by connecting and talking, hears the platform’s audio, and hangs up on 0x9102 command 4', async () => {
    const v = vehicles[0]!;
    const token = await server.login('admin', 'admin123');
    const { port } = server.app.server.address() as { port: number };
    // The terminal must be online in the live store (a position within 3 minutes) for the call.
    await until(() => server.app.live.store.slotOf(v.vehicleId) >= 0);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws-service/talk?token=${token}&vehicleId=${v.vehicleId}`);
    const statuses: TalkStatus[] = [];
    const frames: MediaFrame[] = [];
    ws.on('message', (data, isBinary) => {
      if (isBinary) frames.push(decodeMediaFrame(new Uint8Array(data as Buffer)));
      else statuses.push(JSON.parse(String(data)) as TalkStatus);
    });
    await until(() => statuses.some((s) => s.state === 'talking' || s.state === 'stopped'));
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'talking']);
    await until(() => frames.length >= 5);
    for (let i = 0; i < 5; i++) ws.send(new Uint8Array(160).fill(0xd5));
    await until(() => (simIntercom.heard(v.deviceNo)?.packets ?? 0) >= 5);
    expect(simIntercom.heard(v.deviceNo)).toMatchObject({ mode: 'talk', channel: 1, bytes: 800, payloadTypes: [6], addressedRight: true });
    expect(simIntercom.isActive(v.deviceNo)).toBe(true);
    ws.close();
    await until(() => !simIntercom.isActive(v.deviceNo));
    expect(server.app.media.talk.stats.sessions).toBe(0);
  });
});
