/**
 * /monitor/mediaRemoteExtraction1 ("video callback") against the real stack: the console asks a
 * simulated terminal to upload one recording (0x9206 over the JT/T 808 gateway), the terminal logs in
 * to the server's FTP receiver and stores the file, reports 0x1206, the task row turns "done"; the
 * file then plays in the page (WebCodecs worker, pixels checked) and downloads with the same bytes.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { simRecordingFile, simRecordings } from '../server/sim/recordings.ts';
import { toLocalInput } from '../src/features/track/format.ts';
import { ACCOUNTS, consolePath, login, type RealtimeVehicle, realtimeVehicles, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';
import { samplePixels } from './pixels.ts';

const e2e = useE2E({ seedVehicles: 6, env: { SIM_VEHICLES: '2', GATEWAY_PORT: '0', MEDIA_PORT: '0', FTP_PORT: '0', FTP_PASV_PORTS: '0' } });
/** The desk sizes every screen of this file is checked at (issue 13). */
const DESK_SIZES = [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }] as const;

/** Mean brightness and a coarse fingerprint of the player's pixels, from a screenshot decoded in the page. */
const sample = (page: Page) => samplePixels(page.getByTestId('clip-surface'));

describe('recordings pulled to the server', () => {
  test('uploads a simulated vehicle\'s recording, shows the task reach done, plays it and downloads the same bytes', async () => {
    const v = (await realtimeVehicles(e2e.server, { online: true }))[0]!;
    // One recording of channel 1 from yesterday; the period is widened to whole minutes (the form's precision).
    const now = Date.now();
    const rec = simRecordings(v.deviceNo, 1, now - 2 * 86_400_000, now - 86_400_000, now)[0]!;
    const from = Math.floor(rec.startTime / 60_000) * 60_000;
    const to = Math.ceil(rec.endTime / 60_000) * 60_000;

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/mediaRemoteExtraction1'));
    await page.getByTestId('recording-upload-page').waitFor();
    const tree = page.getByTestId('company-tree');
    await tree.locator('input').first().fill(v.vehiidno);
    await tree.getByText(v.vehiidno, { exact: true }).last().click();
    await page.locator(`[data-node-id="V_${v.vehicleId}"]`).click();
    await expect.poll(() => page.getByTestId('upload-vehicle').textContent()).toBe(v.vehiidno);
    await page.getByTestId('upload-start').fill(toLocalInput(from));
    await page.getByTestId('upload-end').fill(toLocalInput(to));
    await page.getByTestId('upload-request').click();

    const row = page.getByTestId('upload-task').first();
    await row.waitFor();
    expect(['requested', 'uploading', 'done']).toContain(await row.getAttribute('data-state'));
    // The page polls the task: it turns done without a reload.
    await page.locator('[data-testid=upload-task][data-state=done]').first().waitFor({ timeout: 60_000 });
    expect(await row.getByTestId('upload-task-state').textContent()).toBe('已完成');

    await row.getByTestId('upload-file-play').first().click();
    await page.locator('[data-testid=clip-player][data-state=playing]').waitFor({ timeout: 30_000 });
    const painted = () => page.getByTestId('clip-surface').getAttribute('data-painted').then(Number);
    await expect.poll(painted, { timeout: 15_000 }).toBeGreaterThan(10);
    const a = await sample(page);
    await page.waitForTimeout(600);
    const b = await sample(page);
    expect(a.mean).toBeGreaterThan(40);
    const changed = a.print.filter((p, i) => Math.abs(p - b.print[i]!) > 16).length;
    expect(changed).toBeGreaterThan(a.print.length / 50);

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('upload-file-download').first().click()]);
    const saved = readFileSync((await download.path())!);
    expect(Buffer.compare(saved, Buffer.from(simRecordingFile(rec)))).toBe(0);
    expect(download.suggestedFilename()).toMatch(/^CH1_\d{14}_\d{14}\.h264$/);

    // The terminal's own list of the period too (kit table, "upload" pinned right); then both desk
    // sizes with the player and both lists showing: nothing covers a control, no column below its minimum.
    await page.getByTestId('upload-list-terminal').click();
    await page.getByTestId('terminal-recording').first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('terminal-recording').count()).toBeGreaterThan(0);
    for (const size of DESK_SIZES) {
      await page.setViewportSize(size);
      await expectCleanLayout(page, `recording upload at ${size.width}×${size.height}`);
      await row.getByTestId('upload-file-play').first().click({ trial: true });
    }
  });

  test('offers no invented channel for a vehicle whose terminal never connected: says the channels are unknown, asks nothing', async () => {
    const token = await e2e.server.token(ACCOUNTS.admin);
    const all = await e2e.server.api<{ records: RealtimeVehicle[] }>('/service-monitor/monitor/v3/selectreal', { method: 'POST', token, body: { current: 1, size: 10, state: 'neverOnline' } });
    const v = all.data.records[0]!;
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/mediaRemoteExtraction1'));
    const tree = page.getByTestId('company-tree');
    await tree.locator('input').first().fill(v.vehiidno);
    await tree.getByText(v.vehiidno, { exact: true }).last().click();
    await page.locator(`[data-node-id="V_${v.vehicleId}"]`).click();
    await page.locator('[data-testid=upload-no-camera][data-source=unknown]').waitFor();
    expect(await page.getByTestId('upload-no-camera').textContent()).toMatch(/^通道未知/);
    expect(await page.getByTestId('upload-request').isDisabled()).toBe(true);
    expect(await page.getByTestId('upload-list-terminal').isDisabled()).toBe(true);
  });
});
