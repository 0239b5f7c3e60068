/**
 * Vehicles (/service-priv/vehicle): the spec's calls, company scoping, button bits, the VIN rule, the
 * device binding through changeDevice, history protecting delete, moves that carry history, import.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vinCheckDigit } from '../../domain/fleet/vin.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { changedTables, fingerprint } from '../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { createUserWithRole, permissionId } from '../test/users.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator } from '../sim/index.ts';
import { ScriptedFleet } from '../test/scripted-fleet.ts';
import { until } from '../test/sim-fleet.ts';

const PAGE = '/information/vehicle';
const bits = (...buttons: string[]) => [permissionId('/information'), permissionId(PAGE), ...buttons.map((b) => permissionId(`${PAGE}:${b}`))];

interface Vehicle {
  id: number; vehiidno: string; plateColor: number; companyId: number; companyName: string; lineId: number | null; deviceNo: string | null; vin: string;
  vehicleType: string; status: number; insuranceExpire: number | null; inspectionExpire: number | null; insuranceState: string; inspectionState: string;
  remark: string; channels: { channel: number; kind: string; name: string }[]; drivers: { id: number; name: string }[]; driverIds: number[];
}
interface Page<T> { records: T[]; total: number; current: number; size: number }
interface Company { id: number; pid: number; name: string }

let server: TestServer;
let admin: string;
let companies: Company[];
const byName = (name: string) => {
  const c = companies.find((x) => x.name === name);
  if (!c) throw new Error(`no company ${name}`);
  return c;
};
const db = () => (server.app.storage as SqliteStorage).db;

/** A valid VIN from a 16-character stem (the check digit computed into position 9). */
function vin(seq: number): string {
  const stem = `LFV2A21K${String(seq).padStart(8, '0')}`;
  const draft = `${stem.slice(0, 8)}0${stem.slice(8)}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}
let deviceSeq = 0;
/** A device of `companyId`, entered straight in the table (the devices page is another helper's). */
function device(companyId: number): string {
  const no = `0199${String(++deviceSeq).padStart(8, '0')}`;
  db().prepare('INSERT INTO device (device_no, company_id, create_time, update_time) VALUES (?, ?, ?, ?)').run(no, companyId, Date.now(), Date.now());
  return no;
}
async function sheet(rows: (string | number | null)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('vehicles');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
});
afterAll(() => server.close());

describe('create, update, list', () => {
  it('creates a vehicle with every field, binds its device through an installation record and logs it', async () => {
    const east = byName('华东分公司');
    const no = device(east.id);
    const soon = Date.now() + 5 * 86_400_000;
    const r = await server.call<Vehicle>('POST', '/service-priv/vehicle', {
      token: admin, body: {
        vehiidno: '沪A·T0001', plateColor: 2, vin: vin(1).toLowerCase(), vehicleType: 'truck', insuranceExpire: soon, inspectionExpire: Date.now() - 86_400_000,
        remark: '测试', deviceNo: no, channels: [{ channel: 2, name: '车内' }, { channel: 1, name: '前方' }], companyId: east.id,
      },
    });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      vehiidno: '沪A·T0001', plateColor: 2, vin: vin(1), companyId: east.id, deviceNo: no, status: 1, vehicleType: 'truck',
      insuranceState: 'soon', inspectionState: 'expired',
      channels: [{ channel: 1, kind: 'video', name: '前方' }, { channel: 2, kind: 'video', name: '车内' }],
    });
    expect(db().prepare("SELECT kind, new_device_no FROM vehicle_installation WHERE vehicle_id = ?").all(r.data.id)).toEqual([{ kind: 'install', new_device_no: no }]);
    const ops = (db().prepare("SELECT operation FROM change_log WHERE resource = 'vehicle' AND record_id = ? ORDER BY id").all(r.data.id) as { operation: string }[]).map((x) => x.operation);
    expect(ops).toEqual(['bind', 'create']);
    // The live side heard of the new vehicle after the answer (fleetSync): the store has a slot for it.
    await expect.poll(() => server.app.live.store.slotOf(r.data.id)).toBeGreaterThanOrEqual(0);

    const soonList = await server.call<Page<Vehicle>>('GET', `/service-priv/vehicle?expiry=soon&keyword=T0001`, { token: admin });
    expect(soonList.data.records.map((v) => v.id)).toEqual([r.data.id]);
    const expired = await server.call<Page<Vehicle>>('GET', `/service-priv/vehicle?expiry=expired&bound=1&vehicleType=truck`, { token: admin });
    expect(expired.data.records.map((v) => v.id)).toContain(r.data.id);
    const unbound = await server.call<Page<Vehicle>>('GET', `/service-priv/vehicle?bound=0&keyword=T0001`, { token: admin });
    expect(unbound.data.total).toBe(0);
    const byVin = await server.call<Page<Vehicle>>('GET', `/service-priv/vehicle?keyword=${vin(1).slice(3, 12)}`, { token: admin });
    expect(byVin.data.records.map((v) => v.id)).toEqual([r.data.id]);

    // Update: retire, take the device off (a remove record), one logged update row of what changed.
    const u = await server.call<Vehicle>('PUT', '/service-priv/vehicle', { token: admin, body: { id: r.data.id, status: 0, deviceNo: null, remark: '停运' } });
    expect(u.status).toBe(200);
    expect(u.data).toMatchObject({ status: 0, deviceNo: null, remark: '停运', vehiidno: '沪A·T0001' });
    const kinds = (db().prepare('SELECT kind FROM vehicle_installation WHERE vehicle_id = ? ORDER BY id').all(r.data.id) as { kind: string }[]).map((x) => x.kind);
    expect(kinds).toEqual(['install', 'remove']);
    const last = db().prepare("SELECT before, after FROM change_log WHERE resource = 'vehicle' AND record_id = ? AND operation = 'update'").get(r.data.id) as { before: string; after: string };
    expect(JSON.parse(last.before)).toEqual({ status: 1, remark: '测试' });
    expect(JSON.parse(last.after)).toEqual({ status: 0, remark: '停运' });
    const retired = await server.call<Page<Vehicle>>('GET', `/service-priv/vehicle?status=0&keyword=T0001`, { token: admin });
    expect(retired.data.total).toBe(1);
  });

  it('refuses a bad VIN with 400 naming vin in the domain rule\'s words, a taken plate with 409, and writes nothing', async () => {
    const before = fingerprint(server.app);
    const bad = vin(2).slice(0, 8) + (vin(2)[8] === '1' ? '2' : '1') + vin(2).slice(9);
    const r = await server.call<null>('POST', '/service-priv/vehicle', { token: admin, lang: 'en', body: { vehiidno: '沪A·T0002', vin: bad } });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('Field vin is invalid: The VIN check digit (9th character) is wrong');
    const body = (await (await fetch(`${server.url}/service-priv/vehicle`, { method: 'POST', headers: { 'x-jwt': admin, 'content-type': 'application/json', 'x-lang': 'zh' }, body: JSON.stringify({ vehiidno: '沪A·T0002', vin: 'LFV2A21K0000' }) })).json()) as { errors: Record<string, { code: string; msg: string }> };
    expect(body.errors.vin).toMatchObject({ code: 'length' });
    expect((await server.call('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪A·T0002' } })).status).toBe(400);
    expect((await server.call('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪A·T0002', vin: vin(2), plateColor: 7 } })).status).toBe(400);
    expect((await server.call('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪A·T0002', vin: vin(2), deviceNo: '12345' } })).status).toBe(400);
    // A device that does not exist: 400 on deviceNo (changeDevice), rolled back with the vehicle.
    expect((await server.call('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪A·T0002', vin: vin(2), deviceNo: '099999999999' } })).status).toBe(400);
    const taken = await server.call('POST', '/service-priv/vehicle', { token: admin, lang: 'zh', body: { vehiidno: '沪A·T0001', vin: vin(2) } });
    expect(taken.status).toBe(409);
    expect(taken.msg).toBe('车牌号「沪A·T0001」已存在');
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });

  it('license_plate says whether a plate is taken, with the id only inside the caller\'s scope', async () => {
    const east = byName('华东分公司');
    const south = byName('华南分公司');
    const made = await server.call<Vehicle>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '粤B·P0001', vin: vin(3), companyId: south.id } });
    const eastUser = await createUserWithRole(server, 'v_plate_east', east.id, bits());
    const foreign = await server.call<{ taken: boolean; vehicleId?: number }>('GET', `/service-priv/vehicle/license_plate?plate=${encodeURIComponent('粤B·P0001')}`, { token: eastUser });
    expect(foreign.data).toEqual({ taken: true });
    const own = await server.call<{ taken: boolean; vehicleId?: number }>('GET', `/service-priv/vehicle/license_plate?plate=${encodeURIComponent('粤B·P0001')}`, { token: admin });
    expect(own.data).toEqual({ taken: true, vehicleId: made.data.id });
    const self = await server.call<{ taken: boolean }>('GET', `/service-priv/vehicle/license_plate?plate=${encodeURIComponent('粤B·P0001')}&id=${made.data.id}`, { token: admin });
    expect(self.data).toEqual({ taken: false });
  });
});

describe('scoping and bits', () => {
  it('a branch user sees and changes only its subtree; a foreign id is 404, a foreign companyId 403; nothing written', async () => {
    const east = byName('华东分公司');
    const south = byName('华南分公司');
    const eastUser = await createUserWithRole(server, 'v_east', east.id, bits('create', 'update', 'delete', 'move'));
    const own = await server.call<Vehicle>('POST', '/service-priv/vehicle', { token: eastUser, body: { vehiidno: '沪C·S0001', vin: vin(10) } });
    expect(own.data.companyId).toBe(east.id);
    const foreign = await server.call<Vehicle>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '粤C·S0002', vin: vin(11), companyId: south.id } });

    const seen = await server.call<Page<Vehicle>>('GET', '/service-priv/vehicle?size=500', { token: eastUser });
    expect(seen.data.total).toBeGreaterThan(0);
    expect(seen.data.records.every((v) => v.companyName !== '华南分公司' && !v.vehiidno.startsWith('粤'))).toBe(true);
    expect(seen.data.records.some((v) => v.id === own.data.id)).toBe(true);

    const before = fingerprint(server.app);
    expect((await server.call('PUT', '/service-priv/vehicle', { token: eastUser, body: { id: foreign.data.id, remark: 'x' } })).status).toBe(404);
    expect((await server.call('DELETE', '/service-priv/vehicle', { token: eastUser, body: { ids: [own.data.id, foreign.data.id] } })).status).toBe(404);
    expect((await server.call('GET', `/service-priv/vehicle?companyId=${south.id}`, { token: eastUser })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/vehicle', { token: eastUser, body: { vehiidno: '沪C·S0003', vin: vin(12), companyId: south.id } })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/vehicle/modifyVehiCompany', { token: eastUser, body: { ids: [own.data.id], companyId: south.id } })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/vehicle/modifyVehiCompany', { token: eastUser, body: { ids: [foreign.data.id], companyId: east.id } })).status).toBe(404);
    expect((await server.call('GET', `/service-priv/vehicle/device?id=${foreign.data.id}`, { token: eastUser })).status).toBe(404);
    expect((await server.call('POST', '/service-priv/vehicle/photoList', { token: eastUser, body: { ids: [foreign.data.id] } })).status).toBe(404);
    // A device of another branch reads as missing.
    const southDevice = device(south.id);
    const fpDevice = fingerprint(server.app);
    expect((await server.call('PUT', '/service-priv/vehicle', { token: eastUser, body: { id: own.data.id, deviceNo: southDevice } })).status).toBe(400);
    expect(changedTables(fpDevice, fingerprint(server.app))).toEqual([]);
    expect(changedTables(before, fingerprint(server.app))).toEqual(['device']);

    const removed = await server.call<{ deleted: number }>('DELETE', '/service-priv/vehicle', { token: eastUser, body: { ids: [own.data.id] } });
    expect(removed.data.deleted).toBe(1);
    expect(db().prepare("SELECT operation FROM change_log WHERE resource = 'vehicle' AND record_id = ? ORDER BY id DESC LIMIT 1").get(own.data.id)).toEqual({ operation: 'delete' });
  });

  it('the page bit lists; create, update, delete, move, import and export each need their own bit', async () => {
    const north = byName('华北分公司');
    const viewer = await createUserWithRole(server, 'v_viewer', north.id, bits());
    const operator = await server.login('operator', 'operator123');
    expect((await server.call('GET', '/service-priv/vehicle', { token: viewer })).code).toBe(200);
    expect((await server.call('GET', '/service-priv/vehicle/status', { token: viewer })).code).toBe(200);
    const before = fingerprint(server.app);
    expect((await server.call('POST', '/service-priv/vehicle', { token: viewer, body: { vehiidno: '京A·B0001', vin: vin(20) } })).status).toBe(403);
    const any = (await server.call<Page<Vehicle>>('GET', '/service-priv/vehicle?size=1', { token: viewer })).data.records[0]!;
    expect((await server.call('PUT', '/service-priv/vehicle', { token: viewer, body: { id: any.id, remark: 'x' } })).status).toBe(403);
    expect((await server.call('DELETE', '/service-priv/vehicle', { token: viewer, body: { ids: [any.id] } })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/vehicle/modifyVehiCompany', { token: viewer, body: { ids: [any.id], companyId: north.id } })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/vehicle/import', { token: viewer, body: { file: 'AAAA' } })).status).toBe(403);
    expect((await server.call('GET', '/service-priv/vehicle/import_template', { token: viewer })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/vehicle/excel', { token: viewer, body: {} })).status).toBe(403);
    expect((await server.call('GET', `/service-priv/vehicle/syncToCab?id=${any.id}`, { token: viewer })).status).toBe(403);
    expect((await server.call('GET', '/service-priv/vehicle', { token: operator })).status).toBe(403);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });
});

describe('delete and history', () => {
  it('a vehicle with positions is not deleted (409: retire it); one without is, its device unbound first', async () => {
    const east = byName('华东分公司');
    const withHistory = await server.call<Vehicle>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪D·H0001', vin: vin(30), companyId: east.id } });
    db().prepare('INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at) VALUES (?, ?, 121.4, 31.2, 0, 0, 0, 0, 0, NULL, ?)')
      .run(withHistory.data.id, Date.now() - 60_000, Date.now());
    const before = fingerprint(server.app);
    const refused = await server.call('DELETE', '/service-priv/vehicle', { token: admin, lang: 'zh', body: { ids: [withHistory.data.id] } });
    expect(refused.status).toBe(409);
    expect(refused.msg).toBe('车辆「沪D·H0001」已有定位或报警记录，不能删除；请将其状态设为「停用」');
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);

    const no = device(east.id);
    const plain = await server.call<Vehicle>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪D·H0002', vin: vin(31), companyId: east.id, deviceNo: no } });
    expect(plain.data.deviceNo).toBe(no);
    const ok = await server.call<{ deleted: number }>('DELETE', '/service-priv/vehicle', { token: admin, body: { ids: [plain.data.id] } });
    expect(ok.data.deleted).toBe(1);
    expect(db().prepare('SELECT count(*) n FROM device WHERE device_no = ?').get(no)).toEqual({ n: 1 }); // the device stays, unbound
    const deviceLog = db().prepare("SELECT l.operation FROM change_log l JOIN device d ON d.id = l.record_id WHERE l.resource = 'device' AND d.device_no = ? ORDER BY l.id").all(no) as { operation: string }[];
    expect(deviceLog.map((x) => x.operation)).toEqual(['bind', 'unbind']);
  });
});

describe('modifyVehiCompany', () => {
  it('moves vehicles with their history: the new owner reads track and alarms, the old owner no longer does', async () => {
    const east = byName('华东分公司');
    const south = byName('华南分公司');
    const no = device(east.id);
    const v = await server.call<Vehicle>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪E·M0001', vin: vin(40), companyId: east.id, deviceNo: no } });
    const t = Date.now() - 3_600_000;
    db().prepare('INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at) VALUES (?, ?, 121.4, 31.2, 30, 0, 0, 0, 0, NULL, ?)')
      .run(v.data.id, t, t);
    const alarmId = Number(db().prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, create_time)
      VALUES (?, ?, ?, 1, 'bit', ?, ?, 121.4, 31.2, 30, 'high', ?)`).run(v.data.id, no, east.id, t, t, t).lastInsertRowid);

    const viewBits = [...bits('move'), permissionId('/monitor'), permissionId('/monitor/trackPlaybackPage'), permissionId('/safeManagement'), permissionId('/safeManagement/alarmProcessingPage')];
    const eastUser = await createUserWithRole(server, 'v_move_east', east.id, viewBits);
    const southUser = await createUserWithRole(server, 'v_move_south', south.id, viewBits);
    const trail = (token: string) => server.call<Page<unknown>>('GET', `/service-monitor/trail?vehicleId=${v.data.id}&startTime=${t - 1000}&endTime=${t + 1000}`, { token });
    const alarm = (token: string) => server.call('GET', `/service-safe/alarmInfo/${alarmId}`, { token });
    expect((await trail(eastUser)).data.total).toBe(1);
    expect((await alarm(eastUser)).status).toBe(200);
    expect((await trail(southUser)).status).toBe(404);

    // Over 500 ids: 400, nothing written.
    const before = fingerprint(server.app);
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    expect((await server.call('POST', '/service-priv/vehicle/modifyVehiCompany', { token: admin, body: { ids: many, companyId: south.id } })).status).toBe(400);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);

    const moved = await server.call<{ moved: number }>('POST', '/service-priv/vehicle/modifyVehiCompany', { token: admin, body: { ids: [v.data.id], companyId: south.id } });
    expect(moved.data).toEqual({ moved: 1 });
    // The live side follows (fleetSync): the store holds the vehicle under its new company.
    const store = server.app.live.store;
    await expect.poll(() => store.companyPathOf(store.slotOf(v.data.id))).toMatch(new RegExp(`/${south.id}/$`));
    expect((await trail(southUser)).data.total).toBe(1);
    expect((await alarm(southUser)).status).toBe(200);
    expect((await trail(eastUser)).status).toBe(404);
    expect((await alarm(eastUser)).status).toBe(404);
    expect(db().prepare('SELECT company_id FROM device WHERE device_no = ?').get(no)).toEqual({ company_id: south.id });
    expect(db().prepare('SELECT DISTINCT company_id FROM vehicle_installation WHERE vehicle_id = ?').all(v.data.id)).toEqual([{ company_id: south.id }]);
    const logs = db().prepare("SELECT DISTINCT company_id FROM change_log WHERE resource = 'vehicle' AND record_id = ?").all(v.data.id);
    expect(logs).toEqual([{ company_id: south.id }]);
    expect(db().prepare("SELECT before, after FROM change_log WHERE resource = 'vehicle' AND record_id = ? AND operation = 'move'").get(v.data.id))
      .toEqual({ before: JSON.stringify({ companyId: east.id }), after: JSON.stringify({ companyId: south.id }) });
    // The old owner no longer lists it; the new owner does.
    expect((await server.call<Page<Vehicle>>('GET', '/service-priv/vehicle?keyword=M0001', { token: eastUser })).data.total).toBe(0);
    expect((await server.call<Page<Vehicle>>('GET', '/service-priv/vehicle?keyword=M0001', { token: southUser })).data.total).toBe(1);
  });
});

