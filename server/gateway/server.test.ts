import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_AFTER_MS, VehicleState } from '../../domain/vehicle/state.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { encodeFrameBody, escapeFrame, MSG, REGISTER_RESULT, RESULT } from './jt808/index.ts';
import { Gen } from './jt808/test-support.ts';
import { phoneKey } from './server.ts';
import { location, TestTerminal } from './terminal-client.ts';

interface Stat {
  vehicleTotal: number; vehicleOnline: number; vehicleTodayOnline: number; vehicleRunning: number; vehicleStop: number;
  vehicleIdle: number; vehicleOffline: number; vehicleNeverOnline: number; onlineRate: number;
}

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;

async function deviceNumbers(server: LiveTestServer): Promise<{ vehicleId: number; deviceNo: string }[]> {
  return (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
}

describe('the JT/T 808 gateway with 200 terminals over TCP', () => {
  let server: LiveTestServer;
  let admin: string;
  const terminals: TestTerminal[] = [];
  const expected = new Map<number, VehicleState>();
  let devices0: { vehicleId: number; deviceNo: string };

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 230, historyFlushMs: 100 }); // the production default: the batching test below counts flushes
    admin = await server.login('admin', 'admin123');
    const devices = (await deviceNumbers(server)).slice(0, 200);
    devices0 = devices[0]!;
    const t = seconds(server.clock.now());
    await Promise.all(devices.map(async ({ vehicleId, deviceNo }, i) => {
      const terminal = await TestTerminal.connect(server.gatewayPort, deviceNo, i % 2 === 0 ? 2013 : 2019);
      terminals.push(terminal);
      await terminal.login();
      // A third each: driving, idling (ACC on, standing), parking (ACC off, standing).
      const kind = i % 3;
      const reply = await terminal.report(location({
        lng: 116 + i / 1000, lat: 39 + i / 1000, time: t, speed: kind === 0 ? 48.5 : 0, status: kind === 2 ? 0x2 : 0x3, direction: i % 360,
      }));
      expect(reply.result).toBe(RESULT.OK);
      expected.set(vehicleId, kind === 0 ? VehicleState.Driving : kind === 1 ? VehicleState.Idling : VehicleState.Parking);
    }));
  });
  afterAll(async () => {
    await Promise.all(terminals.map((t) => t.close()));
    await server.close();
  });

  it('puts every reporting vehicle in the store with the state its report implies', () => {
    const store = server.app.live.store;
    expect(store.count).toBe(230);
    for (const [vehicleId, state] of expected) expect(store.stateOf(store.slotOf(vehicleId))).toBe(state);
    expect(server.app.live.gateway.stats.authenticated).toBe(200);
  });

  it('answers realtimestat with the same counts, the 30 silent vehicles never online', async () => {
    const r = await server.call<Stat>('GET', '/service-monitor/monitor/realtimestat', { token: admin });
    expect(r.code).toBe(200);
    const count = (s: VehicleState) => [...expected.values()].filter((x) => x === s).length;
    expect(r.data).toMatchObject({
      vehicleTotal: 230, vehicleOnline: 200, vehicleTodayOnline: 200, vehicleRunning: count(VehicleState.Driving),
      vehicleIdle: count(VehicleState.Idling), vehicleStop: count(VehicleState.Parking), vehicleOffline: 0, vehicleNeverOnline: 30,
      onlineRate: 86.96,
    });
  });

  it('shows a reported position through realtime in WGS-84 with its speed', async () => {
    // The first device (i = 0: driving at 116°E); `expected` is in order of completion, not of devices.
    const vehicleId = devices0.vehicleId;
    const r = await server.call<{ lng: number; lat: number; speed: number; stateName: string; vehiidno: string }>(
      'GET', `/service-monitor/monitor/realtime?vehicleId=${vehicleId}`, { token: admin });
    expect(r.code).toBe(200);
    expect(r.data.lng).toBeCloseTo(116, 5);
    expect(r.data.speed).toBe(48.5);
    expect(r.data.stateName).toBe('driving');
    expect(r.data.vehiidno.length).toBeGreaterThan(0);
  });

  it('writes the accepted positions to history in batches', async () => {
    await server.app.live.history.flush();
    const vehicleId = devices0.vehicleId;
    const rows = await server.app.storage.positions.range(vehicleId!, 0, Number.MAX_SAFE_INTEGER, 10);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.speed).toBeCloseTo(48.5, 5);
    expect(server.app.live.history.stats.flushes).toBeLessThan(50);
  });

  it('makes a terminal that goes silent offline after the threshold while one that keeps beating stays online', async () => {
    const [silent, beating] = terminals;
    const store = server.app.live.store;
    const vehicleOf = async (t: TestTerminal) => (await server.app.storage.terminals.byDeviceNo(t.phone))!.vehicleId;
    server.clock.advance(OFFLINE_AFTER_MS - 1000);
    expect((await beating!.request({ msgId: MSG.HEARTBEAT })).msgId).toBe(MSG.PLATFORM_RESPONSE);
    server.clock.advance(2000);
    expect(store.stateOf(store.slotOf(await vehicleOf(silent!)))).toBe(VehicleState.Offline);
    expect(store.stateOf(store.slotOf(await vehicleOf(beating!)))).not.toBe(VehicleState.Offline);
    const r = await server.call<Stat>('GET', '/service-monitor/monitor/realtimestat', { token: admin });
    expect(r.data.vehicleOnline).toBe(1);
    expect(r.data.vehicleOffline).toBe(199);
  });
});

