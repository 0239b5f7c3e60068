/**
 * Vehicle appraisal and analysis reports against a real server: km come from positions stored through
 * the positions repository (the positioning rollup turns them into days), alarms through the alarm
 * repository. The fixture is hand-checked: vehicle A drives exactly 100 km on each of 3 days of last
 * month with 3 skill, 9 behaviour, 6 violation and 1 operation alarm (+1 invalid, +1 emergency not
 * counted) → 90, 70, 60, 100, 93.3 → total 80.3 with the default weights; B drives 3 × 100 km clean → 100;
 * D drives 2 × 100 km clean: too few normal running days (3 needed), listed but not assessed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthDays } from '../../../domain/appraisal/rules.ts';
import { EARTH_RADIUS_KM } from '../../../domain/track/geo.ts';
import { chinaDayStartMs } from '../../../domain/track/days.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { createUserWithRole } from '../../test/users.ts';

interface ScoreRow {
  vehicleId: number; vehiidno: string; mileageKm: number; normalDays: number; alarmCount: number; rank: number | null; totalScore: number | null;
  counts: Record<string, number>; rates: Record<string, number | null>; scores: Record<string, number> | null;
}
interface CheckReport { month: string; records: ScoreRow[]; total: number; vehicles: number; scoredVehicles: number; averageScore: number | null }
interface SettingView {
  companyId: number; fromCompanyId: number | null; weights: Record<string, number>; thresholds: Record<string, number>;
  creatorName: string | null; updaterName: string | null; createTime: number | null; updateTime: number | null;
}

let server: LiveTestServer;
let admin: string, eastSafety: string, viewer: string;
let east: { id: number; path: string };
let eastFleet: number;
let month: string;
let firstDay: number;
const v = {} as Record<'a' | 'b' | 'c' | 'd' | 'outside', { vehicleId: number; deviceNo: string; companyId: number; vehiidno: string }>;

/** Where each vehicle's last drive ended (in 1 km steps north of 30°N): the next day starts there, so no gap adds km. */
const driven = new Map<number, number>();

/** 100 steps of exactly 1 km north along a meridian, one a minute, from 08:00 China time of the day. */
async function drive100Km(vehicleId: number, day: number, lng: number) {
  const stepDeg = (1 / EARTH_RADIUS_KM) * (180 / Math.PI);
  const t0 = chinaDayStartMs(day) + 8 * 3_600_000;
  const start = driven.get(vehicleId) ?? 0;
  driven.set(vehicleId, start + 100);
  const rows = Array.from({ length: 101 }, (_, k) => ({
    vehicleId, gpsTime: t0 + k * 60_000, lng, lat: 30 + (start + k) * stepDeg, speed: 60, heading: 0, altitude: 10, status: 3, alarm: 0, mileage: null, receivedAt: t0 + k * 60_000 + 1000,
  }));
  await server.app.storage.positions.append(rows);
}

async function alarm(vehicle: (typeof v)['a'], alarmType: number, day: number, minute: number, dealStatus: 0 | 3 = 0) {
  const t = chinaDayStartMs(day) + 9 * 3_600_000 + minute * 60_000;
  await server.app.storage.alarms.insert({
    vehicleId: vehicle.vehicleId, deviceNo: vehicle.deviceNo, companyId: vehicle.companyId, alarmType, source: 'platform', startTime: t,
    lng: 121, lat: 30.5, speed: 60, riskLevel: 'medium', dealStatus, createTime: t,
  });
}

