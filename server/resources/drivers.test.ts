/**
 * Drivers (/service-priv/driver): the seeded drivers the simulator signs in as, company scoping, the
 * button bits, 400 with nothing written, the certificate rule, vehicles inside the driver's company,
 * the operator log, delete keeping the sign-in history, import (all rows or none) and export.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChinaDate } from '../../domain/fleet/driver.ts';
import { expiryState } from '../../domain/fleet/limits.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { simDriverCard } from '../sim/driver.ts';
import { changedTables, fingerprint } from '../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { createUserWithRole, permissionId } from '../test/users.ts';

const PAGE = '/information/driver';
const bits = (...buttons: string[]) => [permissionId('/information'), permissionId(PAGE), ...buttons.map((b) => permissionId(`${PAGE}:${b}`))];

interface Driver {
  id: number; companyId: number; companyName: string; name: string; licenceNo: string; licenceClass: string; licenceExpire: number | null;
  certNo: string; certAuthority: string; certExpire: number | null; phone: string; status: 0 | 1; remark: string;
  vehicles: { id: number; vehiidno: string }[]; photoTime: number | null; signedIn: { vehicleId: number; vehiidno: string; signInTime: number } | null;
}
interface Page<T> { records: T[]; total: number; current: number; size: number }
interface Company { id: number; pid: number; name: string }
interface VehicleRow { id: number; vehiidno: string; company_id: number; device_no: string | null }

let server: TestServer;
let admin: string;
let companies: Company[];
const byName = (name: string) => {
  const c = companies.find((x) => x.name === name);
  if (!c) throw new Error(`no company ${name}`);
  return c;
};
const db = () => (server.app.storage as SqliteStorage).db;
/** Seeded vehicles of a branch's subtree. */
const vehiclesUnder = (branch: string): VehicleRow[] => db().prepare(`SELECT v.id, v.vehiidno, v.company_id, v.device_no FROM vehicle v JOIN company c ON c.id = v.company_id
  WHERE c.path LIKE (SELECT path FROM company WHERE name = ?) || '%' ORDER BY v.id`).all(branch) as VehicleRow[];
const logRows = (recordId: number) => db().prepare("SELECT operation, before, after, label, company_id FROM change_log WHERE resource = 'driver' AND record_id = ? ORDER BY id").all(recordId) as { operation: string; before: string | null; after: string | null; label: string; company_id: number }[];

async function sheet(rows: (string | number | null)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('drivers');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
});
afterAll(() => server.close());

