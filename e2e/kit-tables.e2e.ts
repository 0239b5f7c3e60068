/**
 * The kit's tables at three screen sizes (issue 13): no column below its minimum width, none above
 * its maximum (the filler column takes what is left at 3840 px), and the pinned action column
 * always inside the viewport, at 1280×720 too where the table scrolls sideways. A list keeps its
 * keyword and page size over a reload and a tab switch, and a dragged column its width. Then one role
 * through the kit against the real server: drawer form, the grant with the alarm pop-up warning,
 * the confirmed delete.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { coveredControls } from './layout-checks.ts';

const e2e = useE2E();

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 3840, height: 2160 },
] as const;

const SCREENS = [
  { route: '/system/user', page: 'system-user' },
  { route: '/system/role', page: 'system-role' },
  { route: '/information/company', page: 'information-company' },
] as const;

interface Measured {
  key: string;
  width: number;
  min: number;
  max: number;
}

function measure(page: Page): Promise<{ columns: Measured[]; actions: { left: number; right: number; viewport: number } | undefined }> {
  return page.evaluate(() => {
    const columns = [...document.querySelectorAll<HTMLElement>('th[data-min-width]')].map((th) => ({
      key: th.getAttribute('data-accessor') ?? '',
      width: th.getBoundingClientRect().width,
      min: Number(th.getAttribute('data-min-width')),
      max: parseFloat(th.style.maxWidth) || Infinity,
    }));
    const a = document.querySelector<HTMLElement>('th[data-accessor="__actions"]')?.getBoundingClientRect();
    return { columns, actions: a && { left: a.left, right: a.right, viewport: window.innerWidth } };
  });
}

describe('kit tables keep their columns between min and max width', () => {
  for (const size of SIZES) {
    test(`at ${size.width}×${size.height} the user, role and company lists keep every column in bounds and the actions in view`, async () => {
      const page = await e2e.newPage();
      await page.setViewportSize(size);
      await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
      for (const s of SCREENS) {
        await page.goto(consolePath(s.route));
        await page.locator(`[data-page="${s.page}"] tbody tr[data-row-id]`).first().waitFor();
        const { columns, actions } = await measure(page);
        expect(columns.length, `${s.route}: columns marked`).toBeGreaterThan(3);
        for (const c of columns) {
          expect(c.width + 0.5, `${s.route} ${c.key} at ${size.width}: ${c.width} ≥ ${c.min}`).toBeGreaterThanOrEqual(c.min);
          expect(c.width - 0.5, `${s.route} ${c.key} at ${size.width}: ${c.width} ≤ ${c.max}`).toBeLessThanOrEqual(c.max);
        }
        expect(actions, `${s.route}: action column`).toBeDefined();
        expect(actions!.right, `${s.route}: actions inside the viewport`).toBeLessThanOrEqual(actions!.viewport + 0.5);
        // The row's first action is really clickable where it is drawn (pinned, not scrolled away).
        await page.locator(`[data-page="${s.page}"] tbody tr[data-row-id]`).first().locator('[data-perm$=":update"]').first().click({ trial: true });
      }
    });
  }
});

const REPORTS = [
  { route: '/report/onlineControl/dataQualifiedRate', page: 'report-data-qualified-rate' },
  { route: '/safeManagement/vehicleScore/checkReport', page: 'check-report' },
] as const;

describe('report tables keep their columns between min and max width', () => {
  for (const size of [SIZES[0], SIZES[2]]) {
    test(`at ${size.width}×${size.height} the positioning-quality and appraisal reports keep every column in bounds`, async () => {
      const page = await e2e.newPage();
      await page.setViewportSize(size);
      await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
      for (const r of REPORTS) {
        await page.goto(consolePath(r.route));
        // Every vehicle of the fleet has a row (the appraisal lists the unassessed too).
        await page.locator(`[data-page="${r.page}"] tbody tr[aria-rowindex]`).first().waitFor({ timeout: 30_000 });
        const { columns } = await measure(page);
        expect(columns.length, `${r.route}: columns marked`).toBeGreaterThan(5);
        for (const c of columns) {
          expect(c.width + 0.5, `${r.route} ${c.key} at ${size.width}: ${c.width} ≥ ${c.min}`).toBeGreaterThanOrEqual(c.min);
          expect(c.width - 0.5, `${r.route} ${c.key} at ${size.width}: ${c.width} ≤ ${c.max}`).toBeLessThanOrEqual(c.max);
        }
        // The form line wraps rather than pushing 查询/导出 under something else.
        expect(await coveredControls(page), `${r.route} at ${size.width}`).toEqual([]);
      }
    });
  }
});

describe('a list keeps its place and its column widths', () => {
  test('keyword and page size survive a reload and a tab switch; a dragged column keeps its width until reset', async () => {
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/system/user'));
    await page.getByTestId('tab-/system/user').waitFor();
    await page.goto(consolePath('/system/role'));
    const list = page.locator('[data-page="system-role"]');
    await list.locator('tbody tr[data-row-id]').first().waitFor();

    // Keyword and page size go into the address.
    await list.getByLabel('关键字').fill('管理');
    await list.getByTestId('search').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('管理');
    await list.getByRole('button', { name: '20', exact: true }).click();
    await page.getByRole('menuitem', { name: '10', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe('10');

    // A reload comes back to them.
    await page.reload();
    await list.locator('tbody tr[data-row-id]').first().waitFor();
    expect(await list.getByLabel('关键字').inputValue()).toBe('管理');
    expect(await list.getByText('每页 10 条').count()).toBeGreaterThan(0);

    // So does a tab switch (the tab opens the bare path).
    await page.getByTestId('tab-/system/user').click();
    await page.locator('[data-page="system-user"] tbody tr[data-row-id]').first().waitFor();
    await page.getByTestId('tab-/system/role').click();
    await list.locator('tbody tr[data-row-id]').first().waitFor();
    expect(await list.getByLabel('关键字').inputValue()).toBe('管理');
    await expect.poll(() => new URL(page.url()).search).toBe(`?size=10&q=${encodeURIComponent('管理')}`);

    // Drag the first column's right edge 40 px (wider if it can grow, else narrower): the width changes,
    // every column stays within its bounds, and the width is kept after a reload until reset.
    const first = list.locator('thead th[data-min-width]').first();
    const widthOf = async () => (await first.boundingBox())!.width;
    const before = await widthOf();
    const max = await first.evaluate((th) => parseFloat((th as HTMLElement).style.maxWidth));
    const dx = before + 40 <= max ? 40 : -40;
    // The handle straddles the cell's right edge; its left half lies inside the cell (the next cell covers the rest).
    const box = (await first.locator('.mantine-datatable-header-resizable-handle').boundingBox())!;
    const [x, y] = [box.x + 3, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx / 2, y, { steps: 3 });
    await page.mouse.move(x + dx, y, { steps: 3 });
    await page.mouse.up();
    await expect.poll(async () => Math.abs((await widthOf()) - before)).toBeGreaterThan(20);
    const resized = await widthOf();
    const { columns } = await measure(page);
    for (const c of columns) {
      expect(c.width + 0.5, `${c.key}: ${c.width} ≥ ${c.min}`).toBeGreaterThanOrEqual(c.min);
      expect(c.width - 0.5, `${c.key}: ${c.width} ≤ ${c.max}`).toBeLessThanOrEqual(c.max);
    }
    await page.reload();
    await list.locator('tbody tr[data-row-id]').first().waitFor();
    await expect.poll(async () => Math.abs((await widthOf()) - resized)).toBeLessThan(2);

    await list.getByTestId('reset-widths').click();
    await expect.poll(async () => Math.abs((await widthOf()) - before)).toBeLessThan(2);
    expect(await list.getByTestId('reset-widths').count()).toBe(0);
  });
});

describe('a role through the kit: drawer form, permission grant with the pop-up warning, delete', () => {
  test('an administrator creates a duty role, is warned that it lacks the alarm pop-up, saves anyway and deletes it', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/system/role'));
    const list = page.locator('[data-page="system-role"]');
    await list.locator('tbody tr[data-row-id]').first().waitFor();

    await list.locator('[data-perm="/system/role:create"]').click();
    const form = page.getByTestId('role-form');
    await form.locator('input[name=name]').fill('e2e 值班员');
    await page.getByTestId('role-form-submit').click();
    const row = list.locator('tbody tr[data-row-id]', { hasText: 'e2e 值班员' });
    await row.waitFor();

    await row.locator('[data-action=permissions]').click();
    const tree = page.getByTestId('perm-tree');
    await tree.getByTestId('perm-global-hint').waitFor();
    expect(await tree.textContent()).not.toContain('1<<');
    await tree.getByRole('checkbox', { name: '监控中心', exact: true }).click();
    await page.getByTestId('perm-save').click();
    await page.getByText(/该角色包含「监控中心」的页面，但未勾选「全局 → 报警弹窗」/).waitFor();
    await page.getByTestId('popup-save-anyway').click();
    await page.getByText('权限已保存').waitFor();
    await expect.poll(() => row.textContent()).toMatch(/[1-9]\d* 项权限/);

    await row.locator('[data-perm="/system/role:delete"]').click();
    await page.getByText('确定要删除「e2e 值班员」吗？此操作不可恢复。').waitFor();
    await page.getByTestId('confirm-ok').click();
    await row.waitFor({ state: 'detached' });
  });
});
