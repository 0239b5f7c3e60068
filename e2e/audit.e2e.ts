/**
 * The audit trail in Chromium against the real server (issue 19): an administrator edits a vehicle in the
 * console; /system/user_operate/operateByPage lists 车辆管理 with its count, and choosing it shows the
 * edit — who, the button (车辆管理 / 修改), the vehicle, 成功, the call. The router reported the visit to
 * the vehicle list, which /system/user_action/detail lists.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E();

describe('audit trail: a change made in the console shows on the by-page screen', () => {
  test('edit a vehicle, open operateByPage, see the row; the visit is in the activity details', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const list = await e2e.server.api<{ records: Array<{ id: number; vehiidno: string }> }>('/service-priv/vehicle', { token: admin, query: { current: 1, size: 1 } });
    const v = list.data.records[0]!;

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    // The router reports a page once it has stayed for a second (VISIT_SETTLE_MS): the edit below can take
    // less than that on a quiet machine, so the test waits for the report before it leaves the page.
    const visitReported = page.waitForResponse((r) => r.url().includes('/service-priv/pageview/add') && r.request().postData()?.includes('/information/vehicle') === true);
    await page.goto(consolePath('/information/vehicle'));
    const vehicles = page.locator('[data-page="information-vehicle"]');
    await vehicles.getByPlaceholder('车牌号 / 车架号 / 设备号').fill(v.vehiidno);
    await vehicles.getByPlaceholder('车牌号 / 车架号 / 设备号').press('Enter');
    const row = vehicles.getByRole('row').filter({ hasText: v.vehiidno }).first();
    await row.getByRole('button', { name: '修改', exact: true }).click();
    const form = page.getByTestId('vehicle-form');
    await form.locator('[name=remark]').fill('审计 e2e');
    await page.getByTestId('vehicle-form-submit').click();
    await form.waitFor({ state: 'detached' });
    expect((await visitReported).ok()).toBe(true);

    await page.goto(consolePath('/system/user_operate/operateByPage'));
    const screen = page.locator('[data-page="system-operate-page"]');
    await screen.getByTestId('audit-group').click();
    await page.getByRole('listbox').getByRole('option', { name: /^车辆管理（\d+ 次）$/ }).click();
    const edit = screen.getByRole('row').filter({ hasText: '车辆管理 / 修改' }).first();
    await edit.waitFor();
    const text = (await edit.textContent()) ?? '';
    expect(text).toContain('PUT /service-priv/vehicle');
    expect(text).toContain(`车辆 ${v.id}`);
    expect(text).toContain('admin');
    expect(await edit.locator('[data-result]').getAttribute('data-result')).toBe('ok');

    // The vehicle list stayed on screen long enough to count as a visit.
    await page.goto(consolePath('/system/user_action/detail'));
    const visits = page.locator('[data-page="system-user-action-detail"]');
    await expect.poll(async () => (await visits.getByRole('row').filter({ hasText: '车辆管理' }).count()) > 0, { timeout: 15_000 }).toBe(true);
  });
});
