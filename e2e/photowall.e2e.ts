/**
 * The photo wall against the real stack (issue 15): an administrator creates a wall of two simulated
 * vehicles in the drawer (vehicles found with the fleet picker), presses 立即拍照 — the simulator's
 * cameras answer 0x8801 with real JPEG uploads — sees the photos in the grid through the authenticated
 * route, flags one as 闯红灯, and finds that alarm in alarm processing.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const SIMULATED = 2;
const e2e = useE2E({ seedVehicles: SIMULATED + 3, env: { SIM_VEHICLES: String(SIMULATED), GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

interface Realtime { vehicleId: number; vehiidno: string; online: boolean }

async function onlineVehicles(): Promise<Realtime[]> {
  const token = await e2e.server.token(ACCOUNTS.admin);
  for (let i = 0; i < 100; i++) {
    const r = await e2e.server.api<{ records: Realtime[] }>('/service-monitor/monitor/v3/selectreal', { method: 'POST', token, body: { current: 1, size: 100 } });
    const online = (r.data?.records ?? []).filter((v) => v.online);
    if (online.length >= SIMULATED) return online;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('the simulated vehicles did not come online');
}

describe('photo wall', () => {
  test('create a wall of simulated vehicles, snap, see their real photos, flag one → it is in alarm processing', async () => {
    const vehicles = await onlineVehicles();
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/photoWall'));
    await page.getByTestId('photowall-page').waitFor({ timeout: 20_000 });

    await page.getByTestId('photowall-create').click();
    await page.getByTestId('photowall-name').fill('早班照片墙');
    for (const v of vehicles.slice(0, SIMULATED)) {
      await page.getByTestId('photowall-vehicle-pick').fill(v.vehiidno);
      await page.getByRole('option', { name: v.vehiidno }).click();
      await page.getByTestId('photowall-vehicles').getByText(v.vehiidno, { exact: true }).waitFor();
    }
    await page.getByTestId('photowall-channels').click({ force: true });
    await page.getByRole('option', { name: '1', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('photowall-form-submit').click();
    await page.getByTestId('photowall-form').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('photowall-picker').inputValue()).toBe('早班照片墙');
    await expect.poll(() => page.getByTestId('photowall-tile').count(), { timeout: 15_000 }).toBe(SIMULATED);

    // Snap now: each online terminal uploads a real 320x180 JPEG on channel 1.
    await page.getByTestId('photowall-snap').click();
    await expect.poll(() => page.locator('[data-testid=photowall-tile] img[data-testid=media-photo]').count(), { timeout: 40_000 }).toBe(SIMULATED);
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('[data-testid=photowall-tile] img')].every((i) => i.complete && i.naturalWidth === 320));

    // The snap's answer is a notification over the header for 4 s: the layout is checked once it has gone.
    const snapNote = page.getByText(/已向 \d+ 辆在线车辆下发拍照/);
    await snapNote.waitFor();
    await snapNote.waitFor({ state: 'detached', timeout: 15_000 });

    // The filled grid at the desk sizes: no control covered, nothing crushed.
    for (const size of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
      await page.setViewportSize(size);
      await expectCleanLayout(page, `photo wall at ${size.width}×${size.height}`);
    }

    // Larger view on click.
    await page.locator('[data-testid=photowall-tile] img').first().click();
    await page.getByTestId('photo-viewer').waitFor();
    await page.keyboard.press('Escape');

    // Flag the first photo: 报警 with a reason.
    const tile = page.getByTestId('photowall-tile').first();
    const plate = (await tile.getAttribute('data-vehicle'))!;
    await tile.getByTestId('photowall-alarm').click();
    await page.getByTestId('photowall-alarm-reason').fill('照片可见闯红灯');
    await page.getByTestId('photowall-alarm-submit').click();
    await tile.getByTestId('photowall-alarmed').waitFor({ timeout: 15_000 });
    const alarmId = Number((await tile.getByTestId('photowall-alarmed').textContent())!.replace(/\D+/g, ''));
    expect(alarmId).toBeGreaterThan(0);
    expect(Number(plate)).toBeGreaterThan(0);

    // The alarm is in alarm processing, as 闯红灯.
    await page.goto(consolePath('/safeManagement/alarmProcessingPage'));
    await page.getByTestId('alarm-search').click();
    const row = page.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain('闯红灯');
  });
});
