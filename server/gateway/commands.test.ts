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
    // Besides the channel discovery's 0x9003, asked of every terminal once it authenticates (services/video).
    expect(t.commands.filter((c) => c.message.msgId !== 0x9003)).toEqual([{ serial: expect.any(Number), message: { msgId: MSG.ALARM_CONFIRM, alarmSerial: 0, alarmType: 1 } }]);
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

  it('request: matches the answer message by its reply serial, then acknowledges it', async () => {
    const t = await online(5);
    const gateway = server.app.live.gateway;
    const query = { msgId: 0x9205, channel: 1, startTime: NaN, endTime: NaN, alarmFlags: 0n, mediaType: 0, streamType: 0, storageType: 0 } as const;
    const pending = gateway.request(devices[5]!.vehicleId, query, 0x1205, 2000);
    await waitFor(() => t.commands.some((c) => c.message.msgId === 0x9205));
    const asked = t.commands.find((c) => c.message.msgId === 0x9205)!;
    const item = { channel: 1, startTime: Date.UTC(2026, 10, 1, 0, 0, 0), endTime: Date.UTC(2026, 10, 1, 0, 10, 0), alarmFlags: 0n, mediaType: 2, streamType: 1, storageType: 1, fileSize: 1000 };
    // An unrelated serial first: it must not settle the request.
    t.send({ msgId: 0x1205, replySerial: (asked.serial + 7) & 0xffff, items: [] });
    const ack = await t.request({ msgId: 0x1205, replySerial: asked.serial, items: [item] });
    expect(ack).toMatchObject({ msgId: MSG.PLATFORM_RESPONSE, replyId: 0x1205, result: 0 });
    const outcome = await pending;
    expect(outcome.kind).toBe('answer');
    expect(outcome.kind === 'answer' && outcome.message).toEqual({ msgId: 0x1205, replySerial: asked.serial, items: [item] });
  });

  it('request: a failing 0x0001 ends the wait; silence times out; offline answers at once', async () => {
    const gateway = server.app.live.gateway;
    const query = { msgId: 0x9205, channel: 9, startTime: NaN, endTime: NaN, alarmFlags: 0n, mediaType: 0, streamType: 0, storageType: 0 } as const;
    const t = await online(6);
    t.commandResult = 3;
    expect(await gateway.request(devices[6]!.vehicleId, query, 0x1205, 2000)).toEqual({ kind: 'reply', result: 3 });
    t.commandResult = 0; // "received", but the answer never comes
    expect(await gateway.request(devices[6]!.vehicleId, query, 0x1205, 150)).toEqual({ kind: 'timeout' });
    expect(await gateway.request(devices[7]!.vehicleId, query, 0x1205, 150)).toEqual({ kind: 'offline' });
  });

  it('handleTerminalMessage: the handler sees the message and decides the 0x8001 result; a throwing handler answers fail', async () => {
    const gateway = server.app.live.gateway;
    const seen: number[] = [];
    let outcome: number | 'throw' = 0;
    gateway.handleTerminalMessage(0x1205, async ({ vehicleId, message }) => {
      seen.push(vehicleId);
      expect(message.msgId).toBe(0x1205);
      await new Promise((r) => setTimeout(r, 5));
      if (outcome === 'throw') throw new Error('disk full');
      return outcome;
    });
    const t = await online(8);
    expect(await t.request({ msgId: 0x1205, replySerial: 1, items: [] })).toMatchObject({ replyId: 0x1205, result: 0 });
    outcome = 'throw';
    expect(await t.request({ msgId: 0x1205, replySerial: 2, items: [] })).toMatchObject({ replyId: 0x1205, result: 1 });
    // Later frames keep their order behind the asynchronous handler, and the terminal keeps reporting.
    expect((await t.report(location({ lng: 120, lat: 30, time: Math.floor(server.clock.now() / 1000) * 1000 }))).result).toBe(0);
    expect(seen).toEqual([devices[8]!.vehicleId, devices[8]!.vehicleId]);
    expect(() => gateway.handleTerminalMessage(0x1205, () => undefined)).toThrow(/already registered/);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
