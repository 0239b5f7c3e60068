import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { PositionRow } from '../../db/repositories.ts';
import { startServer, type TestServer } from '../../test/harness.ts';

const BASE = '/service-onlinegps/offlinereport';
const MIN = 60_000;
const KM_LAT = 1 / 111.195; // degrees of latitude per km on the rules' sphere

interface Company { id: number; pid: number; name: string }
interface Page<T> { records: T[]; total: number; current: number; size: number }
interface DayRow {
  vehicleId: number; date: string; totalGps: number; pass: number; undetermined: number; error: number; drift: number; lossTimes: number;
  lossHours: number; lossKm: number; continuousKm: number; mileageKm: number; online: boolean; operation: boolean;
}

let server: TestServer;
let admin: string;
let east: string;
let eastIds: Set<number>;
let north: Company;
let a: number; // east: drift spike, six 5 km gaps, a 0.9 km day, two invalid points
let b: number; // east: a gap across midnight
let c: number; // north
let r: number; // east: a run of 5 km gaps from day D into D+1
let late: number; // east: a day that gets a blind-area upload after it was stored
// Day D is five China days ago: complete, so it is cached.
const D = chinaDayIndex(Date.now()) - 5;
const date = (d: number) => chinaDateOfDay(d);
const at = (day: number, minutes: number) => chinaDayStartMs(day) + minutes * MIN;

function row(vehicleId: number, gpsTime: number, lng: number, lat: number, receivedAt = gpsTime): PositionRow {
  return { vehicleId, gpsTime, lng, lat, speed: 30, heading: 0, altitude: 10, status: 3, alarm: 0, mileage: null, receivedAt };
}

/** `count` points going north `km` per step, `stepMin` minutes apart, from `lat0`. */
function line(vehicleId: number, start: number, lat0: number, count: number, km: number, stepMin: number): PositionRow[] {
  return Array.from({ length: count }, (_, i) => row(vehicleId, start + i * stepMin * MIN, 121.4, lat0 + i * km * KM_LAT));
}

const idOf = (key: string) => entryByKey(key)!.id;

beforeAll(async () => {
  server = await startServer({ seedVehicles: 20 });
  admin = await server.login('admin', 'admin123');
  const companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
  const eastCompany = companies.find((x) => x.name === '华东分公司')!;
  north = companies.find((x) => x.name === '华北分公司')!;
  eastIds = new Set(companies.filter((x) => x.id === eastCompany.id || x.pid === eastCompany.id).map((x) => x.id));
  const role = await server.call<{ id: number }>('POST', '/service-priv/role', {
    token: admin,
    body: {
      name: '上线考核', permissionIds: ['/report', '/report/onlineControl', '/report/onlineControl/dataQualifiedRate',
        '/report/onlineControl/driftRateDetail', '/report/onlineControl/discontinuityRateDetail'].map(idOf),
    },
  });
  const user = await server.call('POST', '/service-priv/user', {
    token: admin, body: { username: 'east_report', password: 'secret123', userLevel: 2, companyId: eastCompany.id, roleIds: [role.data.id] },
  });
  expect(user.code).toBe(200);
  east = await server.login('east_report', 'secret123');

  const vehicles = await server.app.storage.terminals.allVehicles();
  const eastVehicles = vehicles.filter((v) => eastIds.has(v.companyId));
  a = eastVehicles[0]!.vehicleId;
  b = eastVehicles[1]!.vehicleId;
  r = eastVehicles[2]!.vehicleId;
  late = eastVehicles[3]!.vehicleId;
  c = vehicles.find((v) => v.companyPath.startsWith(`/1/${north.id}/`))!.vehicleId;

  const rows: PositionRow[] = [];
  // A, day D: 11 points 1 min apart going 0.5 km north from 08:00; the sixth jumps ≈ 57 km east for one minute.
  const dayD = line(a, at(D, 480), 31, 11, 0.5, 1);
  dayD[5] = { ...dayD[5]!, lng: 122 };
  rows.push(...dayD);
  rows.push(row(a, at(D, 540), 0, 0)); // no fix: zero coordinates
  rows.push(row(a, at(D, 600), 121.4, 31, at(D, 540))); // GPS time an hour after it arrived
  // A, day D+1: from where D ended, seven points 5 km and 10 min apart: six 2–10 km gaps, the sixth discontinuous.
  rows.push(...line(a, at(D + 1, 480), 31 + 5 * KM_LAT, 7, 5, 10));
  // A, day D+2: ten points 0.1 km apart: 0.9 km, online but no operation day.
  rows.push(...line(a, at(D + 2, 480), 31 + 35 * KM_LAT, 10, 0.1, 5));
  // B: 23:40 and 23:50 on day D, then 20 km north at 00:10 and 00:11 on D+1.
  rows.push(...line(b, at(D, 1420), 30, 2, 0.5, 10));
  rows.push(...line(b, at(D + 1, 10), 30 + 20.5 * KM_LAT, 2, 0.5, 1));
  rows.push(...line(c, at(D, 480), 40, 3, 0.5, 1));
  rows.push(...line(late, at(D, 600), 33, 2, 0.5, 10), row(late, at(D + 1, 600), 121.4, 33 + 0.5 * KM_LAT));
  // R: 5 km every 10 min from 23:00 on day D: four gaps that day, then three after midnight.
  rows.push(...line(r, at(D, 1380), 32, 5, 5, 10), ...line(r, at(D + 1, 10), 32 + 25 * KM_LAT, 3, 5, 10));
  await server.app.storage.positions.append(rows);
});
afterAll(async () => {
  await server.close();
});

