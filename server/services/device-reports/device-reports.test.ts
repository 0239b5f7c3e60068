/**
 * Device work, online analysis and early-morning reports through the gateway: a scripted JT/T 808 terminal
 * reports, disconnects for 20 minutes, comes back, raises a camera fault (808 bit 11) and a storage unit fault
 * (1078 item 0x14 bit 2) and clears them, and drives in the early morning. The reports must show exactly what it
 * did; the test clock makes minutes a step, not a sleep.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoAlarmItem } from '../../../domain/alarms/video.ts';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import { location, type TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { ScriptedFleet, type SeededVehicle } from '../../test/scripted-fleet.ts';

const MIN = 60_000;
interface Page<T> { records: T[]; total: number; totals: Record<string, number> }

let server: LiveTestServer;
let fleet: ScriptedFleet;
let admin: string;
let v: SeededVehicle;
let quiet: SeededVehicle; // a vehicle that never reports
let day: number;
let lat = 31;

/** One report at the clock's now (GPS time = arrival), then the clock moves on `stepMin` minutes. */
async function report(t: TestTerminal, over: { speed?: number; alarm?: number; video?: number } = {}, stepMin = 1): Promise<void> {
  const now = Math.floor(server.clock.now() / 1000) * 1000;
  if (over.speed) lat += (over.speed / 60) / 111.2; // a minute at that speed, northwards
  const r = await t.report(location({
    lng: 121.4, lat, time: now, speed: over.speed ?? 0, status: over.speed ? 3 : 2, alarm: over.alarm ?? 0,
    ...(over.video === undefined ? {} : { extras: [videoAlarmItem(over.video)] }),
  }));
  expect(r.result).toBe(0);
  server.clock.advance(stepMin * MIN);
}

async function list<T>(path: string, body: Record<string, unknown> = {}, token = admin) {
  const d = chinaDateOfDay(day);
  const r = await server.call<Page<T>>('POST', path, { token, body: { startDate: d, endDate: d, vehicleIds: [v.vehicleId, quiet.vehicleId], current: 1, size: 100, ...body } });
  expect(r.code, r.msg).toBe(200);
  return r.data;
}

beforeAll(async () => {
  server = await startLiveServer();
  fleet = await ScriptedFleet.open(server);
  admin = await server.login('admin', 'admin123');
  v = fleet.fresh();
  quiet = fleet.fresh();
  // Start at 02:00 China time of the next day, so the script's hours stay inside one China day.
  day = chinaDayIndex(server.clock.now()) + 1;
  server.clock.advance(chinaDayStartMs(day) + 2 * 60 * MIN - server.clock.now());

  // 02:00–02:20 drives at 36 km/h (early morning), reporting every minute: session 1 (02:00–02:20).
  let t = await fleet.terminal(v);
  for (let i = 0; i < 21; i++) await report(t, { speed: 36 });
  // Gone: the connection closes, nothing for 20 minutes (02:20 → 02:41).
  await t.close();
  server.clock.advance(20 * MIN);
  // Back at 02:41, parked: camera fault at 02:45, storage unit fault at 02:50, both cleared at 03:00; session 2 to 03:10.
  t = await fleet.terminal(v);
  for (let m = 41; m <= 70; m++) {
    const camera = m >= 45 && m < 60 ? 1 << 11 : 0;
    const storage = m >= 50 && m < 60 ? 1 << 2 : 0;
    await report(t, { alarm: camera, video: storage });
  }
  await server.app.live.history.flush();
}, 120_000);
afterAll(async () => {
  await fleet?.close();
  await server?.close();
});

