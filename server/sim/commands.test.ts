import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../gateway/jt808/index.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { startSimulator, type RunningSimulator } from './simulator.ts';
import { SIM_AV_ATTRIBUTES, SIM_CAMERA_CHANNELS } from './terminal.ts';

describe('simulated terminals against the real gateway', () => {
  let server: LiveTestServer;
  let sim: RunningSimulator;
  let vehicleIds: number[];

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 5 });
    const vehicles = await server.app.storage.terminals.allVehicles();
    vehicleIds = vehicles.map((v) => v.vehicleId);
    sim = startSimulator({
      port: server.gatewayPort, terminals: vehicles.map((v) => ({ deviceNo: v.deviceNo })), seed: 3, tickMs: 10,
      rates: { neverOnlineShare: 0, offlinePerDay: 0 },
    });
    const deadline = Date.now() + 15_000;
    while (!vehicleIds.every((id) => server.app.live.gateway.isReachable(id))) {
      if (Date.now() > deadline) throw new Error('simulated terminals did not authenticate');
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  afterAll(async () => {
    await sim.stop();
    await server.close();
  });

  it('answer a 0x8203 alarm confirmation and a 0x8300 text with a 0x0001 result 0', async () => {
    const gateway = server.app.live.gateway;
    const [a, b] = vehicleIds as [number, number];
    expect(await gateway.sendCommand(a, { msgId: MSG.ALARM_CONFIRM, alarmSerial: 0, alarmType: 1 }, 5000)).toEqual({ kind: 'reply', result: 0 });
    expect(await gateway.sendCommand(b, { msgId: MSG.TEXT, flags: 8, textType: 1, text: '请注意安全' }, 5000)).toEqual({ kind: 'reply', result: 0 });
  });

  it('answer 0x9003 with a 0x1003 claiming exactly the cameras they stream: the last one accepts 0x9101, the next is refused', async () => {
    const gateway = server.app.live.gateway;
    const [, , c] = vehicleIds as [number, number, number];
    const answer = await gateway.request(c, { msgId: 0x9003 }, 0x1003, 5000);
    expect(answer).toEqual({ kind: 'answer', message: SIM_AV_ATTRIBUTES });
    expect(SIM_AV_ATTRIBUTES.maxVideoChannels).toBe(SIM_CAMERA_CHANNELS);
    // The live request's own answer (0x0001) is what the terminal would really do with each channel;
    // the unreachable media address makes it stop trying to stream right after answering.
    const live = (channel: number) => gateway.sendCommand(c, { msgId: 0x9101, host: '127.0.0.1', tcpPort: 9, udpPort: 0, channel, dataType: 1, streamType: 1 }, 5000);
    expect(await live(SIM_CAMERA_CHANNELS)).toEqual({ kind: 'reply', result: 0 });
    expect(await live(SIM_CAMERA_CHANNELS + 1)).toEqual({ kind: 'reply', result: 1 });
  });
});
