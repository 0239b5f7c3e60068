import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { chinaDate, chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { NewAlarm } from '../../db/alarm-types.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole } from '../../test/users.ts';

interface Counts { count: number; occurrences: number; unprocessed: number; vehicles: number }
interface Result<R> { total: Counts; records: (R & Counts)[] }
interface Alarm { id: number; alarmType: number; vehicleId: number; companyId: number; startTime: number; driverName: string; dealStatus: number }
interface AlarmPage { records: Alarm[]; total: number; capped: boolean; matched: number }

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer;
let admin: string, safety: string, operator: string, east: string;
let eastId: number, eastPath: string, rootId: number;
/** What was stored, to compare the aggregates with. */
const stored: { id: number; vehicleId: number; companyId: number; companyPath: string; alarmType: number; startTime: number; count: number; dealStatus: number; driver: string }[] = [];
let today: number;
/** Start of the China day two days ago: the period's first day. */
let day0: number;

const period = () => ({ startTime: day0, endTime: today + DAY - 1 });
const post = <T>(path: string, body: Record<string, unknown>, token = admin, lang: 'zh' | 'en' = 'zh') =>
  server.call<T>('POST', `/service-safe/${path}`, { token, body, lang });

async function download(path: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'zh', method = 'POST', token = admin) {
  const url = method === 'GET' ? `${server.url}/service-safe/${path}?${new URLSearchParams(body as Record<string, string>)}` : `${server.url}/service-safe/${path}`;
  const res = await fetch(url, { method, headers: { 'x-jwt': token, 'x-lang': lang, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) }, body: method === 'POST' ? JSON.stringify(body) : undefined });
  if (!(res.headers.get('content-type') ?? '').includes('spreadsheetml')) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return { res, rows };
}

function expected(filter: (a: (typeof stored)[number]) => boolean): Counts {
  const rows = stored.filter(filter);
  return {
    count: rows.length, occurrences: rows.reduce((s, r) => s + r.count, 0), unprocessed: rows.filter((r) => r.dealStatus === 0).length,
    vehicles: new Set(rows.map((r) => r.vehicleId)).size,
  };
}

beforeAll(async () => {
  server = await startServer({ seedVehicles: 40 });
  admin = await server.login('admin', 'admin123');
  safety = await server.login('safety', 'safety123');
  operator = await server.login('operator', 'operator123');
  const branch = await server.app.storage.users.findByUsername('branch');
  eastId = branch!.companyId;
  eastPath = (await server.app.storage.companies.get(ALL_COMPANIES, eastId))!.path;
  rootId = (await server.app.storage.users.findByUsername('admin'))!.companyId;
  // Registry ids: 17 /safeManagement, 18 alarmProcessingPage, 30 /safeManagement/alarm, 31 statistics.
  east = await createUserWithRole(server, 'eaststats', eastId, [17, 18, 30, 31]);

  const now = Date.now();
  today = chinaDayStartMs(chinaDayIndex(now));
  day0 = today - 2 * DAY;
  const vehicles = await server.app.storage.terminals.allVehicles();
  const inEast = vehicles.filter((v) => v.companyPath.startsWith(eastPath));
  const outside = vehicles.filter((v) => !v.companyPath.startsWith(eastPath));
  // Types: overspeed 12001, fatigue 10001, phone 10002, offline 11004; three days, east and elsewhere, some merged, some handled.
  const plan: [vehicle: (typeof vehicles)[number], type: number, dayOffset: number, hour: number, count: number, deal: 0 | 2 | 3, driver: string][] = [
    [inEast[0]!, 12001, 0, 9, 1, 0, '王师傅'], [inEast[0]!, 12001, 0, 11, 3, 2, '王师傅'], [inEast[0]!, 10001, 1, 8, 1, 0, ''],
    [inEast[1]!, 10001, 1, 10, 2, 0, '王师傅'], [inEast[1]!, 10002, 2, 7, 1, 3, ''], [inEast[2]!, 12001, 2, 6, 1, 0, ''],
    [outside[0]!, 12001, 0, 15, 1, 0, '李师傅'], [outside[0]!, 11004, 1, 16, 1, 0, ''], [outside[1]!, 10001, 2, 1, 4, 2, ''],
  ];
  const db = (server.app.storage as SqliteStorage).db;
  for (const [v, type, d, h, count, deal, driver] of plan) {
    const startTime = day0 + d * DAY + h * HOUR;
    const a: NewAlarm = {
      vehicleId: v.vehicleId, deviceNo: v.deviceNo, companyId: v.companyId, alarmType: type, source: 'bit', startTime, lng: 121.5, lat: 31.2,
      speed: 60, riskLevel: 'medium', dealStatus: 0, createTime: startTime,
    };
    const id = await server.app.storage.alarms.insert(a);
    if (count > 1) await server.app.storage.alarms.merge(id, startTime + 60_000, count);
    if (deal !== 0) db.prepare('UPDATE alarm SET deal_status = ? WHERE id = ?').run(deal, id);
    // The driver recorded on the alarm (migration 11): what a 0x0702 sign-in would leave there.
    if (driver) db.prepare('UPDATE alarm SET driver_name = ? WHERE id = ?').run(driver, id);
    stored.push({ id, vehicleId: v.vehicleId, companyId: v.companyId, companyPath: v.companyPath, alarmType: type, startTime, count, dealStatus: deal, driver });
  }
  // One alarm before the period, which no aggregate may count.
  const v = outside[2]!;
  await server.app.storage.alarms.insert({ vehicleId: v.vehicleId, deviceNo: v.deviceNo, companyId: v.companyId, alarmType: 12001, source: 'bit', startTime: day0 - HOUR, lng: 0, lat: 0, speed: 0, riskLevel: 'low', dealStatus: 0, createTime: day0 - HOUR });
});

