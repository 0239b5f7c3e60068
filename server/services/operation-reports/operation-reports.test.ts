import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { mileageModule, type MileageRow } from '../../../domain/report-day/mileage.ts';
import type { DayModule } from '../../../domain/report-day/module.ts';
import { operationModule, type OperationRow } from '../../../domain/report-day/operation.ts';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { PositionRow } from '../../db/repositories.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { address } from '../track/geocoder.ts';
import { OPERATION_REPORT_PATHS as P } from './index.ts';
import { RawReportEngine } from './raw-engine.ts';

const MIN = 60_000;
const D = chinaDayIndex(Date.now()) - 3;
const at = (day: number, minutes: number) => chinaDayStartMs(day) + minutes * MIN;
const date = chinaDateOfDay;

interface Company { id: number; pid: number; name: string }
interface Answer<T> { records: T[]; total: number; totals: Record<string, number> }

let server: TestServer;
let admin: string;
let east: string;
let raw: RawReportEngine;
let a: number; // east: the simulated vehicle
let north: number; // another branch's vehicle
const stored: PositionRow[] = [];

/**
 * A simulated day: from 21:50 a point every 30 s. Drive 20 points north at 50 km/h, park 10 minutes with ACC
 * off, idle 4 minutes with ACC on, drive 30 points (across 22:00: night driving), park to 23:59:30.
 */
function simulate(vehicleId: number, day: number): PositionRow[] {
  const out: PositionRow[] = [];
  let lat = 31;
  let odo = 5000;
  const push = (speed: number, acc: 0 | 1, dLat: number) => {
    const t = at(day, 21 * 60 + 50) + out.length * 30_000;
    lat += dLat;
    odo += dLat * 111.2;
    out.push({ vehicleId, gpsTime: t, lng: 121.4, lat, speed, heading: 0, altitude: 5, status: acc | 2, alarm: 0, mileage: odo, fuel: null, receivedAt: t + 1000 });
  };
  for (let i = 0; i < 20; i++) push(50, 1, 0.0037);
  for (let i = 0; i < 21; i++) push(0, 0, 0);
  for (let i = 0; i < 8; i++) push(0, 1, 0);
  for (let i = 0; i < 30; i++) push(50, 1, 0.0037);
  while (out.length < 240) push(0, 0, 0);
  return out.filter((r) => chinaDayIndex(r.gpsTime) === day);
}

const idOf = (key: string) => entryByKey(key)!.id;

beforeAll(async () => {
  server = await startServer({ seedVehicles: 20 }, (app) => {
    raw = new RawReportEngine(app.storage);
    raw.register(operationModule as DayModule<unknown, unknown>);
    raw.register(mileageModule as DayModule<unknown, unknown>);
  });
  admin = await server.login('admin', 'admin123');
  const companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
  const eastCompany = companies.find((x) => x.name === '华东分公司')!;
  const northCompany = companies.find((x) => x.name === '华北分公司')!;
  const eastIds = new Set(companies.filter((x) => x.id === eastCompany.id || x.pid === eastCompany.id).map((x) => x.id));
  const screens = ['/report', '/report/vehicleOperationAnalysis', '/report/vehicleOperationAnalysis/parkingReport', '/report/vehicleOperationAnalysis/travelDetails'];
  const role = await server.call<{ id: number }>('POST', '/service-priv/role', { token: admin, body: { name: '运营分析', permissionIds: screens.map(idOf) } });
  expect(role.code).toBe(200);
  const user = await server.call('POST', '/service-priv/user', {
    token: admin, body: { username: 'east_ops', password: 'secret123', userLevel: 2, companyId: eastCompany.id, roleIds: [role.data.id] },
  });
  expect(user.code).toBe(200);
  east = await server.login('east_ops', 'secret123');
  const vehicles = await server.app.storage.terminals.allVehicles();
  a = vehicles.find((v) => eastIds.has(v.companyId))!.vehicleId;
  north = vehicles.find((v) => v.companyPath.startsWith(`/1/${northCompany.id}/`))!.vehicleId;
  // Through the live path: the history writer commits, the engine folds each batch in.
  stored.push(...simulate(a, D), ...simulate(north, D));
  for (const r of stored) server.app.live.history.enqueue(r);
  await server.app.live.history.flush();
});
afterAll(async () => {
  await server?.close();
});

function get<T>(path: string, q: Record<string, unknown>, token = admin, lang: 'zh' | 'en' = 'zh') {
  const qs = new URLSearchParams(Object.entries(q).flatMap(([k, v]): [string, string][] => (Array.isArray(v) ? v.map((x) => [k, String(x)]) : [[k, String(v)]])));
  return server.call<T>('GET', `${path}?${qs}`, { token, lang });
}
const period = (vehicleIds: number[], days = 1) => ({ startDate: date(D), endDate: date(D + days - 1), vehicleIds });