describe('modifyVehiCompany: line and drivers', () => {
  it('clears a line outside the new company\'s subtree and unbinds drivers outside it; what still fits stays, and the log row names both', async () => {
    const east = byName('华东分公司');
    const south = byName('华南分公司');
    const fleet = companies.find((c) => c.pid === east.id);
    if (!fleet) throw new Error('no fleet under 华东分公司');
    const now = Date.now();
    const line = (companyId: number, name: string) => Number(db().prepare('INSERT INTO line (name, company_id, create_time, update_time) VALUES (?, ?, ?, ?)').run(name, companyId, now, now).lastInsertRowid);
    const driver = (companyId: number, name: string) => Number(db().prepare('INSERT INTO driver (company_id, name, create_time, update_time) VALUES (?, ?, ?, ?)').run(companyId, name, now, now).lastInsertRowid);
    const fleetLine = line(fleet.id, '移动测试线路');
    const fleetDriver = driver(fleet.id, '车队司机');
    const eastDriver = driver(east.id, '分公司司机');
    const southDriver = driver(south.id, '华南司机');
    const create = (plate: string, seq: number, driverIds: number[]) => server.call<Vehicle>('POST', '/service-priv/vehicle', {
      token: admin, body: { vehiidno: plate, vin: vin(seq), companyId: fleet.id, lineId: fleetLine, driverIds },
    });
    const a = await create('沪E·L0001', 60, [fleetDriver, eastDriver, southDriver]);
    const b = await create('沪E·L0002', 61, [fleetDriver, eastDriver]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const state = (id: number) => ({
      line: (db().prepare('SELECT line_id FROM vehicle WHERE id = ?').get(id) as { line_id: number | null }).line_id,
      drivers: (db().prepare('SELECT driver_id FROM driver_vehicle WHERE vehicle_id = ? ORDER BY driver_id').all(id) as { driver_id: number }[]).map((r) => r.driver_id),
    });
    const moveLog = (id: number) => {
      const row = db().prepare("SELECT before, after FROM change_log WHERE resource = 'vehicle' AND record_id = ? AND operation = 'move' ORDER BY id DESC").get(id) as { before: string; after: string };
      return { before: JSON.parse(row.before) as unknown, after: JSON.parse(row.after) as unknown };
    };

    // Up to the branch: the fleet's line and both drivers lie in its subtree; only the south driver leaves.
    expect((await server.call('POST', '/service-priv/vehicle/modifyVehiCompany', { token: admin, body: { ids: [a.data.id], companyId: east.id } })).status).toBe(200);
    expect(state(a.data.id)).toEqual({ line: fleetLine, drivers: [fleetDriver, eastDriver] });
    expect(moveLog(a.data.id)).toEqual({ before: { companyId: fleet.id, driverIds: [southDriver] }, after: { companyId: east.id, driverIds: [] } });

    // To another branch: the line and every driver outside 华南 go.
    expect((await server.call('POST', '/service-priv/vehicle/modifyVehiCompany', { token: admin, body: { ids: [b.data.id], companyId: south.id } })).status).toBe(200);
    expect(state(b.data.id)).toEqual({ line: null, drivers: [] });
    const log = moveLog(b.data.id) as { before: { driverIds: number[] }; after: unknown };
    expect({ ...log, before: { ...log.before, driverIds: [...log.before.driverIds].sort((x, y) => x - y) } }).toEqual({
      before: { companyId: fleet.id, lineId: fleetLine, driverIds: [fleetDriver, eastDriver].sort((x, y) => x - y) },
      after: { companyId: south.id, lineId: null, driverIds: [] },
    });
    // The answer of the list agrees (no line, no drivers).
    const listed = (await server.call<Page<Vehicle>>('GET', '/service-priv/vehicle?keyword=L0002', { token: admin })).data.records[0]!;
    expect([listed.lineId, listed.driverIds]).toEqual([null, []]);
  });
});

describe('import', () => {
  it('one bad row writes nothing and names it; a good file creates every row with its device', async () => {
    const east = byName('华东分公司');
    const no = device(east.id);
    const bad = await sheet([
      ['车牌号', '车架号', '设备号', '车辆类型'],
      ['沪F·I0001', vin(50), no, 'bus'],
      ['沪F·I0002', 'NOTAVIN', null, 'bus'],
    ]);
    const before = fingerprint(server.app);
    const r = await server.call('POST', '/service-priv/vehicle/import', { token: admin, lang: 'en', body: { file: bad, companyId: east.id } });
    expect(r.status).toBe(400);
    expect(r.msg).toContain('Row 3');
    expect(r.msg).toContain('VIN');
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);

    const good = await sheet([
      ['Plate', 'VIN', 'Device no.', 'Vehicle type', 'Plate colour'],
      ['沪F·I0001', vin(50), no, 'bus', 1],
      ['沪F·I0002', vin(51), null, 'coach', 2],
    ]);
    const ok = await server.call<{ imported: number; ids: number[] }>('POST', '/service-priv/vehicle/import', { token: admin, body: { file: good, companyId: east.id } });
    expect(ok.data.imported).toBe(2);
    const list = await server.call<Page<Vehicle>>('GET', '/service-priv/vehicle?keyword=I000', { token: admin });
    expect(list.data.records.map((v) => [v.vehiidno, v.deviceNo, v.vehicleType, v.companyId])).toEqual([
      ['沪F·I0001', no, 'bus', east.id], ['沪F·I0002', null, 'coach', east.id],
    ]);
    // Expiry cells: an Excel date or text; both stored as the start of that China day. A day that does not exist is refused.
    const dated = await sheet([
      ['Plate', 'VIN', 'Insurance expiry', 'Inspection expiry'],
      ['沪F·I0003', vin(52), '2027-03-05', null],
    ]);
    const d = await server.call<{ imported: number; ids: number[] }>('POST', '/service-priv/vehicle/import', { token: admin, body: { file: dated, companyId: east.id } });
    expect(d.data.imported).toBe(1);
    expect(db().prepare('SELECT insurance_expire FROM vehicle WHERE id = ?').get(d.data.ids[0])).toEqual({ insurance_expire: Date.UTC(2027, 2, 5) - 8 * 3_600_000 });
    const book = new ExcelJS.Workbook();
    book.addWorksheet('v').addRows([['Plate', 'VIN', 'Inspection expiry'], ['沪F·I0004', vin(53), new Date(Date.UTC(2027, 5, 1))]]);
    const excelDate = await server.call<{ ids: number[] }>('POST', '/service-priv/vehicle/import', { token: admin, body: { file: Buffer.from(await book.xlsx.writeBuffer()).toString('base64'), companyId: east.id } });
    expect(db().prepare('SELECT inspection_expire FROM vehicle WHERE id = ?').get(excelDate.data.ids[0])).toEqual({ inspection_expire: Date.UTC(2027, 5, 1) - 8 * 3_600_000 });
    // A device number Excel turned into a number gets its leading zero back.
    const zeroNo = device(east.id);
    expect(zeroNo.startsWith('0')).toBe(true);
    const numeric = await server.call<{ ids: number[] }>('POST', '/service-priv/vehicle/import', { token: admin, body: { file: await sheet([['Plate', 'VIN', 'Device no.'], ['沪F·I0006', vin(55), Number(zeroNo)]]), companyId: east.id } });
    expect(db().prepare('SELECT device_no FROM vehicle WHERE id = ?').get(numeric.data.ids[0])).toEqual({ device_no: zeroNo });
    const noDay = await server.call('POST', '/service-priv/vehicle/import', { token: admin, lang: 'en', body: { file: await sheet([['Plate', 'VIN', 'Insurance expiry'], ['沪F·I0005', vin(54), '2027-02-30']]), companyId: east.id } });
    expect(noDay.status).toBe(400);
    expect(noDay.msg).toContain('there is no day 2027-02-30');

    // A duplicate plate in a second import: refused with its row.
    const dup = await server.call('POST', '/service-priv/vehicle/import', { token: admin, lang: 'zh', body: { file: good, companyId: east.id } });
    expect(dup.status).toBe(409);
    expect(dup.msg).toContain('第 2 行');
  });
});