afterAll(async () => {
  await server.close();
});

describe('alarm statistics by type, day, vehicle, driver and company', () => {
  it('counts alarms per type exactly as stored, with names in the caller’s language and the period total', async () => {
    const r = await post<Result<{ alarmType: number; alarmName: string; alarmGroup: number; groupName: string }>>('aggregate/alarm/type', period(), admin, 'en');
    expect(r.code).toBe(200);
    const types = [...new Set(stored.map((s) => s.alarmType))];
    expect(r.data.records.map((x) => x.alarmType).sort()).toEqual(types.sort());
    for (const row of r.data.records) {
      expect(row).toMatchObject({ ...expected((s) => s.alarmType === row.alarmType), alarmName: alarmName(row.alarmType, 'en'), alarmGroup: Math.floor(row.alarmType / 1000) });
    }
    expect(r.data.records.find((x) => x.alarmType === 12001)).toMatchObject({ count: 4, occurrences: 6, unprocessed: 3, vehicles: 3, groupName: 'Speeding' });
    // Busiest type first.
    expect(r.data.records[0]!.alarmType).toBe(12001);
    expect(r.data.total).toEqual(expected(() => true));
  });

  it('counts every China day of the period, zero days included, and never days after today', async () => {
    const r = await post<Result<{ date: string }>>('aggregate/alarm/date', { startTime: day0, endTime: today + 30 * DAY });
    expect(r.code).toBe(200);
    expect(r.data.records.map((x) => x.date)).toEqual([0, 1, 2].map((d) => chinaDate(day0 + d * DAY)));
    for (const [d, row] of r.data.records.entries()) expect(row).toMatchObject(expected((s) => s.startTime >= day0 + d * DAY && s.startTime < day0 + (d + 1) * DAY));
    const narrow = await post<Result<{ date: string }>>('aggregate/alarm/date', { startTime: day0 + DAY, endTime: day0 + DAY + 9 * HOUR });
    expect(narrow.data.records).toEqual([{ date: chinaDate(day0 + DAY), count: 1, occurrences: 1, unprocessed: 1, vehicles: 1 }]);
  });

  it('counts per vehicle with plate and company, and applies type, group, state and vehicle filters', async () => {
    const r = await post<Result<{ vehicleId: number; vehiidno: string; companyName: string }>>('aggregate/alarm/vehicle', period());
    expect(r.data.records).toHaveLength(new Set(stored.map((s) => s.vehicleId)).size);
    for (const row of r.data.records) {
      expect(row).toMatchObject(expected((s) => s.vehicleId === row.vehicleId));
      expect(row.vehiidno).not.toBe('');
    }
    const grouped = await post<Result<{ alarmType: number }>>('aggregate/alarm/type', { ...period(), alarmGroups: [10] });
    expect(grouped.data.records.map((x) => x.alarmType).sort()).toEqual([10001, 10002]);
    const open = await post<Result<{ alarmType: number }>>('aggregate/alarm/type', { ...period(), dealStatuses: [0] });
    expect(open.data.total.count).toBe(stored.filter((s) => s.dealStatus === 0).length);
    const one = stored[0]!.vehicleId;
    const only = await post<Result<{ vehicleId: number }>>('aggregate/alarm/vehicle', { ...period(), vehicleIds: [one], alarmTypes: [12001] });
    expect(only.data.records).toEqual([expect.objectContaining({ vehicleId: one, ...expected((s) => s.vehicleId === one && s.alarmType === 12001) })]);
    const risky = await post<Result<unknown>>('aggregate/alarm/type', { ...period(), riskLevels: ['high'] });
    expect(risky.data.total.count).toBe(0);
  });

  it('attributes alarms to the recorded driver across vehicles, and unidentified ones to each vehicle’s own bucket', async () => {
    const r = await post<Result<{ driverKey: string; driverName: string; identified: boolean; vehicleId: number; vehiidno: string }>>('aggregate/alarm/driver', period());
    const wang = r.data.records.find((x) => x.driverKey === 'n:王师傅');
    expect(wang).toMatchObject({ identified: true, driverName: '王师傅', ...expected((s) => s.driver === '王师傅') });
    expect(wang!.vehicles).toBe(2);
    const unidentified = r.data.records.filter((x) => !x.identified);
    expect(unidentified.map((x) => x.vehicleId).sort()).toEqual([...new Set(stored.filter((s) => !s.driver).map((s) => s.vehicleId))].sort());
    for (const u of unidentified) {
      expect(u.driverKey).toBe(`v:${u.vehicleId}`);
      expect(u.driverName).toBe(`未识别驾驶员（${u.vehiidno}）`);
      expect(u).toMatchObject(expected((s) => !s.driver && s.vehicleId === u.vehicleId));
    }
    expect(r.data.records.reduce((s, x) => s + x.count, 0)).toBe(stored.length);
  });

  it('rolls companies up into subtrees, with the parent’s own vehicles apart, and drills into a child by pid', async () => {
    const r = await post<{ parentId: number; total: Counts; records: ({ companyId: number; own: boolean; childCount: number } & Counts)[] }>('aggregate/alarm/company', period());
    expect(r.code).toBe(200);
    expect(r.data.parentId).toBe(null);
    expect(r.data.records.reduce((s, x) => s + x.count, 0)).toBe(stored.length);
    const eastRows = await post<{ parentId: number; records: ({ companyId: number; companyName: string; own: boolean } & Counts)[] }>('aggregate/alarm/company', { ...period(), pid: eastId });
    expect(eastRows.data.parentId).toBe(eastId);
    expect(eastRows.data.records[0]).toMatchObject({ companyId: eastId, own: true, ...expected((s) => s.companyId === eastId) });
    const companies = await server.app.storage.companies.listAll(ALL_COMPANIES);
    for (const row of eastRows.data.records.slice(1)) {
      const path = companies.find((c) => c.id === row.companyId)!.path;
      expect(row).toMatchObject({ own: false, ...expected((s) => s.companyPath.startsWith(path)) });
    }
    expect(eastRows.data.records.reduce((s, x) => s + x.count, 0)).toBe(expected((s) => s.companyPath.startsWith(eastPath)).count);
  });
});