const report = (token: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'zh') =>
  server.call<CheckReport>('POST', '/service-safe/vehicleScore/checkReport', { token, body: { size: 100, ...body }, lang });

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 40 });
  admin = await server.login('admin', 'admin123');
  const branch = await server.app.storage.users.findByUsername('branch');
  const eastCompany = (await server.app.storage.companies.get(ALL_COMPANIES, branch!.companyId))!;
  east = { id: eastCompany.id, path: eastCompany.path };
  const all = await server.app.storage.terminals.allVehicles();
  const inEast = all.filter((x) => x.companyPath.startsWith(east.path) && x.companyPath !== east.path);
  const labels = await server.app.storage.terminals.labels(ALL_COMPANIES, all.map((x) => x.vehicleId));
  const pick = (x: (typeof all)[number]) => ({ vehicleId: x.vehicleId, deviceNo: x.deviceNo, companyId: labels.get(x.vehicleId)!.companyId, vehiidno: labels.get(x.vehicleId)!.vehiidno });
  v.a = pick(inEast[0]!);
  v.b = pick(inEast[1]!);
  v.c = pick(inEast[2]!);
  v.d = pick(inEast[3]!);
  v.outside = pick(all.find((x) => !x.companyPath.startsWith(east.path))!);
  eastFleet = v.a.companyId;
  // Registry ids 17 /safeManagement, 33–35 vehicleScore (+ checkReport, checkSetting), 36–38 analysisReport.
  eastSafety = await createUserWithRole(server, 'eastappraiser', east.id, [17, 33, 34, 35, 36, 37, 38], 'eastappraiser name');
  viewer = await createUserWithRole(server, 'reportviewer', 1, [17, 33, 34], 'reportviewer name');

  // Last month (China time) of the server clock: complete, so every day is a stored rollup day.
  const now = new Date(server.clock.now() + 8 * 3_600_000);
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  month = last.toISOString().slice(0, 7);
  firstDay = monthDays(month)!.firstDay;
  for (const d of [2, 5, 9]) await drive100Km(v.a.vehicleId, firstDay + d, 121);
  for (const d of [3, 4, 6]) await drive100Km(v.b.vehicleId, firstDay + d, 121.2);
  for (const d of [3, 4]) await drive100Km(v.d.vehicleId, firstDay + d, 121.3);
  await drive100Km(v.outside.vehicleId, firstDay + 3, 121.4);
  let minute = 0;
  for (let i = 0; i < 3; i++) await alarm(v.a, 18001, firstDay + 2, minute++);
  for (let i = 0; i < 9; i++) await alarm(v.a, 10001, firstDay + 5, minute++);
  for (let i = 0; i < 6; i++) await alarm(v.a, 12001, firstDay + 9, minute++);
  await alarm(v.a, 11004, firstDay + 9, minute++);
  await alarm(v.a, 12001, firstDay + 9, minute++, 3); // invalid: a false alarm does not count
  await alarm(v.a, 17001, firstDay + 9, minute++); // emergency button: in no category
  await alarm(v.c, 12001, firstDay + 3, minute); // alarms without km: listed, not scored
}, 120_000);

afterAll(async () => {
  await server.close();
});

