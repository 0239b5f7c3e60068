/**
 * Device types (/information/deviceType) through the kit's import and export against the real server:
 * the administrator downloads the import template, fills it with one bad row (the refusal names the
 * row and nothing is written), fixes it and imports (the rows appear in the list), then exports; a
 * role holding only the screen sees none of the buttons.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, test } from 'vitest';
import { entryByKey } from '../domain/permissions/access.ts';
import { ACCOUNTS, consolePath, createUserWithRole, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const e2e = useE2E();
const ROUTE = '/information/deviceType';
const dir = mkdtempSync(path.join(tmpdir(), 'e2e-device-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rowsOf = (book: ExcelJS.Workbook) => (book.worksheets[0]?.getSheetValues() ?? []).filter(Boolean).map((r) => (r as unknown[]).slice(1));

describe('device types: import from the template, export', () => {
  test('a template-built file with one bad row names the row and writes nothing; fixed, its rows appear; the export holds them', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    const list = page.locator('[data-page="information-device-type"]');
    // The seed holds the simulator's terminal models.
    await list.getByRole('cell', { name: 'FLEETSIM-808 (2019)', exact: true }).waitFor();

    await page.getByTestId('list-import').click();
    expect(await page.getByTestId('list-import-limits').textContent()).toContain('最多 500 行');
    const [templateFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-import-template').click()]);
    expect(templateFile.suggestedFilename()).toBe('设备类型导入模板.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await templateFile.path());
    expect(rowsOf(book)).toEqual([['设备类型名称', '协议版本', '制造商ID', '终端型号', '备注']]);

    const sheet = book.worksheets[0]!;
    sheet.addRow(['E2E 导入甲', 2019, 'E2EAA', 'EA-1', '模板导入']);
    sheet.addRow(['E2E 导入乙', 2015, 'E2EBB', 'EB-1', '']);
    const bad = path.join(dir, 'bad.xlsx');
    await book.xlsx.writeFile(bad);
    await page.getByTestId('list-import-file').setInputFiles(bad);
    await page.getByTestId('list-import-submit').click();
    const problem = page.getByTestId('list-import-errors').locator('[data-row="3"]');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/^第 3 行 「协议版本」：/);
    expect(await page.getByTestId('list-import-errors').textContent()).toContain('导入失败，未写入任何数据');
    // Nothing written: not even the good row before it.
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const search = () => e2e.server.api<{ total: number }>('/service-priv/devtype/search', { method: 'GET', token: admin, query: { keyword: 'E2E 导入' } });
    expect((await search()).data.total).toBe(0);

    sheet.getRow(3).getCell(2).value = 2013;
    const good = path.join(dir, 'good.xlsx');
    await book.xlsx.writeFile(good);
    await page.getByTestId('list-import-file').setInputFiles(good);
    await page.getByTestId('list-import-submit').click();
    expect(await page.getByTestId('list-import-done').textContent()).toBe('已导入 2 条');
    expect((await search()).data.total).toBe(2);
    expect(await page.getByTestId('list-import-close').textContent()).toBe('关闭');
    await page.getByTestId('list-import-close').click();
    // The list refreshed behind the dialog.
    await list.getByRole('cell', { name: 'E2E 导入甲', exact: true }).waitFor();
    await list.getByRole('cell', { name: 'E2E 导入乙', exact: true }).waitFor();

    const [exported] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-export').click()]);
    expect(exported.suggestedFilename()).toMatch(/\.xlsx$/);
    const out = new ExcelJS.Workbook();
    await out.xlsx.readFile(await exported.path());
    const rows = rowsOf(out);
    expect(rows[0]?.[0]).toBe('设备类型名称');
    expect(rows).toContainEqual(['E2E 导入甲', 2019, 'E2EAA', 'EA-1', '模板导入']);
    expect(rows.map((r) => r[0])).toContain('FLEETSIM-808 (2019)');
  });

  test('at 1280×720 the list (create, export and import beside the search) and the import dialog cover no control and crush no column', async () => {
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    await page.locator('[data-page="information-device-type"] tbody tr[data-row-id]').first().waitFor();
    await expectCleanLayout(page, 'device types');
    await page.getByTestId('list-import').click();
    await page.getByTestId('list-import-template').waitFor();
    await expectCleanLayout(page, 'import dialog');
  });

  test('a role with only the screen sees the list but no create, import, export, edit or delete', async () => {
    const ids = ['/information', ROUTE].map((k) => entryByKey(k)!.id);
    await createUserWithRole(e2e.server, { name: '设备类型-只读', permissionIds: ids }, { username: 'dtviewer', password: 'viewer123', realName: '只读' });
    const page = await e2e.newPage();
    await login(page, 'dtviewer', 'viewer123');
    await page.goto(consolePath(ROUTE));
    await page.locator('[data-page="information-device-type"]').getByRole('cell', { name: 'FLEETSIM-808 (2019)', exact: true }).waitFor();
    for (const id of ['list-import', 'list-export']) expect(await page.getByTestId(id).count(), id).toBe(0);
    for (const bit of ['create', 'update', 'delete']) expect(await page.locator(`[data-perm="${ROUTE}:${bit}"]`).count(), bit).toBe(0);
  });
});
