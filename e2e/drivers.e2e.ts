/**
 * Drivers (/information/driver) in Chromium against the real server and its simulator: the seeded
 * drivers are the ones the simulated terminals sign in by 0x0702, so the list shows the vehicle each is
 * signed in on now and the sign-in history names it; the expiry filter and badges; a photo refused by
 * its bytes, then uploaded and shown as the row's thumbnail; the list and the form lay out at 1280×720.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const e2e = useE2E();
const ROUTE = '/information/driver';
const dir = mkdtempSync(path.join(tmpdir(), 'e2e-drivers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('drivers', () => {
  test('a simulated terminal\'s 0x0702 sign-in shows on its driver\'s row and in the sign-in history', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    const list = page.locator('[data-page="information-driver"]');
    await list.locator('tbody tr[data-row-id]').first().waitFor();
    // The simulator signs its drivers in right after each terminal authenticates; the list shows them on reload.
    const signedIn = list.locator('[data-signed-in]').first();
    await expect.poll(async () => {
      if (await signedIn.count()) return true;
      await page.getByTestId('search').click();
      return false;
    }, { timeout: 30_000, interval: 2000 }).toBe(true);
    const plate = (await signedIn.textContent())!;
    const row = list.locator('tbody tr[data-row-id]', { has: page.locator('[data-signed-in]') }).first();
    await row.getByTestId('driver-signins-open').click();
    const drawer = page.getByTestId('driver-signins');
    await drawer.getByText('签到中').first().waitFor();
    expect(await drawer.locator('tbody tr').first().textContent()).toContain(plate);
  });

  test('the expiry filter keeps the drivers whose licence has expired, each with its red badge', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    const list = page.locator('[data-page="information-driver"]');
    await list.locator('tbody tr[data-row-id]').first().waitFor();
    const all = await list.locator('tbody tr[data-row-id]').count();
    await page.getByTestId('driver-expiry-filter').click();
    await page.getByRole('option', { name: '驾驶证已过期' }).click();
    await expect.poll(() => list.locator('tbody tr[data-row-id]').count()).toBeLessThan(all);
    const rows = list.locator('tbody tr[data-row-id]');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const r of await rows.all()) expect(await r.locator('[data-expiry="expired"]').count()).toBeGreaterThanOrEqual(1);
  });

  test('a photo that is not a JPEG or PNG is refused in the form; a PNG becomes the row\'s thumbnail', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    const list = page.locator('[data-page="information-driver"]');
    const row = list.locator('tbody tr[data-row-id]').first();
    await row.waitFor();
    await row.getByRole('button', { name: '修改', exact: true }).click();
    const form = page.getByTestId('driver-form');
    expect(await form.textContent()).toContain('JPEG 或 PNG，不超过 2 MB');
    const gif = path.join(dir, 'photo.png');
    writeFileSync(gif, Buffer.from('GIF89a not really a png'));
    await form.locator('input[type=file]').setInputFiles(gif);
    expect(await page.getByTestId('driver-photo-error').textContent()).toBe('只能上传 JPEG 或 PNG 图片');
    const png = path.join(dir, 'driver.png');
    writeFileSync(png, PNG);
    await form.locator('input[type=file]').setInputFiles(png);
    await form.locator('[data-testid="driver-photo"][data-has-photo="true"] img').waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await row.locator('[data-testid="driver-photo"][data-has-photo="true"] img').waitFor();
    expect(await row.locator('[data-testid="driver-photo"] img').getAttribute('src')).toMatch(/^blob:/);
  });

  test('at 1280×720 the list and the form cover no control and crush no column', async () => {
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    await page.locator('[data-page="information-driver"] tbody tr[data-row-id]').first().waitFor();
    await expectCleanLayout(page, 'drivers');
    await page.locator('[data-page="information-driver"]').getByRole('button', { name: '新增', exact: true }).click();
    await page.getByTestId('driver-form').waitFor();
    await expectCleanLayout(page, 'driver form');
  });
});
