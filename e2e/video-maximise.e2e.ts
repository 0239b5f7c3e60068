/**
 * The wall's windows play the sub stream; a double-clicked window fills the wall on the main stream
 * (a new 0x9101 with stream type 0 to the simulated terminal) and goes back on a second double-click.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, realtimeVehicles, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 2, env: { SIM_VEHICLES: '2', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

describe('maximising a video window', () => {
  test('double-click: the window fills the wall on the main stream, again: back to the grid on the sub stream', async () => {
    const [v] = await realtimeVehicles(e2e.server, { online: true });
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.evaluate(() => localStorage.setItem('videoAutoStopMinutes', '0'));
    await page.goto(consolePath('/monitor/videoMonitor'));
    const wall = page.getByTestId('video-wall');
    await wall.waitFor();
    const tree = page.getByTestId('company-tree');
    await tree.locator('input').first().fill(v!.vehiidno);
    await tree.getByText(v!.vehiidno, { exact: true }).last().click();
    await page.locator(`[data-node-id="V_${v!.vehicleId}"]`).click();
    await page.getByTestId('video-channels').locator('input[type=checkbox]').first().waitFor();
    await page.getByTestId('video-open-all').click();
    const win = (i: number) => page.getByTestId(`video-window-${i}`);
    for (let i = 0; i < 4; i++) await page.locator(`[data-testid=video-window-${i}][data-state=playing]`).waitFor({ timeout: 30_000 });
    for (let i = 0; i < 4; i++) await expect.poll(() => win(i).getByText('子码流').isVisible(), { timeout: 15_000 }).toBe(true);

    const wallBox = (await wall.boundingBox())!;
    await win(2).locator('canvas, video').first().dblclick();
    await expect.poll(() => win(2).getAttribute('data-maximised'), { timeout: 15_000 }).toBe('true');
    await expect.poll(() => win(2).getByText('主码流').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.locator('[data-testid=video-window-2][data-state=playing]').waitFor({ timeout: 30_000 });
    const big = (await win(2).boundingBox())!;
    expect(big.width).toBeGreaterThan(wallBox.width * 0.9);
    expect(big.height).toBeGreaterThan(wallBox.height * 0.9);
    expect(await win(0).isVisible()).toBe(false);

    await win(2).locator('canvas, video').first().dblclick();
    await expect.poll(() => win(2).getAttribute('data-maximised'), { timeout: 15_000 }).toBe(null);
    await expect.poll(() => win(2).getByText('子码流').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => win(0).isVisible(), { timeout: 15_000 }).toBe(true);
    expect((await win(2).boundingBox())!.width).toBeLessThan(wallBox.width * 0.6);
  }, 120_000);
});
