import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { PositionRow } from '../../db/repositories.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { OILREPORT_BASE } from './index.ts';

const MIN = 60_000;
interface Company { id: number; pid: number; name: string }
interface Page<T> { records: T[]; total: number; totals: Record<string, number | null> }

let server: TestServer;
let admin: string;
let east: string;
let a: number; // east: refuel at a station and a theft at the depot on day D
let north: number; // a vehicle of another branch
const D = chinaDayIndex(Date.now()) - 3;
const date = (d: number) => chinaDateOfDay(d);
const at = (day: number, minute: number) => chinaDayStartMs(day) + minute * MIN;
const idOf = (key: string) => entryByKey(key)!.id;

function point(vehicleId: number, minute: number, fuel: number | null, lng: number, speed: number, mileage: number): PositionRow {
  const t = at(D, minute);
  return { vehicleId, gpsTime: t, lng, lat: 31.2, speed, heading: 0, altitude: 5, status: 3, alarm: 0, mileage, fuel, receivedAt: t };
}

/** The hand-made day of domain/report-day/fuel.test.ts: 80 L, 20 km to the station, +130 L, 20 km back, 40 L stolen at 12:00. */
function day(vehicleId: number): PositionRow[] {
  const out: PositionRow[] = [];
  let m = 480;
  for (let i = 0; i < 8; i++) out.push(point(vehicleId, m++, 80, 121.4, 0, 1000));
  for (let k = 1; k <= 20; k++) out.push(point(vehicleId, m++, Math.round((80 - 0.3 * k) * 10) / 10, 121.4 + k * 0.01, 60, 1000 + k));
  for (let i = 0; i < 5; i++) out.push(point(vehicleId, m++, 74, 121.6, 0, 1020));
  for (let l = 84; l <= 204; l += 10) out.push(point(vehicleId, m++, l, 121.6, 0, 1020));
  for (let i = 0; i < 8; i++) out.push(point(vehicleId, m++, 204, 121.6, 0, 1020));
  for (let k = 1; k <= 20; k++) out.push(point(vehicleId, m++, Math.round((204 - 0.3 * k) * 10) / 10, 121.6 - k * 0.01, 60, 1020 + k));
  m = 720;
  for (let i = 0; i < 6; i++) out.push(point(vehicleId, m++, 198, 121.4, 0, 1040));
  for (const l of [188, 178, 168, 158]) out.push(point(vehicleId, m++, l, 121.4, 0, 1040));
  for (let i = 0; i < 10; i++) out.push(point(vehicleId, m++, 158, 121.4, 0, 1040));
  return out;
}