describe('appraisal report', () => {
  it('scores vehicles from their alarms per 100 km against the thresholds and ranks them', async () => {
    const r = await report(admin, { month, companyId: east.id });
    expect(r.code).toBe(200);
    const byId = new Map(r.data.records.map((x) => [x.vehicleId, x]));
    const a = byId.get(v.a.vehicleId)!;
    expect(a.mileageKm).toBe(300);
    expect(a.normalDays).toBe(3);
    expect(a.counts).toEqual({ drivingSkill: 3, drivingBehaviour: 9, trafficViolation: 6, trafficAccident: 0, vehicleOperation: 1 });
    expect(a.rates).toEqual({ drivingSkill: 1, drivingBehaviour: 3, trafficViolation: 2, trafficAccident: 0, vehicleOperation: 0.33 });
    expect(a.scores).toEqual({ drivingSkill: 90, drivingBehaviour: 70, trafficViolation: 60, trafficAccident: 100, vehicleOperation: 93.3 });
    expect(a.totalScore).toBe(80.3);
    const b = byId.get(v.b.vehicleId)!;
    expect([b.totalScore, b.mileageKm, b.normalDays]).toEqual([100, 300, 3]);
    // D drove 200 km clean, but on 2 days only: not assessed, where it would otherwise share first place.
    const d = byId.get(v.d.vehicleId)!;
    expect([d.totalScore, d.rank, d.mileageKm, d.normalDays]).toEqual([null, null, 200, 2]);
    // Ranking order: B first, A second, then the vehicles not assessed (C has an alarm but no mileage).
    expect(r.data.records.slice(0, 2).map((x) => [x.vehicleId, x.rank])).toEqual([[v.b.vehicleId, 1], [v.a.vehicleId, 2]]);
    const c = byId.get(v.c.vehicleId)!;
    expect([c.totalScore, c.rank, c.scores, c.alarmCount]).toEqual([null, null, null, 1]);
    expect(r.data.scoredVehicles).toBe(2);
    expect(r.data.averageScore).toBe(90.2);
    expect(byId.has(v.outside.vehicleId)).toBe(false);
  });

  it('requires an assessment month, with the spec’s message in both languages', async () => {
    const zh = await report(admin, {});
    expect([zh.status, zh.msg]).toEqual([400, '请选择考核月份']);
    const en = await report(admin, { month: '' }, 'en');
    expect([en.status, en.msg]).toEqual([400, 'Please choose an assessment month']);
    const bad = await report(admin, { month: '2026-13' }, 'en');
    expect(bad.msg).toBe('The assessment month (month) must be YYYY-MM');
    const future = await report(admin, { month: '2999-01' });
    expect(future.msg).toBe('考核月份不能晚于当前月份');
  });

  it('keeps a vehicle’s rank when the list is filtered by plate', async () => {
    const r = await report(admin, { month, companyId: east.id, keyword: v.a.vehiidno });
    expect(r.data.records.map((x) => [x.vehicleId, x.rank])).toEqual([[v.a.vehicleId, 2]]);
  });

  it('answers only the caller’s companies; a company outside them is refused', async () => {
    const own = await report(eastSafety, { month });
    expect(own.code).toBe(200);
    expect(own.data.records.some((x) => x.vehicleId === v.outside.vehicleId)).toBe(false);
    expect(own.data.records.find((x) => x.vehicleId === v.a.vehicleId)?.totalScore).toBe(80.3);
    const other = await report(eastSafety, { month, companyId: 1 });
    expect(other.status).toBe(403);
  });

  it('exports the ranking as .xlsx', async () => {
    const address = server.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${address.port}/service-safe/vehicleScore/checkReport/excel`, {
      method: 'POST', headers: { 'x-jwt': admin, 'content-type': 'application/json', 'x-lang': 'en' }, body: JSON.stringify({ month, companyId: east.id }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`vehicle-appraisal-${month}.xlsx`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]); // a zip (xlsx) container
  });
});

describe('risk ranking (dashboard)', () => {
  it('answers the riskiest scored vehicles first, with plate and total score', async () => {
    // The fixture's month is last month; the current month has no km, so it ranks nobody.
    const r = await server.call<{ vehicleId: number; vehiidno: string; totalScore: number }[]>('GET', `/service-safe/vehicleScore/riskRanking?month=${month}&companyId=${east.id}`, { token: admin });
    expect(r.data.map((x) => [x.vehiidno, x.totalScore])).toEqual([[v.a.vehiidno, 80.3], [v.b.vehiidno, 100]]);
    const current = await server.call<unknown[]>('GET', '/service-safe/vehicleScore/riskRanking', { token: admin });
    expect(current.data).toEqual([]);
  });
});

describe('appraisal settings', () => {
  it('answers the defaults before anything is saved', async () => {
    const r = await server.call<SettingView>('GET', `/service-safe/vehicleScore/setting?companyId=${eastFleet}`, { token: admin });
    expect(r.data).toMatchObject({ companyId: eastFleet, fromCompanyId: null, creatorName: null, updaterName: null });
    expect(r.data.weights).toEqual({ drivingSkill: 20, drivingBehaviour: 30, trafficViolation: 20, trafficAccident: 20, vehicleOperation: 10 });
  });

  it('refuses weights that do not add up to 100 and negative thresholds, saving nothing', async () => {
    const weights = { drivingSkill: 30, drivingBehaviour: 30, trafficViolation: 20, trafficAccident: 20, vehicleOperation: 10 };
    const thresholds = { drivingSkill: 10, drivingBehaviour: 10, trafficViolation: 5, trafficAccident: 1, vehicleOperation: 5 };
    const sum = await server.call('POST', '/service-safe/vehicleScore/setting', { token: eastSafety, body: { weights, thresholds }, lang: 'en' });
    expect([sum.status, sum.msg]).toEqual([400, 'The weights must add up to 100%; they add up to 110%']);
    const negative = await server.call('POST', '/service-safe/vehicleScore/setting', {
      token: eastSafety, body: { weights: { ...weights, drivingSkill: 20 }, thresholds: { ...thresholds, trafficAccident: -1 } },
    });
    expect(negative.status).toBe(400);
    expect(negative.msg).toContain('thresholds.trafficAccident');
    const missing = await server.call('POST', '/service-safe/vehicleScore/setting', { token: eastSafety, body: { weights } });
    expect(missing.status).toBe(400);
    expect(missing.msg).toContain('thresholds');
    const after = await server.call<SettingView>('GET', '/service-safe/vehicleScore/setting', { token: eastSafety });
    expect(after.data.fromCompanyId).toBeNull();
  });

  it('saves a company’s settings with who and when, inherits them down the tree, and scores with them', async () => {
    const weights = { drivingSkill: 0, drivingBehaviour: 0, trafficViolation: 100, trafficAccident: 0, vehicleOperation: 0 };
    const thresholds = { drivingSkill: 10, drivingBehaviour: 10, trafficViolation: 4, trafficAccident: 1, vehicleOperation: 5 };
    const saved = await server.call<SettingView>('POST', '/service-safe/vehicleScore/setting', { token: eastSafety, body: { weights, thresholds } });
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({ companyId: east.id, fromCompanyId: east.id, creatorName: 'eastappraiser name', updaterName: 'eastappraiser name', weights, thresholds });
    const inherited = await server.call<SettingView>('GET', `/service-safe/vehicleScore/setting?companyId=${eastFleet}`, { token: admin });
    expect(inherited.data).toMatchObject({ companyId: eastFleet, fromCompanyId: east.id, updaterName: 'eastappraiser name' });
    // Violation only: A has 2 per 100 km against 4 → 50.
    const r = await report(eastSafety, { month });
    expect(r.data.records.find((x) => x.vehicleId === v.a.vehicleId)?.totalScore).toBe(50);
    // The administrator updates it: the creator stays, the updater changes.
    const again = await server.call<SettingView>('POST', '/service-safe/vehicleScore/setting', {
      token: admin, body: { companyId: east.id, weights, thresholds: { ...thresholds, trafficViolation: 8 } },
    });
    expect(again.data).toMatchObject({ creatorName: 'eastappraiser name', updaterName: '系统管理员' });
    expect(again.data.updateTime!).toBeGreaterThanOrEqual(again.data.createTime!);
  });

  it('needs the settings permission', async () => {
    const r = await server.call('GET', '/service-safe/vehicleScore/setting', { token: viewer });
    expect(r.status).toBe(403);
  });
});

describe('analysis reports', () => {
  it('builds the single-vehicle report of a vehicle with enough normal running days', async () => {
    const r = await server.call<{ normalDays: number; mileageKm: number; alarms: number; daily: { date: string; alarms: number; mileageKm: number; normal: boolean }[]; rank: number | null; types: { alarmType: number; count: number }[] }>(
      'GET', `/service-safe/analysisReport/vehicleReport?vehicleId=${v.a.vehicleId}&month=${month}`, { token: admin });
    expect(r.code).toBe(200);
    expect([r.data.normalDays, r.data.mileageKm, r.data.alarms]).toEqual([3, 300, 20]);
    expect(r.data.daily.filter((d) => d.normal).map((d) => d.mileageKm)).toEqual([100, 100, 100]);
    expect(r.data.daily[9]!.alarms).toBe(8);
    expect(r.data.types[0]).toEqual(expect.objectContaining({ alarmType: 10001, count: 9 }));
  });

  it('refuses the single-vehicle report with too few normal running days, with the spec’s message', async () => {
    const zh = await server.call('GET', `/service-safe/analysisReport/vehicleReport?vehicleId=${v.d.vehicleId}&month=${month}`, { token: admin });
    expect([zh.status, zh.msg]).toEqual([409, '该车辆正常运行天数过少（所选月份2天，至少需要3天），无法生成单车报告']);
    const en = await server.call('GET', `/service-safesheet/report/getSingleVehicleReport?vehicleId=${v.c.vehicleId}&month=${month}`, { token: admin, lang: 'en' });
    expect(en.msg).toContain('too few normal running days (0 in the chosen month');
  });

  it('exports the day tables of both reports as .xlsx, and refuses the vehicle export with too few days', async () => {
    const address = server.app.server.address() as { port: number };
    const base = `http://127.0.0.1:${address.port}/service-safe/analysisReport`;
    const fleet = await fetch(`${base}/teamReport/excel`, {
      method: 'POST', headers: { 'x-jwt': eastSafety, 'content-type': 'application/json', 'x-lang': 'en' }, body: JSON.stringify({ month }),
    });
    expect([fleet.status, fleet.headers.get('content-type')]).toEqual([200, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    const one = await fetch(`${base}/vehicleReport/excel?vehicleId=${v.a.vehicleId}&month=${month}`, { headers: { 'x-jwt': admin } });
    expect(one.headers.get('content-disposition')).toContain(encodeURIComponent(`单车报告-${v.a.vehiidno}-${month}.xlsx`));
    const refused = await fetch(`${base}/vehicleReport/excel?vehicleId=${v.d.vehicleId}&month=${month}`, { headers: { 'x-jwt': admin } });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { msg: string }).msg).toContain('正常运行天数过少');
  });

  it('does not show a vehicle outside the caller’s companies', async () => {
    const r = await server.call('GET', `/service-safe/analysisReport/vehicleReport?vehicleId=${v.outside.vehicleId}&month=${month}`, { token: eastSafety });
    expect(r.status).toBe(404);
  });

  it('summarises the company’s month: alarms by group and day, per 100 km, risky vehicles', async () => {
    const r = await server.call<{
      mileageKm: number; alarms: number; per100Km: number; groups: { group: number; count: number }[]; daily: { date: string; alarms: number; mileageKm: number }[];
      riskyVehicles: { vehicleId: number; totalScore: number }[]; categories: { category: string; count: number }[];
    }>('POST', '/service-safe/analysisReport/teamReport', { token: eastSafety, body: { month } });
    expect(r.code).toBe(200);
    expect(r.data.mileageKm).toBe(800);
    expect(r.data.alarms).toBe(21); // A's 20 valid + C's 1
    expect(r.data.per100Km).toBe(2.63); // 21 alarms over 800 km
    expect(r.data.groups.slice(0, 2)).toEqual([expect.objectContaining({ group: 10, count: 9 }), expect.objectContaining({ group: 12, count: 7 })]);
    expect(r.data.daily[9]).toMatchObject({ alarms: 8, mileageKm: 100 });
    expect(r.data.riskyVehicles[0]!.vehicleId).toBe(v.a.vehicleId);
    const noMonth = await server.call('POST', '/service-safe/analysisReport/teamReport', { token: eastSafety, body: {} });
    expect([noMonth.status, noMonth.msg]).toEqual([400, '请选择考核月份']);
  });
});