describe('gateway protocol rules', () => {
  let server: LiveTestServer;
  let devices: { vehicleId: number; deviceNo: string }[];

  beforeAll(async () => {
    server = await startLiveServer({ gatewayIdleSeconds: 1 });
    devices = await deviceNumbers(server);
  });
  afterAll(() => server.close());

  it('refuses an unknown terminal at register with result 4 when autoRegister is off', async () => {
    const t = await TestTerminal.connect(server.gatewayPort, '019999999999');
    const reply = await t.register('沪A12345', 2);
    expect(reply.result).toBe(REGISTER_RESULT.NO_TERMINAL);
    expect(reply.authCode).toBe('');
    expect(server.app.live.store.count).toBe(50);
    await t.close();
  });

  it('answers result 1 to a report before authentication and to a wrong auth code, and stores nothing', async () => {
    const t = await TestTerminal.connect(server.gatewayPort, devices[0]!.deviceNo);
    const early = await t.report(location({ lng: 120, lat: 30, time: seconds(server.clock.now()) }));
    expect(early).toMatchObject({ msgId: MSG.PLATFORM_RESPONSE, replyId: MSG.LOCATION, result: RESULT.FAIL });
    await t.register();
    expect((await t.authenticate('not-the-code')).result).toBe(RESULT.FAIL);
    expect((await t.request({ msgId: MSG.HEARTBEAT })).msgId === MSG.PLATFORM_RESPONSE).toBe(true);
    const store = server.app.live.store;
    expect(Number.isNaN(store.columns.gpsTime[store.slotOf(devices[0]!.vehicleId)]!)).toBe(true);
    await t.close();
  });

  it('answers an unsupported message id with result 3 and keeps serving the connection', async () => {
    const t = await TestTerminal.connect(server.gatewayPort, devices[1]!.deviceNo, 2019);
    await t.login();
    const serial = 77;
    const waiting = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (t.replies.some((r) => r.replySerial === serial)) { clearInterval(timer); resolve(); }
      }, 10);
    });
    t.raw(escapeFrame(encodeFrameBody({ msgId: 0x0f01, phone: t.phone, serial, version: 2019 }, new Uint8Array([1, 2, 3]))));
    await waiting;
    expect(t.replies.find((r) => r.replySerial === serial)).toMatchObject({ replyId: 0x0f01, result: RESULT.UNSUPPORTED });
    expect((await t.report(location({ lng: 121, lat: 31, time: seconds(server.clock.now()) }))).result).toBe(RESULT.OK);
    await t.close();
  });

  it('stores a blind-area batch in history but keeps the newer live position', async () => {
    const { vehicleId, deviceNo } = devices[2]!;
    const t = await TestTerminal.connect(server.gatewayPort, deviceNo);
    await t.login();
    const now = seconds(server.clock.now());
    expect((await t.report(location({ lng: 113.3, lat: 23.1, time: now, speed: 30 }))).result).toBe(RESULT.OK);
    const items = [3, 2, 1].map((m) => location({ lng: 113 + m / 100, lat: 23, time: now - m * 60_000, speed: 20 }));
    const reply = await t.request({ msgId: MSG.BATCH_LOCATION, type: 1, items });
    expect(reply).toMatchObject({ replyId: MSG.BATCH_LOCATION, result: RESULT.OK });
    const store = server.app.live.store;
    const slot = store.slotOf(vehicleId);
    expect(store.columns.lng[slot]).toBeCloseTo(113.3, 6);
    expect(store.columns.gpsTime[slot]).toBe(now);
    await server.app.live.history.flush();
    const rows = await server.app.storage.positions.range(vehicleId, 0, Number.MAX_SAFE_INTEGER, 100);
    expect(rows.map((r) => r.gpsTime)).toEqual([now - 180_000, now - 120_000, now - 60_000, now]);
    await t.close();
  });

  it('keeps a report dated in the future in history only, so the next correct report still goes live', async () => {
    const { vehicleId, deviceNo } = devices[11]!;
    const t = await TestTerminal.connect(server.gatewayPort, deviceNo);
    await t.login();
    const now = seconds(server.clock.now());
    expect((await t.report(location({ lng: 100, lat: 20, time: now + 86_400_000 }))).result).toBe(RESULT.OK);
    expect((await t.report(location({ lng: 101, lat: 21, time: now }))).result).toBe(RESULT.OK);
    const store = server.app.live.store;
    expect(store.columns.lng[store.slotOf(vehicleId)]).toBeCloseTo(101, 6);
    expect(server.app.live.gateway.stats.futureTime).toBe(1);
    await server.app.live.history.flush();
    expect(await server.app.storage.positions.range(vehicleId, 0, Number.MAX_SAFE_INTEGER, 10)).toHaveLength(2);
    await t.close();
  });

  it('closes a connection that stays silent past the idle timeout', async () => {
    const before = server.app.live.gateway.stats.idleClosed;
    const t = await TestTerminal.connect(server.gatewayPort, devices[3]!.deviceNo);
    const started = Date.now();
    await t.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.app.live.gateway.stats.idleClosed).toBe(before + 1);
  });

  it('survives random and mutated frames from several sockets and still serves a well-formed terminal', async () => {
    const gen = new Gen(808);
    const good = escapeFrame(encodeFrameBody({ msgId: MSG.LOCATION, phone: devices[4]!.deviceNo, serial: 1 }, new Uint8Array(28)));
    const attackers = await Promise.all([0, 1, 2, 3].map((i) => TestTerminal.connect(server.gatewayPort, devices[5 + i]!.deviceNo)));
    for (let round = 0; round < 300; round++) {
      for (const a of attackers) {
        const kind = gen.int(0, 3);
        if (kind === 0) a.raw(gen.bytes(gen.int(1, 400)));
        else if (kind === 1) a.raw(gen.nastyBytes(gen.int(1, 200)));
        else {
          const m = good.slice();
          for (let k = gen.int(1, 4); k > 0; k--) m[gen.int(0, m.length - 1)] = gen.int(0, 255);
          a.raw(kind === 2 ? m : m.subarray(0, gen.int(1, m.length)));
        }
      }
    }
    await new Promise((r) => setTimeout(r, 200));
    const stats = server.app.live.gateway.snapshotStats();
    const bad = Object.values(stats.badFrames).reduce((a, b) => a + b, 0);
    expect(bad).toBeGreaterThan(100);
    const t = await TestTerminal.connect(server.gatewayPort, devices[10]!.deviceNo, 2019);
    await t.login();
    expect((await t.report(location({ lng: 100, lat: 30, time: seconds(server.clock.now()) }))).result).toBe(RESULT.OK);
    // The attackers' own connections keep working too.
    const again = await attackers[0]!.register();
    expect(again.result).toBe(REGISTER_RESULT.OK);
    await Promise.all([t, ...attackers].map((x) => x.close()));
  });
});