describe('operation reports answer what a recompute from raw positions gives', () => {
  it('parking report: each stop of the simulated day, parked vs idling', async () => {
    const r = await get<Answer<{ vehicleId: number; startTime: number; endTime: number; minutes: number; parking: boolean; open: boolean }>>(P.parkingReport, period([a]));
    expect(r.code).toBe(200);
    const expected = (await raw.events('operation', [a], D, D, 'stop')).map((x) => x.event);
    // One stop 22:00–22:14: 10 min ACC off, then 4 min ACC on (more off than on: parked); again parked from 22:29 to 23:59:30.
    expect(r.data.records.map((x) => [x.startTime, x.endTime])).toEqual(expected.map((e) => [e.start, e.end]));
    expect(r.data.records).toHaveLength(2);
    expect(r.data.records[0]).toMatchObject({ startTime: at(D, 22 * 60), minutes: 14, parking: true, open: false });
    expect(r.data.records[1]).toMatchObject({ parking: true, open: true });
    expect(r.data.totals['stops']).toBe(2);
  });

  it('stops and trips name their place in the caller\'s language (offline county geocoder), beside the coordinates', async () => {
    const zh = await get<Answer<{ lng: number; lat: number; place: string }>>(P.parkingReport, period([a]), admin, 'zh');
    const en = await get<Answer<{ lng: number; lat: number; place: string }>>(P.parkingReport, period([a]), admin, 'en');
    expect(zh.data.records).toHaveLength(2);
    for (const [i, row] of zh.data.records.entries()) {
      // The simulated day drives north from 121.4° E 31° N: Shanghai.
      expect(row.place).toMatch(/^上海市.+区附近$/);
      expect(row.place).toBe(address(row.lng, row.lat, 'zh'));
      expect(en.data.records[i]!.place).toBe(address(row.lng, row.lat, 'en'));
      expect(en.data.records[i]!.place).toMatch(/^near .+, Shanghai/);
    }
    const trips = await get<Answer<{ startLng: number; startLat: number; startPlace: string; endLng: number; endLat: number; endPlace: string }>>(P.travelDetails, period([a]), admin, 'en');
    for (const t of trips.data.records) {
      expect(t.startPlace).toBe(address(t.startLng, t.startLat, 'en'));
      expect(t.endPlace).toBe(address(t.endLng, t.endLat, 'en'));
    }
    // Places are worded for the rows that leave (the page), not for all rows first: page 2 of size 1 has its place.
    const second = await get<Answer<{ lng: number; lat: number; place: string }>>(P.parkingReport, { ...period([a]), current: 2, size: 1 }, admin, 'zh');
    expect(second.data.records).toHaveLength(1);
    expect(second.data.records[0]!.place).toBe(address(second.data.records[0]!.lng, second.data.records[0]!.lat, 'zh'));
    expect(second.data.records[0]!.place).toBe(zh.data.records[1]!.place);
  });

  it('trip details: km, max and average speed of each trip equal the recompute', async () => {
    const r = await get<Answer<{ startTime: number; endTime: number; km: number; maxSpeed: number; avgSpeed: number }>>(P.travelDetails, period([a]));
    const expected = (await raw.events('operation', [a], D, D, 'trip')).map((x) => x.event);
    expect(r.data.records).toHaveLength(2);
    r.data.records.forEach((row, i) => {
      expect(row).toMatchObject({ startTime: expected[i]!.start, endTime: expected[i]!.end, maxSpeed: 50 });
      expect(row.km).toBeCloseTo(expected[i]!.value['km']!, 2);
    });
    // 19 pairs of 0.0037° (≈ 0.411 km) before the first stop.
    expect(r.data.records[0]!.km).toBeCloseTo(19 * 0.0037 * 111.195, 1);
    expect(r.data.totals['trips']).toBe(2);
  });

  it('parking summary and night statistics equal the recomputed day rows', async () => {
    const [row] = (await raw.days<OperationRow>('operation', [a], D, D)).get(a)!;
    const summary = await get<Answer<{ stops: number; parkingMinutes: number; idlingMinutes: number }>>(P.parkingSummary, period([a]));
    expect(summary.data.records[0]).toMatchObject({ stops: row!.row.stops, parkingMinutes: Math.round(row!.row.parkingMinutes * 10) / 10, idlingMinutes: 0 });
    const night = await server.call<Answer<{ date: string; nightKm: number; nightMinutes: number }>>('POST', P.nightStatistic, { token: admin, body: { ...period([a]), current: 1, size: 20 } });
    expect(night.code).toBe(200);
    expect(night.data.records[0]!.date).toBe(date(D));
    expect(night.data.records[0]!.nightKm).toBeCloseTo(row!.row.nightKm, 2);
    // The second trip (22:13:30–22:29) is all at night; the first drove before 22:00.
    expect(night.data.records[0]!.nightKm).toBeGreaterThan(10);
  });

  it('mileage statistics and daily read the mileage module: odometer, track and their difference', async () => {
    const [row] = (await raw.days<MileageRow>('mileage', [a], D, D)).get(a)!;
    const stat = await get<Answer<{ odometerKm: number | null; trackKm: number; differenceKm: number | null }>>(P.mileageStatistics, period([a]));
    expect(stat.code).toBe(200);
    expect(stat.data.records[0]!.trackKm).toBeCloseTo(row!.row.trackKm, 2);
    expect(stat.data.records[0]!.odometerKm).toBeCloseTo(row!.row.odometerKm!, 2);
    const daily = await server.call<Answer<{ date: string; trackKm: number }>>('POST', P.mileageDaily, { token: admin, body: { ...period([a], 2), current: 1, size: 20 } });
    expect(daily.data.records.map((x) => x.date)).toEqual([date(D), date(D + 1)]);
    expect(daily.data.records[1]!.trackKm).toBe(0);
    expect(daily.data.totals['trackKm']).toBeCloseTo(row!.row.trackKm, 1);
  });
});

