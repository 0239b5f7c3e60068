/**
 * Street-level maps offline (issue 14): with a PMTiles archive in TILES_DIR (the committed fixture,
 * built by tools/tiles/build-fixture.mjs from the bundled GeoJSON), the basemap picker offers
 * "街道地图（自建）"; choosing it draws the archive's tiles with the Protomaps style — read from our own
 * server with range requests, nothing from another host — and the choice survives a reload.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, ROOT, useE2E } from './harness.ts';
import { samplePixels, type PixelSample } from './pixels.ts';

const e2e = useE2E({
  seedVehicles: 5,
  env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0', TILES_DIR: path.join(ROOT, 'server/services/tiles/fixtures') },
});

/** Share of sampled pixels whose red channel differs by more than 8 between two samples. */
function differing(a: PixelSample, b: PixelSample): number {
  const n = Math.min(a.print.length, b.print.length);
  let d = 0;
  for (let i = 0; i < n; i++) if (Math.abs(a.print[i]! - b.print[i]!) > 8) d++;
  return d / n;
}

test('the picker offers the self-hosted street map; choosing it draws the archive, served from our server only', async () => {
  const page = await e2e.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  const origin = new URL(e2e.server.url).host;
  const foreign: string[] = [];
  const ranges: number[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (/^https?:$/.test(u.protocol) && u.host !== origin) foreign.push(r.url());
  });
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/tiles/china-outline.pmtiles') ranges.push(r.status());
  });
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto(consolePath('/monitor/index'));
  await page.locator('.maplibregl-ctrl-zoom-in').waitFor({ timeout: 20_000 });
  const map = page.getByTestId('map-view');
  // The bundled outline first (the zero-configuration default), once its land is drawn.
  let outline = await samplePixels(map);
  await expect.poll(async () => {
    const next = await samplePixels(map);
    const settled = differing(outline, next) < 0.01;
    outline = next;
    return settled;
  }, { timeout: 15_000, interval: 1_000 }).toBe(true);

  await page.getByTestId('map-sources-button').click();
  const row = page.locator('[data-testid=map-source][data-source-id="streets:china-outline.pmtiles"]');
  await expect.poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/街道地图（自建）.*china-outline\.pmtiles.*203\.4 KB/);
  await expect.poll(() => row.textContent()).toContain('离线可用');
  await row.getByTestId('map-source-use').click();
  await expect.poll(() => row.textContent()).toContain('使用中');
  await page.keyboard.press('Escape');

  // Tiles drawn: most of the map changes colour (Protomaps earth and ocean instead of the outline's).
  await expect.poll(async () => differing(outline, await samplePixels(map)), { timeout: 20_000 }).toBeGreaterThan(0.5);
  expect(ranges.length).toBeGreaterThan(1);
  expect(ranges.every((s) => s === 206 || s === 304)).toBe(true);
  expect(foreign).toEqual([]);

  // Kept for the next visit, and still drawn (not fallen back to the outline after an error).
  await page.reload();
  await page.locator('.maplibregl-ctrl-zoom-in').waitFor({ timeout: 20_000 });
  await expect.poll(async () => differing(outline, await samplePixels(map)), { timeout: 20_000 }).toBeGreaterThan(0.5);
  await page.getByTestId('map-sources-button').click();
  await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('使用中');
  await page.close();
});

test('a wall draws the dark street map on its own (a kiosk has no picker), from our server only', async () => {
  const page = await e2e.newPage();
  await page.setViewportSize({ width: 1920, height: 1080 });
  const origin = new URL(e2e.server.url).host;
  const foreign: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (/^https?:$/.test(u.protocol) && u.host !== origin) foreign.push(r.url());
  });
  // A fresh browser: its own picker still says "bundled outline"; the wall's preset decides instead.
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto(consolePath('/largeScreen/overallMonitoring'));
  const wallMap = page.getByTestId('wall-map');
  await expect.poll(() => wallMap.getAttribute('data-basemap'), { timeout: 30_000 }).toBe('streets');
  await expect.poll(() => wallMap.getByTestId('map-view').getAttribute('data-basemap-variant')).toBe('dark');
  expect(foreign).toEqual([]);
  await page.close();
});