describe('status, device, photos, syncToCab', () => {
  it('answers counts for the selected company, the device record and no photos for a new vehicle', async () => {
    const east = byName('华东分公司');
    const s = await server.call<{ total: number; inService: number; retired: number; online: number; bound: number }>('GET', `/service-priv/vehicle/status?companyId=${east.id}`, { token: admin });
    const listed = await server.call<Page<Vehicle>>('GET', `/service-priv/vehicle?companyId=${east.id}&size=1`, { token: admin });
    expect(s.data.total).toBe(listed.data.total);
    expect(s.data.inService + s.data.retired).toBe(s.data.total);
    const no = device(east.id);
    const v = await server.call<Vehicle>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪G·D0001', vin: vin(60), companyId: east.id, deviceNo: no } });
    const d = await server.call<{ deviceNo: string; device: { deviceNo: string; companyId: number }; online: boolean }>('GET', `/service-priv/vehicle/device?id=${v.data.id}`, { token: admin });
    expect(d.data).toMatchObject({ deviceNo: no, device: { deviceNo: no, companyId: east.id }, online: false });
    const photos = await server.call<unknown[]>('POST', '/service-priv/vehicle/photoList', { token: admin, body: { ids: [v.data.id] } });
    expect(photos.data).toEqual([]);
    // With a photo on record and a registered terminal.
    const t = Date.now() - 60_000;
    const insertPhoto = db().prepare(`INSERT INTO media_item (vehicle_id, company_id, device_media_id, media_type, format, event_code, channel, capture_time, received_time, size, path, source)
      VALUES (?, ?, ?, 0, 0, 0, ?, ?, ?, 10, 'x.jpg', 'snap')`);
    insertPhoto.run(v.data.id, east.id, 1, 1, t - 1000, t);
    const newest = Number(insertPhoto.run(v.data.id, east.id, 2, 2, t, t).lastInsertRowid);
    const withPhoto = await server.call<{ vehicleId: number; mediaId: number; channel: number; url: string }[]>('POST', '/service-priv/vehicle/photoList', { token: admin, body: { ids: [v.data.id] } });
    expect(withPhoto.data).toEqual([{ vehicleId: v.data.id, vehiidno: '沪G·D0001', mediaId: newest, channel: 2, captureTime: t, url: `/service-priv/media/file/${newest}` }]);
    db().prepare("INSERT INTO terminal (device_no, auth_code, register_time) VALUES (?, 'abc', ?)").run(no, t);
    const registered = await server.call<{ registration: { registered: boolean; registerTime: number } }>('GET', `/service-priv/vehicle/device?id=${v.data.id}`, { token: admin });
    expect(registered.data.registration).toMatchObject({ registered: true, registerTime: t });
    const sync = await server.call('GET', `/service-priv/vehicle/syncToCab?id=${v.data.id}`, { token: admin, lang: 'zh' });
    expect(sync.status).toBe(409);
    expect(sync.msg).toBe('车辆不在线');
  });
});