describe('scope, permissions and validation', () => {
  it('limits a branch user to its subtree, refuses companies outside it, and refuses users without the page', async () => {
    const r = await post<Result<{ vehicleId: number }>>('aggregate/alarm/vehicle', period(), east);
    expect(r.code).toBe(200);
    expect(r.data.total).toEqual(expected((s) => s.companyPath.startsWith(eastPath)));
    expect((await post('aggregate/alarm/type', { ...period(), companyId: rootId }, east)).code).toBe(403);
    expect((await post('aggregate/alarm/company', { ...period(), pid: rootId }, east)).code).toBe(404);
    const outsider = stored.find((s) => !s.companyPath.startsWith(eastPath))!;
    const cell = await post<AlarmPage>('aggregate/alarms', { ...period(), vehicleId: outsider.vehicleId }, east);
    expect(cell.data.total).toBe(0);
    expect((await post('aggregate/alarm/type', period(), operator)).code).toBe(403);
    expect((await post('aggregate/alarm/type', period(), safety)).code).toBe(200);
  });

  it('answers 400 with the period rules’ messages and names bad fields', async () => {
    const after = await post('aggregate/alarm/type', { startTime: today, endTime: today - 1 }, admin, 'en');
    expect([after.status, after.msg]).toEqual([400, 'The start time cannot be after the end time']);
    const old = await post('aggregate/alarm/date', { startTime: Date.now() - 100 * DAY, endTime: Date.now() });
    expect([old.status, old.msg]).toEqual([400, '只能查询最近3个月的报警']);
    const unknown = await post('aggregate/alarm/vehicle', { ...period(), plate: 'x' }, admin, 'en');
    expect(unknown.status).toBe(400);
    expect(unknown.msg).toContain('plate');
    const risk = await post('aggregate/alarm/type', { ...period(), riskLevels: ['extreme'] });
    expect(risk.status).toBe(400);
    expect((await post('aggregate/alarms', { ...period(), driverKey: 'x:1' }, admin, 'en')).msg).toBe('The driver key is not valid');
    expect((await post('aggregate/alarms', { ...period(), date: '2026/01/01' })).status).toBe(400);
    expect((await post('aggregate/alarm/type/excel', { ...period(), pid: eastId })).status).toBe(400);
  });
});