describe('caps, scope and permissions', () => {
  it('refuses more than 500 vehicles and more than 31 days, in the caller\'s language', async () => {
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    expect((await get(P.parkingReport, period(many))).code).toBe(400);
    const long = await get(P.parkingReport, { startDate: date(D - 31), endDate: date(D), vehicleIds: [a] }, admin, 'en');
    expect(long.code).toBe(400);
    expect(long.msg).toContain('31 days');
    const zh = await get(P.parkingReport, { startDate: date(D - 31), endDate: date(D), vehicleIds: [a] }, admin, 'zh');
    expect(zh.msg).toContain('31天');
    expect((await get(P.parkingReport, { startDate: date(D), endDate: date(D - 1), vehicleIds: [a] })).code).toBe(400);
  });

  it('a branch user sees only its subtree: another branch\'s vehicle has no rows', async () => {
    const mine = await get<Answer<unknown>>(P.parkingReport, period([a, north]), east);
    expect(mine.code).toBe(200);
    expect(mine.data.total).toBe(2);
    const theirs = await get<Answer<unknown>>(P.parkingReport, period([north]), east);
    expect(theirs.data.total).toBe(0);
    expect((await get<Answer<unknown>>(P.parkingReport, period([north]))).data.total).toBe(2);
  });

  it('a screen the role lacks is 403; so is an export without the export bit', async () => {
    expect((await get(P.mileageStatistics, period([a]), east)).code).toBe(403);
    const job = await server.call('POST', `${P.parkingReport}/excel`, { token: east, body: period([a]) });
    expect(job.code).toBe(403);
  });
});

describe('export', () => {
  it('writes the trip details as .xlsx through an export job', async () => {
    const job = await server.call<{ taskId: string }>('POST', `${P.travelDetails}/excel`, { token: admin, body: period([a]), lang: 'en' });
    expect(job.code).toBe(200);
    let status = '';
    for (let i = 0; i < 100 && status !== 'done'; i++) {
      const s = await server.call<{ status: string; exported: number }>('GET', `${P.travelDetails}/export_status?taskId=${job.data.taskId}`, { token: admin });
      status = s.data.status;
      if (status !== 'done') await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('done');
    const res = await fetch(`${server.url}${P.travelDetails}/excel_file?taskId=${job.data.taskId}`, { headers: { 'x-jwt': admin, 'x-lang': 'en' } });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Plate');
    expect(sheet.rowCount).toBe(3); // header + two trips
    // The places in the exporting user's language, then the coordinates.
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const from = headers.indexOf('From place') + 1;
    expect(from).toBeGreaterThan(0);
    expect(headers[from]).toBe('From lng, lat');
    const [lng, lat] = String(sheet.getRow(2).getCell(from + 1).value).split(',').map(Number) as [number, number];
    expect(sheet.getRow(2).getCell(from).value).toBe(address(lng, lat, 'en'));
    expect(String(sheet.getRow(2).getCell(from).value)).toMatch(/Shanghai/);
  });
});
