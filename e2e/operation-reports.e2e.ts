/**
 * The parking summary (运营分析 · 停车汇总, issue 18) over the simulated fleet: check a branch's vehicles in the
 * company tree, query today, the page lists one row per checked vehicle with a totals row from the report
 * engine's operation rows, 轨迹回放 opens playback of the row's vehicle, and 导出 (an export job) saves the same
 * vehicles as a workbook.
 */
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E();
const EXPAND = '展开';

describe('the parking summary', () => {
  test('reports the checked vehicles with totals, exports the same rows and drills down to playback', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/report/vehicleOperationAnalysis/parkingSummary'));
    const report = page.locator('[data-page="report-parking-summary"]');
    // Without vehicles the query is refused, in words.
    await expect.poll(() => report.getByTestId('report-problem').textContent()).toBe('请在左侧勾选车辆（最多500辆）');
    expect(await report.getByTestId('search').isDisabled()).toBe(true);

    // Only vehicles have boxes: open 华东分公司 and what is under it until vehicles show, then check two.
    const tree = page.getByTestId('company-tree');
    await tree.getByRole('treeitem').filter({ hasText: '华东分公司' }).first().getByRole('button', { name: EXPAND }).click();
    const boxes = tree.getByRole('checkbox');
    for (let i = 0; i < 5 && (await boxes.count()) < 2; i++) {
      const closed = tree.getByRole('button', { name: EXPAND });
      if ((await closed.count()) > 0) await closed.last().click();
      await page.waitForTimeout(300);
    }
    await boxes.nth(0).click();
    await boxes.nth(1).click();
    await expect.poll(() => report.getByTestId('vehicle-filter').textContent()).toBe('已选 2 辆车');
    const checked = 2;

    // The default period: the 7 days before today (a per-vehicle report has a row for every checked vehicle).
    await report.getByTestId('search').click();
    await report.locator('tbody tr[aria-rowindex]').first().waitFor({ timeout: 30_000 });
    const totals = report.locator('tr[data-row=totals]');
    expect(await totals.locator('[data-col=vehiidno]').textContent()).toBe('合计');
    expect(await totals.locator('[data-col=stops]').textContent()).toMatch(/^\d+$/);

    const download = page.waitForEvent('download', { timeout: 60_000 });
    await report.getByTestId('export').click();
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await (await download).path())!);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('车牌号');
    expect(sheet.rowCount).toBe(1 + checked);

    const plate = await report.locator('tbody tr[aria-rowindex]').first().locator('[data-col=vehiidno]').textContent();
    await report.locator('tbody tr[aria-rowindex]').first().getByTestId('playback').click();
    await page.waitForURL(/\/monitor\/trackPlaybackPage\?/);
    expect(decodeURIComponent(page.url())).toContain(`plate=${plate}`);
  });
});