describe('autoRegister', () => {
  it('makes an unknown terminal an unassigned device of the first root company (no vehicle): accepted, its reports acknowledged (device-registration.test.ts has the rest)', async () => {
    const server = await startLiveServer({ autoRegister: true, seedVehicles: 5 });
    try {
      const vehicles = server.app.live.store.count;
      const t = await TestTerminal.connect(server.gatewayPort, '018888888888');
      const reg = await t.register('沪A99999', 2);
      expect(reg.result).toBe(REGISTER_RESULT.OK);
      expect((await t.authenticate(reg.authCode)).result).toBe(RESULT.OK);
      expect((await t.report(location({ lng: 121.5, lat: 31.2, time: seconds(server.clock.now()) }))).result).toBe(RESULT.OK);
      expect(await server.app.storage.terminals.deviceByNo('018888888888')).toMatchObject({ vehicleId: null, authCode: reg.authCode });
      expect(await server.app.storage.terminals.byDeviceNo('018888888888')).toBeUndefined();
      expect(server.app.live.store.count).toBe(vehicles);
      expect(phoneKey('018888888888')).toBe('18888888888');
      await t.close();
    } finally {
      await server.close();
    }
  });
});

describe('clean shutdown', () => {
  it('writes every acknowledged position to the database before closing', async () => {
    // A long flush interval and a large batch: nothing reaches the table before the shutdown.
    const server = await startLiveServer({ historyFlushMs: 60_000, historyBatchRows: 1_000_000, seedVehicles: 20 });
    const dataDir = server.config.dataDir;
    const devices = await deviceNumbers(server);
    let acks = 0;
    const ackedBy = new Set<number>();
    const terminals = await Promise.all(devices.map(async (d) => {
      const t = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
      await t.login();
      return t;
    }));
    const t0 = seconds(server.clock.now());
    // Fire-and-forget reports: the shutdown starts while some are still in flight.
    const pending = terminals.flatMap((t, i) => Array.from({ length: 150 }, (_, k) =>
      t.report(location({ lng: 110 + i / 100, lat: 30, time: t0 + k * 1000 }), 3000).then((r) => {
        if (r.result === RESULT.OK) {
          acks++;
          ackedBy.add(i);
        }
      }, () => undefined)));
    // Every terminal has a report applied (the restart below expects all of them offline, not never online).
    const store = server.app.live.store;
    const applied = () => devices.every((d, i) => Math.abs(store.columns.lng[store.slotOf(d.vehicleId)]! - (110 + i / 100)) < 1e-6);
    while (server.app.live.history.pending < 100 || !applied()) await new Promise((r) => setImmediate(r));
    expect(server.app.live.history.stats.rowsWritten).toBe(0);
    // Group commit (issue 20): nothing is acknowledged before the transaction holding it committed.
    expect(acks).toBe(0);
    // The shutdown flushes, the acks waiting for that commit go out, then the connections end.
    await server.close(true);
    await Promise.all(pending);
    expect(ackedBy.size).toBe(terminals.length);
    const db = new Database(path.join(dataDir, 'fleet.sqlite'), { readonly: true });
    const rows = (db.prepare('SELECT count(*) n FROM positions').get() as { n: number }).n;
    db.close();
    expect(acks).toBeGreaterThan(0);
    expect(rows).toBe(acks);

    // After a restart the vehicles that reported are known at their last fix: offline, not never online.
    const again = await startLiveServer({ dataDir, seedVehicles: 20 });
    try {
      again.clock.advance(OFFLINE_AFTER_MS + 60_000);
      const admin = await again.login('admin', 'admin123');
      const stat = await again.call<Stat>('GET', '/service-monitor/monitor/realtimestat', { token: admin });
      expect(stat.data).toMatchObject({ vehicleTotal: 20, vehicleOffline: 20, vehicleNeverOnline: 0, vehicleOnline: 0 });
      const store = again.app.live.store;
      expect(store.columns.lng[store.slotOf(devices[3]!.vehicleId)]).toBeCloseTo(110.03, 6);
    } finally {
      await again.close();
    }
  });
});
