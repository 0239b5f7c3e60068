/**
 * Passenger flow and temperature reports on the real stack (issue 18): a scripted bus terminal sends its door
 * counts (0x1005 with the bus-line extension) and a body temperature (0x0E30) through the gateway; 车辆客流 lists
 * the bus with exactly those counts and totals, 大数据分析 draws the hourly profile (uPlot canvas), and 温度报表 shows
 * the measurement as a suspected fever with the figures line. No simulated fleet: its buses would add counts.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, useE2E, vehiclesById } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const terminals: TestTerminal[] = [];
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

// 快捷 今天 counts China days (domain/period): this headless browser runs on UTC, whose day is China's yesterday
// from 16:00 to 24:00 UTC, and the fields must still show China's today.
const today = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
const pickToday = async (report: Locator, page: Page) => {
  await report.getByTestId('quick-range').click();
  await page.getByTestId('quick-range-today').click();
  expect(await report.getByTestId('start-date').inputValue()).toBe(today());
  await report.getByTestId('search').click();
};

describe('passenger flow and temperature reports', () => {
  test('a scripted bus’s counts and temperature appear in 车辆客流, 大数据分析 and 温度报表', async () => {
    const vehicle = (await vehiclesById(e2e.server))[0]!;
    const terminal = await TestTerminal.connect(gatewayPort(e2e.server), vehicle.deviceNo);
    terminals.push(terminal);
    await terminal.login();
    const t = Math.floor(Date.now() / 1000) * 1000 - 120_000;
    const line = (door: number, onboard: number) => ({ door, direction: 0, stationSeq: 3, onboard });
    expect(await terminal.request({ msgId: 0x1005, start: t - 40_000, end: t, boarding: 37, alighting: 0, line: line(1, 52) } as never)).toMatchObject({ result: 0 });
    expect(await terminal.request({ msgId: 0x1005, start: t - 40_000, end: t, boarding: 0, alighting: 15, line: line(2, 37) } as never)).toMatchObject({ result: 0 });
    expect(await terminal.request({ msgId: 0x0e30, time: t, kind: 0, mask: true, celsius: 38.25, mediaId: null } as never)).toMatchObject({ result: 0 });

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);

    await page.goto(consolePath('/report/PassengerAnalysis/carAnalysis'));
    const car = page.locator('[data-page="report-passenger-car"]');
    await pickToday(car, page);
    const row = car.locator('tbody tr[aria-rowindex]', { hasText: vehicle.vehiidno });
    await expect.poll(() => row.locator('[data-col=boarding]').textContent(), { timeout: 30_000 }).toBe('37');
    expect(await row.locator('[data-col=alighting]').textContent()).toBe('15');
    expect(await row.locator('[data-col=maxOnboard]').textContent()).toBe('52');
    const totals = car.locator('tr[data-row=totals]');
    expect(await totals.locator('[data-col=vehiidno]').textContent()).toBe('合计');
    expect(await totals.locator('[data-col=boarding]').textContent()).toBe('37');
    await expectCleanLayout(page, 'passengers per vehicle');

    await page.goto(consolePath('/report/PassengerAnalysis/bigDataAnalysis'));
    const big = page.locator('[data-page="report-passenger-bigdata"]');
    await pickToday(big, page);
    await big.getByTestId('hourly-chart').locator('canvas').waitFor({ timeout: 30_000 });
    expect(await big.locator('tbody tr[aria-rowindex] [data-col=peakBoarding]').first().textContent()).toBe('37');

    await page.goto(consolePath('/report/temperatureReport'));
    const temp = page.locator('[data-page="report-temperature"]');
    await pickToday(temp, page);
    const measured = temp.locator('tbody tr[aria-rowindex]', { hasText: vehicle.vehiidno });
    await expect.poll(() => measured.locator('[data-col=celsius]').textContent(), { timeout: 30_000 }).toBe('38.25');
    expect(await measured.locator('[data-col=fever]').textContent()).toBe('是');
    expect(await measured.locator('[data-col=mask]').textContent()).toBe('是');
    expect(await temp.getByTestId('temperature-figures').textContent()).toBe('测量 1 次，疑似发热 1 次，正常率 0%，戴口罩 1 次');
    await expectCleanLayout(page, 'temperature report');
  });
});