describe('device work reports (issue 18)', () => {
  it('deviceOnlineReport: two sessions and one 21-minute offline, from the gateway reports', async () => {
    const page = await list<Record<string, unknown>>('/service-safe/devstatus/onlinelist');
    expect(page.total).toBe(2);
    const row = page.records.find((r) => r['vehicleId'] === v.vehicleId)!;
    // Session 1 02:00–02:20 (20 min), session 2 02:41–03:10 (29 min); offline 02:20 → 02:41.
    expect(row).toMatchObject({ date: chinaDateOfDay(day), online: true, sessions: 2, onlineMinutes: 49, offlines: 1, offlineMinutes: 21, longestOfflineMinutes: 21 });
    expect(row['firstContact']).toBe(chinaDayStartMs(day) + 120 * MIN);
    expect(page.records.find((r) => r['vehicleId'] === quiet.vehicleId)).toMatchObject({ online: false, sessions: 0, onlineMinutes: 0 });
    expect(page.totals).toMatchObject({ onlineDays: 1, sessions: 2, onlineMinutes: 49, offlines: 1 });
  });

  it('deviceOnlineStatistics: online minutes over the minutes passed today', async () => {
    const page = await list<Record<string, unknown>>('/service-safe/devstatus/onlinestat');
    const elapsed = (server.clock.now() - chinaDayStartMs(day)) / MIN;
    expect(page.records.find((r) => r['vehicleId'] === v.vehicleId)).toMatchObject({ days: 1, onlineDays: 1, onlineMinutes: 49, offlines: 1, onlineTimeRate: Math.round((4900 / elapsed) * 100) / 100 });
  });

  it('deviceStorageAbnormal and deviceAbnormalReport: the storage unit fault (0x14 bit 2) and the camera fault (bit 11), start to end', async () => {
    const storage = await list<Record<string, unknown>>('/service-safe/devstatus/storagelist');
    expect(storage.records).toHaveLength(1);
    const d0 = chinaDayStartMs(day);
    expect(storage.records[0]).toMatchObject({ vehicleId: v.vehicleId, alarmType: 15013, kind: 'storage', startTime: d0 + 170 * MIN, endTime: d0 + 180 * MIN, minutes: 10 });
    const all = await list<Record<string, unknown>>('/service-safe/devstatus/errorlist');
    expect(all.records.map((r) => [r['alarmType'], r['minutes']])).toEqual([[15008, 15], [15013, 10]]);
    expect(all.totals).toMatchObject({ faults: 2, vehicles: 1, minutes: 25 });
    const stat = await list<Record<string, unknown>>('/service-safe/devstatus/errorstat');
    expect(stat.records.find((r) => r['vehicleId'] === v.vehicleId)).toMatchObject({ camera: 1, storage: 1, gnss: 0, total: 2, faultMinutes: 25 });
    expect(stat.totals).toMatchObject({ total: 2, camera: 1, storage: 1 });
  });

  it('exports the fault list (the catalogue\'s errorlistExport) as a job whose workbook holds the same rows, in the caller language', async () => {
    const d = chinaDateOfDay(day);
    const start = await server.call<{ taskId: string }>('POST', '/service-safe/devstatus/errorlistExport', { token: admin, lang: 'en', body: { startDate: d, endDate: d, vehicleIds: [v.vehicleId] } });
    expect(start.code, start.msg).toBe(200);
    let status = '';
    for (let i = 0; i < 100 && status !== 'done'; i++) {
      status = (await server.call<{ status: string }>('GET', `/service-safe/devstatus/errorlist/export_status?taskId=${start.data.taskId}`, { token: admin })).data.status;
      if (status !== 'done') await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('done');
    const address = server.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${address.port}/service-safe/devstatus/errorlist/excel_file?taskId=${start.data.taskId}`, { headers: { 'x-jwt': admin, 'x-lang': 'en' } });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const ws = book.worksheets[0]!;
    const texts: string[] = [];
    ws.eachRow((row) => texts.push(row.values.toString()));
    expect(texts.some((x) => x.includes('Camera fault'))).toBe(true);
    expect(texts.some((x) => x.includes('Storage unit fault alarm'))).toBe(true);
  });
});

describe('online analysis and early-morning operation (issue 18)', () => {
  it('onlineDailyReport and onlineRateReport: the reporting vehicle was online and operating (≥ 1 km), the quiet one not', async () => {
    const daily = await list<Record<string, unknown>>('/service-onlinegps/onlineanalysis/daily');
    const row = daily.records.find((r) => r['vehicleId'] === v.vehicleId)!;
    expect(row).toMatchObject({ online: true, points: 51, onlineMinutes: 49, operation: true });
    expect(row['trackKm'] as number).toBeGreaterThan(11);
    expect(row['trackKm'] as number).toBeLessThan(13); // 20 minutes at 36 km/h = 12 km
    expect(daily.records.find((r) => r['vehicleId'] === quiet.vehicleId)).toMatchObject({ online: false, points: 0, operation: false });
    const rate = await list<Record<string, unknown>>('/service-onlinegps/onlineanalysis/rate');
    expect(rate.totals).toMatchObject({ days: 2, onlineDays: 1, operationDays: 1, onlineRate: 50 });
  });

  it('morningOperationDaily and morningOperationStatistics: 02:00–02:20 driving is early-morning operation', async () => {
    const daily = await list<Record<string, unknown>>('/service-onlinegps/morningoperate/daily');
    expect(daily.total).toBe(1); // only the day that drove in the early morning
    expect(daily.records[0]).toMatchObject({ vehicleId: v.vehicleId, date: chinaDateOfDay(day), morningMinutes: 20 });
    expect(daily.records[0]!['morningKm'] as number).toBeGreaterThan(11);
    const stat = await list<Record<string, unknown>>('/service-onlinegps/morningoperate/collect');
    expect(stat.records.find((r) => r['vehicleId'] === v.vehicleId)).toMatchObject({ days: 1, morningDays: 1, share: 100 });
    expect(stat.totals['morningDays']).toBe(1);
  });

  it('refuses a period over 31 days and more than 500 vehicles with a clear message', async () => {
    const long = await server.call('POST', '/service-onlinegps/morningoperate/daily', {
      token: admin, body: { startDate: chinaDateOfDay(day - 40), endDate: chinaDateOfDay(day), vehicleIds: [v.vehicleId], current: 1, size: 10 },
    });
    expect(long.code).toBe(400);
    expect(long.msg).toMatch(/31/);
    const many = await server.call('POST', '/service-safe/devstatus/onlinelist', {
      token: admin, body: { startDate: chinaDateOfDay(day), endDate: chinaDateOfDay(day), vehicleIds: Array.from({ length: 501 }, (_, i) => i + 1), current: 1, size: 10 },
    });
    expect(many.code).toBe(400);
  });
});
