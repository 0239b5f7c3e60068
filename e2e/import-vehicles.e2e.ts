/**
 * The large vehicle import in Chromium against the real server (issue 15): a 10,000-row .xlsx made at
 * test time (valid VINs by the domain check digit) goes up through 导入 on /information/vehicle as
 * multipart, the dialog shows the upload and the server's progress, then 已导入 10000 条, and the list
 * total grows by 10,000. A second file with one bad VIN in sheet row 5,001 writes nothing (the total
 * stays) and the dialog names that row and its column.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { vehicleImportFile } from './vehicle-import-fixture.ts';

const e2e = useE2E();
const ROUTE = '/information/vehicle';
const ROWS = 10_000;
const dir = mkdtempSync(path.join(tmpdir(), 'e2e-import-vehicles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('vehicle import, 10,000 rows', () => {
  test('imports a 10,000-row file with progress; a file with one bad VIN writes nothing and names its row', async () => {
    const good = path.join(dir, 'vehicles-10000.xlsx');
    writeFileSync(good, await vehicleImportFile({ prefix: 'E', rows: ROWS, serialBase: 100_000 }));
    const bad = path.join(dir, 'vehicles-bad-5001.xlsx');
    writeFileSync(bad, await vehicleImportFile({ prefix: 'F', rows: ROWS, serialBase: 200_000, badVinAt: 5001 }));

    const admin = await e2e.server.token(ACCOUNTS.admin);
    const total = async () => (await e2e.server.api<{ total: number }>('/service-priv/vehicle', { method: 'GET', token: admin, query: { current: 1, size: 1 } })).data.total;
    const before = await total();

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    const list = page.locator('[data-page="information-vehicle"]');
    await list.getByText(`共 ${before} 条`).waitFor();

    await page.getByTestId('list-import').click();
    expect(await page.getByTestId('list-import-limits').textContent()).toContain('最多 10000 行');
    await page.getByTestId('list-import-file').setInputFiles(good);
    await page.getByTestId('list-import-submit').click();
    // The server's bar shows while the rows are read and checked, then the outcome.
    await page.getByTestId('list-import-upload-bar').waitFor();
    await page.getByTestId('list-import-server-bar').waitFor({ timeout: 60_000 });
    const done = page.getByTestId('list-import-done');
    await done.waitFor({ timeout: 180_000 });
    expect(await done.textContent()).toBe(`已导入 ${ROWS} 条`);
    expect(await page.getByTestId('list-import-progress').getAttribute('data-phase')).toBe('done');
    expect(await total()).toBe(before + ROWS);
    await page.getByTestId('list-import-close').click();
    await list.getByText(`共 ${before + ROWS} 条`).waitFor();

    // One bad VIN in row 5,001: nothing written, the row and its column named.
    await page.getByTestId('list-import').click();
    await page.getByTestId('list-import-file').setInputFiles(bad);
    await page.getByTestId('list-import-submit').click();
    const errors = page.getByTestId('list-import-errors');
    await errors.waitFor({ timeout: 180_000 });
    expect(await errors.getAttribute('data-count')).toBe('1');
    const problem = errors.locator('[data-row="5001"]');
    expect(await problem.getAttribute('data-column')).toBe('车架号');
    expect(await problem.textContent()).toMatch(/^第 5001 行 「车架号」：.*校验位不正确/);
    expect(await errors.textContent()).toContain('导入失败，未写入任何数据');
    expect(await total()).toBe(before + ROWS);
    // The file stays picked for another try.
    expect(await page.getByText('vehicles-bad-5001.xlsx').count()).toBeGreaterThan(0);
  }, 420_000);
});