describe('seeded drivers', () => {
  it('hold the certificates the simulated terminals report in 0x0702, in the vehicle\'s company, bound to it', async () => {
    const vehicles = db().prepare('SELECT id, vehiidno, company_id, device_no FROM vehicle ORDER BY id').all() as VehicleRow[];
    const withCard = vehicles.filter((v) => v.device_no && simDriverCard(v.device_no, 0));
    expect(withCard.length).toBeGreaterThan(20);
    const all = await server.call<Page<Driver>>('GET', '/service-priv/driver?size=500', { token: admin });
    expect(all.code).toBe(200);
    expect(all.data.total).toBe(withCard.length);
    for (const v of withCard.slice(0, 10)) {
      const card = simDriverCard(v.device_no!, 0)!;
      const d = all.data.records.find((x) => x.certNo === card.certificate);
      expect(d).toMatchObject({ name: card.name, companyId: v.company_id, vehicles: [{ id: v.id, vehiidno: v.vehiidno }], status: 1, signedIn: null });
    }
  });

  it('filters by keyword (name, licence, certificate, phone), status and licence expiry; paging stays in its limits', async () => {
    const all = (await server.call<Page<Driver>>('GET', '/service-priv/driver?size=500', { token: admin })).data.records;
    const one = all[3]!;
    const byCert = await server.call<Page<Driver>>('GET', `/service-priv/driver?keyword=${one.certNo.slice(-8)}`, { token: admin });
    expect(byCert.data.records.map((d) => d.id)).toContain(one.id);
    expect(byCert.data.records.every((d) => d.certNo.includes(one.certNo.slice(-8)) || d.licenceNo.includes(one.certNo.slice(-8)) || d.phone.includes(one.certNo.slice(-8)))).toBe(true);
    const byPhone = await server.call<Page<Driver>>('GET', `/service-priv/driver?keyword=${one.phone}`, { token: admin });
    expect(byPhone.data.records.map((d) => d.id)).toContain(one.id);

    const now = Date.now();
    const soon = await server.call<Page<Driver>>('GET', '/service-priv/driver?expiry=licenceSoon&size=500', { token: admin });
    const expired = await server.call<Page<Driver>>('GET', '/service-priv/driver?expiry=licenceExpired&size=500', { token: admin });
    // The list's filters and the console's badges follow one rule (domain/fleet/limits.ts expiryState).
    expect(soon.data.records.map((d) => d.id)).toEqual(all.filter((d) => expiryState(d.licenceExpire, now) === 'soon').map((d) => d.id));
    expect(expired.data.records.map((d) => d.id)).toEqual(all.filter((d) => expiryState(d.licenceExpire, now) === 'expired').map((d) => d.id));
    expect(soon.data.total).toBeGreaterThan(0);
    expect(expired.data.total).toBeGreaterThan(0);

    expect((await server.call('GET', '/service-priv/driver?expiry=soon', { token: admin })).status).toBe(400);
    expect((await server.call('GET', '/service-priv/driver?status=2', { token: admin })).status).toBe(400);
    expect((await server.call('GET', '/service-priv/driver?size=501', { token: admin })).status).toBe(400);
    expect((await server.call('GET', '/service-priv/driver?colour=red', { token: admin })).status).toBe(400);
    const disabled = await server.call<Page<Driver>>('GET', '/service-priv/driver?status=0', { token: admin });
    expect(disabled.data.total).toBe(0);
  });
});

