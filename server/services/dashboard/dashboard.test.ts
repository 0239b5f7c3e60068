import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';

let server: LiveTestServer;
let admin: string;
let viewer: string;
let noDashboard: string;
let vehicles: { vehicleId: number; deviceNo: string; companyId: number; vehiidno: string }[];
const idOf = (key: string) => entryByKey(key)!.id;
const db = () => (server.app.storage as SqliteStorage).db;

function alarm(vehicleIndex: number, type: number, startTime: number, risk: 'high' | 'medium' | 'low' | 'ordinary', dealStatus = 0): void {
  const v = vehicles[vehicleIndex]!;
  db().prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, deal_status, create_time)
    VALUES (?, ?, ?, ?, 'platform', ?, ?, 121, 31, 40, ?, ?, ?)`).run(v.vehicleId, v.deviceNo, v.companyId, type, startTime, startTime, risk, dealStatus, startTime);
}

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 40 });
  admin = await server.login('admin', 'admin123');
  vehicles = db().prepare('SELECT id AS vehicleId, device_no AS deviceNo, company_id AS companyId, vehiidno FROM vehicle ORDER BY id').all() as typeof vehicles;
  // History first (the server computes the 7-day rows in the background 10 s after start): two days ago,
  // 30 minutes northwards at 36 km/h, a report every 10 s: 0.1 km per report, 18 km in all.
  const start = chinaDayStartMs(chinaDayIndex(server.clock.now()) - 2) + 9 * 3_600_000;
  const insert = db().prepare('INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at) VALUES (?, ?, ?, ?, ?, 0, 0, 3, 0, NULL, ?)');
  for (let i = 0; i <= 180; i++) insert.run(vehicles[7]!.vehicleId, start + i * 10_000, 116, 39 + (i * 0.1) / 111.195, 36, start + i * 10_000);
  const role = await server.call<{ id: number }>('POST', '/service-priv/role', { token: admin, body: { name: '看板', permissionIds: [idOf('/home'), idOf('/home/index')] } });
  const other = await server.call<{ id: number }>('POST', '/service-priv/role', { token: admin, body: { name: '仅监控', permissionIds: [idOf('/monitor'), idOf('/monitor/index')] } });
  for (const [name, roleId] of [['dash_viewer', role.data.id], ['no_dash', other.data.id]] as const) {
    const r = await server.call('POST', '/service-priv/user', { token: admin, body: { username: name, password: 'secret123', userLevel: 2, companyId: 1, roleIds: [roleId] } });
    expect(r.code).toBe(200);
  }
  viewer = await server.login('dash_viewer', 'secret123');
  noDashboard = await server.login('no_dash', 'secret123');
});
afterAll(async () => {
  await server.close();
});

describe('dashboard figures come from what the server holds', () => {
  it('counts today’s alarms, open risks, yesterday’s registrations and device health', async () => {
    const now = server.clock.now();
    const todayStart = chinaDayStartMs(chinaDayIndex(now));
    alarm(0, 10001, todayStart + 1000, 'high');
    alarm(0, 10002, todayStart + 2000, 'medium');
    alarm(1, 10006, todayStart + 3000, 'low');
    alarm(2, 15012, todayStart + 4000, 'ordinary'); // occlusion → t1
    alarm(3, 15015, todayStart + 5000, 'ordinary'); // storage threshold → t2
    alarm(4, 10001, todayStart - 3_600_000, 'high'); // yesterday: not today's
    db().prepare('UPDATE vehicle SET create_time = ? WHERE id IN (?, ?)').run(todayStart - 7_200_000, vehicles[5]!.vehicleId, vehicles[6]!.vehicleId);

    const dash = await server.call<Record<string, number>>('GET', '/service-monitor/monitor/getDashboard', { token: viewer });
    expect(dash.code).toBe(200);
    expect(dash.data).toMatchObject({ vehicleTotal: 40, vehicleOnline: 0, vehicleYesterdayRegister: 2, riskTotal: 1, onlineRate: 0 });
    const totals = await server.call<Record<string, number>>('GET', '/service-monitor/dashboard/mapTotals', { token: viewer });
    expect(totals.data).toEqual({ vehicleTotal: 40, vehicleYesterdayRegister: 2, alarmToday: 5 });
    const health = await server.call<{ deviceCount: number; t1Count: { t1: number }[]; t2Count: { t2: number }[] }>('POST', '/service-safe/devstatus/errorcount', { token: viewer, body: {} });
    expect(health.data).toEqual({ deviceCount: 40, t1Count: [{ t1: 1 }], t2Count: [{ t2: 1 }] });
  });

  it('keys the last month’s counts a10001… and ranks risk top 5 scaled so the riskiest is 100', async () => {
    const stat = await server.call<Record<string, number>>('GET', '/service-safesheet/screenV2/lastMonthAlarmStat', { token: viewer });
    expect(stat.data).toMatchObject({ a10001: 2, a10002: 1, a10006: 1, a10032: 0 });
    const risk = await server.call<{ records: { vehiidno: string; totalScore: number }[] }>('GET', '/service-monitor/dashboard/riskRanking', { token: viewer });
    // vehicle 0: high + medium = 15 points; vehicle 4: high = 10; vehicle 1: low = 2; vehicles 2, 3: ordinary = 1.
    expect(risk.data.records).toEqual([
      { vehicleId: vehicles[0]!.vehicleId, vehiidno: vehicles[0]!.vehiidno, totalScore: 100 },
      { vehicleId: vehicles[4]!.vehicleId, vehiidno: vehicles[4]!.vehiidno, totalScore: 66.7 },
      { vehicleId: vehicles[1]!.vehicleId, vehiidno: vehicles[1]!.vehiidno, totalScore: 13.3 },
      { vehicleId: vehicles[2]!.vehicleId, vehiidno: vehicles[2]!.vehiidno, totalScore: 6.7 },
      { vehicleId: vehicles[3]!.vehicleId, vehiidno: vehicles[3]!.vehiidno, totalScore: 6.7 },
    ]);
    const running = await server.call<{ records: { alarmType: number; alarmName: string }[] }>('GET', '/service-monitor/dashboard/runningAlarms', { token: viewer, lang: 'en' });
    expect(running.data.records.map((r) => r.alarmType)).toEqual([15015, 15012, 10006, 10002, 10001]);
    expect(running.data.records[4]!.alarmName).toBe('Fatigue driving alarm');
  });

  it('sums the 7 days before today: km by the track rules, driving hours from moving intervals', async () => {
    const r = await server.call<{ _id: string; aliveMile: number; aliveMinutes: number }[]>('GET', '/service-onlinegps/geography/getVehicleDailyMile', { token: viewer });
    expect(r.code).toBe(200);
    expect(r.data).toHaveLength(7);
    const hit = r.data[5]!; // the 7 days end yesterday: two days ago is the sixth
    expect(hit.aliveMile).toBeCloseTo(18, 0);
    expect(hit.aliveMinutes).toBe(30);
    expect(r.data.filter((d) => d !== hit).every((d) => d.aliveMile === 0 && d.aliveMinutes === 0)).toBe(true);
    expect(db().prepare('SELECT COUNT(*) AS n FROM dashboard_day_done').get()).toEqual({ n: 7 });
  });

  it('answers at once while a large fleet\'s days are still being counted: those days come back pending, not as zeros', async () => {
    const figures = server.app.dashboard;
    const realCompute = figures.store.computeDays.bind(figures.store);
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    figures.store.computeDays = async (...args) => { await held; return realCompute(...args); };
    const yesterday = db().prepare('SELECT MAX(day) AS day FROM dashboard_day_done').get() as { day: string };
    db().prepare('DELETE FROM dashboard_day_done WHERE day = ?').run(yesterday.day);
    try {
      const r = await server.call<{ _id: string; pending?: boolean }[]>('GET', '/service-onlinegps/geography/getVehicleDailyMile', { token: viewer });
      expect(r.code).toBe(200);
      expect(r.data.filter((d) => d.pending).map((d) => d._id)).toEqual([yesterday.day]);
    } finally {
      release();
      figures.store.computeDays = realCompute;
    }
    await figures.ensureDays();
    const again = await server.call<{ _id: string; pending?: boolean }[]>('GET', '/service-onlinegps/geography/getVehicleDailyMile', { token: viewer });
    expect(again.data.some((d) => d.pending)).toBe(false);
  });

  it('pages the last positions 1,000 at most and refuses larger pages', async () => {
    const ok = await server.call<{ total: number; records: unknown[] }>('GET', '/service-monitor/dashboard/locations?current=1&size=1000', { token: viewer });
    expect(ok.code).toBe(200);
    expect(ok.data.records.length).toBe(ok.data.total);
    const big = await server.call('GET', '/service-monitor/dashboard/locations?current=1&size=1001', { token: viewer });
    expect(big.status).toBe(400);
  });

  it('answers 403 to a user without the dashboard', async () => {
    const r = await server.call('GET', '/service-monitor/monitor/getDashboard', { token: noDashboard });
    expect(r.status).toBe(403);
  });

  it('hides the weather without a configured source', async () => {
    const r = await server.call('GET', '/service-ops/weather', { token: viewer });
    expect(r.data).toEqual({ configured: false });
  });
});

describe('first-time guide, per user', () => {
  it('is open until the user enters or ignores it, and stays closed for that user only', async () => {
    const before = await server.call<{ done: boolean; version: string }>('GET', '/service-priv/guide/fetch?guideModule=home', { token: viewer });
    expect(before.data).toMatchObject({ done: false, version: '3.2.1' });
    await server.call('POST', '/service-priv/guide/add', { token: viewer, body: { guideModule: 'home', step: 1, stepName: 'online' } });
    const mid = await server.call<{ done: boolean; steps: { step: number; stepName: string }[] }>('GET', '/service-priv/guide/fetch?guideModule=home', { token: viewer });
    expect(mid.data.done).toBe(false);
    expect(mid.data.steps.map((s) => s.stepName)).toEqual(['online']);
    const closed = await server.call<{ done: boolean }>('POST', '/service-priv/guide/add', { token: viewer, body: { guideModule: 'home', step: 99, stepName: 'ignore' } });
    expect(closed.data.done).toBe(true);
    const other = await server.call<{ done: boolean }>('GET', '/service-priv/guide/fetch?guideModule=home', { token: noDashboard });
    expect(other.data.done).toBe(false);
  });
});
