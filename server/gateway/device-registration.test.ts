/**
 * Issue 15: terminals are devices apart from vehicles. The attacks and rules, each by name:
 * - an unknown number is refused with 0x8100 result 4 and recorded; nothing else is created;
 * - a device entered but installed on no vehicle is refused with result 2 (autoRegister off), recorded;
 * - the refusal table is bounded (a flood of invented numbers cannot fill the disk);
 * - autoRegister creates an unassigned DEVICE only (no vehicle), whose reports are acknowledged and
 *   stored nowhere, until an operator installs it: then the SAME connection's next report goes to
 *   that vehicle, without reconnecting;
 * - a connected, installed device moved to another vehicle switches vehicle in place; the vehicle that
 *   lost it shows offline at once; a deleted device's connection loses the terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VehicleState } from '../../domain/vehicle/state.ts';
import { REGISTER_REFUSALS_MAX } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { createFleetSync } from '../live/fleet-sync.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { REGISTER_RESULT, RESULT } from './jt808/index.ts';
import { location, TestTerminal } from './terminal-client.ts';

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const opened: TestTerminal[] = [];

async function connect(server: LiveTestServer, deviceNo: string): Promise<TestTerminal> {
  const t = await TestTerminal.connect(server.gatewayPort, deviceNo);
  opened.push(t);
  return t;
}

const dbOf = (server: LiveTestServer) => (server.app.storage as SqliteStorage).db;
const count = (server: LiveTestServer, table: string) => (dbOf(server).prepare(`SELECT count(*) n FROM ${table}`).get() as { n: number }).n;
const counts = (server: LiveTestServer) => Object.fromEntries(['device', 'vehicle', 'terminal', 'change_log', 'positions'].map((t) => [t, count(server, t)]));

afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
});

describe('autoRegister off', () => {
  let server: LiveTestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 10, autoRegister: false });
    admin = await server.login('admin', 'admin123');
  });
  afterAll(() => server.close());

  it('refuses an unknown number with result 4 and records it (count, address, what it sent); nothing else is created', async () => {
    const before = counts(server);
    const t = await connect(server, '015550000001');
    const first = await t.register('沪A55501', 2);
    expect(first).toMatchObject({ result: REGISTER_RESULT.NO_TERMINAL, authCode: '' });
    server.clock.advance(5000);
    expect((await t.register('沪A55501', 2)).result).toBe(REGISTER_RESULT.NO_TERMINAL);
    expect((await t.authenticate('')).result).toBe(RESULT.FAIL);
    expect((await t.report(location({ lng: 121, lat: 31, time: seconds(server.clock.now()) }))).result).toBe(RESULT.FAIL);
    expect(counts(server)).toEqual(before);
    const row = dbOf(server).prepare('SELECT * FROM terminal_refusal WHERE device_no = ?').get('015550000001') as Record<string, unknown>;
    expect(row).toMatchObject({ result: 4, count: 2, last_time: server.clock.now(), first_time: server.clock.now() - 5000, maker_id: 'TEST', model: 'T1', terminal_id: 'T000001', plate: '沪A55501', plate_color: 2 });
    expect(row.remote_address).toMatch(/127\.0\.0\.1$/);
    expect(server.app.live.gateway.deviceStats.refusedUnknown).toBe(2);
    // Visible on the device page.
    const page = await server.call<{ records: { deviceNo: string; result: number; count: number }[] }>('GET', '/service-priv/device/error?keyword=015550000001', { token: admin });
    expect(page.data.records).toMatchObject([{ deviceNo: '015550000001', result: 4, count: 2 }]);
  });

  it('refuses a device entered but installed on no vehicle with result 2 and records it; once installed it registers', async () => {
    const created = await server.call<{ id: number }>('POST', '/service-priv/device', { token: admin, body: { deviceNo: '015550000002' } });
    expect(created.status).toBe(200);
    const t = await connect(server, '015550000002');
    expect((await t.register()).result).toBe(REGISTER_RESULT.NO_VEHICLE);
    expect(count(server, 'terminal')).toBe(dbOf(server).prepare('SELECT count(*) n FROM terminal').pluck().get());
    expect(dbOf(server).prepare('SELECT device_no FROM terminal WHERE device_no = ?').get('015550000002')).toBeUndefined();
    expect(dbOf(server).prepare('SELECT result, count FROM terminal_refusal WHERE device_no = ?').get('015550000002')).toEqual({ result: 2, count: 1 });
    expect(server.app.live.gateway.deviceStats.refusedNoVehicle).toBe(1);

    // An operator enters a vehicle with this device (what the vehicle / installation calls do), then FleetSync.
    const now = Date.now();
    const vehicleId = Number(dbOf(server).prepare('INSERT INTO vehicle (vehiidno, company_id, device_no, create_time, update_time) VALUES (?, 1, ?, ?, ?)')
      .run('沪A55502', '015550000002', now, now).lastInsertRowid);
    const sync = createFleetSync(server.app.storage, server.app.live);
    await sync.vehiclesChanged([vehicleId]);
    const reg = await t.register();
    expect(reg.result).toBe(REGISTER_RESULT.OK);
    expect((await t.authenticate(reg.authCode)).result).toBe(RESULT.OK);
    const time = seconds(server.clock.now());
    expect((await t.report(location({ lng: 121.4, lat: 31.2, time }))).result).toBe(RESULT.OK);
    const store = server.app.live.store;
    expect(store.columns.gpsTime[store.slotOf(vehicleId)]).toBe(time);
  });

  it('a vehicle without a device has no registration to reset (200, nothing changes), not a failure', async () => {
    const now = Date.now();
    const vehicleId = Number(dbOf(server).prepare('INSERT INTO vehicle (vehiidno, company_id, create_time, update_time) VALUES (?, 1, ?, ?)').run('沪A5NODEV', now, now).lastInsertRowid);
    const before = counts(server);
    const r = await server.call<{ registered: boolean }>('POST', '/service-priv/device/resetRegistration', { token: admin, body: { vehicleId } });
    expect(r).toMatchObject({ status: 200, data: { registered: false } });
    expect(counts(server)).toEqual(before);
  });

  it('keeps at most REGISTER_REFUSALS_MAX refusal rows: the oldest by last refusal go', async () => {
    const terminals = server.app.storage.terminals;
    const base = Date.UTC(2020, 0, 1);
    const existing = count(server, 'terminal_refusal');
    for (let i = 0; i < REGISTER_REFUSALS_MAX + 5; i++) {
      await terminals.recordRegisterRefusal({ deviceNo: `0166${String(i).padStart(8, '0')}`, result: 4, at: base + i, remoteAddress: '198.51.100.1:1', makerId: '', model: '', terminalId: '', plateColor: 0, plate: '' });
    }
    expect(count(server, 'terminal_refusal')).toBe(REGISTER_REFUSALS_MAX);
    // The flood's oldest went first: the refusals already there (seed, tests above) are newer than 2020 and stay.
    const removed = existing + 5;
    const kept = (no: string) => (dbOf(server).prepare('SELECT count(*) n FROM terminal_refusal WHERE device_no = ?').get(no) as { n: number }).n;
    expect([0, removed - 1].map((i) => kept(`0166${String(i).padStart(8, '0')}`))).toEqual([0, 0]);
    expect([removed, REGISTER_REFUSALS_MAX + 4].map((i) => kept(`0166${String(i).padStart(8, '0')}`))).toEqual([1, 1]);
    expect(kept('015550000001')).toBe(1);
  });

  it('moves a connected device to another vehicle without reconnecting; the vehicle that lost it shows offline at once', async () => {
    const [a, b] = dbOf(server).prepare('SELECT id, device_no FROM vehicle WHERE device_no IS NOT NULL ORDER BY id LIMIT 2').all() as { id: number; device_no: string }[];
    const t = await connect(server, a!.device_no);
    await t.login();
    const store = server.app.live.store;
    const gateway = server.app.live.gateway;
    const t0 = seconds(server.clock.now());
    expect((await t.report(location({ lng: 120.1, lat: 30.1, time: t0 }))).result).toBe(RESULT.OK);
    expect(store.columns.gpsTime[store.slotOf(a!.id)]).toBe(t0);
    expect(gateway.isReachable(a!.id)).toBe(true);

    // Replacement: b's device comes off, a's device moves from a to b (what an installation record commits).
    const db = dbOf(server);
    db.prepare('UPDATE vehicle SET device_no = NULL WHERE id IN (?, ?)').run(a!.id, b!.id);
    db.prepare('UPDATE vehicle SET device_no = ? WHERE id = ?').run(a!.device_no, b!.id);
    await createFleetSync(server.app.storage, server.app.live).devicesChanged([a!.device_no, b!.device_no]);

    expect(store.stateOf(store.slotOf(a!.id))).toBe(VehicleState.Offline);
    expect(gateway.isReachable(a!.id)).toBe(false);
    expect(gateway.isReachable(b!.id)).toBe(true);
    server.clock.advance(1000);
    const t1 = seconds(server.clock.now()) + 1000;
    expect((await t.report(location({ lng: 120.2, lat: 30.2, time: t1 }))).result).toBe(RESULT.OK);
    expect(store.columns.gpsTime[store.slotOf(b!.id)]).toBe(t1);
    expect(store.columns.lng[store.slotOf(b!.id)]).toBeCloseTo(120.2, 6);
    expect(store.columns.gpsTime[store.slotOf(a!.id)]).toBe(t0);
    await server.app.live.history.flush();
    expect((await server.app.storage.positions.range(b!.id, 0, Number.MAX_SAFE_INTEGER, 10)).map((p) => p.gpsTime)).toContain(t1);
    expect((await server.app.storage.positions.range(a!.id, 0, Number.MAX_SAFE_INTEGER, 10)).map((p) => p.gpsTime)).not.toContain(t1);
  });
});

describe('autoRegister on', () => {
  let server: LiveTestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 5, autoRegister: true });
    admin = await server.login('admin', 'admin123');
  });
  afterAll(() => server.close());

  it('makes an unknown number an unassigned device (no vehicle) with its log row; its reports are acknowledged and stored nowhere', async () => {
    const before = counts(server);
    const storeCount = server.app.live.store.count;
    const t = await connect(server, '017770000001');
    const reg = await t.register('沪A77701', 2);
    expect(reg.result).toBe(REGISTER_RESULT.OK);
    expect((await t.authenticate(reg.authCode)).result).toBe(RESULT.OK);
    expect(dbOf(server).prepare('SELECT company_id, source FROM device WHERE device_no = ?').get('017770000001')).toEqual({ company_id: 1, source: 'auto' });
    expect(count(server, 'vehicle')).toBe(before.vehicle);
    const log = dbOf(server).prepare("SELECT operation, user_id, user_name FROM change_log WHERE resource = 'device' AND label = ?").all('017770000001');
    expect(log).toEqual([{ operation: 'register', user_id: null, user_name: 'terminal' }]);

    const unassignedBefore = server.app.live.gateway.deviceStats.unassignedMessages;
    expect((await t.report(location({ lng: 121, lat: 31, time: seconds(server.clock.now()) }))).result).toBe(RESULT.OK);
    await server.app.live.history.flush();
    expect(count(server, 'positions')).toBe(before.positions);
    expect(server.app.live.store.count).toBe(storeCount);
    expect(server.app.live.gateway.deviceStats.unassignedMessages).toBe(unassignedBefore + 1);

    // The device page lists it as unassigned and online.
    const page = await server.call<{ records: { deviceNo: string; unassigned: boolean; online: boolean; registered: boolean }[] }>('GET', '/service-priv/device?unassigned=true', { token: admin });
    expect(page.data.records).toEqual(expect.arrayContaining([expect.objectContaining({ deviceNo: '017770000001', unassigned: true, online: true, registered: true })]));
  });

  it('sends the same connection\'s next report to the vehicle an operator installs the device on, without reconnecting', async () => {
    const t = await connect(server, '017770000002');
    await t.login();
    const now = Date.now();
    const vehicleId = Number(dbOf(server).prepare('INSERT INTO vehicle (vehiidno, company_id, device_no, create_time, update_time) VALUES (?, 1, ?, ?, ?)')
      .run('沪A77702', '017770000002', now, now).lastInsertRowid);
    await createFleetSync(server.app.storage, server.app.live).vehiclesChanged([vehicleId]);
    const time = seconds(server.clock.now());
    expect((await t.report(location({ lng: 121.7, lat: 31.7, time }))).result).toBe(RESULT.OK);
    const store = server.app.live.store;
    expect(store.columns.gpsTime[store.slotOf(vehicleId)]).toBe(time);
    expect(server.app.live.gateway.isReachable(vehicleId)).toBe(true);

    // Removed again (an installation record): it stays connected, the vehicle shows offline, reports go nowhere.
    dbOf(server).prepare('UPDATE vehicle SET device_no = NULL WHERE id = ?').run(vehicleId);
    await createFleetSync(server.app.storage, server.app.live).devicesChanged(['017770000002']);
    expect(store.stateOf(store.slotOf(vehicleId))).toBe(VehicleState.Offline);
    expect((await t.report(location({ lng: 122, lat: 32, time: time + 1000 }))).result).toBe(RESULT.OK);
    expect(store.columns.gpsTime[store.slotOf(vehicleId)]).toBe(time);
  });

  it('an operator resets the registration of a device installed on no vehicle (by device): its connection is closed, the reset is logged', async () => {
    const t = await connect(server, '017770000004');
    await t.login();
    const id = (dbOf(server).prepare('SELECT id FROM device WHERE device_no = ?').get('017770000004') as { id: number }).id;
    const r = await server.call<{ registered: boolean; online: boolean }>('POST', '/service-priv/device/resetRegistration', { token: admin, body: { deviceId: id } });
    expect(r).toMatchObject({ status: 200, data: { registered: false, online: false } });
    await t.closed;
    expect(dbOf(server).prepare("SELECT operation, user_id FROM change_log WHERE resource = 'device' AND record_id = ? AND operation = 'resetRegistration'").all(id)).toHaveLength(1);
    expect((await server.call('POST', '/service-priv/device/resetRegistration', { token: admin, body: { deviceId: 999999 } })).status).toBe(404);
    expect((await server.call('POST', '/service-priv/device/resetRegistration', { token: admin, body: { deviceId: id, vehicleId: 1 } })).status).toBe(400);
  });

  it('a deleted device\'s connection loses the terminal and is closed', async () => {
    const t = await connect(server, '017770000003');
    await t.login();
    const id = (dbOf(server).prepare('SELECT id FROM device WHERE device_no = ?').get('017770000003') as { id: number }).id;
    const r = await server.call('DELETE', '/service-priv/device', { token: admin, body: { ids: [id] } });
    expect(r.status).toBe(200);
    await t.closed;
    expect(server.app.live.gateway.deviceOnline('017770000003')).toBe(false);
  });
});
