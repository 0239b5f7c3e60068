/**
 * System parameters against the real stack (issue 19): the operator's live-video page is open and shows
 * the configured auto-stop time; the administrator changes it on /system/param (an out-of-range value is
 * refused under the field, in Chinese); without a reload the operator's page shows the new time (the
 * server pushes `configChanged`, the page refetches the values).
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 5 });

describe('system parameters', () => {
  test('admin changes the live-video auto-stop time → the open video page shows it without a reload', async () => {
    const operator = await e2e.newPage();
    await login(operator, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
    await operator.goto(consolePath('/monitor/videoMonitor'));
    const minutes = operator.getByTestId('video-autostop-minutes');
    await expect.poll(() => minutes.inputValue(), { timeout: 20_000 }).toBe('5');

    const admin = await e2e.newPage();
    await login(admin, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await admin.goto(consolePath('/system/param'));
    const row = admin.locator('tr[data-param-key="video.autoStopMinutes"]');
    await row.waitFor();
    await row.locator('[data-action="edit"]').click();
    const value = admin.getByTestId('param-value');
    // Above the limit: refused by the form's rule (the same one the server holds), in the UI language.
    await value.fill('121');
    await admin.getByTestId('param-form-submit').click();
    await admin.getByText('不能大于 120').waitFor();
    await value.fill('7');
    await admin.getByTestId('param-form-submit').click();
    await admin.getByTestId('param-form').waitFor({ state: 'detached' });
    await expect.poll(() => row.locator('[data-param-value]').textContent()).toContain('7 分钟');

    // The operator's page, never reloaded, follows.
    await expect.poll(() => minutes.inputValue(), { timeout: 15_000 }).toBe('7');
  });
});