describe('the alarms behind a cell and the exports', () => {
  it('lists exactly the alarms counted in a cell, newest first', async () => {
    const byType = await post<Result<{ alarmType: number }>>('aggregate/alarm/type', period());
    for (const row of byType.data.records) {
      const cell = await post<AlarmPage>('aggregate/alarms', { ...period(), alarmType: row.alarmType, size: 100 });
      expect(cell.data.total).toBe(row.count);
      expect(cell.data.records.map((a) => a.id).sort()).toEqual(stored.filter((s) => s.alarmType === row.alarmType).map((s) => s.id).sort());
      const times = cell.data.records.map((a) => a.startTime);
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    const day = await post<AlarmPage>('aggregate/alarms', { ...period(), date: chinaDate(day0 + DAY), size: 100 });
    expect(day.data.total).toBe(expected((s) => s.startTime >= day0 + DAY && s.startTime < day0 + 2 * DAY).count);
    const wang = await post<AlarmPage>('aggregate/alarms', { ...period(), driverKey: 'n:王师傅' });
    expect(wang.data.records.every((a) => a.driverName === '王师傅')).toBe(true);
    expect(wang.data.total).toBe(3);
    const own = await post<AlarmPage>('aggregate/alarms', { ...period(), ownCompanyId: eastId });
    expect(own.data.total).toBe(expected((s) => s.companyId === eastId).count);
  });

  it('exports a cell’s alarms as a readable .xlsx with a header in the caller’s language and one row per alarm', async () => {
    const { res, rows } = await download('aggregate/alarms/excel', { ...period(), alarmType: 12001 }, 'en');
    expect(res.headers.get('content-disposition')).toContain('alarm_details.xlsx');
    expect(rows[0]).toContain('Plate');
    expect(rows[0]).toContain('Alarm type');
    expect(rows).toHaveLength(1 + 4);
    expect(rows.slice(1).every((r) => r.includes(alarmName(12001, 'en')))).toBe(true);
  });

  it('exports a statistics table with a total row', async () => {
    const { rows } = await download('aggregate/alarm/type/excel', period(), 'zh');
    expect(rows[0]).toEqual(['报警分类', '报警类型', '报警数', '发生次数', '未处理', '涉及车辆']);
    const overspeed = rows.find((r) => r[1] === alarmName(12001, 'zh'))!;
    expect(overspeed).toEqual(['超速', alarmName(12001, 'zh'), 4, 6, 3, 3]);
    expect(rows.at(-1)!.slice(0, 3)).toEqual(['合计', '', stored.length]);
    const company = await download('aggregate/alarm/company/excel', { ...period(), pid: eastId }, 'en');
    expect(String(company.rows[1]![0])).toContain('(own vehicles)');
  });

  it('runs the processing page’s export as a job: excel → export_status → excel_file with the query’s rows', async () => {
    const started = await post<{ taskId: string }>('alarmInfo/excel', { ...period(), dealStatuses: [0] }, safety);
    expect(started.code).toBe(200);
    let status: { status: string; total: number; exported: number } | undefined;
    for (let i = 0; i < 50; i++) {
      status = (await server.call<{ status: string; total: number; exported: number }>('GET', `/service-safe/alarmInfo/export_status?taskId=${started.data.taskId}`, { token: safety })).data;
      if (status.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const open = stored.filter((s) => s.dealStatus === 0).length;
    expect(status).toEqual({ status: 'done', total: open, exported: open });
    // Another user cannot see the job.
    expect((await server.call('GET', `/service-safe/alarmInfo/export_status?taskId=${started.data.taskId}`, { token: admin })).status).toBe(404);
    const { rows } = await download('alarmInfo/excel_file', { taskId: started.data.taskId }, 'zh', 'GET', safety);
    expect(rows).toHaveLength(1 + open);
    expect(rows.slice(1).every((r) => r.includes('未处理'))).toBe(true);
    const bad = await post('alarmInfo/excel', { startTime: Date.now() - 100 * DAY, endTime: Date.now() }, safety, 'en');
    expect([bad.status, bad.msg]).toEqual([400, 'Only alarms of the last 3 months can be queried']);
  });

  it('reports a failed export job with the spec’s message and refuses its file', async () => {
    const alarms = server.app.storage.alarms;
    const query = alarms.query.bind(alarms);
    alarms.query = () => Promise.reject(new Error('disk gone'));
    try {
      const started = await post<{ taskId: string }>('alarmInfo/excel', period(), safety, 'en');
      let status: { status: string; message?: string } | undefined;
      for (let i = 0; i < 50 && status?.status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = (await server.call<{ status: string; message?: string }>('GET', `/service-safe/alarmInfo/export_status?taskId=${started.data.taskId}`, { token: safety, lang: 'en' })).data;
      }
      expect(status).toMatchObject({ status: 'failed', message: 'The export failed; try again later' });
      const file = await server.call('GET', `/service-safe/alarmInfo/excel_file?taskId=${started.data.taskId}`, { token: safety });
      expect([file.status, file.msg]).toEqual([400, '导出失败，请稍后重试']);
    } finally {
      alarms.query = query;
    }
  });

  it('answers the dashboard’s driver-fatigue and vehicle-risk sets in the spec’s order', async () => {
    const r = await server.call<{ driverFatigue: { count: number; records: { alarmType: number; count: number }[] }; vehicleRisk: { count: number } }>(
      'GET', `/service-safe/aggregate/driveBehaviourStat?startTime=${day0}&endTime=${today + DAY - 1}`, { token: operator });
    expect(r.code).toBe(200);
    expect(r.data.driverFatigue.records.map((x) => x.alarmType)).toEqual([10001, 10002, 10003, 10013, 10004, 10005, 10034, 10032]);
    expect(r.data.driverFatigue.count).toBe(expected((s) => s.alarmType === 10001 || s.alarmType === 10002).count);
    expect(r.data.vehicleRisk.count).toBe(0);
  });
});
