import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { MSG } from './jt808/index.ts';
import { location, TestTerminal } from './terminal-client.ts';

describe('platform messages to terminals (Jt808Gateway.sendCommand)', () => {
  let server: LiveTestServer;
  let devices: { vehicleId: number; deviceNo: string }[];
  const open: TestTerminal[] = [];

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 10 });
    devices = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
  });
  afterAll(async () => {
    await Promise.all(open.map((t) => t.close()));
    await server.close();
  });

  async function online(i: number, version: 2013 | 2019 = 2013): Promise<TestTerminal> {
    const t = await TestTerminal.connect(server.gatewayPort, devices[i]!.deviceNo, version);
    open.push(t);
    await t.login();
    return t;
  }

  it('delivers a 0x8203 to the authenticated terminal and answers its 0x0001 result', async () => {
    const t = await online(0);
    t.commandResult = 1;
    const outcome = await server.app.live.gateway.sendCommand(devices[0]!.vehicleId, { msgId: MSG.ALARM_CONFIRM, alarmSerial: 0, alarmType: 1 }, 2000);
    expect(outcome).toEqual({ kind: 'reply', result: 1 });
    expect(t.commands).toEqual([{ serial: expect.any(Number), message: { msgId: MSG.ALARM_CONFIRM, alarmSerial: 0, alarmType: 1 } }]);
  });

  it('answers offline for a vehicle whose terminal never connected, logged out or closed', async () => {
    const gateway = server.app.live.gateway;
    const text = { msgId: MSG.TEXT, flags: 8, textType: 1, text: 'hi' } as const;
    expect(await gateway.sendCommand(devices[1]!.vehicleId, text)).toEqual({ kind: 'offline' });
    const t = await online(2, 2019);
    expect(gateway.isReachable(devices[2]!.vehicleId)).toBe(true);
    await t.request({ msgId: MSG.LOGOUT });
    expect(await gateway.sendCommand(devices[2]!.vehicleId, text)).toEqual({ kind: 'offline' });
    const u = await online(3);
    await u.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(await gateway.sendCommand(devices[3]!.vehicleId, text)).toEqual({ kind: 'offline' });
  });

  it('answers timeout when the terminal does not reply, and the terminal keeps reporting', async () => {
    const t = await online(4);
    t.commandResult = null;
    const outcome = await server.app.live.gateway.sendCommand(devices[4]!.vehicleId, { msgId: MSG.TEXT, flags: 8, textType: 0, text: 'x' }, 100);
    expect(outcome).toEqual({ kind: 'timeout' });
    const reply = await t.report(location({ lng: 120, lat: 30, time: Math.floor(server.clock.now() / 1000) * 1000 }));
    expect(reply.result).toBe(0);
  });
});
