/**
 * Ops check against the real stack (issue 19): the administrator sets the online-rate target on
 * 运维考核设置 (a weight total other than 100 is refused in words first), and 运维考核报表 shows that
 * KPI failing at 100 % and passing at 0 % for the same measured value: pass/fail follows the target.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 5, env: { GATEWAY_PORT: '0', MEDIA_PORT: '0', FTP_PORT: '0' } });

async function setOnlineTarget(page: Page, target: string): Promise<void> {
  await page.goto(consolePath('/operation/operationManagement/opsCheckSetting'));
  const input = page.getByTestId('target-onlineRate');
  await input.waitFor();
  await input.fill(target);
  await page.getByTestId('setting-save').click();
  await page.getByText('已保存').first().waitFor();
}

async function onlineCellPassed(page: Page): Promise<string | null> {
  await page.goto(consolePath('/operation/operationManagement/opsCheckReport'));
  const cell = page.getByTestId('kpi-row').first().locator('[data-testid="kpi-cell"][data-code="onlineRate"]');
  await cell.waitFor({ timeout: 60_000 });
  return cell.getAttribute('data-passed');
}

describe('ops check', () => {
  test('a target set on the settings page moves pass/fail in the report', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/operation/operationManagement/opsCheckSetting'));
    // Weights must total 100: 40 + 20 + 20 + 30 is refused before anything is sent.
    await page.getByTestId('weight-onlineRate').fill('40');
    await page.getByTestId('setting-save').click();
    await expect.poll(() => page.getByTestId('setting-problem').textContent()).toContain('各项权重之和必须为 100（当前 110）');
    await page.getByTestId('weight-onlineRate').fill('30');

    await setOnlineTarget(page, '100');
    expect(await onlineCellPassed(page)).toBe('false');
    await setOnlineTarget(page, '0');
    expect(await onlineCellPassed(page)).toBe('true');
  }, 180_000);
});