/** The rollup rows of a vehicle: [day, open]. */
function storedDays(vehicleId: number): [string, number][] {
  const db = (server.app.storage as unknown as { db: { prepare(sql: string): { all(...p: unknown[]): { day: string; open: number }[] } } }).db;
  return db.prepare('SELECT day, open FROM report_vehicle_day WHERE vehicle_id = ? ORDER BY day').all(vehicleId).map((x) => [x.day, x.open]);
}

async function post<T>(path: string, body: Record<string, unknown>, token = admin, lang: 'zh' | 'en' = 'zh') {
  return server.call<T>('POST', `${BASE}/${path}`, { token, body, lang });
}

async function download(method: 'GET' | 'POST', path: string, payload: Record<string, unknown>, lang: 'zh' | 'en') {
  const init: RequestInit = { method, headers: { 'x-jwt': admin, 'x-lang': lang, 'content-type': 'application/json' } };
  let url = `${server.url}${BASE}/${path}`;
  if (method === 'POST') init.body = JSON.stringify(payload);
  else url += `?${new URLSearchParams(Object.entries(payload).flatMap(([k, v]): [string, string][] => (Array.isArray(v) ? v.map((x) => [k, String(x)]) : [[k, String(v)]])))}`;
  const res = await fetch(url, init);
  if (!(res.headers.get('content-type') ?? '').includes('spreadsheetml')) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
  return { res, sheet: book.worksheets[0]! };
}

