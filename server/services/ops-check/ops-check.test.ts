/**
 * Ops check against a real server: targets validated (weights sum, ranges, Chinese messages) and refused
 * without the bit with nothing written; KPIs measured from the alarm table as handled through the real
 * handling call (the east branch handles its alarms and passes, the west branch leaves them and fails);
 * another company's KPIs are invisible and untouchable; a correction keeps the measured value, moves
 * pass/fail and leaves its audit row; the downloads carry the company's real figures and no URL; a
 * closed month is frozen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDayIndex } from '../../../domain/track/days.ts';
import { freezesAt, monthDays, monthOfDay } from '../../../domain/ops-check/kpi.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

interface Item { id: number; code: string; measured: number | null; corrected: number | null; value: number | null; target: number; passed: boolean | null; reason: string }
interface CompanyKpis { companyId: number; companyName: string; frozen: boolean; score: number | null; items: Item[] }
interface KpiPage { records: CompanyKpis[]; total: number; month: string }

let server: TestServer;
let db: SqliteStorage['db'];
let admin: string, eastAuditor: string, noBits: string;
let eastId: number, westId: number;
let eastVehicle: number, westVehicle: number;

const REPORT = '/operation/operationManagement/opsCheckReport';
const SETTING = '/operation/operationManagement/opsCheckSetting';
const call = <T>(method: string, url: string, token: string, body?: unknown) => server.call<T>(method, url, { token, body });
const defaults = () => [
  { code: 'onlineRate', target: 90, weight: 30 }, { code: 'dataQuality', target: 95, weight: 20 },
  { code: 'alarmHandlingMinutes', target: 30, weight: 20 }, { code: 'alarmHandlingRate', target: 90, weight: 30 },
];
const month = () => monthOfDay(chinaDayIndex(Date.now()));
const kpisOf = async (token: string, companyId: number) => {
  const r = await call<KpiPage>('GET', `/service-ops/kpi/list?companyId=${companyId}&current=1&size=50`, token);
  expect(r.code).toBe(200);
  return r.data.records.find((c) => c.companyId === companyId)!;
};
const item = (c: CompanyKpis, code: string) => c.items.find((i) => i.code === code)!;

function insertAlarm(vehicleId: number, companyId: number, startTime: number): number {
  const device = (db.prepare('SELECT device_no FROM vehicle WHERE id = ?').get(vehicleId) as { device_no: string | null }).device_no ?? '';
  return Number(db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, create_time)
    VALUES (?, ?, ?, 1, 'bit', ?, ?, 120.1, 30.2, 40, 'high', ?)`).run(vehicleId, device, companyId, startTime, startTime, startTime).lastInsertRowid);
}

beforeAll(async () => {
  server = await startServer();
  db = (server.app.storage as SqliteStorage).db;
  admin = await server.login('admin', 'admin123');
  eastId = (db.prepare("SELECT id FROM company WHERE name = '华东分公司'").get() as { id: number }).id;
  westId = (db.prepare('SELECT id FROM company WHERE pid = 1 AND id <> ? ORDER BY id LIMIT 1').get(eastId) as { id: number }).id;
  const vehicleUnder = (companyId: number) => {
    const path = (db.prepare('SELECT path FROM company WHERE id = ?').get(companyId) as { path: string }).path;
    return db.prepare(`SELECT v.id, v.company_id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE c.path LIKE ? || '%' ORDER BY v.id LIMIT 1`).get(path) as { id: number; company_id: number };
  };
  const e = vehicleUnder(eastId);
  const w = vehicleUnder(westId);
  eastVehicle = e.id;
  westVehicle = w.id;
  // Two alarms a vehicle, an hour old: the east branch handles its own through the real call, the west leaves them.
  const start = Date.now() - 3_600_000;
  const eastAlarms = [insertAlarm(eastVehicle, e.company_id, start), insertAlarm(eastVehicle, e.company_id, start + 60_000)];
  insertAlarm(westVehicle, w.company_id, start);
  insertAlarm(westVehicle, w.company_id, start + 60_000);
  const handled = await call('PUT', '/service-safe/alarmInfo/handle_status', admin, { ids: eastAlarms, dealType: 1, dealContent: '已电话提醒司机' });
  expect(handled.code).toBe(200);
  const bits = [permissionId('/operation'), permissionId('/operation/operationManagement'), permissionId(REPORT), permissionId(`${REPORT}:correct`),
    permissionId(`${REPORT}:download`), permissionId(SETTING), permissionId(`${SETTING}:update`)];
  eastAuditor = await createUserWithRole(server, 'ops_east', eastId, bits);
  noBits = await createUserWithRole(server, 'ops_none', eastId, [permissionId('/operation'), permissionId(REPORT)]);
}, 120_000);
afterAll(() => server?.close());

describe('ops check', () => {
  it('settings: weights must add up to 100 and targets lie in range (Chinese messages); refused without the bit, writing nothing', async () => {
    const heavy = defaults().map((d, i) => (i === 0 ? { ...d, weight: 40 } : d));
    const r1 = await call('POST', '/service-ops/kpiSetting/addOrUpdate', eastAuditor, { items: heavy });
    expect(r1.status).toBe(400);
    expect(r1.msg).toContain('各项权重之和必须为 100（当前 110）');
    const badTarget = defaults().map((d, i) => (i === 3 ? { ...d, target: 120 } : d));
    const r2 = await call('POST', '/service-ops/kpiSetting/addOrUpdate', eastAuditor, { items: badTarget });
    expect(r2.status).toBe(400);
    expect(r2.msg).toContain('报警处理率的目标值须在 0–100 之间');
    const r3 = await call('POST', '/service-ops/kpiSetting/addOrUpdate', eastAuditor, { items: defaults().slice(1) });
    expect(r3.msg).toContain('缺少车辆上线率(车辆天)的设置');
    const refused = await call('POST', '/service-ops/kpiSetting/addOrUpdate', noBits, { items: defaults() });
    expect(refused.status).toBe(403);
    expect(server.count('ops_kpi_setting')).toBe(0);
    // A valid setting is kept for the company and inherited by its sub-companies.
    const saved = await call('POST', '/service-ops/kpiSetting/addOrUpdate', eastAuditor, { companyId: eastId, items: defaults().map((d) => (d.code === 'onlineRate' ? { ...d, target: 0 } : d)) });
    expect(saved.code).toBe(200);
    const fleet = (db.prepare('SELECT id FROM company WHERE pid = ? ORDER BY id LIMIT 1').get(eastId) as { id: number }).id;
    const got = await call<{ inherited: boolean; fromCompanyId: number; items: { code: string; target: number }[] }>('GET', `/service-ops/kpiSetting/get?companyId=${fleet}`, eastAuditor);
    expect(got.data).toMatchObject({ inherited: true, fromCompanyId: eastId });
    expect(got.data.items.find((i) => i.code === 'onlineRate')!.target).toBe(0);
  });

  it('measures alarm handling from the stored alarms: the east branch that handled its alarms passes, the west branch that left them fails', async () => {
    const east = await kpisOf(admin, eastId);
    const west = await kpisOf(admin, westId);
    expect(item(east, 'alarmHandlingRate')).toMatchObject({ measured: 100, passed: true });
    expect(item(west, 'alarmHandlingRate')).toMatchObject({ measured: 0, passed: false });
    // The west alarms waited an hour and more: over the 30-minute target.
    expect(item(west, 'alarmHandlingMinutes').measured).toBeGreaterThanOrEqual(59);
    expect(item(west, 'alarmHandlingMinutes').passed).toBe(false);
    expect(east.score!).toBeGreaterThan(west.score!);
  });

  it('a target change moves pass/fail of the current month at once', async () => {
    const before = item(await kpisOf(eastAuditor, eastId), 'alarmHandlingRate');
    expect(before.passed).toBe(true);
    // No west alarm was handled, so even a 1% target fails; for the east, raise the minutes target to an impossible 1 min.
    await call('POST', '/service-ops/kpiSetting/addOrUpdate', eastAuditor, { companyId: eastId, items: defaults().map((d) => (d.code === 'alarmHandlingMinutes' ? { ...d, target: 1 } : d)) });
    const after = await kpisOf(eastAuditor, eastId);
    expect(item(after, 'alarmHandlingMinutes')).toMatchObject({ target: 1, passed: false });
    await call('POST', '/service-ops/kpiSetting/addOrUpdate', eastAuditor, { companyId: eastId, items: defaults() });
  });

  it('attack: a branch auditor reading or correcting another branch’s KPIs sees nothing and changes nothing', async () => {
    const list = await call<KpiPage>('GET', '/service-ops/kpi/list?current=1&size=100', eastAuditor);
    expect(list.data.records.length).toBeGreaterThan(0);
    expect(list.data.records.map((r) => r.companyId)).not.toContain(westId);
    expect((await call('GET', `/service-ops/kpi/list?companyId=${westId}&current=1&size=10`, eastAuditor)).code).not.toBe(200);
    const westKpi = item(await kpisOf(admin, westId), 'alarmHandlingRate');
    const r = await call('POST', '/service-ops/kpi/update', eastAuditor, { id: westKpi.id, value: 100, reason: '篡改' });
    expect(r.status).toBe(404);
    expect(item(await kpisOf(admin, westId), 'alarmHandlingRate')).toMatchObject({ corrected: null, passed: false });
    expect((await call('GET', `/service-ops/analyseReport/downloadHTML?companyId=${westId}`, eastAuditor)).status).toBe(404);
    expect((await call('GET', `/service-ops/insureReport/list?companyId=${westId}&current=1&size=10`, eastAuditor)).status).toBe(404);
  });

  it('a correction keeps the measured value, is judged instead of it, needs a reason, and leaves its audit row', async () => {
    const before = item(await kpisOf(admin, westId), 'alarmHandlingRate');
    const noReason = await call('POST', '/service-ops/kpi/update', admin, { id: before.id, value: 95, reason: '  ' });
    expect(noReason.status).toBe(400);
    const tooHigh = await call('POST', '/service-ops/kpi/update', admin, { id: before.id, value: 101, reason: '复核' });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.msg).toContain('修正值须在 0–100 之间');
    const r = await call<CompanyKpis>('POST', '/service-ops/kpi/update', admin, { id: before.id, value: 95, reason: '报警为设备误报，已核实' });
    expect(r.code).toBe(200);
    expect(item(r.data, 'alarmHandlingRate')).toMatchObject({ measured: 0, corrected: 95, value: 95, passed: true, reason: '报警为设备误报，已核实' });
    // A later recomputation keeps the correction.
    expect(item(await kpisOf(admin, westId), 'alarmHandlingRate')).toMatchObject({ measured: 0, corrected: 95 });
    await server.app.audit.flush();
    const row = db.prepare(`SELECT l.button, l.result FROM audit_log l JOIN audit_target t ON t.audit_id = l.id
      WHERE l.route = '/service-ops/kpi/update' AND t.target_id = ? ORDER BY l.id DESC LIMIT 1`).get(before.id) as { button: string; result: string } | undefined;
    expect(row).toMatchObject({ result: 'ok' });
    expect(row!.button).toContain('correct');
  });

  it('downloadHTML holds the company’s real figures, is self-contained (no URL), and the insurer list matches it', async () => {
    const res = await fetch(`${server.url}/service-ops/analyseReport/downloadHTML?companyId=${eastId}`, { headers: { 'x-jwt': eastAuditor } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const html = await res.text();
    expect(html).toContain('华东分公司');
    expect(html).toContain(month());
    expect(html).toContain('报警处理率');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/https?:|src=|href=|url\(|<script|@import/i);
    const plate = (db.prepare('SELECT vehiidno FROM vehicle WHERE id = ?').get(eastVehicle) as { vehiidno: string }).vehiidno;
    // The east vehicle's two alarms, both handled, in its row of the table.
    expect(html).toMatch(new RegExp(`${plate}</td><td>[^<]*</td><td class="n">[\\d.]+</td><td class="n">\\d+/\\d+</td><td class="n">2</td><td class="n">2</td><td class="n">2</td>`));
    const list = await call<{ records: { vehiidno: string; alarms: number; handledAlarms: number }[] }>('GET', `/service-ops/insureReport/list?companyId=${eastId}&current=1&size=500`, eastAuditor);
    expect(list.data.records.find((r) => r.vehiidno === plate)).toMatchObject({ alarms: 2, handledAlarms: 2 });
    const insure = await (await fetch(`${server.url}/service-ops/insureReport/downloadHTML?companyId=${eastId}`, { headers: { 'x-jwt': eastAuditor } })).text();
    expect(insure).toContain(plate);
    expect(insure).not.toMatch(/https?:|src=|href=|url\(/i);
    const refused = await fetch(`${server.url}/service-ops/analyseReport/downloadHTML?companyId=${eastId}`, { headers: { 'x-jwt': noBits } });
    expect(refused.status).toBe(403);
  });

  it('a closed month frozen before its grace ended (partial data) is not trusted: it is recomputed and frozen again', async () => {
    const previous = monthOfDay(monthDays(month())!.firstDay - 1);
    const early = freezesAt(previous) - 36 * 3_600_000; // the day after the month ended, before late uploads could land
    const put = db.prepare(`INSERT INTO ops_kpi (company_id, month, code, measured, target, weight, frozen, computed_time) VALUES (?, ?, ?, ?, ?, ?, 1, ?)`);
    for (const d of defaults()) put.run(westId, previous, d.code, d.code === 'onlineRate' ? 12.34 : null, d.target, d.weight, early);
    const r = await call<KpiPage>('GET', `/service-ops/kpi/list?companyId=${westId}&month=${previous}&current=1&size=5`, admin);
    const west = r.data.records.find((c) => c.companyId === westId)!;
    expect(item(west, 'onlineRate').measured).not.toBe(12.34);
    expect(west.frozen).toBe(true);
    const stored = db.prepare(`SELECT min(computed_time) AS t FROM ops_kpi WHERE company_id = ? AND month = ?`).get(westId, previous) as { t: number };
    expect(stored.t).toBeGreaterThanOrEqual(freezesAt(previous));
  });

  it('a closed month is frozen once computed: a later target change does not rewrite it; a future month is refused', async () => {
    const today = chinaDayIndex(Date.now());
    const previous = monthOfDay(monthDays(month())!.firstDay - 1);
    const r = await call<KpiPage>('GET', `/service-ops/kpi/list?companyId=${eastId}&month=${previous}&current=1&size=5`, admin);
    expect(r.code).toBe(200);
    const east = r.data.records.find((c) => c.companyId === eastId)!;
    expect(east.frozen).toBe(true);
    await call('POST', '/service-ops/kpiSetting/addOrUpdate', admin, { companyId: eastId, items: defaults().map((d) => (d.code === 'dataQuality' ? { ...d, target: 50 } : d)) });
    const again = (await call<KpiPage>('GET', `/service-ops/kpi/list?companyId=${eastId}&month=${previous}&current=1&size=5`, admin)).data.records.find((c) => c.companyId === eastId)!;
    expect(item(again, 'dataQuality').target).toBe(95);
    const future = monthOfDay(today + 40);
    const f = await call('GET', `/service-ops/kpi/list?month=${future}&current=1&size=5`, admin);
    expect(f.status).toBe(400);
    expect(f.msg).toContain('不能查询未来的月份');
  });
});
