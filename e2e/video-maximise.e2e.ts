/**
 * In a 9-grid the wall's windows ask for the sub stream (issue 16: grids above 4 windows); a
 * double-clicked window fills the wall on the main stream (a new viewer socket with stream=0, which
 * the server turns into a 0x9101 with stream type 0 to the simulated terminal) and goes back on a
 * second double-click; in a 4-grid the windows play the main stream.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, realtimeVehicles, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 2, env: { SIM_VEHICLES: '2', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

describe('maximising a video window', () => {
  test('9-grid on sub streams; double-click: the window fills the wall on the main stream, again: back on the sub stream; 4-grid: main', async () => {
    const [v] = await realtimeVehicles(e2e.server, { online: true });
    const page = await e2e.newPage();
    // Every viewer socket the page opens: which channel, which stream.
    const sockets: { channel: string; stream: string }[] = [];
    page.on('websocket', (ws) => {
      const u = new URL(ws.url());
      if (u.pathname.endsWith('/ws-service/video')) sockets.push({ channel: u.searchParams.get('channel')!, stream: u.searchParams.get('stream')! });
    });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.evaluate(() => localStorage.setItem('videoAutoStopMinutes', '0'));
    await page.goto(consolePath('/monitor/videoMonitor'));
    const wall = page.getByTestId('video-wall');
    await wall.waitFor();
    await page.getByTestId('video-grid').getByText('9 画面').click();
    await expect.poll(() => wall.getAttribute('data-grid')).toBe('9');
    const tree = page.getByTestId('company-tree');
    await tree.locator('input').first().fill(v!.vehiidno);
    await tree.getByText(v!.vehiidno, { exact: true }).last().click();
    await page.locator(`[data-node-id="V_${v!.vehicleId}"]`).click();
    await page.getByTestId('video-channels').locator('input[type=checkbox]').first().waitFor();
    await page.getByTestId('video-open-all').click();
    const win = (i: number) => page.getByTestId(`video-window-${i}`);
    for (let i = 0; i < 4; i++) await page.locator(`[data-testid=video-window-${i}][data-state=playing]`).waitFor({ timeout: 30_000 });
    for (let i = 0; i < 4; i++) await expect.poll(() => win(i).getByText('子码流').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(sockets.length).toBeGreaterThanOrEqual(4);
    expect(sockets.every((s) => s.stream === '1')).toBe(true);
    const opened = sockets.length;

    const wallBox = (await wall.boundingBox())!;
    await win(2).locator('canvas, video').first().dblclick();
    await expect.poll(() => win(2).getAttribute('data-maximised'), { timeout: 15_000 }).toBe('true');
    await expect.poll(() => win(2).getByText('主码流').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.locator('[data-testid=video-window-2][data-state=playing]').waitFor({ timeout: 30_000 });
    // One new socket, on the main stream, for that window's channel only (read from its label).
    const label = (await win(2).getByText(/通道 \d+/).first().textContent()) ?? '';
    expect(sockets.slice(opened)).toEqual([{ channel: /通道 (\d+)/.exec(label)![1], stream: '0' }]);
    const big = (await win(2).boundingBox())!;
    expect(big.width).toBeGreaterThan(wallBox.width * 0.9);
    expect(big.height).toBeGreaterThan(wallBox.height * 0.9);
    expect(await win(0).isVisible()).toBe(false);

    await win(2).locator('canvas, video').first().dblclick();
    await expect.poll(() => win(2).getAttribute('data-maximised'), { timeout: 15_000 }).toBe(null);
    await expect.poll(() => win(2).getByText('子码流').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => win(0).isVisible(), { timeout: 15_000 }).toBe(true);
    expect((await win(2).boundingBox())!.width).toBeLessThan(wallBox.width * 0.6);

    // A 4-grid plays the main stream.
    const beforeFour = sockets.length;
    await page.getByTestId('video-grid').getByText('4 画面').click();
    for (let i = 0; i < 4; i++) await expect.poll(() => win(i).getByText('主码流').isVisible(), { timeout: 15_000 }).toBe(true);
    // The label follows the window's choice at once; its new socket opens a moment later (on a loaded
    // machine, after the label check), so wait for the four reopened sockets themselves.
    await expect.poll(() => sockets.length - beforeFour, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    await expect.poll(() => sockets.slice(-4).map((s) => s.stream), { timeout: 15_000 }).toEqual(['0', '0', '0', '0']);
  }, 180_000);
});
