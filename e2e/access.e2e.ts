/**
 * What each account may see: route groups in the side navigation, permission-guarded buttons and
 * routes outside the account's permissions (a 404, as if they did not exist).
 */
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { PERMISSION_REGISTRY } from '../domain/permissions/registry.ts';
import { ACCOUNTS, consolePath, login, routeOf, testIds, useE2E } from './harness.ts';

const e2e = useE2E();

/** Every top-level route group the registry names for the menu (`/global` is permissions only). */
const MENU_GROUPS = PERMISSION_REGISTRY.filter((e) => e.pid === 0 && e.type === 1 && !e.flags?.includes('hidden')).map((e) => e.key);

describe('side navigation and buttons follow the permissions', () => {
  test('admin sees every route group in the side navigation', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.getByTestId('user-display-name').waitFor();
    await page.getByTestId('nav-group-/system').waitFor();

    const groups = await testIds(page, 'nav-group-');
    for (const key of MENU_GROUPS) {
      expect(groups, `group ${key}`).toContain(`nav-group-${key}`);
      expect(await page.getByTestId(`nav-group-${key}`).isVisible(), `group ${key} is visible`).toBe(true);
    }
    expect(groups).not.toContain('nav-group-/global');
  });

  test('a restricted operator sees only permitted menu entries', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
    await page.getByTestId('user-display-name').waitFor();
    await page.getByTestId('nav-group-/monitor').waitFor();
    // Landing on /home/index leaves the /monitor group folded: React renders a folded group's entries
    // (hidden) after the visible ones, so wait until they are in the document.
    await page.getByTestId('nav-/home/index').waitFor({ state: 'attached' });
    await page.getByTestId('nav-/monitor/videoMonitor').waitFor({ state: 'attached' });

    // The seeded monitor role grants exactly these pages (server/seed/seed.ts).
    expect((await testIds(page, 'nav-group-')).sort()).toEqual(['nav-group-/home', 'nav-group-/monitor']);
    expect((await testIds(page, 'nav-/')).sort()).toEqual([
      'nav-/home/index',
      'nav-/monitor/index',
      'nav-/monitor/trackPlaybackPage',
      'nav-/monitor/videoMonitor',
    ]);
  });

  test('a restricted branch administrator sees create and edit on the user page but not the delete button', async () => {
    // Control: the administrator's page does render the delete button, so its absence below means something.
    const adminPage = await e2e.newPage();
    await login(adminPage, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await adminPage.goto(consolePath('/system/user'));
    await adminPage.locator('[data-perm="/system/user:delete"]').first().waitFor();

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.branch.username, ACCOUNTS.branch.password);
    await page.goto(consolePath('/system/user'));
    // Edit sits on each row: its presence also proves the table has loaded.
    await page.locator('[data-perm="/system/user:create"]').first().waitFor();
    await page.locator('[data-perm="/system/user:update"]').first().waitFor();
    expect(await page.locator('[data-perm="/system/user:delete"]').count()).toBe(0);
  });

  test('导出 follows its bit: a branch administrator downloads the companies its list shows, and has no user export', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.branch.username, ACCOUNTS.branch.password);
    await page.goto(consolePath('/information/company'));
    // The seeded branch role holds the company screen's whole subtree, export included (server/seed/seed.ts).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-export').click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await download.path());
    const names = (book.worksheets[0]?.getSheetValues() ?? []).filter(Boolean).map((r) => String((r as unknown[])[1]));
    expect(names[0]).toBe('公司名称');
    // The file holds what the list shows (the companies under the branch picked in the tree), each a row of the table.
    expect(names.length).toBeGreaterThan(1);
    for (const name of names.slice(1)) await page.getByRole('cell', { name, exact: true }).first().waitFor();
    // The leak the server must not allow: the group company above the branch.
    expect(names).not.toContain('星途物流集团');

    await page.goto(consolePath('/system/user'));
    await page.locator('[data-perm="/system/user:update"]').first().waitFor();
    expect(await page.getByTestId('list-export').count()).toBe(0);
  });

  test('after sign-in, / lands on the dashboard; unbuilt screens stay in the menu, marked', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
    // the operator's first menu entry is the dashboard (issue 14): the main variant's root
    await page.waitForURL((url) => routeOf(url.href) === '/home/index');
    await page.getByTestId('dashboard-page').waitFor();
    expect(await page.getByTestId('not-built').count()).toBe(0);

    await page.goto(consolePath('/'));
    await page.waitForURL((url) => routeOf(url.href) === '/home/index');
    expect(await page.getByTestId('not-built').count()).toBe(0);
    expect(await page.getByTestId('nav-/home/index').getAttribute('data-built')).toBeNull();

    // an unbuilt screen stays visible in the administrator's menu with its mark; built pages carry none
    const admin = await e2e.newPage();
    await login(admin, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await admin.getByTestId('nav-group-/cel').waitFor();
    await admin.getByTestId('not-built-mark-/cel').getByText('未建').waitFor();
    // the 监控中心 group may start closed (the landing page is the dashboard): open it to read its entry
    if ((await admin.getByTestId('nav-/monitor/index').count()) === 0) await admin.getByTestId('nav-group-/monitor').click();
    expect(await admin.getByTestId('nav-/monitor/index').getAttribute('data-built')).toBeNull();
    expect(await admin.getByTestId('not-built-mark-/monitor/index').count()).toBe(0);
  });

  test('an operator opening a forbidden URL sees the 404 page', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
    await page.goto(consolePath('/system/user'));
    await page.getByTestId('not-found').getByText('页面不存在，或您没有访问该页面的权限。').waitFor();
    expect(routeOf(page.url())).toBe('/system/user');
    expect(await page.locator('[data-perm^="/system/user:"]').count()).toBe(0);
  });
});
