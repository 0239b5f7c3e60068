/**
 * Devices (/information/device): the spec's paths, company scoping, button bits, the shared limits,
 * the rules (unique number, type in scope, no delete while installed, renumbering follows to the
 * vehicle), the operator log, the pickers' search and the refused registrations' visibility.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';

const PAGE = '/information/device';
const bits = (...buttons: string[]) => [permissionId('/information'), permissionId(PAGE), ...buttons.map((b) => permissionId(`${PAGE}:${b}`))];

interface Device {
  id: number; deviceNo: string; companyId: number; terminalId: string; model: string; maker: string; deviceTypeId: number | null; protocol: number;
  channelCount: number; simIccid: string; installDate: number | null; source: string; remark: string; vehicleId: number | null; plate: string | null;
  online: boolean; registered: boolean; unassigned: boolean;
}
interface Page<T> { records: T[]; total: number; current: number; size: number }
interface Company { id: number; pid: number; name: string }

let server: TestServer;
let admin: string;
let companies: Company[];
let seq = 0;
const byName = (name: string) => {
  const c = companies.find((x) => x.name === name);
  if (!c) throw new Error(`no company ${name}`);
  return c;
};
const newNo = () => `0777${String(++seq).padStart(8, '0')}`;
const db = () => (server.app.storage as SqliteStorage).db;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
});
afterAll(() => server.close());

describe('create, read, update', () => {
  it('creates a device with every field, answers it with its view (not installed, offline, not registered), and logs it', async () => {
    const no = newNo();
    const r = await server.call<Device>('POST', '/service-priv/device', {
      token: admin,
      body: { deviceNo: no, terminalId: 'T1234567', model: 'JT-808', maker: '某某电子', protocol: 2019, channelCount: 4, simIccid: '89860012345678901234', installDate: Date.UTC(2026, 0, 5), remark: '库存' },
    });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ deviceNo: no, terminalId: 'T1234567', protocol: 2019, channelCount: 4, vehicleId: null, online: false, registered: false, source: 'operator', unassigned: false, companyId: 1 });
    const log = db().prepare("SELECT * FROM change_log WHERE resource = 'device' AND record_id = ?").all(r.data.id) as { operation: string; label: string; user_id: number }[];
    expect(log).toMatchObject([{ operation: 'create', label: no }]);
    expect(log[0]!.user_id).toBeGreaterThan(0);

    const list = await server.call<Page<Device>>('GET', `/service-priv/device?keyword=${no}`, { token: admin });
    expect(list.data.records.map((d) => d.deviceNo)).toEqual([no]);
    const iccid = await server.call<Page<Device>>('GET', '/service-priv/device?keyword=8986001234567890', { token: admin });
    expect(iccid.data.records.map((d) => d.deviceNo)).toContain(no);
  });

  it('refuses a bad number, edition, channel count or ICCID with 400 naming the field, writing nothing', async () => {
    const before = fingerprint(server.app);
    for (const [body, field] of [
      [{ deviceNo: '12345' }, 'deviceNo'],
      [{ deviceNo: '01234567890a' }, 'deviceNo'],
      [{ deviceNo: newNo(), protocol: 2015 }, 'protocol'],
      [{ deviceNo: newNo(), channelCount: 38 }, 'channelCount'],
      [{ deviceNo: newNo(), simIccid: 'abc' }, 'simIccid'],
      [{ deviceNo: newNo(), installDate: -1 }, 'installDate'],
    ] as const) {
      const r = await server.call<unknown>('POST', '/service-priv/device', { token: admin, body, lang: 'en' });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.msg).toContain(field);
    }
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });

  it('refuses a number that exists (409 naming deviceNo) and a device type the caller does not see (400 naming deviceTypeId)', async () => {
    const no = newNo();
    expect((await server.call('POST', '/service-priv/device', { token: admin, body: { deviceNo: no } })).status).toBe(200);
    const dup = await server.call<unknown>('POST', '/service-priv/device', { token: admin, body: { deviceNo: no }, lang: 'en' });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe(`The device number "${no}" already exists`);
    expect((dup as unknown as { errors?: Record<string, { code: string }> }).errors ?? {}).toBeDefined();
    const missingType = await server.call('POST', '/service-priv/device', { token: admin, body: { deviceNo: newNo(), deviceTypeId: 999999 }, lang: 'en' });
    expect(missingType).toMatchObject({ status: 400, msg: 'The device type does not exist or is outside your scope' });
  });

  it('renumbers an installed device: the vehicle follows the new number, the log keeps before and after', async () => {
    const v = db().prepare('SELECT id, device_no FROM vehicle WHERE device_no IS NOT NULL ORDER BY id LIMIT 1').get() as { id: number; device_no: string };
    const device = db().prepare('SELECT id FROM device WHERE device_no = ?').get(v.device_no) as { id: number };
    const no = newNo();
    const r = await server.call<Device>('PUT', '/service-priv/device', { token: admin, body: { id: device.id, deviceNo: no, remark: '改号' } });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ deviceNo: no, vehicleId: v.id });
    expect((db().prepare('SELECT device_no FROM vehicle WHERE id = ?').get(v.id) as { device_no: string }).device_no).toBe(no);
    const row = db().prepare("SELECT before, after FROM change_log WHERE resource = 'device' AND record_id = ? AND operation = 'update'").get(device.id) as { before: string; after: string };
    expect(JSON.parse(row.before)).toEqual({ deviceNo: v.device_no, remark: '' });
    expect(JSON.parse(row.after)).toEqual({ deviceNo: no, remark: '改号' });
  });

  it('filters by installed or not, edition, and unassigned (auto-registered, not installed)', async () => {
    const bound = await server.call<Page<Device>>('GET', '/service-priv/device?bound=true&size=500', { token: admin });
    expect(bound.data.total).toBeGreaterThan(0);
    expect(bound.data.records.every((d) => d.vehicleId !== null && d.plate)).toBe(true);
    const stock = await server.call<Page<Device>>('GET', '/service-priv/device?bound=false&size=500', { token: admin });
    expect(stock.data.records.every((d) => d.vehicleId === null)).toBe(true);
    const no = newNo();
    db().prepare("INSERT INTO device (device_no, company_id, source, create_time, update_time) VALUES (?, 1, 'auto', 1, 1)").run(no);
    const unassigned = await server.call<Page<Device>>('GET', '/service-priv/device?unassigned=true&size=500', { token: admin });
    expect(unassigned.data.records.map((d) => d.deviceNo)).toContain(no);
    expect(unassigned.data.records.every((d) => d.unassigned && d.source === 'auto' && d.vehicleId === null)).toBe(true);
    const e2019 = await server.call<Page<Device>>('GET', '/service-priv/device?protocol=2019&size=500', { token: admin });
    expect(e2019.data.records.every((d) => d.protocol === 2019)).toBe(true);
    expect((await server.call('GET', '/service-priv/device?bound=maybe', { token: admin })).status).toBe(400);
    expect((await server.call('GET', '/service-priv/device?source=robot', { token: admin })).status).toBe(400);
  });
});

describe('delete', () => {
  it('refuses an installed device with 409 naming its plate, deleting nothing of the batch', async () => {
    const v = db().prepare('SELECT v.vehiidno, d.id FROM vehicle v JOIN device d ON d.device_no = v.device_no ORDER BY v.id DESC LIMIT 1').get() as { vehiidno: string; id: number };
    const free = await server.call<Device>('POST', '/service-priv/device', { token: admin, body: { deviceNo: newNo() } });
    const before = fingerprint(server.app);
    const r = await server.call('DELETE', '/service-priv/device', { token: admin, body: { ids: [free.data.id, v.id] }, lang: 'en' });
    expect(r.status).toBe(409);
    expect(r.msg).toContain(v.vehiidno);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });

  it('deletes devices in stock with a body of ids, logging each', async () => {
    const a = await server.call<Device>('POST', '/service-priv/device', { token: admin, body: { deviceNo: newNo() } });
    const b = await server.call<Device>('POST', '/service-priv/device', { token: admin, body: { deviceNo: newNo() } });
    const r = await server.call<{ deleted: number }>('DELETE', '/service-priv/device', { token: admin, body: { ids: [a.data.id, b.data.id] } });
    expect(r).toMatchObject({ status: 200, data: { deleted: 2 } });
    expect(server.count('device')).toBeGreaterThan(0);
    expect(db().prepare('SELECT count(*) n FROM device WHERE id IN (?, ?)').get(a.data.id, b.data.id)).toEqual({ n: 0 });
    expect(db().prepare("SELECT count(*) n FROM change_log WHERE resource = 'device' AND operation = 'delete' AND record_id IN (?, ?)").get(a.data.id, b.data.id)).toEqual({ n: 2 });
  });
});

describe('company scoping and bits', () => {
  it('a branch user sees and changes only its subtree: a foreign id is 404, a foreign companyId 403', async () => {
    const east = byName('华东分公司');
    const south = byName('华南分公司');
    const eastUser = await createUserWithRole(server, 'dev_east', east.id, bits('create', 'update', 'delete'));
    const own = await server.call<Device>('POST', '/service-priv/device', { token: eastUser, body: { deviceNo: newNo() } });
    expect(own.data.companyId).toBe(east.id);
    const foreign = await server.call<Device>('POST', '/service-priv/device', { token: admin, body: { deviceNo: newNo(), companyId: south.id } });
    expect(foreign.data.companyId).toBe(south.id);

    const seen = await server.call<Page<Device>>('GET', '/service-priv/device?size=500', { token: eastUser });
    expect(seen.data.records.length).toBeGreaterThan(1);
    const eastPath = (db().prepare('SELECT path FROM company WHERE id = ?').get(east.id) as { path: string }).path;
    const paths = db().prepare('SELECT d.id, c.path FROM device d JOIN company c ON c.id = d.company_id').all() as { id: number; path: string }[];
    const inEast = new Set(paths.filter((p) => p.path.startsWith(eastPath)).map((p) => p.id));
    expect(seen.data.total).toBe(inEast.size);
    expect(seen.data.records.every((d) => inEast.has(d.id))).toBe(true);

    const before = fingerprint(server.app);
    expect((await server.call('PUT', '/service-priv/device', { token: eastUser, body: { id: foreign.data.id, remark: 'x' } })).status).toBe(404);
    expect((await server.call('DELETE', '/service-priv/device', { token: eastUser, body: { ids: [foreign.data.id] } })).status).toBe(404);
    expect((await server.call('POST', '/service-priv/device', { token: eastUser, body: { deviceNo: newNo(), companyId: south.id } })).status).toBe(403);
    expect((await server.call('PUT', '/service-priv/device', { token: eastUser, body: { id: own.data.id, companyId: south.id } })).status).toBe(403);
    expect((await server.call('GET', `/service-priv/device?companyId=${south.id}`, { token: eastUser })).status).toBe(403);
    const picks = await server.call<{ deviceNo: string }[]>('POST', '/service-priv/device/pp/search', { token: eastUser, body: { keyword: foreign.data.deviceNo } });
    expect(picks.data).toEqual([]);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });

  it('answers 403 without the button bit, writing nothing', async () => {
    const east = byName('华东分公司');
    const viewer = await createUserWithRole(server, 'dev_viewer', east.id, bits());
    expect((await server.call('GET', '/service-priv/device', { token: viewer })).status).toBe(200);
    const before = fingerprint(server.app);
    expect((await server.call('POST', '/service-priv/device', { token: viewer, body: { deviceNo: newNo() } })).status).toBe(403);
    const own = (await server.call<Page<Device>>('GET', '/service-priv/device', { token: viewer })).data.records[0]!;
    expect((await server.call('PUT', '/service-priv/device', { token: viewer, body: { id: own.id, remark: 'x' } })).status).toBe(403);
    expect((await server.call('DELETE', '/service-priv/device', { token: viewer, body: { ids: [own.id] } })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/device/excel', { token: viewer, body: {} })).status).toBe(403);
    expect((await server.call('GET', '/service-priv/device/import_template', { token: viewer })).status).toBe(403);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
    const outsider = await server.login('operator', 'operator123');
    expect((await server.call('GET', '/service-priv/device', { token: outsider })).status).toBe(403);
  });
});

describe('pickers and refused registrations', () => {
  it('device/pp/search answers at most `size` options, only devices in stock with unbound', async () => {
    const r = await server.call<{ deviceNo: string; vehicleId: number | null }[]>('POST', '/service-priv/device/pp/search', { token: admin, body: { size: 5 } });
    expect(r.data.length).toBe(5);
    const unbound = await server.call<{ deviceNo: string; vehicleId: number | null }[]>('POST', '/service-priv/device/pp/search', { token: admin, body: { unbound: true, size: 50 } });
    expect(unbound.data.length).toBeGreaterThan(0);
    expect(unbound.data.every((d) => d.vehicleId === null)).toBe(true);
    expect((await server.call('POST', '/service-priv/device/pp/search', { token: admin, body: { size: 51 } })).status).toBe(400);
  });

  it('device/error lists refusals newest first to administrators and root creators; a branch creator gets 403', async () => {
    const t = Date.now();
    await server.app.storage.terminals.recordRegisterRefusal({ deviceNo: '019999000001', result: 4, at: t, remoteAddress: '10.0.0.1:5000', makerId: 'M', model: 'X1', terminalId: 'ID1', plateColor: 1, plate: '沪A00001' });
    await server.app.storage.terminals.recordRegisterRefusal({ deviceNo: '019999000001', result: 4, at: t + 1000, remoteAddress: '10.0.0.2:5000', makerId: 'M', model: 'X1', terminalId: 'ID1', plateColor: 1, plate: '沪A00001' });
    const r = await server.call<Page<{ deviceNo: string; count: number; firstTime: number; lastTime: number; remoteAddress: string; entered: boolean }>>('GET', '/service-priv/device/error?keyword=019999000001', { token: admin });
    expect(r.data.records).toMatchObject([{ deviceNo: '019999000001', count: 2, firstTime: t, lastTime: t + 1000, remoteAddress: '10.0.0.2:5000', entered: false }]);
    const root = byName('华东分公司');
    const branchCreator = await createUserWithRole(server, 'dev_branch_creator', root.id, bits('create'));
    expect((await server.call('GET', '/service-priv/device/error', { token: branchCreator })).status).toBe(403);
    const rootCreator = await createUserWithRole(server, 'dev_root_creator', 1, bits('create'));
    expect((await server.call('GET', '/service-priv/device/error', { token: rootCreator })).status).toBe(200);
    const rootViewer = await createUserWithRole(server, 'dev_root_viewer', 1, bits());
    expect((await server.call('GET', '/service-priv/device/error', { token: rootViewer })).status).toBe(403);
    // Added as a device: the refusal is answered and leaves the list.
    expect((await server.call('POST', '/service-priv/device', { token: admin, body: { deviceNo: '019999000001', model: 'X1' } })).status).toBe(200);
    expect((await server.call<Page<unknown>>('GET', '/service-priv/device/error?keyword=019999000001', { token: admin })).data.total).toBe(0);
  });
});

describe('import and export', () => {
  it('exports the filtered devices of the caller\'s scope as an .xlsx job', async () => {
    const start = await server.call<{ taskId: string }>('POST', '/service-priv/device/excel', { token: admin, lang: 'en', body: { unassigned: true } });
    expect(start.code).toBe(200);
    let status = '';
    let total = 0;
    for (let i = 0; i < 50 && status !== 'done'; i++) {
      const s = await server.call<{ status: string; total: number }>('GET', `/service-priv/device/export_status?taskId=${start.data.taskId}`, { token: admin });
      ({ status, total } = s.data);
      if (status !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('done');
    const expected = (db().prepare("SELECT d.device_no FROM device d LEFT JOIN vehicle v ON v.device_no = d.device_no WHERE d.source = 'auto' AND v.id IS NULL ORDER BY d.id DESC").pluck().all()) as string[];
    expect(total).toBe(expected.length);
    const res = await fetch(`${server.url}/service-priv/device/excel_file?taskId=${start.data.taskId}`, { headers: { 'x-jwt': admin } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const rows = (book.worksheets[0]?.getSheetValues() ?? []).filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows[0]?.slice(0, 3)).toEqual(['Device number', 'Terminal ID', 'Model']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(expected);
    expect(rows.slice(1).every((r) => r[11] === 'Auto-registered')).toBe(true);
  });

  it('imports every row or none; the template has the import header', async () => {
    const book = async (rows: (string | number)[][]) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('d');
      for (const row of rows) ws.addRow(row);
      return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    };
    const a = newNo();
    const b = newNo();
    const bad = await book([['设备号', '终端型号', '通道数'], [a, 'M1', 4], ['123', 'M2', 2]]);
    const before = fingerprint(server.app);
    const refused = await server.call('POST', '/service-priv/device/import', { token: admin, body: { file: bad } });
    expect(refused.status).toBe(400);
    expect(refused.msg).toContain('第 3 行');
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
    const good = await book([['设备号', '终端型号', '通道数'], [a, 'M1', 4], [b, 'M2', 2]]);
    const done = await server.call<{ imported: number }>('POST', '/service-priv/device/import', { token: admin, body: { file: good } });
    expect(done.data.imported).toBe(2);
    const tpl = await fetch(`${server.url}/service-priv/device/import_template`, { headers: { 'x-jwt': admin } });
    expect(tpl.status).toBe(200);
    expect(tpl.headers.get('content-type')).toContain('spreadsheet');
  });
});