describe('create, update, delete', () => {
  it('writes every field, its vehicles and one operator-log row per write', async () => {
    const east = byName('华东分公司');
    const [v1, v2] = vehiclesUnder('华东分公司');
    const licenceExpire = parseChinaDate('2028-03-31')! + 5 * 3_600_000; // a time inside the day: stored as the day's start
    const made = await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: {
      companyId: east.id, name: ' 钱师傅 ', licenceNo: '33010619800101123x', licenceClass: 'A1', licenceExpire, certNo: 'qc2026001',
      certAuthority: '杭州市道路运输管理局', certExpire: null, phone: '+86 138-0000-0001', remark: '夜班', vehicleIds: [v1!.id, v2!.id],
    } });
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({
      companyId: east.id, name: '钱师傅', licenceNo: '33010619800101123X', licenceClass: 'A1', licenceExpire: parseChinaDate('2028-03-31'),
      certNo: 'QC2026001', certExpire: null, status: 1, remark: '夜班', photoTime: null, signedIn: null,
    });
    expect(made.data.vehicles.map((v) => v.id).sort((a, b) => a - b)).toEqual([v1!.id, v2!.id].sort((a, b) => a - b));

    const upd = await server.call<Driver>('PUT', '/service-priv/driver', { token: admin, body: { id: made.data.id, companyId: east.id, name: '钱师傅', status: 0, vehicleIds: [v2!.id], certExpire: parseChinaDate('2029-01-01') } });
    expect(upd.code).toBe(200);
    expect(upd.data).toMatchObject({ status: 0, certExpire: parseChinaDate('2029-01-01'), licenceClass: 'A1', vehicles: [{ id: v2!.id }] });

    const log = logRows(made.data.id);
    expect(log.map((r) => r.operation)).toEqual(['create', 'update']);
    expect(log[0]).toMatchObject({ label: '钱师傅 (QC2026001)', company_id: east.id, before: null });
    expect(JSON.parse(log[1]!.before!)).toEqual({ status: 1, certExpire: null, vehicles: [v1!.vehiidno, v2!.vehiidno].sort() });
    expect(JSON.parse(log[1]!.after!)).toEqual({ status: 0, certExpire: parseChinaDate('2029-01-01'), vehicles: [v2!.vehiidno] });

    const del = await server.call<{ deleted: number }>('DELETE', '/service-priv/driver', { token: admin, body: { ids: [made.data.id] } });
    expect(del.data.deleted).toBe(1);
    expect(logRows(made.data.id).map((r) => r.operation)).toEqual(['create', 'update', 'delete']);
    expect(db().prepare('SELECT count(*) n FROM driver_vehicle WHERE driver_id = ?').get(made.data.id)).toEqual({ n: 0 });
  });

  it('a certificate number is unique when entered (409 naming certNo); empty ones repeat freely', async () => {
    const taken = (await server.call<Page<Driver>>('GET', '/service-priv/driver?size=1', { token: admin })).data.records[0]!;
    const before = fingerprint(server.app);
    const dup = await server.call<unknown>('POST', '/service-priv/driver', { token: admin, lang: 'en', body: { name: '重号', certNo: taken.certNo.toLowerCase() } });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe(`The certificate number "${taken.certNo}" already belongs to the driver "${taken.name}"`);
    expect(await rawErrors('POST', { name: '重号', certNo: taken.certNo })).toMatchObject({ certNo: { code: 'taken' } });
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
    const a = await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '无证甲' } });
    const b = await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '无证乙', certNo: '' } });
    expect([a.code, b.code]).toEqual([200, 200]);
  });

  it('refuses bad input with 400 naming the field and writes nothing', async () => {
    const before = fingerprint(server.app);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(33) }, 'name'],
      [{ name: '甲', licenceClass: 'Z9' }, 'licenceClass'],
      [{ name: '甲', certNo: 'QC-1' }, 'certNo'],
      [{ name: '甲', certNo: '1'.repeat(21) }, 'certNo'],
      [{ name: '甲', phone: 'call me' }, 'phone'],
      [{ name: '甲', licenceExpire: -1 }, 'licenceExpire'],
      [{ name: '甲', status: 3 }, 'status'],
      [{ name: '甲', vehicleIds: Array.from({ length: 501 }, (_, i) => i + 1) }, 'vehicleIds'],
      [{ name: '甲', vehicleIds: [1, 1] }, 'vehicleIds'],
      [{ name: '甲', photo: 'x' }, 'photo'],
    ];
    for (const [body, field] of cases) {
      const r = await server.call('POST', '/service-priv/driver', { token: admin, lang: 'en', body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.msg, JSON.stringify(body)).toContain(field);
    }
    const some = (await server.call<Page<Driver>>('GET', '/service-priv/driver?size=1', { token: admin })).data.records[0]!;
    expect((await server.call('PUT', '/service-priv/driver', { token: admin, body: { id: some.id, licenceClass: 'Q' } })).status).toBe(400);
    expect((await server.call('DELETE', '/service-priv/driver', { token: admin, body: { ids: [] } })).status).toBe(400);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });
});

