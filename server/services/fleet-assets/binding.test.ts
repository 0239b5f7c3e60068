/**
 * changeDevice: the one place a vehicle's device changes — bind, replace, unbind, the no-op, and the
 * refusals (device on another vehicle, device of a sibling company, out of scope, unknown) that write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { ALL_COMPANIES, subtreeScope } from '../../db/scope.ts';
import { AppError } from '../../http/envelope.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { changeDevice, type ChangeDeviceInput } from './binding.ts';

let server: TestServer;
let db: SqliteStorage['db'];
let east: { id: number; path: string };
let eastFleet: { id: number; path: string };
let south: { id: number; path: string };

const company = (name: string) => db.prepare('SELECT id, path FROM company WHERE name = ?').get(name) as { id: number; path: string };
const now = Date.now();
function addDevice(no: string, companyId: number): number {
  return Number(db.prepare('INSERT INTO device (device_no, company_id, create_time, update_time) VALUES (?, ?, ?, ?)').run(no, companyId, now, now).lastInsertRowid);
}
function addVehicle(plate: string, companyId: number, deviceNo: string | null = null): number {
  return Number(db.prepare('INSERT INTO vehicle (vehiidno, company_id, device_no, vin, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)')
    .run(plate, companyId, deviceNo, '', now, now).lastInsertRowid);
}
const deviceOf = (vehicleId: number) => (db.prepare('SELECT device_no FROM vehicle WHERE id = ?').get(vehicleId) as { device_no: string | null }).device_no;
const logOf = (resource: string, recordId: number) => db.prepare('SELECT operation, before, after, user_name, ip, company_id FROM change_log WHERE resource = ? AND record_id = ? ORDER BY id')
  .all(resource, recordId) as { operation: string; before: string | null; after: string | null; user_name: string; ip: string; company_id: number }[];
const recordsOf = (vehicleId: number) => db.prepare('SELECT kind, old_device_no, new_device_no, installer, install_time, remark, user_id, company_id FROM vehicle_installation WHERE vehicle_id = ? ORDER BY id')
  .all(vehicleId) as { kind: string; old_device_no: string | null; new_device_no: string | null; installer: string; install_time: number; remark: string; user_id: number | null; company_id: number }[];

const who = { userId: 1, userName: '管理员', ip: '10.0.0.7' };
const change = (input: Omit<ChangeDeviceInput, 'userId' | 'userName' | 'ip'>) => server.app.storage.transaction((tx) => changeDevice(tx, { ...who, ...input }));

async function refused(input: Omit<ChangeDeviceInput, 'userId' | 'userName' | 'ip'>): Promise<AppError> {
  const before = fingerprint(server.app);
  const err = await change(input).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  return err as AppError;
}

beforeAll(async () => {
  server = await startServer();
  db = (server.app.storage as SqliteStorage).db;
  east = company('华东分公司');
  south = company('华南分公司');
  eastFleet = db.prepare('SELECT id, path FROM company WHERE pid = ? ORDER BY id LIMIT 1').get(east.id) as { id: number; path: string };
});
afterAll(() => server.close());

describe('changeDevice', () => {
  it('binds a head-office device to a branch fleet vehicle: record, logs, and the device moves into the vehicle\'s company', async () => {
    const deviceId = addDevice('013900000001', 1);
    const vehicleId = addVehicle('沪B·BIND01', eastFleet.id);
    const r = await change({ vehicleId, deviceNo: '013900000001', installer: ' 王师傅 ', time: now - 3_600_000, remark: '首次安装' });
    expect(r.kind).toBe('install');
    expect(r.devices).toEqual(['013900000001']);
    expect(deviceOf(vehicleId)).toBe('013900000001');
    expect(recordsOf(vehicleId)).toEqual([{ kind: 'install', old_device_no: null, new_device_no: '013900000001', installer: '王师傅', install_time: now - 3_600_000, remark: '首次安装', user_id: 1, company_id: eastFleet.id }]);
    expect((db.prepare('SELECT company_id FROM device WHERE id = ?').get(deviceId) as { company_id: number }).company_id).toBe(eastFleet.id);
    const vlog = logOf('vehicle', vehicleId);
    expect(vlog).toHaveLength(1);
    expect(vlog[0]).toMatchObject({ operation: 'bind', user_name: '管理员', ip: '10.0.0.7', company_id: eastFleet.id });
    expect(JSON.parse(vlog[0]!.before!)).toEqual({ deviceNo: null });
    expect(JSON.parse(vlog[0]!.after!)).toEqual({ deviceNo: '013900000001' });
    const dlog = logOf('device', deviceId);
    expect(dlog.map((l) => l.operation)).toEqual(['bind']);
    expect(JSON.parse(dlog[0]!.before!)).toEqual({ vehicleId: null, plate: null, companyId: 1 });
    expect(JSON.parse(dlog[0]!.after!)).toEqual({ vehicleId, plate: '沪B·BIND01', companyId: eastFleet.id });
    const ilog = logOf('installation', r.installationId!);
    expect(ilog.map((l) => l.operation)).toEqual(['create']);
    expect(JSON.parse(ilog[0]!.after!)).toMatchObject({ kind: 'install', newDeviceNo: '013900000001', installer: '王师傅' });
  });

  it('replaces, then removes; the same device again changes nothing', async () => {
    const oldId = addDevice('013900000011', eastFleet.id);
    const newId = addDevice('013900000012', eastFleet.id);
    const vehicleId = addVehicle('沪B·REPL01', eastFleet.id, '013900000011');

    const same = await change({ vehicleId, deviceNo: '013900000011' });
    expect(same).toEqual({ installationId: undefined, kind: undefined, devices: [] });
    expect(recordsOf(vehicleId)).toEqual([]);
    expect(logOf('vehicle', vehicleId)).toEqual([]);

    const replaced = await change({ vehicleId, deviceNo: '013900000012', installer: '李工' });
    expect(replaced.kind).toBe('replace');
    expect(replaced.devices).toEqual(['013900000011', '013900000012']);
    expect(deviceOf(vehicleId)).toBe('013900000012');
    expect(logOf('vehicle', vehicleId).map((l) => l.operation)).toEqual(['replace']);
    expect(logOf('device', oldId).map((l) => [l.operation, JSON.parse(l.after!)])).toEqual([['unbind', { vehicleId: null, plate: null }]]);
    expect(logOf('device', newId).map((l) => [l.operation, JSON.parse(l.after!)])).toEqual([['bind', { vehicleId, plate: '沪B·REPL01' }]]);

    const removed = await change({ vehicleId, deviceNo: null });
    expect(removed.kind).toBe('remove');
    expect(deviceOf(vehicleId)).toBeNull();
    expect(recordsOf(vehicleId).map((r) => [r.kind, r.old_device_no, r.new_device_no])).toEqual([
      ['replace', '013900000011', '013900000012'], ['remove', '013900000012', null],
    ]);
    expect(logOf('vehicle', vehicleId).map((l) => l.operation)).toEqual(['replace', 'unbind']);
    expect(logOf('device', newId).map((l) => l.operation)).toEqual(['bind', 'unbind']);
    // The freed device can go onto another vehicle now.
    const other = addVehicle('沪B·REPL02', eastFleet.id);
    expect((await change({ vehicleId: other, deviceNo: '013900000012' })).kind).toBe('install');
  });

  it('refuses a device on another vehicle with 409 naming its plate, writing nothing', async () => {
    addDevice('013900000021', eastFleet.id);
    addVehicle('沪B·HOLD01', eastFleet.id, '013900000021');
    const vehicleId = addVehicle('沪B·WANT01', eastFleet.id);
    const err = await refused({ vehicleId, deviceNo: '013900000021' });
    expect(err.httpStatus).toBe(409);
    expect(err.localized('zh')).toContain('沪B·HOLD01');
    expect(err.localized('en')).toBe('The device "013900000021" is on vehicle "沪B·HOLD01": remove it there first');
    expect(err.fields).toEqual({ deviceNo: { code: 'deviceBound', params: { deviceNo: '013900000021', plate: '沪B·HOLD01' } } });
    expect(deviceOf(vehicleId)).toBeNull();
  });

  it('refuses a device of a sibling branch or a subcompany (400 on deviceNo), writing nothing', async () => {
    addDevice('013900000031', south.id);
    addDevice('013900000032', eastFleet.id);
    const vehicleId = addVehicle('沪B·WRONG1', eastFleet.id);
    const sibling = await refused({ vehicleId, deviceNo: '013900000031' });
    expect(sibling.httpStatus).toBe(400);
    expect(sibling.fields?.deviceNo?.code).toBe('deviceCompany');
    // A vehicle of the branch itself cannot take a device of one of its fleets (the device would move up).
    const branchVehicle = addVehicle('沪B·WRONG2', east.id);
    expect((await refused({ vehicleId: branchVehicle, deviceNo: '013900000032' })).fields?.deviceNo?.code).toBe('deviceCompany');
  });

  it('a device outside the caller\'s scope reads as missing, like an unknown one; an unknown vehicle is 404', async () => {
    addDevice('013900000041', 1);
    const vehicleId = addVehicle('沪B·SCOPE1', eastFleet.id);
    const outside = await refused({ vehicleId, deviceNo: '013900000041', scope: subtreeScope(east.id, east.path) });
    expect(outside.httpStatus).toBe(400);
    expect(outside.fields?.deviceNo?.code).toBe('noSuchDevice');
    const unknown = await refused({ vehicleId, deviceNo: '013999999999', scope: ALL_COMPANIES });
    expect(unknown.fields?.deviceNo?.code).toBe('noSuchDevice');
    expect(unknown.localized('en')).toContain('013999999999');
    expect((await refused({ vehicleId, deviceNo: '12345' })).fields?.deviceNo?.code).toBe('pattern');
    expect((await refused({ vehicleId: 99_999_999, deviceNo: null })).httpStatus).toBe(404);
  });
});