beforeAll(async () => {
  server = await startServer({ seedVehicles: 20 });
  admin = await server.login('admin', 'admin123');
  const companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
  const eastCompany = companies.find((x) => x.name === '华东分公司')!;
  const northCompany = companies.find((x) => x.name === '华北分公司')!;
  const eastIds = new Set(companies.filter((x) => x.id === eastCompany.id || x.pid === eastCompany.id).map((x) => x.id));
  const role = await server.call<{ id: number }>('POST', '/service-priv/role', {
    token: admin,
    body: {
      name: '油耗分析', permissionIds: ['/report', '/report/vehicleOilAnalysis', '/report/vehicleOilAnalysis/oilSummary',
        '/report/vehicleOilAnalysis/oilSummary:export', '/report/vehicleOilAnalysis/oilAddDetails', '/report/vehicleOilAnalysis/oilLeakageDetails',
        '/report/vehicleOilAnalysis/oilChart'].map(idOf),
    },
  });
  const user = await server.call('POST', '/service-priv/user', {
    token: admin, body: { username: 'east_fuel', password: 'secret123', userLevel: 2, companyId: eastCompany.id, roleIds: [role.data.id] },
  });
  expect(user.code).toBe(200);
  east = await server.login('east_fuel', 'secret123');
  const vehicles = await server.app.storage.terminals.allVehicles();
  a = vehicles.find((v) => eastIds.has(v.companyId))!.vehicleId;
  north = vehicles.find((v) => v.companyPath.startsWith(`/1/${northCompany.id}/`))!.vehicleId;
  await server.app.storage.positions.append([...day(a), ...day(north)]);
  // Stored directly (not through the gateway): the engine recomputes the days from positions, as on late data.
  await server.app.reportEngine.recompute(a, D);
  await server.app.reportEngine.recompute(north, D);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const period = (extra: Record<string, unknown> = {}) => ({ startDate: date(D - 1), endDate: date(D), current: 1, size: 50, ...extra });

describe('fuel reports', () => {
  it('oilSummary: the vehicle\'s refuel, theft, consumption and L/100 km, from the engine\'s fuel rows', async () => {
    const res = await server.call<Page<Record<string, unknown>>>('POST', `${OILREPORT_BASE}/summary`, { token: east, body: period({ vehicleIds: [a] }) });
    expect(res.code).toBe(200);
    expect(res.data.records).toHaveLength(1);
    expect(res.data.records[0]).toMatchObject({
      vehicleId: a, days: 1, startLevel: 80, endLevel: 158, refuels: 1, refuelled: 130, leaks: 1, leaked: 40, consumed: 12, km: 40, per100km: 30,
    });
    expect(res.data.totals).toMatchObject({ refuelled: 130, leaked: 40, consumed: 12, km: 40, per100km: 30 });
  });

  it('oilAddDetails and oilLeakageDetails list the events with their levels', async () => {
    const refuels = await server.call<Page<Record<string, unknown>>>('POST', `${OILREPORT_BASE}/refuels`, { token: east, body: period({ vehicleIds: [a] }) });
    expect(refuels.data.records).toMatchObject([{ vehicleId: a, date: date(D), before: 74, after: 204, litres: 130 }]);
    const leaks = await server.call<Page<Record<string, unknown>>>('POST', `${OILREPORT_BASE}/leaks`, { token: east, body: period({ vehicleIds: [a] }) });
    expect(leaks.data.records).toMatchObject([{ vehicleId: a, before: 198, after: 158, litres: 40 }]);
  });

  it('oilChart: raw and smoothed levels of the day with the same markers', async () => {
    const res = await server.call<{ t: number[]; raw: number[]; smooth: number[]; events: { kind: string; litres: number }[] }>(
      'GET', `${OILREPORT_BASE}/chart?vehicleId=${a}&date=${date(D)}`, { token: east },
    );
    expect(res.code).toBe(200);
    expect(res.data.t).toHaveLength(94);
    expect(res.data.events.map((e) => [e.kind, e.litres])).toEqual([['refuel', 130], ['leak', 40]]);
  });

  it('refuses more than 500 vehicles and more than 31 days with the spec\'s sentences', async () => {
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    const tooMany = await server.call('POST', `${OILREPORT_BASE}/summary`, { token: east, body: period({ vehicleIds: many }) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.msg).toBe('最多选择500辆车，请缩小公司或勾选车辆');
    const tooLong = await server.call('POST', `${OILREPORT_BASE}/summary`, { token: east, body: { startDate: date(D - 31), endDate: date(D), current: 1, size: 10 } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.msg).toBe('查询时间段不能超过31天');
    const en = await server.call('POST', `${OILREPORT_BASE}/summary`, { token: east, lang: 'en', body: period({ vehicleIds: many }) });
    expect(en.msg).toBe('At most 500 vehicles can be selected; narrow the company or check vehicles');
  });

  it('another company\'s vehicle is not there: no rows, and its chart is 404', async () => {
    const res = await server.call<Page<unknown>>('POST', `${OILREPORT_BASE}/summary`, { token: east, body: period({ vehicleIds: [north] }) });
    expect(res.code).toBe(200);
    expect(res.data.records).toEqual([]);
    const chart = await server.call('GET', `${OILREPORT_BASE}/chart?vehicleId=${north}&date=${date(D)}`, { token: east });
    expect(chart.status).toBe(404);
  });

  it('exports the summary as an export job (.xlsx), behind the export bit', async () => {
    const start = await server.call<{ taskId: string }>('POST', `${OILREPORT_BASE}/summary/excel`, { token: east, body: { startDate: date(D), endDate: date(D), vehicleIds: [a] } });
    expect(start.code).toBe(200);
    let status = { status: 'running' } as { status: string; exported?: number };
    for (let i = 0; i < 50 && status.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await server.call<{ status: string; exported: number }>('GET', `${OILREPORT_BASE}/summary/export_status?taskId=${start.data.taskId}`, { token: east })).data;
    }
    expect(status).toMatchObject({ status: 'done', exported: 1 });
    const file = await fetch(`${server.url}${OILREPORT_BASE}/summary/excel_file?taskId=${start.data.taskId}`, { headers: { 'x-jwt': east } });
    expect(file.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await file.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('车牌号');
    expect(sheet.getRow(2).getCell(7).value).toBe(130);
    // The daily export bit is not in the role.
    const refused = await server.call('POST', `${OILREPORT_BASE}/daily/excel`, { token: east, body: { startDate: date(D), endDate: date(D), vehicleIds: [a] } });
    expect(refused.status).toBe(403);
  });
});