/** The `errors` of an answer (the harness keeps code, msg and data only). */
async function rawErrors(method: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}/service-priv/driver`, { method, headers: { 'x-jwt': admin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return ((await res.json()) as { errors?: unknown }).errors;
}

describe('company scoping', () => {
  it('a branch user sees and changes only its subtree: a foreign driver is 404, a foreign company 403, a foreign vehicle 400, nothing written', async () => {
    const east = byName('华东分公司');
    const south = byName('华南分公司');
    const eastUser = await createUserWithRole(server, 'drv_east', east.id, bits('create', 'update', 'delete', 'import', 'export'));
    const eastVehicle = vehiclesUnder('华东分公司')[0]!;
    const southVehicle = vehiclesUnder('华南分公司')[0]!;
    const own = await server.call<Driver>('POST', '/service-priv/driver', { token: eastUser, body: { name: '华东司机', vehicleIds: [eastVehicle.id] } });
    expect(own.code).toBe(200);
    expect(own.data.companyId).toBe(east.id); // no companyId: the caller's own company

    const seen = await server.call<Page<Driver>>('GET', '/service-priv/driver?size=500', { token: eastUser });
    const eastPath = (await server.app.storage.companies.get(ALL_COMPANIES, east.id))!.path;
    const paths = new Map(companies.map((c) => [c.id, c.name]));
    expect(seen.data.records.length).toBeGreaterThan(1);
    for (const d of seen.data.records) {
      const c = await server.app.storage.companies.get(ALL_COMPANIES, d.companyId);
      expect(c!.path.startsWith(eastPath), paths.get(d.companyId)).toBe(true);
      for (const v of d.vehicles) expect(vehiclesUnder('华东分公司').some((x) => x.id === v.id)).toBe(true);
    }
    const southDriver = (await server.call<Page<Driver>>(`GET`, `/service-priv/driver?companyId=${south.id}`, { token: admin })).data.records[0]!;

    const before = fingerprint(server.app);
    expect((await server.call('PUT', '/service-priv/driver', { token: eastUser, body: { id: southDriver.id, name: 'x' } })).status).toBe(404);
    expect((await server.call('DELETE', '/service-priv/driver', { token: eastUser, body: { ids: [southDriver.id] } })).status).toBe(404);
    expect((await server.call('DELETE', '/service-priv/driver', { token: eastUser, body: { ids: [own.data.id, southDriver.id] } })).status).toBe(404);
    expect((await server.call('GET', `/service-priv/driver?companyId=${south.id}`, { token: eastUser })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/driver', { token: eastUser, body: { name: 'y', companyId: south.id } })).status).toBe(403);
    // Moving its own driver to a foreign company: 403.
    expect((await server.call('PUT', '/service-priv/driver', { token: eastUser, body: { id: own.data.id, companyId: south.id } })).status).toBe(403);
    const foreignVehicle = await server.call('POST', '/service-priv/driver', { token: eastUser, lang: 'en', body: { name: 'z', vehicleIds: [eastVehicle.id, southVehicle.id] } });
    expect(foreignVehicle.status).toBe(400);
    expect(foreignVehicle.msg).toContain('1 vehicle(s)');
    // A vehicle of the caller's subtree but outside the driver's company subtree is refused too.
    const fleet = companies.find((c) => c.pid === east.id)!;
    const otherFleetVehicle = vehiclesUnder('华东分公司').find((v) => v.company_id !== fleet.id)!;
    expect((await server.call('POST', '/service-priv/driver', { token: eastUser, body: { name: 'w', companyId: fleet.id, vehicleIds: [otherFleetVehicle.id] } })).status).toBe(400);
    expect((await server.call('GET', `/service-priv/driver/vehicle_options?companyId=${south.id}`, { token: eastUser })).status).toBe(403);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);

    const options = await server.call<{ id: number; vehiidno: string }[]>('GET', `/service-priv/driver/vehicle_options?companyId=${fleet.id}`, { token: eastUser });
    expect(options.data.length).toBeGreaterThan(0);
    expect(options.data.every((o) => vehiclesUnder('华东分公司').some((v) => v.id === o.id && v.company_id === fleet.id))).toBe(true);

    expect((await server.call('DELETE', '/service-priv/driver', { token: eastUser, body: { ids: [own.data.id] } })).code).toBe(200);
  });

  it('moving a driver to a company its vehicles are not under is refused (400 vehicleIds); sent with new vehicles it moves', async () => {
    const east = byName('华东分公司');
    const fleets = companies.filter((c) => c.pid === east.id);
    const [fa, fb] = [fleets[0]!, fleets[1]!];
    const va = vehiclesUnder('华东分公司').find((v) => v.company_id === fa.id)!;
    const vb = vehiclesUnder('华东分公司').find((v) => v.company_id === fb.id)!;
    const d = await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '调动司机', companyId: fa.id, vehicleIds: [va.id] } });
    const refused = await server.call('PUT', '/service-priv/driver', { token: admin, body: { id: d.data.id, companyId: fb.id } });
    expect(refused.status).toBe(400);
    const moved = await server.call<Driver>('PUT', '/service-priv/driver', { token: admin, body: { id: d.data.id, companyId: fb.id, vehicleIds: [vb.id] } });
    expect(moved.data).toMatchObject({ companyId: fb.id, vehicles: [{ id: vb.id }] });
    expect(logRows(d.data.id).at(-1)).toMatchObject({ operation: 'update', company_id: fb.id });
  });
});

describe('button bits', () => {
  it('the page bit lists; create, update, delete, import and export each need their own bit', async () => {
    const north = byName('华北分公司');
    const viewer = await createUserWithRole(server, 'drv_viewer', north.id, bits());
    const creator = await createUserWithRole(server, 'drv_creator', north.id, bits('create'));
    expect((await server.call('GET', '/service-priv/driver', { token: viewer })).code).toBe(200);
    const before = server.count('driver');
    expect((await server.call('POST', '/service-priv/driver', { token: viewer, body: { name: 'v' } })).status).toBe(403);
    const made = await server.call<Driver>('POST', '/service-priv/driver', { token: creator, body: { name: '华北司机' } });
    expect(made.code).toBe(200);
    expect((await server.call('PUT', '/service-priv/driver', { token: creator, body: { id: made.data.id, name: '改名' } })).status).toBe(403);
    expect((await server.call('DELETE', '/service-priv/driver', { token: creator, body: { ids: [made.data.id] } })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/driver/import', { token: creator, body: { file: 'AAAA' } })).status).toBe(403);
    expect((await server.call('GET', '/service-priv/driver/import_template', { token: creator })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/driver/excel', { token: creator, body: {} })).status).toBe(403);
    const operator = await server.login('operator', 'operator123');
    expect((await server.call('GET', '/service-priv/driver', { token: operator })).status).toBe(403);
    expect((await server.call('GET', '/service-priv/driver/vehicle_options', { token: operator })).status).toBe(403);
    expect(server.count('driver')).toBe(before + 1);
  });
});

describe('delete keeps the sign-in history', () => {
  it('sign-in rows stay with driver_id NULL and link again to a driver entered later with that certificate', async () => {
    const v = vehiclesUnder('华东分公司')[0]!;
    const d = await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '历史司机', certNo: 'HIST0001', companyId: v.company_id } });
    await server.app.storage.drivers.recordSignIn(v.id, { kind: 'in', cert: 'HIST0001', name: '历史司机', time: Date.now() - 60_000 });
    await server.app.storage.drivers.recordSignIn(v.id, { kind: 'out', time: Date.now() - 30_000 });
    const row = () => db().prepare("SELECT driver_id, sign_out_time FROM driver_sign_in WHERE driver_cert = 'HIST0001'").get() as { driver_id: number | null; sign_out_time: number | null };
    expect(row().driver_id).toBe(d.data.id);
    await server.call('DELETE', '/service-priv/driver', { token: admin, body: { ids: [d.data.id] } });
    expect(row()).toMatchObject({ driver_id: null });
    expect(row().sign_out_time).not.toBeNull();
    const again = await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '历史司机', certNo: 'HIST0001', companyId: v.company_id } });
    expect(row().driver_id).toBe(again.data.id);
    const signIns = await server.call<Page<{ vehiidno: string; signOutTime: number | null }>>('GET', `/service-priv/driver/signins?driverId=${again.data.id}`, { token: admin });
    expect(signIns.data.records).toMatchObject([{ vehiidno: v.vehiidno }]);
  });
});

describe('import and export', () => {
  it('one bad row writes nothing and names it; a good file imports every row with its vehicles by plate', async () => {
    const east = byName('华东分公司');
    const [v1, v2] = vehiclesUnder('华东分公司');
    const header = ['姓名', '驾驶证号', '准驾车型', '驾驶证有效期至', '从业资格证号', '发证机关', '资格证有效期至', '联系电话', '驾驶车辆', '备注'];
    const good = ['导入甲', '330106199001010011', 'B2', '2029-06-30', 'IMP0001', '宁波市运管局', '2030-01-31', '13900000001', `${v1!.vehiidno}，${v2!.vehiidno}`, ''];
    const before = fingerprint(server.app);
    const badClass = await server.call('POST', '/service-priv/driver/import', { token: admin, lang: 'zh', body: { companyId: east.id, file: await sheet([header, good, ['导入乙', '', 'Z1']]) } });
    expect(badClass.status).toBe(400);
    expect(badClass.msg).toContain('3');
    expect(badClass.msg).toContain('准驾车型');
    const badPlate = await server.call('POST', '/service-priv/driver/import', { token: admin, lang: 'en', body: { companyId: east.id, file: await sheet([header, good, ['导入乙', '', '', '', '', '', '', '', '粤Z00000']]) } });
    expect(badPlate.status).toBe(400);
    expect(badPlate.msg).toContain('3');
    const dupCert = await server.call('POST', '/service-priv/driver/import', { token: admin, body: { companyId: east.id, file: await sheet([header, good, ['导入乙', '', '', '', 'imp0001']]) } });
    expect(dupCert.status).toBe(409);
    const badDate = await server.call('POST', '/service-priv/driver/import', { token: admin, body: { companyId: east.id, file: await sheet([header, good, ['导入乙', '', '', '2029-02-30']]) } });
    expect(badDate.status).toBe(400);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);

    const ok = await server.call('POST', '/service-priv/driver/import', { token: admin, body: { companyId: east.id, file: await sheet([header, good, ['导入乙', '', 'C1']]) } });
    expect(ok.code).toBe(200);
    const found = await server.call<Page<Driver>>('GET', '/service-priv/driver?keyword=导入', { token: admin });
    expect(found.data.records.map((d) => d.name).sort()).toEqual(['导入乙', '导入甲']);
    const jia = found.data.records.find((d) => d.name === '导入甲')!;
    expect(jia).toMatchObject({ companyId: east.id, licenceClass: 'B2', licenceExpire: parseChinaDate('2029-06-30'), certNo: 'IMP0001', certExpire: parseChinaDate('2030-01-31') });
    expect(jia.vehicles.map((v) => v.id).sort((a, b) => a - b)).toEqual([v1!.id, v2!.id].sort((a, b) => a - b));
    expect(logRows(jia.id).map((r) => r.operation)).toEqual(['import']);
  });

  it('answers the template and exports the list through the export job', async () => {
    const tpl = await fetch(`${server.url}/service-priv/driver/import_template`, { headers: { 'x-jwt': admin, 'x-lang': 'en' } });
    expect(tpl.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await tpl.arrayBuffer());
    expect((book.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(['Name', 'Licence no.', 'Licence class', 'Licence valid until', 'Certificate no.', 'Issuing authority', 'Certificate valid until', 'Phone', 'Vehicles', 'Remark']);

    const start = await server.call<{ taskId: string }>('POST', '/service-priv/driver/excel', { token: admin, body: { keyword: '导入' } });
    expect(start.code).toBe(200);
    let status = '';
    for (let i = 0; i < 50 && status !== 'done'; i++) {
      status = (await server.call<{ status: string }>('GET', `/service-priv/driver/export_status?taskId=${start.data.taskId}`, { token: admin })).data.status;
      if (status !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    const file = await fetch(`${server.url}/service-priv/driver/excel_file?taskId=${start.data.taskId}`, { headers: { 'x-jwt': admin } });
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(await file.arrayBuffer());
    const rows = out.worksheets[0]!;
    expect(rows.rowCount).toBe(3);
    const names = [rows.getRow(2).getCell(1).value, rows.getRow(3).getCell(1).value].sort();
    expect(names).toEqual(['导入乙', '导入甲']);
  });
});
