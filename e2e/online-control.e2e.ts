/**
 * The positioning-quality report (上线考核 · 数据合格率) on the kit (issue 13): every vehicle of the fleet
 * is a row of the kit's RowsTable under a totals row, the count says so, the detail tab lists the
 * invalid points, and 导出 saves the open tab's list as a workbook with one row per vehicle.
 */
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E();

describe('the positioning-quality report', () => {
  test('lists every vehicle with a totals row, and exports the same vehicles', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/report/onlineControl/dataQualifiedRate'));
    const report = page.locator('[data-page="report-data-qualified-rate"]');
    await report.locator('tbody tr[aria-rowindex]').first().waitFor({ timeout: 30_000 });

    // All pages loaded (500 a call): "共 N 条" with N the table's row count.
    await expect.poll(() => report.getByTestId('list-total').textContent(), { timeout: 30_000 }).toMatch(/^共 \d+ 条$/);
    const total = Number((await report.getByTestId('list-total').textContent())!.match(/\d+/)![0]);
    expect(total).toBeGreaterThan(0);
    expect(await report.getByRole('table').getAttribute('aria-rowcount')).toBe(String(total + 1));
    const totals = report.locator('tr[data-row=totals]');
    expect(await totals.locator('[data-col=vehiidno]').textContent()).toBe('合计');
    expect(await totals.locator('[data-col=qualifiedRate]').textContent()).toMatch(/%$/);

    // 导出 saves the open tab: a header and one row per vehicle.
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await report.getByTestId('export').click();
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await (await download).path())!);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('车牌号');
    expect(sheet.rowCount).toBe(1 + total);

    // The detail tab: the invalid points of the same period, or the kit's empty text.
    await report.getByRole('tab', { name: '异常定位点' }).click();
    await expect.poll(async () => (await report.locator('tbody tr[aria-rowindex]').count()) > 0 || (await report.getByTestId('rows-empty').count()) > 0, { timeout: 20_000 }).toBe(true);
    expect(await report.getByRole('table').getAttribute('aria-label')).toBe('异常定位点');
  });
});
