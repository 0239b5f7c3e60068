/**
 * Vehicle appraisal and analysis reports against the real stack: scripted JT/T 808 terminals drive and
 * raise overspeed alarms over TCP on three days of last month (the gateway stores positions and the
 * alarms; fewer normal running days would leave a vehicle unassessed), the settings page
 * saves and shows who changed it, the appraisal report ranks the clean vehicle above the speeding one,
 * and the single-vehicle report of a vehicle without history shows the spec's message.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { EARTH_RADIUS_KM } from '../domain/track/geo.ts';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, type RealtimeVehicle, useE2E, vehiclesById } from './harness.ts';

// No simulated fleet: every km and alarm here comes from a scripted terminal, so the ranking is exact.
const e2e = useE2E({ seedVehicles: 20, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

const OVERSPEED_BIT = 1 << 1; // JT/T 808 bit 1 → 12001, a traffic violation
const terminals: TestTerminal[] = [];

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

/** Last month (China time): its first day at 00:00 UTC (= 08:00 China time) and its `YYYY-MM`. */
function lastMonth(): { start: number; month: string } {
  const now = new Date(Date.now() + 8 * 3_600_000);
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { start: first.getTime(), month: first.toISOString().slice(0, 7) };
}

/**
 * On days 4, 11 and 18 of last month, 12 steps of 1 km north, one a minute from 08:00 China time (three
 * normal running days, the minimum to be assessed); with `overspeed` each day's last report carries
 * the overspeed bit (three alarms, days apart, so none merges).
 */
async function drive(v: RealtimeVehicle, lng: number, overspeed: boolean): Promise<void> {
  const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
  terminals.push(t);
  await t.login();
  const stepDeg = (1 / EARTH_RADIUS_KM) * (180 / Math.PI);
  const { start } = lastMonth();
  let step = 0;
  for (const day of [4, 11, 18]) {
    const dayStart = start + (day - 1) * 86_400_000;
    for (let k = 0; k <= 12; k++) {
      const last = k === 12;
      const r = await t.report(location({
        lng, lat: 31 + (step + k) * stepDeg, time: dayStart + k * 60_000, speed: last && overspeed ? 95 : 60, alarm: last && overspeed ? OVERSPEED_BIT : 0,
      }));
      expect(r.result).toBe(0);
    }
    step += 12;
  }
}

