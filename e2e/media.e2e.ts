/**
 * Camera snapshots against the real stack (issue 6): the snapshot report's snap on a simulated vehicle
 * (0x8801 → 0x0805 → sub-packaged 0x0801 from server/sim/camera.ts), the photos rendered through the
 * authenticated route and listed in the report; and the alarm pop-up's photoSnap on a scripted terminal
 * whose camera is the simulator's, linked to the alarm and listed in the alarm-media report.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { answerSnapshots } from './scripted-camera.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const SIMULATED = 2;
const e2e = useE2E({ seedVehicles: SIMULATED + 3, env: { SIM_VEHICLES: String(SIMULATED), GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
/** The desk sizes every screen of this file is checked at (issue 13). */
const DESK_SIZES = [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }] as const;

interface Realtime { vehicleId: number; vehiidno: string; deviceNo: string; online: boolean }

const terminals: TestTerminal[] = [];
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

async function vehicles(): Promise<Realtime[]> {
  const token = await e2e.server.token(ACCOUNTS.admin);
  for (let i = 0; i < 100; i++) {
    const r = await e2e.server.api<{ records: Realtime[] }>('/service-monitor/monitor/v3/selectreal', { method: 'POST', token, body: { current: 1, size: 100 } });
    const found = r.data?.records ?? [];
    if (found.filter((v) => v.online).length >= SIMULATED) return found;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('the simulated vehicles did not come online');
}

/** Natural sizes of the images matched by `selector`, once every one has loaded. */
async function naturalSizes(page: Page, selector: string): Promise<{ w: number; h: number }[]> {
  await page.waitForFunction((sel) => {
    // A photo shows a loader (no <img> yet) until its file is fetched: measure once none is loading.
    if (document.querySelector('[data-testid=media-photo-loading]')) return false;
    const imgs = [...document.querySelectorAll<HTMLImageElement>(sel)];
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, selector, { timeout: 20_000 });
  return page.$$eval(selector, (imgs) => (imgs as HTMLImageElement[]).map((i) => ({ w: i.naturalWidth, h: i.naturalHeight })));
}

async function signedIn(path: string): Promise<Page> {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto(consolePath(path));
  return page;
}

async function checkVehicle(page: Page, v: Realtime): Promise<void> {
  const tree = page.getByTestId('company-tree');
  await tree.locator('input').first().fill(v.vehiidno);
  // The search hit opens the path to the vehicle in the tree.
  await tree.getByText(v.vehiidno, { exact: true }).last().click();
  await page.locator(`[data-node-id="V_${v.vehicleId}"] input[type=checkbox]`).check();
  await expect.poll(() => page.getByTestId('vehicle-filter').textContent()).toMatch(/1/);
}

describe('camera snapshots', () => {
  test('the snapshot report snaps every camera of a simulated vehicle, shows the photos and lists them', async () => {
    const v = (await vehicles()).find((x) => x.online)!;
    const page = await signedIn('/report/media/snapMediaReport');
    await page.locator('[data-page=media-snap]').waitFor({ timeout: 20_000 });
    await checkVehicle(page, v);
    await page.getByTestId('snap').click();
    // The viewer opens on the first new photo: a real 320x180 JPEG from the terminal, through the authenticated route.
    await page.getByTestId('photo-viewer').waitFor({ timeout: 40_000 });
    expect(await naturalSizes(page, '[data-testid=photo-viewer] img')).toEqual([{ w: 320, h: 180 }]);
    await page.getByRole('button', { name: '下一张' }).click();
    expect(await naturalSizes(page, '[data-testid=photo-viewer] img')).toEqual([{ w: 320, h: 180 }]);
    await page.keyboard.press('Escape');

    // Only this vehicle (checked), and its snapshots (an alarm of the simulated fleet may add a photo of its own).
    await page.getByTestId('search').click();
    const cards = page.locator(`[data-testid=media-card][data-plate="${v.vehiidno}"][data-source=snap]`);
    await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(4);
    expect(Number(await page.getByTestId('list-total').getAttribute('data-total'))).toBe(await page.getByTestId('media-card').count());
    expect((await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-channel')))).sort()).toEqual(['1', '2', '3', '4']);
    const sizes = await naturalSizes(page, '[data-testid=media-grid] img');
    expect(sizes.length).toBeGreaterThanOrEqual(4);
    for (const s of sizes) expect(s.w * s.h).toBeGreaterThan(0);

    // Channel filter: only channel 3 is left.
    await page.getByTestId('channels').click();
    await page.getByRole('option', { name: '通道 3' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('search').click();
    await expect.poll(() => page.locator('[data-testid=media-card][data-source=snap]').count()).toBe(1);
    expect(await page.locator('[data-testid=media-card][data-source=snap]').getAttribute('data-channel')).toBe('3');
    expect(await page.locator('[data-testid=media-card]:not([data-channel="3"])').count()).toBe(0);

    // Filters, grid and the kit's pager at both desk sizes: nothing covers a control.
    for (const size of DESK_SIZES) {
      await page.setViewportSize(size);
      await expectCleanLayout(page, `snapshot report at ${size.width}×${size.height}`);
    }
  });

  test('the snapshot report lists the photos stored on a simulated terminal and uploads a chosen one', async () => {
    const v = (await vehicles()).find((x) => x.online)!;
    const page = await signedIn('/report/media/snapMediaReport');
    await page.locator('[data-page=media-snap]').waitFor({ timeout: 20_000 });
    await checkVehicle(page, v);
    await page.getByTestId('device-open').click();
    await page.getByTestId('device-search').click();
    const rows = page.getByTestId('device-row');
    await rows.first().waitFor({ timeout: 20_000 });
    // A photo every 30 minutes per camera over the last day (server/sim/camera.ts).
    expect(await rows.count()).toBeGreaterThan(8);
    for (const size of DESK_SIZES) {
      await page.setViewportSize(size);
      await expectCleanLayout(page, `device storage at ${size.width}×${size.height}`);
    }
    await rows.first().locator('input[type=checkbox]').check();
    await page.getByTestId('device-upload').click();
    const sizes = await naturalSizes(page, '[data-testid=device-media] [data-testid=media-grid] img');
    expect(sizes).toEqual([{ w: 320, h: 180 }]);
    expect(await page.locator('[data-testid=device-media] [data-testid=media-card]').getAttribute('data-source')).toBe('upload');
  });

  test('the alarm pop-up\'s photoSnap shows the alarm vehicle\'s photos, which the alarm-media report then lists', async () => {
    const all = await vehicles();
    const v = all.filter((x) => !x.online).sort((a, b) => b.vehicleId - a.vehicleId)[0]!;
    const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
    terminals.push(t);
    await t.login();
    // The scripted terminal answers snapshots (0x8801) with the simulator's camera (fixtures/video/photo-ch*.jpg).
    answerSnapshots(t, v.deviceNo);

    // Signed in on a page of this file's own (the alarm area is in the shell of every page).
    const page = await signedIn('/report/media/snapMediaReport');
    await page.locator('[data-testid=alarm-counter][data-popup=on]').waitFor({ timeout: 20_000 });
    const now = Math.floor(Date.now() / 1000) * 1000;
    await t.report(location({ lng: 121.5, lat: 31.2, time: now - 2000, speed: 40, alarm: 0 }));
    await t.report(location({ lng: 121.5001, lat: 31.2003, time: now - 1000, speed: 95, alarm: 1 << 1 }));
    await page.locator(`[data-testid=alarm-popup-title][data-plate="${v.vehiidno}"]`).waitFor({ timeout: 20_000 });

    await page.getByTestId('alarm-btn-photoSnap').click();
    await page.getByTestId('snap-result').waitFor({ timeout: 40_000 });
    const sizes = await naturalSizes(page, '[data-testid=snap-result] img');
    expect(sizes).toEqual(Array.from({ length: 4 }, () => ({ w: 320, h: 180 })));
    await page.keyboard.press('Escape');

    await page.goto(consolePath('/report/media/alarmMedia'));
    const mine = page.locator(`[data-testid=media-card][data-plate="${v.vehiidno}"]`);
    await expect.poll(() => mine.count(), { timeout: 20_000 }).toBe(4);
    expect(await mine.first().textContent()).toContain('超速');
    expect((await naturalSizes(page, '[data-testid=media-grid] img')).length).toBeGreaterThanOrEqual(4);
    // The alarm-media report at both desk sizes, the alarm pop-up docked beside it: nothing covered.
    for (const size of DESK_SIZES) {
      await page.setViewportSize(size);
      await expectCleanLayout(page, `alarm media at ${size.width}×${size.height}`);
    }
  });
});
