/**
 * Operator logs in Chromium against the real server: an administrator edits a vehicle, finds the change
 * on /information/operatorLogManagement/vehicleLog worded "车牌颜色: 旧 → 新", opens the row's every
 * field, exports the same search (the sheet words it the same), and opens the vehicle's 操作记录 from the
 * vehicle list (the kit's audit slot); the device log shows the seeded bindings. Layout checked at 1280×720.
 */
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const e2e = useE2E();

interface Vehicle { id: number; vehiidno: string; plateColor: number }

describe('operator logs: a change is found, read, exported and traced from its record', () => {
  test('edit a vehicle, find it in the vehicle log, read its fields, export, open its trail from the vehicle list', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const list = await e2e.server.api<{ records: Vehicle[] }>('/service-priv/vehicle', { token: admin, query: { current: 1, size: 1, keyword: '' } });
    const v = list.data.records[0]!;
    const next = v.plateColor === 2 ? 1 : 2;
    const put = await e2e.server.api('/service-priv/vehicle', { method: 'PUT', token: admin, body: { id: v.id, plateColor: next } });
    expect(put.code).toBe(200);
    const colour = (c: number) => ({ 0: '未上牌', 1: '蓝色', 2: '黄色', 3: '黑色', 4: '白色', 5: '绿色', 9: '其他' } as Record<number, string>)[c];

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/information/operatorLogManagement/vehicleLog'));
    const screen = page.locator('[data-page="information-vehicle-log"]');
    await screen.getByTestId('log-changes').first().waitFor();
    await expectCleanLayout(page, 'vehicle log');

    await screen.getByRole('textbox', { name: '关键字' }).fill(v.vehiidno);
    await screen.getByTestId('search').click();
    const row = screen.getByRole('row').filter({ hasText: '修改' }).first();
    await row.waitFor();
    expect(await row.getByTestId('log-changes').textContent()).toContain(`车牌颜色: ${colour(v.plateColor)} → ${colour(next)}`);
    expect(await row.textContent()).toContain('系统管理员');

    await row.getByTestId('log-details').click();
    const detail = page.getByTestId('log-detail');
    await detail.waitFor();
    expect(await detail.textContent()).toContain(colour(next));
    await page.keyboard.press('Escape');

    const [download] = await Promise.all([page.waitForEvent('download'), screen.getByTestId('list-export').click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await download.path());
    const cells = (book.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][]).map((r) => r.slice(1).map(String));
    expect(cells[0]).toEqual(['操作时间', '操作人', '来源IP', '车牌号', '所属公司', '操作类型', '变更内容']);
    expect(cells.some((r) => r[3] === v.vehiidno && r[6]!.includes(`车牌颜色: ${colour(v.plateColor)} → ${colour(next)}`))).toBe(true);

    // The vehicle list's 操作记录: the same change in the record's own trail.
    await page.goto(consolePath('/information/vehicle'));
    const vehicles = page.locator('[data-page="information-vehicle"]');
    await vehicles.getByRole('textbox', { name: '关键字' }).fill(v.vehiidno);
    await vehicles.getByTestId('search').click();
    const vehicleRow = vehicles.getByRole('row').filter({ hasText: v.vehiidno }).first();
    await vehicleRow.getByTestId('record-trail').click();
    const trail = page.getByTestId('record-trail-drawer');
    await trail.getByTestId('trail-entry').first().waitFor();
    expect(await trail.getByTestId('trail-entry').first().textContent()).toContain(colour(next));
    // Issue 19: below it, the audit trail's calls that named the vehicle (the PUT above, by the administrator).
    await trail.getByTestId('row-call').first().waitFor();
    expect(await trail.getByTestId('row-call').first().textContent()).toContain('车辆管理 / 修改');
    await expectCleanLayout(page, 'vehicle trail');
  });

  test('the device log lists the seeded device bindings with the vehicle they went onto', async () => {
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/information/operatorLogManagement/deviceLog'));
    const screen = page.locator('[data-page="information-device-log"]');
    const first = screen.getByTestId('log-changes').first();
    await first.waitFor();
    expect(await first.textContent()).toMatch(/车牌号: — → \S+/);
    await expectCleanLayout(page, 'device log');
  });
});