function monthLength(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

describe('vehicle appraisal', () => {
  test('settings are checked, saved and shown with the updater', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/safeManagement/vehicleScore/checkSetting'));
    await page.getByTestId('setting-source').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('setting-source').textContent()).toBe('系统默认设置（尚未保存）');
    expect(await page.getByTestId('setting-updater').count()).toBe(0);

    await page.getByTestId('weight-drivingSkill').fill('30');
    await page.getByTestId('setting-save').click();
    await page.getByText('各项权重之和须为100%，当前为110%').waitFor({ timeout: 5_000 });

    await page.getByTestId('weight-drivingBehaviour').fill('20');
    await page.getByTestId('threshold-trafficViolation').fill('4');
    await page.getByTestId('setting-save').click();
    await page.getByTestId('setting-updater').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('setting-updater').textContent()).toContain('修改人：系统管理员');
    expect(await page.getByTestId('setting-source').textContent()).toBe('本公司设置');

    // Saved on the server: a fresh page shows the stored values and who changed them.
    await page.reload();
    await page.getByTestId('setting-updater').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('weight-drivingSkill').inputValue()).toBe('30%');
    expect(await page.getByTestId('threshold-trafficViolation').inputValue()).toBe('4');
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const stored = await e2e.server.api<{ weights: Record<string, number>; updaterName: string }>('/service-safe/vehicleScore/setting', { token: admin });
    expect(stored.data.weights).toMatchObject({ drivingSkill: 30, drivingBehaviour: 20 });
    expect(stored.data.updaterName).toBe('系统管理员');
  });

  test('the appraisal report ranks the clean vehicle above the speeding one', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const [clean, speeding] = await vehiclesById(e2e.server);
    await drive(clean!, 121.1, false);
    await drive(speeding!, 121.3, true);
    // History is written in batches every 250 ms after the acks, and a report asked before that would
    // store last month's days empty (the same wait as the single-vehicle report below).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const { month } = lastMonth();
    await expect.poll(async () => {
      const r = await e2e.server.api<{ records: { vehicleId: number; totalScore: number | null }[] }>('/service-safe/vehicleScore/checkReport', {
        token: admin, body: { month, size: 100 },
      });
      return r.data.records.filter((x) => x.totalScore !== null).length;
    }, { timeout: 30_000, interval: 1000 }).toBe(2);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/safeManagement/vehicleScore/checkReport'));
    await page.getByTestId('month').fill(month);
    await page.getByTestId('search').click();
    await page.locator('[data-testid=appraisal-row][data-rank="2"]').waitFor({ timeout: 30_000 });
    const rows = page.getByTestId('appraisal-row');
    expect(await rows.nth(0).getAttribute('data-vehicle-id')).toBe(String(clean!.vehicleId));
    expect(await rows.nth(0).getAttribute('data-rank')).toBe('1');
    expect(await rows.nth(0).getByTestId('total-score').textContent()).toBe('100');
    expect(await rows.nth(1).getAttribute('data-vehicle-id')).toBe(String(speeding!.vehicleId));
    // 3 overspeed alarms in 36 km = 8.33 per 100 km against the saved threshold 4 → violation 0 → 100 − 20.
    expect(await rows.nth(1).getByTestId('total-score').textContent()).toBe('80');
    expect(await rows.nth(2).getAttribute('data-rank')).toBe('');
    expect(await rows.nth(2).getByTestId('total-score').textContent()).toBe('未考核');

    // The month is required: cleared, the page says so and asks nothing.
    await page.getByTestId('month').fill('');
    await page.getByTestId('search').click();
    await page.getByText('请选择考核月份').waitFor({ timeout: 5_000 });
  });

  test('the single-vehicle report shows a month with three normal running days: km, days and the daily chart', async () => {
    const list = await vehiclesById(e2e.server);
    const v = list[2]!;
    // Last month (China time): the terminal reports three 100 km days in time order (stored as history).
    const { start: monthStart, month } = lastMonth();
    const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
    terminals.push(t);
    await t.login();
    const stepDeg = (1 / EARTH_RADIUS_KM) * (180 / Math.PI);
    let step = 0;
    for (const day of [3, 10, 17]) {
      // 08:00 China time of that day of last month.
      const start = monthStart + (day - 1) * 86_400_000; // 00:00 UTC = 08:00 China time
      for (let k = 0; k <= 100; k++) {
        const r = await t.report(location({ lng: 121.5, lat: 30 + (step + k) * stepDeg, time: start + k * 60_000, speed: 60 }));
        expect(r.result).toBe(0);
      }
      step += 100;
    }
    // History is written in batches every 250 ms (HISTORY_FLUSH_MS) after the acks; the track calls
    // cannot see a month back (30-day limit) and a report asked too early would store empty days.
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/safeManagement/analysisReport/vehicleReport'));
    await page.getByTestId('month').fill(month);
    const search = page.getByRole('textbox', { name: '搜索公司、车辆或线路' });
    await search.fill(v.vehiidno);
    await page.getByText(v.vehiidno, { exact: true }).last().waitFor({ timeout: 10_000 });
    await search.press('Enter');
    await page.getByTestId('vehicle-report').waitFor({ timeout: 30_000 });
    const days = monthLength(month);
    expect(await page.getByTestId('stat-normalDays-value').textContent()).toBe(`3 / ${days}`);
    expect(await page.getByTestId('stat-mileageKm-value').textContent()).toBe('300');
    expect(await page.getByTestId('stat-totalScore-value').textContent()).toBe('100');
    expect(await page.getByTestId('day-table-row').count()).toBe(days);
    expect(await page.locator('[data-testid=daily-chart] canvas').count()).toBe(1);
  });

  test('the single-vehicle report of a vehicle without history shows the too-few-days message', async () => {
    const list = await vehiclesById(e2e.server);
    const idle = list[list.length - 1]!;
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/safeManagement/analysisReport/vehicleReport'));
    const search = page.getByRole('textbox', { name: '搜索公司、车辆或线路' });
    await search.fill(idle.vehiidno);
    await page.getByText(idle.vehiidno, { exact: true }).last().waitFor({ timeout: 10_000 });
    await search.press('Enter');
    await expect.poll(() => page.getByTestId('report-vehicle').getAttribute('data-vehicle-id'), { timeout: 10_000 }).toBe(String(idle.vehicleId));
    const alert = page.getByTestId('vehicle-report-unavailable');
    await alert.waitFor({ timeout: 20_000 });
    expect(await alert.textContent()).toContain('该车辆正常运行天数过少（所选月份0天，至少需要3天），无法生成单车报告');
    expect(await page.getByTestId('vehicle-report').count()).toBe(0);
  });
});
