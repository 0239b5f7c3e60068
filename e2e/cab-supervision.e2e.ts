/**
 * Cab supervision and the customer portrait against the real stack (issue 19): on /operation/cabSupervision
 * an administrator opens a supervision of one online simulated vehicle (reason, message, vehicle picked),
 * sends it to the cab, and sees the terminal's 0x0001 turn the receipt 已应答; the list then shows the
 * supervision with its last send acknowledged. /safeManagement/customerPortrait shows the simulated
 * company's month: its vehicle count and the six-month trend table.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, realtimeVehicles, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '1', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

describe('cab supervision', () => {
  test('supervise an online vehicle, send to the cab, see 已应答; open the portrait of the sim company', async () => {
    const online = (await realtimeVehicles(e2e.server, { online: true }))[0]!;
    const message = '您近期疲劳驾驶报警频繁，请就近停车休息';
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/operation/cabSupervision'));
    await page.getByTestId('cab-create').click();
    // Saving without a reason is refused in words before any call.
    await page.getByTestId('cab-form-save').click();
    await expect.poll(() => page.getByTestId('cab-form-error').textContent()).toBe('请选择监管原因');
    await page.getByTestId('cab-form-reason').click();
    await page.getByRole('option', { name: '频繁疲劳驾驶报警' }).click();
    await page.getByTestId('cab-form-message').fill(message);
    await page.getByTestId('cab-form-vehicles-search').fill(online.vehiidno);
    await page.getByTestId(`cab-form-vehicles-option-${online.vehicleId}`).click();
    await page.getByTestId('cab-form-save').click();

    // The new supervision's detail opens: send it, then the receipt follows the terminal's answer.
    await page.getByTestId('cab-detail').waitFor();
    await page.getByTestId('cab-send').click();
    const state = page.locator(`[data-testid^="cab-state-"][data-testid$="-${online.vehicleId}"]`);
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe('已应答');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByText(message).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-page="operation-cab-supervision"]').textContent(), { timeout: 20_000 }).toContain('已应答 1');

    await page.goto(consolePath('/safeManagement/customerPortrait'));
    await expect.poll(() => page.getByTestId('stat-vehicles-value').textContent(), { timeout: 30_000 }).toBe('3');
    await expect.poll(() => page.getByTestId('portrait-trend-row').count()).toBe(6);
  });
});