describe('daily positioning metrics of hand-built tracks', () => {
  it('shows each day of a vehicle with drift, errors, gaps and the operation-day rule', async () => {
    const r = await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D + 2), vehicleIds: [a] });
    expect(r.code).toBe(200);
    expect(r.data.total).toBe(3);
    const [d0, d1, d2] = r.data.records;
    // 11 valid + 2 invalid; the spike counted once; the first point ever cannot be judged.
    expect(d0).toMatchObject({ date: date(D), totalGps: 13, drift: 1, error: 2, undetermined: 1, pass: 9, lossTimes: 0, online: true, operation: true });
    expect(d0!.mileageKm).toBeCloseTo(5, 1);
    expect(d1).toMatchObject({ date: date(D + 1), totalGps: 7, drift: 0, undetermined: 0, pass: 7, lossTimes: 1, lossKm: 5, continuousKm: 25, mileageKm: 30 });
    expect(d1!.lossHours).toBeCloseTo(0.17, 2);
    // The newest point so far has no successor yet: undetermined.
    expect(d2).toMatchObject({ date: date(D + 2), totalGps: 10, mileageKm: 0.9, online: true, operation: false, undetermined: 1, pass: 9 });
  });

  it('keeps completed days in the rollup table and answers the same from it', async () => {
    const first = await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D + 2), vehicleIds: [a] });
    expect(storedDays(a)).toEqual([[date(D), 0], [date(D + 1), 0], [date(D + 2), 1]]);
    const again = await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D + 2), vehicleIds: [a] });
    expect(again.data).toEqual(first.data);
  });

  it('judges the newest point again once the vehicle reports after it', async () => {
    await server.app.storage.positions.append([row(a, at(D + 4, 480), 121.4, 31 + 35.9 * KM_LAT)]);
    const r = await post<Page<DayRow>>('daily', { startDate: date(D + 2), endDate: date(D + 2), vehicleIds: [a] });
    expect(r.data.records[0]).toMatchObject({ totalGps: 10, undetermined: 0, pass: 10 });
    expect(storedDays(a)).toContainEqual([date(D + 2), 0]);
  });

  it('computes today on each call and never stores it', async () => {
    const today = D + 5;
    const t = Math.max(chinaDayStartMs(today), Date.now() - 60_000);
    await server.app.storage.positions.append([row(c, t, 116.4, 40)]);
    const r = await post<Page<DayRow>>('daily', { startDate: date(today), endDate: date(today + 3), vehicleIds: [c] });
    expect(r.data.total).toBe(1); // days after today are left out
    expect(r.data.records[0]).toMatchObject({ date: date(today), totalGps: 1, online: true });
    expect(storedDays(c).map(([day]) => day)).not.toContain(date(today));
  });

  it('puts a gap across midnight on the new day as one discontinuous gap', async () => {
    const r = await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D + 1), vehicleIds: [b] });
    expect(r.data.records[0]).toMatchObject({ totalGps: 2, lossTimes: 0 });
    expect(r.data.records[1]).toMatchObject({ totalGps: 2, lossTimes: 1, lossKm: 20, lossHours: 0.33, mileageKm: 20.5 });
    const gaps = await post<Page<{ vehicleId: number; fromTime: number; toTime: number; km: number; hours: number }>>(
      'discontinuousDatas', { startDate: date(D), endDate: date(D + 1), vehicleIds: [b] });
    expect(gaps.data.records).toEqual([expect.objectContaining({ vehicleId: b, fromTime: at(D, 1430), toTime: at(D + 1, 10), km: 20, hours: 0.33 })]);
  });

  it('carries a run of 2–10 km gaps across midnight when only the new day is asked for', async () => {
    const r1 = await post<Page<DayRow>>('daily', { startDate: date(D + 1), endDate: date(D + 1), vehicleIds: [r] });
    expect(r1.data.records[0]).toMatchObject({ totalGps: 3, lossTimes: 2, lossKm: 10, continuousKm: 5 });
  });

  it('counts a late (blind-area) upload for a day already in the rollup', async () => {
    const before = await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D), vehicleIds: [late] });
    expect(before.data.records[0]).toMatchObject({ totalGps: 2, undetermined: 1, pass: 1 });
    // Asked again: the stored day is found matching its rows and trusted for RECOUNT_AFTER_MS ...
    expect((await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D), vehicleIds: [late] })).data.records[0]).toMatchObject({ totalGps: 2 });
    // ... unless a late row of the vehicle arrives meanwhile: then it is recounted at once.
    await server.app.storage.positions.append([row(late, at(D, 605), 121.4, 33 + 0.25 * KM_LAT)]);
    const after = await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D), vehicleIds: [late] });
    expect(after.data.records[0]).toMatchObject({ totalGps: 3, undetermined: 1, pass: 2 });
  });

  it('lists the drift point with both implied speeds over 160 km/h', async () => {
    const r = await post<Page<{ vehicleId: number; gpsTime: number; lng: number; speedIn: number; speedOut: number }>>(
      'driftDatas', { startDate: date(D), endDate: date(D + 2), vehicleIds: [a] });
    expect(r.data.total).toBe(1);
    expect(r.data.records[0]).toMatchObject({ vehicleId: a, gpsTime: at(D, 485), lng: 122 });
    expect(r.data.records[0]!.speedIn).toBeGreaterThan(160);
    expect(r.data.records[0]!.speedOut).toBeGreaterThan(160);
  });

  it('lists the sixth 2–10 km gap in a row as the discontinuous one', async () => {
    const r = await post<Page<{ fromTime: number; toTime: number; km: number }>>('discontinuousDatas', { startDate: date(D + 1), endDate: date(D + 1), vehicleIds: [a] });
    expect(r.data.records).toEqual([expect.objectContaining({ fromTime: at(D + 1, 530), toTime: at(D + 1, 540), km: 5 })]);
  });

  it('lists invalid points with their reasons', async () => {
    const r = await post<Page<{ gpsTime: number; reason: string }>>('illegalDatas', { startDate: date(D), endDate: date(D), vehicleIds: [a] });
    expect(r.data.records.map((x) => [x.gpsTime, x.reason])).toEqual([[at(D, 540), 'zero'], [at(D, 600), 'future']]);
  });

  it('pages daily rows vehicle by vehicle, day by day', async () => {
    const all = await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D + 2), vehicleIds: [a, b], size: 6 });
    const page2 = await post<Page<DayRow>>('daily', { startDate: date(D), endDate: date(D + 2), vehicleIds: [a, b], current: 2, size: 4 });
    expect(page2.data.total).toBe(6);
    expect(page2.data.records).toEqual(all.data.records.slice(4, 6));
    expect(all.data.records.map((x) => x.date)).toEqual([date(D), date(D + 1), date(D + 2), date(D), date(D + 1), date(D + 2)]);
  });

  it('counts online and operation days over the period', async () => {
    const r = await post<Page<{ vehicleId: number; days: number; onlineDays: number; operationDays: number; onlineRate: number }>>(
      'onlinerate', { startDate: date(D), endDate: date(D + 3), vehicleIds: [a] });
    expect(r.data.records).toEqual([expect.objectContaining({ vehicleId: a, days: 4, onlineDays: 3, operationDays: 2, onlineRate: 75 })]);
  });

  it('sums the period per vehicle with a totals row', async () => {
    const r = await server.call<Page<{ vehicleId: number; totalGps: number; drift: number; lossTimes: number }> & { totals: { totalGps: number; lossTimes: number } }>(
      'GET', `${BASE}/dailyReportGroupbyVehiidno?startDate=${date(D)}&endDate=${date(D + 2)}&vehicleIds=${a}&vehicleIds=${b}`, { token: admin });
    expect(r.code).toBe(200);
    expect(r.data.total).toBe(2);
    const byId = new Map(r.data.records.map((x) => [x.vehicleId, x]));
    expect(byId.get(a)).toMatchObject({ totalGps: 30, drift: 1, lossTimes: 1 });
    expect(r.data.totals).toMatchObject({ totalGps: 34, lossTimes: 2 });
  });
});

