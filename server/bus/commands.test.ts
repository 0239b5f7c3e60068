/**
 * Issue 20, commands across nodes without a NATS server: the gateway's seam (a vehicle no connection of
 * this process holds goes to the attached RemoteTerminals; one connected here is sent to directly),
 * the reachability listener the bus subscribes by, `displace` (last authentication wins across nodes),
 * and the wire form of requests and replies. End to end over NATS: two-node-commands.pgtest.ts.
 */
import { pack } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../gateway/jt808/index.ts';
import { TestTerminal } from '../gateway/terminal-client.ts';
import type { CommandOutcome, RemoteTerminals, RequestOutcome } from '../gateway/types.ts';
import { createFleetSync } from '../live/fleet-sync.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { decodeReply, decodeRequest, encodeReply, encodeRequest, gatewayWaitMs, LONG_SEND_ALLOWANCE_MS, ownPackageFile } from './commands.ts';

const text = { msgId: MSG.TEXT, flags: 8, textType: 1, text: '请减速' } as const;

class FakeRemote implements RemoteTerminals {
  readonly sent: { vehicleId: number; msgId: number; timeoutMs: number | undefined }[] = [];
  readonly reachable = new Set<number>();
  sendCommand(vehicleId: number, message: { msgId: number }, timeoutMs?: number): Promise<CommandOutcome> {
    this.sent.push({ vehicleId, msgId: message.msgId, timeoutMs });
    return Promise.resolve(this.reachable.has(vehicleId) ? { kind: 'reply', result: 7 } : { kind: 'offline' });
  }
  request(vehicleId: number, message: { msgId: number }, _answerId: number, timeoutMs?: number): Promise<RequestOutcome> {
    this.sent.push({ vehicleId, msgId: message.msgId, timeoutMs });
    return Promise.resolve({ kind: 'timeout' });
  }
  isReachable(vehicleId: number): boolean {
    return this.reachable.has(vehicleId);
  }
}

describe('the gateway with a remote commander (issue 20 seam)', () => {
  let server: LiveTestServer;
  let devices: { vehicleId: number; deviceNo: string }[];
  const remote = new FakeRemote();
  const events: [number, string | null][] = [];
  const open: TestTerminal[] = [];

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 4 });
    devices = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
    server.app.live.gateway.attachRemote(remote);
    server.app.live.gateway.onReachability((vehicleId, phone) => events.push([vehicleId, phone]));
  });
  afterAll(async () => {
    await Promise.all(open.map((t) => t.close()));
    await server.close();
  });

  async function online(i: number): Promise<TestTerminal> {
    const t = await TestTerminal.connect(server.gatewayPort, devices[i]!.deviceNo);
    open.push(t);
    await t.login();
    return t;
  }

  it('sends a vehicle connected elsewhere through the remote, with its timeout; one connected here directly', async () => {
    const gateway = server.app.live.gateway;
    const [here, elsewhere, nowhere] = [devices[0]!, devices[1]!, devices[2]!];
    remote.reachable.add(elsewhere.vehicleId);
    const t = await online(0);
    expect(await gateway.sendCommand(here.vehicleId, text, 2000)).toEqual({ kind: 'reply', result: 0 });
    expect(t.commands.map((c) => c.message.msgId)).toContain(MSG.TEXT);
    expect(remote.sent).toEqual([]);
    expect(await gateway.sendCommand(elsewhere.vehicleId, text, 1234)).toEqual({ kind: 'reply', result: 7 });
    expect(await gateway.request(elsewhere.vehicleId, { msgId: 0x9003 }, 0x1003, 4321)).toEqual({ kind: 'timeout' });
    expect(await gateway.sendCommand(nowhere.vehicleId, text)).toEqual({ kind: 'offline' });
    expect(remote.sent).toEqual([
      { vehicleId: elsewhere.vehicleId, msgId: MSG.TEXT, timeoutMs: 1234 },
      { vehicleId: elsewhere.vehicleId, msgId: 0x9003, timeoutMs: 4321 },
      { vehicleId: nowhere.vehicleId, msgId: MSG.TEXT, timeoutMs: 10_000 },
    ]);
    // isReachable: here or known elsewhere; the local commander never leaves the process.
    expect([here, elsewhere, nowhere].map((d) => gateway.isReachable(d.vehicleId))).toEqual([true, true, false]);
    expect(await gateway.local.sendCommand(elsewhere.vehicleId, text)).toEqual({ kind: 'offline' });
    expect(gateway.reachableHere()).toEqual([{ vehicleId: here.vehicleId, phone: t.phone.replace(/^0+/, '') }]);
  });

  it('tells the listener of each authentication and of the end of reachability', async () => {
    const d = devices[3]!;
    events.length = 0;
    const t = await online(3);
    expect(events).toEqual([[d.vehicleId, t.phone.replace(/^0+/, '')]]);
    await t.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual([[d.vehicleId, t.phone.replace(/^0+/, '')], [d.vehicleId, null]]);
  });

  it('a code another gateway node registered after this one cached the device is accepted (the database re-read once)', async () => {
    const d = devices[1]!;
    await server.app.storage.terminals.register({ deviceNo: d.deviceNo, authCode: 'c0ffee00c0ffee00', makerId: 'X', model: 'M', terminalId: 'T1', plateColor: 0, plate: '' });
    const t = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
    open.push(t);
    expect((await t.authenticate('0123456789abcdef')).result).not.toBe(0);
    expect((await t.authenticate('c0ffee00c0ffee00')).result).toBe(0);
    await t.close();
  });

  it('a code another gateway node voided after this one cached it is refused (the trust gap: a reset there left the old code valid here)', async () => {
    const d = devices[1]!;
    await server.app.storage.terminals.register({ deviceNo: d.deviceNo, authCode: 'feedface00000001', makerId: 'X', model: 'M', terminalId: 'T1', plateColor: 0, plate: '' });
    const first = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
    open.push(first);
    expect((await first.authenticate('feedface00000001')).result).toBe(0);
    await first.close();
    // An operator resets the registration on another node: only the shared database changes.
    await server.app.storage.terminals.unregister(d.deviceNo, Date.now(), 'operator');
    const again = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
    open.push(again);
    expect((await again.authenticate('feedface00000001')).result).not.toBe(0);
    await again.close();
  });

  it('an operator\'s reset on another node ends the authentication this gateway holds once the fleet change arrives (the attack: a voided terminal kept reporting here until it reconnected)', async () => {
    const d = devices[2]!;
    await server.app.storage.terminals.register({ deviceNo: d.deviceNo, authCode: 'abad1dea00000002', makerId: 'X', model: 'M', terminalId: 'T2', plateColor: 0, plate: '' });
    const t = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
    open.push(t);
    expect((await t.authenticate('abad1dea00000002')).result).toBe(0);
    // The API node resets it: only the shared database changes, then its FleetSync's change comes over the bus.
    await server.app.storage.terminals.unregister(d.deviceNo, Date.now(), 'operator');
    const fleetSync = createFleetSync(server.app.storage, server.app.live, server.app.log);
    await fleetSync.devicesChanged([d.deviceNo]);
    await t.closed;
    expect(server.app.live.gateway.isReachable(d.vehicleId)).toBe(false);
    // A second change for the same device finds nothing more to void (the entry now holds the database's state).
    const again = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
    open.push(again);
    expect((await again.authenticate('abad1dea00000002')).result).not.toBe(0);
  });

  it('displace: a later authentication elsewhere releases this one; an older one does not', async () => {
    const gateway = server.app.live.gateway;
    const d = devices[0]!;
    expect(gateway.isReachable(d.vehicleId)).toBe(true);
    expect(gateway.displace(d.deviceNo, Date.now() - 60_000)).toBe(false);
    expect(gateway.displace(d.deviceNo, Date.now() + 1)).toBe(true);
    expect(gateway.deviceOnline(d.deviceNo)).toBe(false);
    // Released here: its commands now go to the remote (offline there too).
    expect(await gateway.sendCommand(d.vehicleId, text)).toEqual({ kind: 'offline' });
    expect(remote.sent.at(-1)).toMatchObject({ vehicleId: d.vehicleId });
  });
});

