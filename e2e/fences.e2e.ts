/**
 * The fence scene of issue 17 against the real stack: an operator on /monitor/shape_map draws a rectangle
 * around a vehicle's position with the mouse (terra-draw on the map), saves it bound to that vehicle,
 * sends it (下发: the vehicle's scripted terminal answers 0x8602 with 0x0001 and the task shows 成功), then
 * the terminal reports a position inside and one outside the fence, and the platform's fence evaluation
 * raises 离开区域报警 (13006) in the alarm pop-up. The screen's layout at 1280×720 covers no control.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, useE2E, vehiclesById } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

// No simulated fleet: its random alarms would race the scripted one.
const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const terminals: TestTerminal[] = [];
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

/** Where the scripted vehicle stands: near the map's first view (China at zoom 4.1), so it is on screen at 1280×720. */
const HOME = { lng: 104.3, lat: 35.8 };
const FIRST_PAINT_MS = 30_000;

/** Screen pixel of a WGS-84 position on the bundled (WGS-84, Web Mercator, 512-px tiles) basemap, from the map's reported camera. */
async function pixelOf(page: Page, lng: number, lat: number): Promise<{ x: number; y: number }> {
  const map = page.getByTestId('map-view');
  const [center, zoom, box] = await Promise.all([map.getAttribute('data-center'), map.getAttribute('data-zoom'), map.boundingBox()]);
  if (!center || !zoom || !box) throw new Error('the map reported no camera');
  const [clng, clat] = center.split(',').map(Number) as [number, number];
  const world = 512 * 2 ** Number(zoom);
  const mx = (l: number) => ((l + 180) / 360) * world;
  const my = (p: number) => ((1 - Math.log(Math.tan(Math.PI / 4 + (p * Math.PI) / 360)) / Math.PI) / 2) * world;
  return { x: box.x + box.width / 2 + mx(lng) - mx(clng), y: box.y + box.height / 2 + my(lat) - my(clat) };
}

describe('fences', () => {
  test('draw a fence round a vehicle, bind and send it, and its terminal leaving it pops the fence alarm up', async () => {
    const vehicle = (await vehiclesById(e2e.server))[0]!;
    const terminal = await TestTerminal.connect(gatewayPort(e2e.server), vehicle.deviceNo);
    terminals.push(terminal);
    await terminal.login();
    const now = () => Math.floor(Date.now() / 1000) * 1000;
    await terminal.report(location({ lng: HOME.lng, lat: HOME.lat, time: now() - 5000, speed: 20, alarm: 0 }));
    // Leaving an area is a low-risk type that only counts by default; this company has it pop up (alarm linkage page).
    const token = await e2e.server.token(ACCOUNTS.admin);
    const linkage = await e2e.server.api('/service-safe/companysetting/doCompanyAlarmSettingLinkage', { method: 'POST', token, body: { alarmTypes: [13006], popup: true } });
    expect(linkage.status).toBe(200);

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/shape_map'));
    await page.locator('[data-testid=map-view][data-zoom]').waitFor({ timeout: FIRST_PAINT_MS });
    await page.getByTestId('fence-list').waitFor();
    await page.locator('[data-fence-draw=ready]').waitFor({ timeout: FIRST_PAINT_MS });

    // Draw a rectangle by mouse: two clicks 30 px either side of the vehicle (about 1.2° at zoom 4.1).
    await page.getByTestId('fence-draw-rect').click();
    const at = await pixelOf(page, HOME.lng, HOME.lat);
    await page.mouse.move(at.x - 30, at.y - 30);
    await page.mouse.click(at.x - 30, at.y - 30);
    await page.mouse.move(at.x + 30, at.y + 30, { steps: 8 });
    await page.mouse.click(at.x + 30, at.y + 30);

    // The form opens with the drawn rectangle; name it and bind the vehicle.
    const form = page.getByTestId('fence-form');
    await form.waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('fence-geometry').textContent()).toMatch(/^矩形 \d+ × \d+ 米$/);
    await page.getByTestId('fence-name').fill('仓库围栏');
    await page.getByTestId('fence-add-vehicle').fill(vehicle.vehiidno);
    await page.getByRole('option', { name: vehicle.vehiidno }).click();
    await expect.poll(() => page.getByTestId('fence-bound-vehicles').textContent()).toContain(vehicle.vehiidno);
    await page.getByTestId('fence-form-submit').click();
    await form.waitFor({ state: 'detached', timeout: 15_000 });

    // The saved fence is listed and selected, bound to one vehicle, and the stored shape holds the vehicle.
    const row = page.locator('[data-testid=fence-row][data-selected=true]');
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('仓库围栏');
    expect(await row.textContent()).toContain('1 辆车');
    const fenceId = Number(await row.getAttribute('data-fence-id'));
    const stored = await e2e.server.api<{ geometry: { shape: string; sw: [number, number]; ne: [number, number] } }>(`/service-monitor/fence?id=${fenceId}`, { token });
    const g = stored.data!.geometry;
    expect(g.shape).toBe('rect');
    expect(g.sw[0]).toBeLessThan(HOME.lng);
    expect(g.ne[0]).toBeGreaterThan(HOME.lng);
    expect(g.sw[1]).toBeLessThan(HOME.lat);
    expect(g.ne[1]).toBeGreaterThan(HOME.lat);
    expect(g.ne[0] - g.sw[0]).toBeLessThan(5);

    // 下发: the terminal receives 0x8602 and answers 0x0001; the task shows 成功 for the vehicle.
    await page.getByTestId('fence-send').click();
    await expect.poll(() => page.getByTestId(`fence-task-state-${vehicle.vehicleId}`).getAttribute('data-state'), { timeout: 20_000 }).toBe('ok');
    expect(await page.getByTestId(`fence-task-state-${vehicle.vehicleId}`).textContent()).toBe('成功');
    expect(terminal.commands.some((c) => c.message.msgId === 0x8602)).toBe(true);

    await expectCleanLayout(page, 'fences');

    // Inside, then well outside: the platform raises 离开区域报警 and the pop-up shows it.
    await terminal.report(location({ lng: HOME.lng, lat: HOME.lat, time: now() - 2000, speed: 30, alarm: 0 }));
    await terminal.report(location({ lng: HOME.lng + 4, lat: HOME.lat, time: now() - 1000, speed: 30, alarm: 0 }));
    const title = page.locator(`[data-testid=alarm-popup-title][data-plate="${vehicle.vehiidno}"]`);
    await title.waitFor({ timeout: FIRST_PAINT_MS });
    expect(await title.getAttribute('data-alarm-type')).toBe('13006');
    expect(await title.textContent()).toContain('离开区域报警');
    await expectCleanLayout(page, 'fences with the alarm pop-up');
  });
});