describe('company in use', () => {
  it('a company that still owns a device is not deleted (409 naming the devices)', async () => {
    const parent = byName('华东分公司');
    const made = await server.call<{ id: number }>('POST', '/service-priv/company', { token: admin, body: { pid: parent.id, name: '设备库存组' } });
    device(made.data.id);
    const r = await server.call('DELETE', `/service-priv/company?ids=${made.data.id}`, { token: admin, lang: 'zh' });
    expect(r.status).toBe(409);
    expect(r.msg).toBe('公司「设备库存组」下还有1 个设备，不能删除');
  });
});

describe('large import (v3/batchimp)', () => {
  it('a multipart file runs as a task: its rows are written with their devices; a bad VIN is refused by row', async () => {
    const east = byName('华东分公司');
    const no = device(east.id);
    const upload = async (rows: (string | number | null)[][]) => {
      const form = new FormData();
      form.append('companyId', String(east.id));
      form.append('file', new Blob([Buffer.from(await sheet(rows), 'base64')]), 'vehicles.xlsx');
      const res = await fetch(`${server.url}/service-priv/vehicle/v3/batchimp`, { method: 'POST', headers: { 'x-jwt': admin, 'x-lang': 'en' }, body: form });
      return ((await res.json()) as { data: { taskId: string } }).data.taskId;
    };
    const follow = async (taskId: string) => {
      for (let i = 0; i < 2000; i++) {
        const s = await server.call<{ phase: string; imported?: number; problems?: { row: number }[] }>('GET', `/service-priv/vehicle/batch/status?taskId=${taskId}`, { token: admin, lang: 'en' });
        if (['done', 'refused', 'failed'].includes(s.data.phase)) return s.data;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('task did not end');
    };
    const before = server.count('vehicle');
    const refused = await follow(await upload([['Plate', 'VIN'], ['沪J·J0001', vin(70)], ['沪J·J0002', 'LFV2A21K000000000']]));
    expect(refused.phase).toBe('refused');
    expect(refused.problems?.map((p) => p.row)).toEqual([3]);
    expect(server.count('vehicle')).toBe(before);
    const done = await follow(await upload([['Plate', 'VIN', 'Device no.'], ['沪J·J0001', vin(70), no], ['沪J·J0002', vin(71), null]]));
    expect(done).toMatchObject({ phase: 'done', imported: 2 });
    const list = await server.call<Page<Vehicle>>('GET', '/service-priv/vehicle?keyword=J000', { token: admin });
    expect(list.data.records.map((v) => [v.vehiidno, v.deviceNo, v.companyId])).toEqual([['沪J·J0001', no, east.id], ['沪J·J0002', null, east.id]]);
  });
});

describe('demo seed', () => {
  it('every seeded vehicle has a valid VIN, a type and expiry dates, some expiring or expired', async () => {
    const { vinProblem } = await import('../../domain/fleet/vin.ts');
    const rows = db().prepare("SELECT vin, vehicle_type, plate_color, insurance_expire FROM vehicle WHERE vehiidno NOT LIKE '%·%'").all() as { vin: string; vehicle_type: string; plate_color: number; insurance_expire: number | null }[];
    expect(rows.length).toBeGreaterThanOrEqual(50);
    expect(rows.filter((r) => vinProblem(r.vin) !== undefined)).toEqual([]);
    expect(rows.every((r) => r.vehicle_type !== '' && r.plate_color > 0 && r.insurance_expire !== null)).toBe(true);
    const s = await server.call<{ insuranceSoon: number; insuranceExpired: number; inspectionSoon: number; inspectionExpired: number }>('GET', '/service-priv/vehicle/status', { token: admin });
    expect(s.data.insuranceSoon + s.data.inspectionSoon).toBeGreaterThan(0);
  });
});

describe('syncToCab: 0x8103 through the real gateway', () => {
  let live: LiveTestServer;
  let fleet: ScriptedFleet;
  let sim: RunningSimulator | undefined;
  let token: string;
  beforeAll(async () => {
    live = await startLiveServer({ seedVehicles: 20 });
    fleet = await ScriptedFleet.open(live);
    token = await live.login('admin', 'admin123');
  });
  afterAll(async () => {
    await sim?.stop();
    await fleet.close();
    await live.close();
  });
  const sync = (id: number, as = token, lang: 'zh' | 'en' = 'zh') => live.call(`GET`, `/service-priv/vehicle/syncToCab?id=${id}`, { token: as, lang });

  it('a simulated terminal answers result 0 and ends with the plate and colour on record', async () => {
    const v = fleet.fresh(true);
    const spec = readProvisionedTerminals(live.config.dataDir).find((t) => t.deviceNo === v.deviceNo)!;
    sim = startSimulator({ port: live.gatewayPort, terminals: [spec], seed: 5, tickMs: 10, rateHz: 1, parkedIntervalS: 1, rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 } });
    await until(() => live.app.live.gateway.isReachable(v.vehicleId));
    // A plate and colour the terminal cannot hold already.
    const put = await live.call('PUT', '/service-priv/vehicle', { token, body: { id: v.vehicleId, vehiidno: '苏E·S8103', plateColor: 1 } });
    expect(put.status).toBe(200);
    const terminal = sim.terminals[0]!;
    expect(terminal.parameters.size).toBe(0);
    const logRows = () => ((live.app.storage as SqliteStorage).db.prepare('SELECT count(*) n FROM change_log').get() as { n: number }).n;
    const before = logRows();
    const r = await sync(v.vehicleId);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ result: 'ok', vehicleId: v.vehicleId, vehiidno: '苏E·S8103', plateColor: 1 });
    expect(terminal.parameters).toEqual(new Map<number, unknown>([[0x0083, '苏E·S8103'], [0x0084, 1]]));
    // The record did not change: no operator-log row.
    expect(logRows()).toBe(before);
  });

  it('a refusing terminal is 409 with its answer, a silent one 504; both got the plate; offline is 409; another branch\'s vehicle is 404 and nothing is sent', async () => {
    const v = fleet.fresh(true);
    const record = (await live.app.storage.vehicles.get(ALL_COMPANIES, v.vehicleId))!;
    const t = await fleet.terminal(v);
    // What reached the terminal beyond the gateway's own 0x9003 (audio/video attributes) at sign-in.
    const received = () => t.commands.map((c) => c.message).filter((m) => m.msgId === 0x8103);
    t.commandResult = 1;
    const refused = await sync(v.vehicleId);
    expect(refused.status).toBe(409);
    expect(refused.msg).toBe('终端未接受车牌设置（终端应答失败）');
    const sent = { msgId: 0x8103, params: [{ id: 0x0083, value: record.vehiidno }, { id: 0x0084, value: record.plateColor }] };
    expect(received()).toEqual([sent]);
    t.commandResult = null;
    const silent = await sync(v.vehicleId, token, 'en');
    expect(silent.status).toBe(504);
    expect(silent.msg).toBe('The plate was sent but the terminal did not reply: try again later');
    expect(received()).toEqual([sent, sent]);

    const offline = fleet.fresh(true);
    expect(live.app.live.gateway.isReachable(offline.vehicleId)).toBe(false);
    const off = await sync(offline.vehicleId);
    expect(off.status).toBe(409);
    expect(off.msg).toBe('车辆不在线');

    // A user of another branch (neither inside nor above the east one) with the update bit: the east vehicle does not exist for it.
    const other = fleet.vehicles.find((x) => !x.companyPath.startsWith(fleet.eastPath) && !fleet.eastPath.startsWith(x.companyPath))!;
    const otherRecord = (await live.app.storage.vehicles.get(ALL_COMPANIES, other.vehicleId))!;
    const outsider = await createUserWithRole(live, 'v_sync_other', otherRecord.companyId, bits('update'));
    t.commandResult = 0;
    expect((await sync(v.vehicleId, outsider)).status).toBe(404);
    expect(received()).toHaveLength(2);
    // Without the update bit: 403, nothing sent.
    const viewer = await createUserWithRole(live, 'v_sync_viewer', record.companyId, bits());
    expect((await sync(v.vehicleId, viewer)).status).toBe(403);
    expect(received()).toHaveLength(2);
    // With it, in scope: sent and accepted.
    const own = await createUserWithRole(live, 'v_sync_own', record.companyId, bits('update'));
    expect((await sync(v.vehicleId, own)).data).toMatchObject({ result: 'ok' });
    expect(received()).toHaveLength(3);
  });
});