describe('wire form of commands', () => {
  it('a request keeps the message whole: bigint alarm flags, bytes, epoch ms, text', () => {
    const message = { msgId: 0x9206, alarmFlags: 0x8000_0000_0000_0001n, startTime: 1_790_000_000_000, data: new Uint8Array([1, 2, 3]), text: '前方' };
    const back = decodeRequest(encodeRequest({ v: 1, op: 'command', message: message as never, timeoutMs: 5000 }));
    expect(back).toMatchObject({ op: 'command', timeoutMs: 5000 });
    const m = back.message as unknown as typeof message;
    expect(m.alarmFlags).toBe(0x8000_0000_0000_0001n);
    expect(m.startTime).toBe(1_790_000_000_000);
    expect([...m.data]).toEqual([1, 2, 3]);
    expect(m.text).toBe('前方');
    expect(() => decodeRequest(encodeRequest({ v: 2, op: 'command', message: text, timeoutMs: 1 }))).toThrow(/codec version/);
  });

  it('a reply gives back each outcome and the serial; an error reply throws', () => {
    const outcomes: (CommandOutcome | RequestOutcome)[] = [
      { kind: 'reply', result: 2 }, { kind: 'offline' }, { kind: 'timeout' }, { kind: 'timeout', retransmissions: 3 },
      { kind: 'answer', message: { msgId: 0x0805, replySerial: 9, result: 0, mediaIds: [4, 5] } as never },
    ];
    for (const o of outcomes) expect(decodeReply(encodeReply(o, 17))).toEqual({ outcome: o, serial: 17 });
    expect(decodeReply(encodeReply({ kind: 'offline' }, undefined)).serial).toBeUndefined();
    expect(() => decodeReply(pack({ v: 1, kind: 'error', error: 'package file not found' }))).toThrow(/gateway node: package file not found/);
  });

  it('an upgrade package is read from the serving node\'s own directory, by its name only: never a path the request names', () => {
    const upgrade = { msgId: 0x8108, upgradeType: 0, makerId: 'SIM01', version: 'V1', data: new Uint8Array(0) } as const;
    expect(ownPackageFile({ ...upgrade, file: { path: '/api-node/media/upgrade-packages/ab12', size: 9 } }, '/gw/media/upgrade-packages'))
      .toMatchObject({ file: { path: '/gw/media/upgrade-packages/ab12', size: 9 } });
    expect(ownPackageFile({ ...upgrade, file: { path: '/gw/media/upgrade-packages/../../../etc/shadow', size: 9 } }, '/gw/media/upgrade-packages'))
      .toMatchObject({ file: { path: '/gw/media/upgrade-packages/shadow' } });
    expect(ownPackageFile(text, '/gw/media/upgrade-packages')).toBe(text);
  });

  it('the caller waits the gateway\'s wait: the timeout, or a retransmission schedule plus its sending', () => {
    expect(gatewayWaitMs(text, 10_000)).toBe(10_000);
    // T = 1000, N = 2: 1000 + 2000 + 6000 (JT/T 808 §4.4), then the answer's own wait.
    expect(gatewayWaitMs({ msgId: 0x8108, retransmit: { timeoutMs: 1000, retries: 2 } } as never, 500)).toBe(9000 + 500 + LONG_SEND_ALLOWANCE_MS);
  });
});
