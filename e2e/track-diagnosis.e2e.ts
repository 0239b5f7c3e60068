/**
 * /monitor/trackPlaybackTest (track diagnosis) against the real stack: a server with a demo-history
 * backfill (its first vehicle a showcase with drift and stops). Opened for that vehicle and yesterday
 * (China day), the page shows the day's metrics as the diagnosis call counts them, every stored point in
 * the table, and with 仅看异常点 only the flagged points, each judged (drift named 漂移点).
 */
import { describe, expect, test } from 'vitest';
import { chinaDate } from '../domain/track/days.ts';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const DAY = 86_400_000;
const e2e = useE2E({ seedVehicles: 10, env: { SIM_VEHICLES: '1', GATEWAY_PORT: '0', MEDIA_PORT: '0', SEED_HISTORY_VEHICLES: '1', SEED_HISTORY_DAYS: '2' } });

interface Diagnosis { total: number; points: { drift: number[]; invalid: (string | null)[]; gap: (string | null)[]; continuous: (boolean | null)[] }; metrics: { totalGps: number; drift: number } }

describe('track diagnosis', () => {
  test('a day of the showcase vehicle: metrics, every point, and the flagged ones judged', async () => {
    const token = await e2e.server.token(ACCOUNTS.admin);
    const now = Date.now();
    const found = await e2e.server.api<{ records: { vehicleId: number; plate: string }[] }>('/service-onlinegps/geography/searchFrameGps', {
      token, body: { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90, startTime: now - DAY + 60_000, endTime: now },
    });
    const vehicle = [...found.data.records].sort((a, b) => a.vehicleId - b.vehicleId)[0]!;
    const date = chinaDate(now - DAY);
    const api = await e2e.server.api<Diagnosis>(`/service-monitor/trail/diagnosis?vehicleId=${vehicle.vehicleId}&date=${date}`, { token });
    expect(api.code).toBe(200);
    const d = api.data;
    expect(d.total).toBeGreaterThan(100);
    expect(d.metrics.drift).toBeGreaterThan(0); // the showcase day has drift

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(`/monitor/trackPlaybackTest?vehicleId=${vehicle.vehicleId}&plate=${encodeURIComponent(vehicle.plate)}`));
    await page.getByTestId('diagnosis-date').fill(date);
    await page.getByTestId('search').click();
    await expect.poll(() => page.getByTestId('metric-totalGps').textContent(), { timeout: 30_000 }).toBe(String(d.metrics.totalGps));
    expect(await page.getByTestId('metric-drift').textContent()).toBe(String(d.metrics.drift));
    await page.getByTestId('diagnosis-table').locator('tbody tr').first().waitFor();
    await expectCleanLayout(page, 'track diagnosis');

    await page.getByTestId('diagnosis-only-flagged').click();
    const rows = page.getByTestId('diagnosis-table').locator('tbody tr[data-flagged]');
    await expect.poll(() => rows.first().getAttribute('data-flagged'), { timeout: 10_000 }).toBe('1');
    // Every row shown is flagged; the first one is judged as the call judged it.
    expect(await page.getByTestId('diagnosis-table').locator('tbody tr[data-flagged="0"]').count()).toBe(0);
    const p = d.points;
    const first = p.drift.findIndex((x, i) => x === 1 || p.invalid[i] !== null || (p.gap[i] !== null && p.continuous[i] === false));
    const expected = p.invalid[first] !== null ? '无效' : p.drift[first] === 1 ? '漂移点' : '间隔';
    const cell = page.getByTestId(`judgement-${first}`);
    await cell.waitFor({ timeout: 10_000 });
    expect(await cell.textContent()).toContain(expected);
  });
});
