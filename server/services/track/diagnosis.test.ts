/**
 * GET /service-monitor/trail/diagnosis (track diagnosis, /monitor/trackPlaybackTest): a day of stored
 * points with a drift spike, an invalid (0,0) point, a stop and a 5 km jump; each comes back judged, and
 * the day's metrics count them as the reports do. Permission and scope are the page's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { chinaDate } from '../../../domain/track/days.ts';
import type { PositionRow } from '../../db/repositories.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';

interface Diagnosis {
  plate: string; date: string; total: number; truncated: boolean;
  points: { time: number[]; lng: number[]; invalid: (string | null)[]; drift: number[]; gapKm: (number | null)[]; gap: (string | null)[]; continuous: (boolean | null)[]; stop: number[] };
  stops: { from: number; to: number; minutes: number }[];
  metrics: { totalGps: number; error: number; drift: number; lossTimes: number } | null;
}

let server: LiveTestServer;
let admin: string;
let vehicleId: number;
let date: string;
const N = 1200;
const DRIFT_AT = 300, ZERO_AT = 500, JUMP_AT = 900, LONG_AT = 1100;

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 5 });
  admin = await server.login('admin', 'admin123');
  const now = server.clock.now();
  vehicleId = (await server.app.storage.terminals.allVehicles())[0]!.vehicleId;
  // Start at 01:00 China time today (or yesterday before 01:30) so the whole run sits in one China day.
  const dayStart = Math.floor((now + 8 * 3_600_000) / 86_400_000) * 86_400_000 - 8 * 3_600_000;
  const start = now - dayStart > 5_400_000 ? dayStart + 3_600_000 : dayStart - 86_400_000 + 3_600_000;
  date = chinaDate(start);
  const rows: PositionRow[] = [];
  let lng = 120.1;
  for (let i = 0; i < N; i++) {
    const stopped = i >= 600 && i < 800; // 200 s standing: a stop at a 3-minute threshold
    if (!stopped) lng += 0.0001;
    if (i === JUMP_AT) lng += 0.05; // ~4.8 km in one second: a middle gap, continuous when alone
    if (i === LONG_AT) lng += 0.15; // ~14 km: a long gap, discontinuous
    const spike = i === DRIFT_AT ? 1 : 0;
    const zero = i === ZERO_AT;
    const t = start + i * 1000;
    rows.push({ vehicleId, gpsTime: t, lng: zero ? 0 : lng + spike, lat: zero ? 0 : 30.2 + spike, speed: stopped ? 0 : 36, heading: 90, altitude: 0, status: 3, alarm: 0, mileage: null, receivedAt: t });
  }
  await server.app.storage.positions.append(rows);
});
afterAll(async () => {
  await server.close();
});

describe('track diagnosis', () => {
  it('answers every stored point with its judgement and the day metrics', async () => {
    const r = await server.call<Diagnosis>('GET', `/service-monitor/trail/diagnosis?vehicleId=${vehicleId}&date=${date}`, { token: admin });
    expect(r.code).toBe(200);
    const d = r.data;
    expect(d.date).toBe(date);
    expect(d.total).toBe(N);
    expect(d.truncated).toBe(false);
    expect(d.points.time).toHaveLength(N);
    expect(d.points.invalid[ZERO_AT]).toBe('zero');
    expect(d.points.invalid.filter((x) => x !== null)).toHaveLength(1);
    expect(d.points.drift[DRIFT_AT]).toBe(1);
    expect(d.points.drift.reduce((a, b) => a + b, 0)).toBe(1);
    expect(d.points.gap[JUMP_AT]).toBe('middle');
    expect(d.points.continuous[JUMP_AT]).toBe(true);
    expect(d.points.gap[LONG_AT]).toBe('long');
    expect(d.points.continuous[LONG_AT]).toBe(false);
    expect(d.points.gap.filter((x) => x !== null)).toHaveLength(2);
    expect(d.points.gapKm[JUMP_AT]).toBeGreaterThan(4);
    expect(d.stops).toHaveLength(1);
    expect(d.points.stop[700]).toBe(0);
    expect(d.points.stop[100]).toBe(-1);
    expect(d.metrics).toMatchObject({ totalGps: N, error: 1, drift: 1, lossTimes: 1 });
  });

  it('needs the page, keeps to the scope and refuses a malformed date', async () => {
    const bad = await server.call('GET', `/service-monitor/trail/diagnosis?vehicleId=${vehicleId}&date=2026-1-1`, { token: admin });
    expect(bad.status).toBe(400);
    const role = await server.call<{ id: number }>('POST', '/service-priv/role', { token: admin, body: { name: '回放', permissionIds: [entryByKey('/monitor')!.id, entryByKey('/monitor/trackPlaybackPage')!.id] } });
    await server.call('POST', '/service-priv/user', { token: admin, body: { username: 'no_diag', password: 'secret123', userLevel: 2, companyId: 1, roleIds: [role.data.id] } });
    const other = await server.login('no_diag', 'secret123');
    expect((await server.call('GET', `/service-monitor/trail/diagnosis?vehicleId=${vehicleId}&date=${date}`, { token: other })).status).toBe(403);
    expect((await server.call('GET', `/service-monitor/trail/diagnosis?vehicleId=999999&date=${date}`, { token: admin })).status).toBe(404);
  });
});
