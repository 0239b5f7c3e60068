/**
 * /monitor/mediaRemoteExtraction against the real stack: a simulated terminal lists its recordings
 * (0x9205 → 0x1205 over the JT/T 808 gateway) and plays one back (0x9201) to the playback port with
 * the recording's timestamps; the console decodes with WebCodecs and paints. Pause and seek go to the
 * terminal as 0x9202. Pixels are checked, not screenshots compared.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, type RealtimeVehicle, realtimeVehicles, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';
import { samplePixels } from './pixels.ts';

const SIMULATED = 2;
const e2e = useE2E({ seedVehicles: SIMULATED + 2, env: { SIM_VEHICLES: String(SIMULATED), GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
/** The desk sizes every screen of this file is checked at (issue 13). */
const DESK_SIZES = [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }] as const;

async function openPage(): Promise<Page> {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto(consolePath('/monitor/mediaRemoteExtraction'));
  await page.getByTestId('recordings-page').waitFor();
  return page;
}

async function pickVehicle(page: Page, v: RealtimeVehicle): Promise<void> {
  const tree = page.getByTestId('company-tree');
  await tree.locator('input').first().fill(v.vehiidno);
  await tree.getByText(v.vehiidno, { exact: true }).last().click();
  await page.locator(`[data-node-id="V_${v.vehicleId}"]`).click();
  await expect.poll(() => page.getByTestId('recordings-vehicle').textContent()).toBe(v.vehiidno);
}

/** Mean brightness and a coarse fingerprint of the player's pixels, from a screenshot decoded in the page. */
const sample = (page: Page) => samplePixels(page.getByTestId('playback-surface'));

const position = (page: Page) => page.getByTestId('playback-time').getAttribute('data-position').then(Number);
const painted = (page: Page) => page.getByTestId('playback-surface').getAttribute('data-painted').then(Number);

describe('recordings on the terminal', () => {
  test('searches a simulated vehicle\'s recordings, plays one, pauses, and seeks', async () => {
    const [v] = await realtimeVehicles(e2e.server, { online: true });
    const page = await openPage();
    await pickVehicle(page, v!);
    // The default period (yesterday 00:00 to now) holds a day of simulated recordings.
    await page.getByTestId('recordings-search').click();
    await page.getByTestId('recording-row').first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('recording-row').count()).toBeGreaterThan(4);
    expect(await page.getByTestId('timeline-bar-1').count()).toBeGreaterThan(0);

    await page.getByTestId('recording-play').first().click();
    await page.locator('[data-testid=playback-tile][data-state=playing]').waitFor({ timeout: 30_000 });
    await expect.poll(() => painted(page), { timeout: 10_000 }).toBeGreaterThan(10);
    // Painted, not black, and moving.
    const a = await sample(page);
    await page.waitForTimeout(600);
    const b = await sample(page);
    expect(a.mean).toBeGreaterThan(40);
    expect(a.print.filter((p, i) => Math.abs(p - b.print[i]!) > 16).length).toBeGreaterThan(a.print.length / 50);
    // The shown recording time is the recording's own time and advances.
    const p0 = await position(page);
    await expect.poll(() => position(page), { timeout: 5000 }).toBeGreaterThan(p0);

    // Pause: the picture and the time stand still.
    await page.getByTestId('playback-pause').click();
    await page.locator('[data-testid=playback-tile][data-state=paused]').waitFor();
    await page.waitForTimeout(400);
    const held = await position(page);
    await page.waitForTimeout(800);
    expect(await position(page)).toBe(held);
    await page.getByTestId('playback-resume').click();
    await page.locator('[data-testid=playback-tile][data-state=playing]').waitFor();

    // Seek to three quarters of the file: the shown time jumps there (frames now carry that time).
    const slider = page.getByTestId('playback-slider');
    const min = Number(await slider.locator('[role=slider]').getAttribute('aria-valuemin'));
    const max = Number(await slider.locator('[role=slider]').getAttribute('aria-valuemax'));
    const box = (await slider.boundingBox())!;
    const before = await position(page);
    await slider.click({ position: { x: box.width * 0.75, y: box.height / 2 } });
    const goal = min + 0.75 * (max - min);
    await expect.poll(() => position(page), { timeout: 10_000 }).toBeGreaterThan(goal - 0.06 * (max - min));
    const after = await position(page);
    expect(after).toBeLessThan(goal + 0.06 * (max - min));
    expect(after - before).toBeGreaterThan(0.4 * (max - min));
    // Still painting after the jump.
    const n = await painted(page);
    await expect.poll(() => painted(page), { timeout: 5000 }).toBeGreaterThan(n + 5);

    // The player, the timeline and the file list (kit table, play pinned right) at both desk sizes:
    // nothing covers a control, no column is below its minimum, the playing file is marked.
    expect(await page.locator('[data-testid=recording-row][aria-selected=true]').count()).toBe(1);
    for (const size of DESK_SIZES) {
      await page.setViewportSize(size);
      await expectCleanLayout(page, `recordings at ${size.width}×${size.height}`);
      await page.getByTestId('recording-play').first().click({ trial: true });
    }
  });

  test('a vehicle that is not online gets the spec\'s message', async () => {
    const all = await realtimeVehicles(e2e.server);
    // The highest id: never one of the simulated terminals (they take the first vehicles), so it stays offline.
    const offline = all.filter((r) => !r.online).sort((a, b) => b.vehicleId - a.vehicleId)[0]!;
    const page = await openPage();
    await pickVehicle(page, offline);
    await page.getByTestId('recordings-search').click();
    await expect.poll(() => page.getByTestId('recordings-error').textContent()).toBe('车辆不在线，无法播放');
  });
});