describe('period, parameters and scope', () => {
  it('refuses a period over 31 days with a message in the caller’s language', async () => {
    const zh = await post('daily', { startDate: date(D - 40), endDate: date(D) });
    expect(zh.status).toBe(400);
    expect(zh.msg).toBe('查询时间段不能超过31天');
    const en = await post('driftDatas', { startDate: date(D - 31), endDate: date(D) }, admin, 'en');
    expect(en.msg).toBe('The period can be at most 31 days');
    const ok31 = await post('daily', { startDate: date(D - 30), endDate: date(D), vehicleIds: [c] });
    expect(ok31.code).toBe(200);
  });

  it('answers 400 naming the field for bad dates, missing fields and bad paging', async () => {
    const badDate = await post('daily', { startDate: '2026-02-30', endDate: date(D) }, admin, 'en');
    expect(badDate.status).toBe(400);
    expect(badDate.msg).toContain('startDate');
    const missing = await post('onlinerate', { startDate: date(D) }, admin, 'en');
    expect(missing.status).toBe(400);
    expect(missing.msg).toContain('endDate');
    const size = await post('illegalDatas', { startDate: date(D), endDate: date(D), size: 0 }, admin, 'en');
    expect(size.status).toBe(400);
    expect(size.msg).toContain('size');
    const reversed = await post('daily', { startDate: date(D), endDate: date(D - 1) }, admin, 'en');
    expect(reversed.msg).toBe('The start time cannot be after the end time');
    const unknown = await post('daily', { startDate: date(D), endDate: date(D), plate: 'x' }, admin, 'en');
    expect(unknown.msg).toContain('plate');
  });

  it('shows a branch user only the vehicles of its own subtree', async () => {
    const all = await server.call<Page<{ vehicleId: number; companyId: number }>>(
      'GET', `${BASE}/dailyReportGroupbyVehiidno?startDate=${date(D)}&endDate=${date(D)}&size=500`, { token: east });
    expect(all.code).toBe(200);
    expect(all.data.total).toBeGreaterThan(0);
    expect(all.data.records.every((x) => eastIds.has(x.companyId))).toBe(true);
    expect(all.data.records.map((x) => x.vehicleId)).toEqual(expect.arrayContaining([a, b]));
    const other = await post<Page<unknown>>('driftDatas', { startDate: date(D), endDate: date(D), vehicleIds: [c] }, east);
    expect(other.data.total).toBe(0);
    const outside = await post('daily', { startDate: date(D), endDate: date(D), companyId: north.id }, east);
    expect(outside.status).toBe(403);
  });
});

describe('excel exports', () => {
  it('answers an .xlsx with Chinese headers and one row per vehicle day', async () => {
    const { res, sheet } = await download('POST', 'daily/excel', { startDate: date(D), endDate: date(D + 2), vehicleIds: [a, b] }, 'zh');
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    expect(sheet.rowCount).toBe(1 + 6);
    expect(sheet.getRow(1).getCell(1).value).toBe('车牌号');
  });

  it('answers the per-vehicle sums and the detail lists with English headers', async () => {
    const sums = await download('GET', 'dailyReportGroupbyVehiidno/excel', { startDate: date(D), endDate: date(D + 2), vehicleIds: [a, b] }, 'en');
    expect(sums.sheet.rowCount).toBe(1 + 2);
    expect(sums.sheet.getRow(1).getCell(1).value).toBe('Plate');
    const invalid = await download('POST', 'illegalDatas/excel', { startDate: date(D), endDate: date(D), vehicleIds: [a] }, 'en');
    expect(invalid.sheet.rowCount).toBe(1 + 2);
    expect(invalid.sheet.getRow(3).getCell(8).value).toBe('Time in the future');
    const gaps = await download('POST', 'discontinuousDatas/excel', { startDate: date(D), endDate: date(D + 1), vehicleIds: [a, b] }, 'en');
    expect(gaps.sheet.rowCount).toBe(1 + 2);
  });
});
