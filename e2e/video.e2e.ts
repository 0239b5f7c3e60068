/**
 * /monitor/videoMonitor against the real stack: simulated terminals answer 0x9101 over the JT/T 808
 * gateway and stream the committed clips to the media port; the console's video workers decode them
 * with WebCodecs and paint. Pixels are checked, not screenshots compared.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, type RealtimeVehicle, realtimeVehicles, useE2E } from './harness.ts';
import { samplePixels } from './pixels.ts';
import { SIM_CAMERA_CHANNELS } from '../server/sim/terminal.ts';

// Eight simulated terminals; the other seeded vehicles are never online (cheap windows for the limit scene).
const SIMULATED = 8;
const e2e = useE2E({ seedVehicles: SIMULATED + 8, env: { SIM_VEHICLES: String(SIMULATED), GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

/** Vehicles without a simulated terminal: the simulator drives the first SIM_VEHICLES vehicles by id. */
async function neverOnline(): Promise<RealtimeVehicle[]> {
  return (await realtimeVehicles(e2e.server)).slice(SIMULATED);
}

/**
 * Gives vehicles a device record of four cameras (migration 15's `device_channel`, which device
 * management writes; that screen is not built yet). A vehicle whose terminal never connected has no
 * channels otherwise: the server no longer invents four for every vehicle.
 */
