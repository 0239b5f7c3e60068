/**
 * The operator logs (binlog/vehicle, binlog/device, their exports, binlog/record): search, scoping by
 * the record's company (a moved record's rows follow it), the 92-day period, the bits, and the export
 * sheet that words every change "field: before → after" in the caller's language. Rows are appended
 * through the repository as the writers do, so these tests hold whatever screen writes them.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEntry } from '../../db/change-log-types.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

const DAY = 86_400_000;
const VLOG = '/information/operatorLogManagement/vehicleLog';
const DLOG = '/information/operatorLogManagement/deviceLog';

interface Row { id: number; recordId: number; label: string; companyId: number; companyName: string; operation: string; userName: string; ip: string; time: number; before: Record<string, unknown> | null; after: Record<string, unknown> | null; names: Record<string, Record<string, string>> }
interface Page { records: Row[]; total: number; current: number; size: number }
interface Company { id: number; name: string; path: string }
interface VehicleRow { id: number; vehiidno: string; company_id: number; device_no: string | null }

let server: TestServer;
let admin: string;
let east: Company;
let south: Company;
let v1: VehicleRow;
let v2: VehicleRow;
let deviceId: number;
const now = Date.now();

const ids = (...keys: string[]) => [permissionId('/information'), permissionId('/information/operatorLogManagement'), ...keys.map(permissionId)];

function entry(e: Partial<ChangeEntry> & Pick<ChangeEntry, 'recordId' | 'label' | 'companyId'>): ChangeEntry {
  return { resource: 'vehicle', operation: 'update', userId: 1, userName: '系统管理员', ip: '10.0.0.8', time: now, before: null, after: null, ...e };
}

const search = (token: string, body: Record<string, unknown>, resource = 'vehicle', lang?: 'zh' | 'en') =>
  server.call<Page>('POST', `/service-priv/binlog/${resource}`, { token, body: { current: 1, size: 50, ...body }, lang });

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  const db = (server.app.storage as SqliteStorage).db;
  const company = (name: string) => db.prepare('SELECT id, name, path FROM company WHERE name = ?').get(name) as Company;
  east = company('华东分公司');
  south = company('华南分公司');
  const vehicleIn = (c: Company) => db.prepare(`SELECT v.id, v.vehiidno, v.company_id, v.device_no FROM vehicle v JOIN company c ON c.id = v.company_id
    WHERE c.path >= ? AND c.path < ? AND v.device_no IS NOT NULL AND NOT EXISTS (SELECT 1 FROM change_log l WHERE l.resource = 'vehicle' AND l.record_id = v.id)
    ORDER BY v.id LIMIT 1`).get(c.path, `${c.path}~`) as VehicleRow;
  v1 = vehicleIn(east);
  v2 = vehicleIn(south);
  deviceId = (db.prepare('SELECT id FROM device WHERE device_no = ?').get(v1.device_no) as { id: number }).id;

  const log = server.app.storage.changeLog;
  await log.append(entry({ recordId: v1.id, label: v1.vehiidno, companyId: v1.company_id, operation: 'create', time: now - 3 * DAY, after: { vehiidno: v1.vehiidno, plateColor: 1, companyId: v1.company_id, status: 1 } }));
  await log.append(entry({ recordId: v1.id, label: v1.vehiidno, companyId: v1.company_id, time: now - DAY, userName: '张调度', ip: '192.168.1.20', before: { plateColor: 1, insuranceExpire: null }, after: { plateColor: 2, insuranceExpire: Date.UTC(2027, 0, 31) - 8 * 3_600_000 } }));
  await log.append(entry({ recordId: v2.id, label: v2.vehiidno, companyId: v2.company_id, time: now - DAY, before: { status: 1 }, after: { status: 0 } }));
  await log.append(entry({ recordId: v1.id, label: v1.vehiidno, companyId: v1.company_id, time: now - 100 * DAY, before: { remark: '' }, after: { remark: '旧记录' } }));
  await log.append(entry({ resource: 'device', recordId: deviceId, label: v1.device_no!, companyId: v1.company_id, operation: 'bind', time: now - 2 * DAY, before: { vehicleId: null }, after: { vehicleId: v1.id } }));
});
afterAll(() => server.close());

describe('binlog/vehicle and binlog/device', () => {
  it('pages the rows newest first with who, when, from where, before and after, and names the ids they reference', async () => {
    const r = await search(admin, {});
    expect(r.code).toBe(200);
    // the seed's own rows (entries, bindings, face-warehouse syncs) may push an old row off page 1: read v1's rows by plate
    const mine = (await search(admin, { keyword: v1.vehiidno })).data.records.filter((x) => x.recordId === v1.id);
    expect(mine.map((x) => x.operation)).toEqual(['update', 'create', 'update']);
    expect(mine[0]).toMatchObject({ label: v1.vehiidno, userName: '张调度', ip: '192.168.1.20', before: { plateColor: 1 }, after: { plateColor: 2 }, companyName: expect.any(String) });
    const created = mine[1]!;
    expect(created.before).toBeNull();
    expect(created.names.company?.[String(v1.company_id)]).toBe(created.companyName);
    expect(r.data.records.some((x) => x.recordId === v2.id)).toBe(true);
    expect(r.data.records.every((x) => (x as unknown as { resource: string }).resource === 'vehicle')).toBe(true);
    // userId never leaves the server
    expect(Object.keys(r.data.records[0]!)).not.toContain('userId');

    // the demo seed's history is there too: these tests read the rows of their own records
    const devices = await search(admin, { keyword: v1.device_no }, 'device');
    expect(devices.data.records.map((x) => [x.label, x.operation])).toEqual([[v1.device_no, 'bind']]);
    expect(devices.data.records[0]!.names.vehicle?.[String(v1.id)]).toBe(v1.vehiidno);
  });

  it('a new demo database has history to read: the seeded vehicles entered, edited and bound, consistent with their state', async () => {
    const db = (server.app.storage as SqliteStorage).db;
    const seeded = db.prepare("SELECT record_id, operation, after FROM change_log WHERE resource = 'vehicle' AND user_name = '系统管理员' AND ip = '10.10.1.5' ORDER BY time, id").all() as { record_id: number; operation: string; after: string }[];
    expect(seeded.length).toBeGreaterThanOrEqual(4);
    for (const row of seeded.filter((x) => x.operation === 'bind')) {
      const v = db.prepare('SELECT device_no FROM vehicle WHERE id = ?').get(row.record_id) as { device_no: string };
      expect(JSON.parse(row.after)).toEqual({ deviceNo: v.device_no });
    }
    const devices = await search(admin, { operation: 'bind' }, 'device');
    expect(devices.data.total).toBeGreaterThanOrEqual(2);
    expect(devices.data.records[0]!.userName).toMatch(/系统管理员|赵分管/);
  });

  it('finds rows by plate, by operator, by operation and within an inclusive period', async () => {
    const byPlate = await search(admin, { keyword: v2.vehiidno });
    expect(byPlate.data.records.map((x) => x.recordId)).toEqual([v2.id]);
    // a row written under an earlier plate is found by the plate the vehicle has now
    await server.app.storage.changeLog.append(entry({ recordId: v2.id, label: '旧牌OLD1', companyId: v2.company_id, time: now - 2 * DAY, before: { vehiidno: '旧牌OLD1' }, after: { vehiidno: v2.vehiidno } }));
    const renamed = await search(admin, { keyword: v2.vehiidno });
    expect(renamed.data.records.map((x) => x.label)).toEqual([v2.vehiidno, '旧牌OLD1']);
    expect((await search(admin, { keyword: '旧牌OLD' })).data.total).toBe(1);
    const byOperator = await search(admin, { keyword: '张调' });
    expect(byOperator.data.records.map((x) => x.recordId)).toEqual([v1.id]);
    const creates = await search(admin, { operation: 'create', size: 500 });
    expect(creates.data.records.every((x) => x.operation === 'create')).toBe(true);
    expect(creates.data.records.filter((x) => x.recordId === v1.id || x.recordId === v2.id).map((x) => x.recordId)).toEqual([v1.id]);
    const exact = now - DAY;
    const period = await search(admin, { from: exact, to: exact });
    expect(period.data.total).toBe(2);
    const lastWeek = await search(admin, { from: now - 7 * DAY, to: now });
    expect(lastWeek.data.records.some((x) => x.after?.remark === '旧记录')).toBe(false);
  });

  it('refuses a period over 92 days or reversed with 400 naming `to`, and writes nothing', async () => {
    const before = fingerprint(server.app);
    const long = await search(admin, { from: now - 93 * DAY, to: now }, 'vehicle', 'en');
    expect(long.status).toBe(400);
    expect(long.msg).toBe('The period may span at most 92 days');
    const body = (await fetch(`${server.url}/service-priv/binlog/vehicle`, { method: 'POST', headers: { 'x-jwt': admin, 'content-type': 'application/json' }, body: JSON.stringify({ from: now - 93 * DAY, to: now }) }).then((x) => x.json())) as { errors?: Record<string, { code: string }> };
    expect(body.errors?.to?.code).toBe('periodSpan');
    expect((await search(admin, { from: now - 92 * DAY, to: now })).status).toBe(200);
    expect((await search(admin, { from: now, to: now - 1 })).status).toBe(400);
    const oneEnd = await search(admin, { to: now }, 'vehicle', 'en');
    expect(oneEnd.status).toBe(400);
    expect(oneEnd.msg).toContain('from');
    expect((await search(admin, { operation: 'drop table' })).status).toBe(400);
    expect((await search(admin, { operation: 'resetRegistration' })).status).toBe(200);
    expect((await search(admin, { size: 501 })).status).toBe(400);
    expect((await search(admin, { userId: 1 })).status).toBe(400);
    expect((await server.call('POST', '/service-priv/binlog/vehicle/excel', { token: admin, body: { from: 0, to: now } })).status).toBe(400);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });
});

describe('scoping and bits', () => {
  it('a branch reads its subtree only; a foreign companyId is 403; no screen bit is 403', async () => {
    const eastUser = await createUserWithRole(server, 'log_east', east.id, ids(VLOG, DLOG, '/information/vehicle'));
    const seen = await search(eastUser, { size: 500 });
    expect(seen.code).toBe(200);
    const db = (server.app.storage as SqliteStorage).db;
    const eastIds = new Set((db.prepare('SELECT id FROM company WHERE path >= ? AND path < ?').all(east.path, `${east.path}~`) as { id: number }[]).map((c) => c.id));
    expect(seen.data.records.some((x) => x.recordId === v1.id)).toBe(true);
    expect(seen.data.records.filter((x) => !eastIds.has(x.companyId))).toEqual([]);
    expect(seen.data.records.some((x) => x.recordId === v2.id)).toBe(false);
    expect((await search(eastUser, { companyId: south.id })).status).toBe(403);
    const noBits = await createUserWithRole(server, 'log_none', east.id, ids('/information/vehicle'));
    expect((await search(noBits, {})).status).toBe(403);
    expect((await search(noBits, {}, 'device')).status).toBe(403);
    const deviceOnly = await createUserWithRole(server, 'log_dev', east.id, ids(DLOG));
    expect((await search(deviceOnly, {})).status).toBe(403);
    expect((await search(deviceOnly, { keyword: v1.device_no }, 'device')).data.total).toBe(1);
    // export needs its own bit (348 / 349)
    expect((await server.call('POST', '/service-priv/binlog/vehicle/excel', { token: eastUser, body: {} })).status).toBe(403);
  });

  it('a record trail: the record screen admits, a record outside the subtree is 404, a deleted record reads from its rows', async () => {
    const eastUser = await createUserWithRole(server, 'trail_east', east.id, ids('/information/vehicle'));
    const own = await server.call<Page>('GET', `/service-priv/binlog/record?resource=vehicle&recordId=${v1.id}`, { token: eastUser });
    expect(own.code).toBe(200);
    expect(own.data.records.map((x) => x.operation)).toEqual(['update', 'create', 'update']);
    expect((await server.call('GET', `/service-priv/binlog/record?resource=vehicle&recordId=${v2.id}`, { token: eastUser })).status).toBe(404);
    // a vehicle with no rows yet: an empty trail, not 404
    const fresh = await server.call<Page>('GET', `/service-priv/binlog/record?resource=vehicle&recordId=${v1.id + 1}`, { token: admin });
    expect(fresh.code).toBe(200);
    expect((await server.call('GET', `/service-priv/binlog/record?resource=device&recordId=${deviceId}`, { token: eastUser })).status).toBe(403);
    expect((await server.call('GET', '/service-priv/binlog/record?resource=vehicle&recordId=99999999', { token: admin })).status).toBe(404);
    expect((await server.call('GET', '/service-priv/binlog/record?resource=user&recordId=1', { token: admin })).status).toBe(400);

    await server.app.storage.changeLog.append(entry({ recordId: 99999998, label: '粤B·已删', companyId: east.id, operation: 'delete', before: { vehiidno: '粤B·已删' } }));
    const gone = await server.call<Page>('GET', '/service-priv/binlog/record?resource=vehicle&recordId=99999998', { token: eastUser });
    expect(gone.data.records.map((x) => x.operation)).toEqual(['delete']);
  });

  it("a moved record's rows follow it: the old owner no longer reads them, the new owner does", async () => {
    const eastUser = await createUserWithRole(server, 'move_east', east.id, ids(VLOG, '/information/vehicle'));
    const southUser = await createUserWithRole(server, 'move_south', south.id, ids(VLOG, '/information/vehicle'));
    const movedId = 99999990;
    await server.app.storage.changeLog.append(entry({ recordId: movedId, label: '沪A·MOVE1', companyId: east.id, operation: 'create', after: { vehiidno: '沪A·MOVE1' } }));
    expect((await search(eastUser, { keyword: 'MOVE1' })).data.total).toBe(1);
    expect((await search(southUser, { keyword: 'MOVE1' })).data.total).toBe(0);
    await server.app.storage.transaction(async (tx) => {
      await tx.changeLog.moveRecord('vehicle', movedId, south.id);
      await tx.changeLog.append(entry({ recordId: movedId, label: '沪A·MOVE1', companyId: south.id, operation: 'move', before: { companyId: east.id }, after: { companyId: south.id } }));
    });
    expect((await search(eastUser, { keyword: 'MOVE1' })).data.total).toBe(0);
    const moved = await search(southUser, { keyword: 'MOVE1' });
    expect(moved.data.records.map((x) => x.operation)).toEqual(['move', 'create']);
    // the old company is outside the new owner's subtree: it stays unnamed there, named for the administrator
    expect(moved.data.records[0]!.names.company?.[String(east.id)]).toBeUndefined();
    expect(moved.data.records[0]!.names.company?.[String(south.id)]).toBe(south.name);
    expect((await search(admin, { keyword: 'MOVE1' })).data.records[0]!.names.company?.[String(east.id)]).toBe(east.name);
  });
});

describe('export', () => {
  async function exported(lang: 'zh' | 'en', body: Record<string, unknown>): Promise<string[][]> {
    const start = await server.call<{ taskId: string }>('POST', '/service-priv/binlog/vehicle/excel', { token: admin, body, lang });
    expect(start.code).toBe(200);
    for (let i = 0; i < 100; i++) {
      const s = await server.call<{ status: string }>('GET', `/service-priv/binlog/vehicle/export_status?taskId=${start.data.taskId}`, { token: admin, lang });
      if (s.data.status === 'done') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const res = await fetch(`${server.url}/service-priv/binlog/vehicle/excel_file?taskId=${start.data.taskId}`, { headers: { 'x-jwt': admin, 'x-lang': lang } });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const rows: string[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    return rows;
  }

  it('writes the search as a sheet, each change as "field: before → after" in the caller\'s language', async () => {
    const zh = await exported('zh', { keyword: v1.vehiidno, operation: 'update', from: now - 7 * DAY, to: now });
    expect(zh[0]).toEqual(['操作时间', '操作人', '来源IP', '车牌号', '所属公司', '操作类型', '变更内容']);
    expect(zh).toHaveLength(2);
    expect(zh[1]!.slice(1, 4)).toEqual(['张调度', '192.168.1.20', v1.vehiidno]);
    expect(zh[1]![5]).toBe('修改');
    expect(zh[1]![6]).toBe('车牌颜色: 蓝色 → 黄色\n保险到期日: — → 2027-01-31');
    const en = await exported('en', { keyword: v1.vehiidno, operation: 'update', from: now - 7 * DAY, to: now });
    expect(en[0]![6]).toBe('Changes');
    expect(en[1]![6]).toBe('Plate colour: Blue → Yellow\nInsurance expires: — → 2027-01-31');
  });
});
