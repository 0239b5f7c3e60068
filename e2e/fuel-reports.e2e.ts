/**
 * The fuel summary (油耗分析 · 油耗汇总, issue 18) over the simulated fleet: the heavy trucks' fuel sensors report
 * item 0x02 live, the report engine's fuel module keeps today's rows, the page lists every vehicle of the
 * company with a totals row, and 导出 (an export job) saves the same vehicles as a workbook.
 */
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E();
const today = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

describe('the fuel summary', () => {
  test('shows the simulated trucks\' fuel readings of today with totals, and exports the same rows', async () => {
    // Wait until a simulated truck's readings reached the engine (terminals connect over a few seconds).
    const token = await e2e.server.token(ACCOUNTS.admin);
    let withFuel = 0;
    let total = 0;
    for (let i = 0; i < 90 && withFuel === 0; i++) {
      const r = await e2e.server.api<{ records: { samples: number }[] }>('/service-onlinegps/oilreport/summary', {
        method: 'POST', token, body: { startDate: today(), endDate: today(), current: 1, size: 500 },
      });
      withFuel = (r.data?.records ?? []).filter((x) => x.samples > 0).length;
      total = r.data?.records.length ?? 0;
      if (withFuel === 0) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(withFuel).toBeGreaterThan(0);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/report/vehicleOilAnalysis/oilSummary'));
    const report = page.locator('[data-page="report-oil-summary"]');
    // The China day, typed: 快捷 今天 is the browser's day, and this headless browser runs on UTC (China's yesterday 16–24 UTC).
    await report.getByTestId('start-date').fill(today());
    await report.getByTestId('end-date').fill(today());
    await report.getByTestId('search').click();
    await report.locator('tbody tr[aria-rowindex]').first().waitFor({ timeout: 30_000 });
    // Every vehicle of the fleet is a row (header + totals + rows).
    await expect.poll(() => report.getByRole('table').getAttribute('aria-rowcount'), { timeout: 30_000 }).toBe(String(total + 1));
    const totals = report.locator('tr[data-row=totals]');
    expect(await totals.locator('[data-col=vehiidno]').textContent()).toBe('合计');
    // A fitted truck shows a start level in litres; a vehicle without a sensor shows —.
    const levels = await report.locator('tbody tr[aria-rowindex] [data-col=startLevel]').allTextContents();
    expect(levels.some((x) => /^\d+(\.\d)?$/.test(x))).toBe(true);

    const download = page.waitForEvent('download', { timeout: 60_000 });
    await report.getByTestId('export').click();
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await (await download).path())!);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('车牌号');
    expect(sheet.rowCount).toBe(1 + total);

    // A fitted truck's 油耗图表: its day as raw and smoothed curves (the one drill-down that reads positions).
    const fitted = report.locator('tbody tr[aria-rowindex]').filter({ has: page.locator('[data-col=startLevel]', { hasText: /^\d/ }) }).first();
    await fitted.getByTestId('chart-link').click();
    const chart = page.locator('[data-page="report-oil-chart"]');
    await chart.getByTestId('fuel-chart').locator('canvas').waitFor({ timeout: 30_000 });
    expect(await chart.getByTestId('chart-figures').textContent()).toMatch(/^期初 \d/);
  });
});