function recordFourCameras(vehicles: readonly RealtimeVehicle[]): void {
  const db = new Database(path.join(e2e.server.dataDir, 'fleet.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare("INSERT OR REPLACE INTO device_channel (vehicle_id, channel, kind, name) VALUES (?, ?, 'video', '')");
    db.transaction(() => { for (const v of vehicles) for (let ch = 1; ch <= 4; ch++) insert.run(v.vehicleId, ch); })();
  } finally {
    db.close();
  }
}

async function openWall(autoStopMinutes?: number): Promise<Page> {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  // The configured auto-stop time (system parameter video.autoStopMinutes) arrives with the parameter values and
  // then replaces what the page started with; the page's own input overrides it for this visit only. So wait for
  // the values first, then type the visit's time, as an operator would.
  const values = page.waitForResponse((r) => r.url().includes('/paramconfig/system/values') && r.ok());
  await page.goto(consolePath('/monitor/videoMonitor'));
  await page.getByTestId('video-wall').waitFor();
  if (autoStopMinutes !== undefined) {
    await values;
    const input = page.getByTestId('video-autostop-minutes');
    await input.fill(String(autoStopMinutes));
    await input.blur();
    await expect.poll(() => input.inputValue()).toBe(String(autoStopMinutes));
  }
  return page;
}

/** Picks a vehicle through the tree's search and opens the given channels (all when omitted). */
async function openChannels(page: Page, v: RealtimeVehicle, channels?: number[]): Promise<void> {
  const tree = page.getByTestId('company-tree');
  await tree.locator('input').first().fill(v.vehiidno);
  // Inside the tree: an alarm pop-up elsewhere on the page may show the same plate.
  await tree.getByText(v.vehiidno, { exact: true }).last().click();
  await page.locator(`[data-node-id="V_${v.vehicleId}"]`).click();
  const panel = page.getByTestId('video-channels');
  await panel.locator('input[type=checkbox]').first().waitFor();
  if (!channels) {
    await page.getByTestId('video-open-all').click();
    return;
  }
  const boxes = panel.locator('input[type=checkbox]');
  for (let i = 0; i < (await boxes.count()); i++) {
    const want = channels.includes(i + 1);
    if ((await boxes.nth(i).isChecked()) !== want) await boxes.nth(i).click();
  }
  await page.getByTestId('video-open-selected').click();
}

/** Mean brightness and a coarse fingerprint of one window's pixels, from a screenshot decoded in the page. */
const sample = (page: Page, index: number) => samplePixels(page.getByTestId(`video-window-${index}`));

describe('multichannel video', () => {
  test('a 4-window grid shows four channels of a simulated vehicle, painted and moving', async () => {
    const [v] = await realtimeVehicles(e2e.server, { online: true });
    const page = await openWall(0);
    await openChannels(page, v!);
    for (let i = 0; i < 4; i++) await page.locator(`[data-testid=video-window-${i}][data-state=playing]`).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('video-wall').getAttribute('data-grid')).toBe('4');
    // Frames keep being painted …
    const painted = () => page.getByTestId('video-surface-0').getAttribute('data-painted').then(Number);
    await expect.poll(painted, { timeout: 10_000 }).toBeGreaterThan(10);
    // … they are not black, and the picture changes (the clip's counter and pattern move).
    const a = await sample(page, 0);
    await page.waitForTimeout(600);
    const b = await sample(page, 0);
    expect(a.mean).toBeGreaterThan(40);
    const changed = a.print.filter((p, i) => Math.abs(p - b.print[i]!) > 16).length;
    expect(changed).toBeGreaterThan(a.print.length / 50);
  });

  test('asks before the 20th channel and refuses the 26th', async () => {
    // The limit counts windows, whatever their session does: vehicles that are not online keep this scene
    // light (each window stops at once with the "not online" message instead of decoding video).
    const offline = await neverOnline();
    recordFourCameras(offline.slice(0, 7));
    const page = await openWall(0);
    for (const v of offline.slice(0, 4)) await openChannels(page, v);
    await page.locator('[data-testid=video-window-0][data-state=stopped]').waitFor();
    expect(await page.getByTestId('video-state-0').textContent()).toBe('车辆不在线，无法播放');
    await openChannels(page, offline[4]!);
    await page.getByTestId('video-prompt-20').waitFor();
    await page.getByRole('button', { name: '继续打开' }).click();
    await openChannels(page, offline[5]!);
    await openChannels(page, offline[6]!, [1]);
    await expect.poll(() => page.locator('[data-testid^=video-window-]:not([data-state=empty])').count()).toBe(25);
    await openChannels(page, offline[6]!, [2]);
    await page.getByText('最多同时播放25路视频').waitFor();
    expect(await page.locator('[data-testid^=video-window-]:not([data-state=empty])').count()).toBe(25);
    await page.getByTestId('video-close-all').click();
  });

  test('lists the cameras a simulated terminal reported, and says "channels unknown" for a vehicle nothing is known about', async () => {
    const [v] = await realtimeVehicles(e2e.server, { online: true });
    const page = await openWall(0);
    const tree = page.getByTestId('company-tree');
    await tree.locator('input').first().fill(v!.vehiidno);
    await tree.getByText(v!.vehiidno, { exact: true }).last().click();
    await page.locator(`[data-node-id="V_${v!.vehicleId}"]`).click();
    await page.locator('[data-testid=video-channel-source][data-source=terminal]').waitFor();
    expect(await page.getByTestId('video-channels').locator('input[type=checkbox]').count()).toBe(SIM_CAMERA_CHANNELS);
    const unknown = (await neverOnline()).at(-1)!;
    await tree.locator('input').first().fill(unknown.vehiidno);
    await tree.getByText(unknown.vehiidno, { exact: true }).last().click();
    await page.locator(`[data-node-id="V_${unknown.vehicleId}"]`).click();
    await page.locator('[data-testid=video-no-camera][data-source=unknown]').waitFor();
    expect(await page.getByTestId('video-no-camera').textContent()).toMatch(/^通道未知/);
    expect(await page.getByTestId('video-channels').locator('input[type=checkbox]').count()).toBe(0);
  });

  test('asks whether to keep playing after the auto-stop time, and stops on request', async () => {
    const [v] = await realtimeVehicles(e2e.server, { online: true });
    // 0.05 minutes = 3 s, so the prompt comes within one 5 s check.
    const page = await openWall(0.05);
    await openChannels(page, v!, [1]);
    await page.locator('[data-testid=video-window-0][data-state=playing]').waitFor({ timeout: 30_000 });
    await page.getByTestId('video-autostop-stop').waitFor({ timeout: 15_000 });
    await page.getByTestId('video-autostop-stop').click();
    await page.locator('[data-testid=video-window-0][data-state=empty]').waitFor();
  });
});
