/**
 * Track playback and track search against the real stack: a server with a small demo-history
 * backfill (2 vehicles × 2 days, the first one a "showcase" with drift and stops), the production
 * bundle, the track worker and deck.gl in Chromium. Counts are read from data-testid attributes and
 * compared with the rule module run on the same binary track; frame rates are never asserted.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { analyzeTrack } from '../domain/track/analyze.ts';
import { decodeTrack, type TrackData } from '../proto/track-codec.ts';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const DAY = 86_400_000;
const e2e = useE2E({
  seedVehicles: 20,
  env: { SIM_VEHICLES: '3', GATEWAY_PORT: '0', SEED_HISTORY_VEHICLES: '2', SEED_HISTORY_DAYS: '2' },
});

interface FrameGps {
  total: number;
  records: { vehicleId: number; plate: string }[];
}

/** The backfilled vehicles (any point in the last day, anywhere), the showcase one first. */
async function backfilled(): Promise<{ vehicleId: number; plate: string }[]> {
  const token = await e2e.server.token(ACCOUNTS.admin);
  const now = Date.now();
  const found = await e2e.server.api<FrameGps>('/service-onlinegps/geography/searchFrameGps', {
    token, body: { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90, startTime: now - DAY + 60_000, endTime: now },
  });
  expect(found.code).toBe(200);
  return [...found.data.records].sort((a, b) => a.vehicleId - b.vehicleId);
}

async function trackOf(vehicleId: number, startTime: number, endTime: number): Promise<TrackData> {
  const token = await e2e.server.token(ACCOUNTS.admin);
  const url = new URL('/service-monitor/trail/binary', e2e.server.apiUrl);
  url.search = new URLSearchParams({ vehicleId: String(vehicleId), startTime: String(startTime), endTime: String(endTime) }).toString();
  const res = await fetch(url, { headers: { 'x-jwt': token } });
  expect(res.status).toBe(200);
  return decodeTrack(new Uint8Array(await res.arrayBuffer()));
}

async function openPlayback(query: Record<string, number | string>, lang?: 'en'): Promise<Page> {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  if (lang) await page.evaluate((l) => localStorage.setItem('lang', l), lang);
  const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  await page.goto(consolePath(`/monitor/trackPlaybackPage?${q.toString()}`));
  await page.getByTestId('track-playback-page').waitFor({ timeout: 30_000 });
  return page;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local input value in the browser's (= this process's) time zone. */
const local = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

const count = async (page: Page, id: string) => Number(await page.getByTestId(id).textContent());
const timeShown = async (page: Page) => Number(await page.getByTestId('playback-time').getAttribute('data-time'));

describe('track playback', () => {
  test('replaying the showcase vehicle’s last two days lists its stops and drift points with addresses, plays, speeds up, and seeks from the chart to the matching table row', async () => {
    const [showcase] = await backfilled();
    expect(showcase).toBeDefined();
    const endTime = Date.now();
    const startTime = endTime - 2 * DAY;
    const page = await openPlayback({ vehicleId: showcase!.vehicleId, startTime, endTime, plate: showcase!.plate });
    await page.getByTestId('point-count').waitFor({ timeout: 30_000 });

    // What the page lists is what the rule module finds in the same track (stops ≥ 3 min by default).
    const track = await trackOf(showcase!.vehicleId, startTime, endTime);
    const expected = analyzeTrack(track);
    expect(await count(page, 'point-count')).toBeGreaterThanOrEqual(track.count);
    expect(await count(page, 'drift-count')).toBeGreaterThanOrEqual(1);
    expect(await count(page, 'stop-count')).toBeGreaterThanOrEqual(1);
    expect(await count(page, 'drift-count')).toBe(expected.drift.length);
    expect(await count(page, 'stop-count')).toBe(expected.stops.length);
    expect(await count(page, 'gap-count')).toBe(expected.gaps.filter((g) => !g.continuous).length);

    // Addresses of the visible rows resolve on demand.
    await expect.poll(() => page.getByTestId('point-address').first().textContent(), { timeout: 10_000 }).not.toBe('解析中…');

    // The drift list shows the drift points.
    await page.getByRole('tab', { name: /漂移点/ }).click();
    expect(Number(await page.getByTestId('drift-list').getAttribute('data-count'))).toBe(expected.drift.length);

    // The minutes filter recomputes the stops through the rule module.
    const longer = 30;
    await page.getByTestId('stop-minutes').fill(String(longer));
    const expectedLonger = analyzeTrack(track, { stopMinutes: longer }).stops.length;
    await expect.poll(() => count(page, 'stop-count'), { timeout: 10_000 }).toBe(expectedLonger);

    // Play: the clock moves.
    const before = await timeShown(page);
    await page.getByTestId('play-toggle').click();
    await expect.poll(() => page.getByTestId('play-toggle').getAttribute('data-playing')).toBe('true');
    await expect.poll(() => timeShown(page), { timeout: 10_000 }).toBeGreaterThan(before);

    // Extremely fast.
    await page.getByText('极速').click();
    await expect.poll(() => page.getByTestId('speed').getAttribute('data-speed')).toBe('extremelyFast');
    const fastFrom = await timeShown(page);
    await expect.poll(() => timeShown(page), { timeout: 10_000 }).toBeGreaterThan(fastFrom);

    // Pause, then seek by clicking at 80 % of the speed chart: the clock and the chart's playhead go there.
    await page.getByTestId('play-toggle').click();
    await expect.poll(() => page.getByTestId('play-toggle').getAttribute('data-playing')).toBe('false');
    const over = page.locator('[data-testid=speed-chart] .u-over');
    const box = (await over.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.8, box.y + box.height / 2);
    const first = track.time[0]!;
    const last = track.time[track.count - 1]!;
    const target = first + 0.8 * (last - first);
    await expect.poll(async () => Math.abs((await timeShown(page)) - target) / (last - first), { timeout: 5_000 }).toBeLessThan(0.02);
    expect(Number(await page.getByTestId('playhead').getAttribute('data-time'))).toBe(await timeShown(page));

    // The point table scrolls to and highlights the point at the sought time.
    await page.getByRole('tab', { name: /轨迹点/ }).click();
    const row = page.locator('[data-testid=point-row][data-current]');
    await row.waitFor({ timeout: 5_000 });
    const index = Number(await row.locator('p').first().textContent()) - 1;
    expect(track.time[index]!).toBeLessThanOrEqual(await timeShown(page));
    expect(track.time[index + 1] ?? Infinity).toBeGreaterThan(await timeShown(page));
  });

  test('yesterday’s quick range replays the showcase vehicle: stops with start, end, duration and address, a legend, tables that keep the map’s height', async () => {
    const [showcase] = await backfilled();
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/trackPlaybackPage'));
    await page.getByTestId('track-playback-page').waitFor({ timeout: 30_000 });
    // Before any query the clock shows no time (it used to show 1970-01-01).
    expect(await page.getByTestId('track-playback-page').textContent()).not.toContain('1970');
    // The stop threshold says what it is and in which unit.
    expect(await page.getByTestId('track-playback-page').textContent()).toContain('停车阈值');

    await page.getByRole('textbox', { name: '搜索公司、车辆或线路' }).fill(showcase!.plate);
    await page.getByText(showcase!.plate, { exact: true }).last().waitFor({ timeout: 10_000 });
    await page.getByRole('textbox', { name: '搜索公司、车辆或线路' }).press('Enter');
    await expect.poll(() => page.getByTestId('track-vehicle').getAttribute('data-vehicle-id'), { timeout: 10_000 }).toBe(String(showcase!.vehicleId));
    await page.getByTestId('track-quick-yesterday').click();
    await page.getByTestId('point-count').waitFor({ timeout: 30_000 });

    // The form shows yesterday 00:00 → 23:59, and the page lists what the rule module finds in it.
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const start = midnight.getTime() - DAY;
    // In the UI language's 24-hour form, not the browser's locale ("11/24/2026, 12:00 AM").
    expect(await page.getByTestId('track-start').inputValue()).toBe(local(start).replace('T', ' '));
    expect(await page.getByTestId('track-end').inputValue()).toBe(local(midnight.getTime() - 1000).replace('T', ' '));
    const expected = analyzeTrack(await trackOf(showcase!.vehicleId, start, midnight.getTime() - 1000));
    expect(expected.stops.length).toBeGreaterThanOrEqual(1);
    expect(await count(page, 'stop-count')).toBe(expected.stops.length);
    expect(await page.getByTestId('track-legend').textContent()).toContain('停车点');

    const mapBox = page.locator('.maplibregl-map').first();
    const mapHeight = (await mapBox.boundingBox())!.height;
    await page.getByRole('tab', { name: /停车点/ }).click();
    const stop = page.getByTestId('stop-list-row').first();
    await stop.waitFor({ timeout: 5_000 });
    expect(await stop.getByTestId('stop-start').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await stop.getByTestId('stop-end').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await stop.getByTestId('stop-duration').textContent()).toMatch(/分/);
    await expect.poll(() => stop.getByTestId('stop-address').textContent(), { timeout: 10_000 }).not.toBe('解析中…');
    expect((await stop.getByTestId('stop-address').textContent())!.length).toBeGreaterThan(1);
    // Switching to a short list does not give the map the table's height.
    await page.getByRole('tab', { name: /断续/ }).click();
    expect((await mapBox.boundingBox())!.height).toBe(mapHeight);
  });

  test('exporting the shown track downloads a workbook', async () => {
    const [showcase] = await backfilled();
    const endTime = Date.now();
    const page = await openPlayback({ vehicleId: showcase!.vehicleId, startTime: endTime - DAY, endTime });
    await page.getByTestId('point-count').waitFor({ timeout: 30_000 });
    // The task runs on the server (trail/excel → export_status), then excel_file downloads.
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByTestId('track-export').click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
  });

  test('a second vehicle found with the company tree’s search replays with the first on one clock, in its own colour', async () => {
    const [first, second] = await backfilled();
    expect(second).toBeDefined();
    const endTime = Date.now();
    const page = await openPlayback({ vehicleId: first!.vehicleId, startTime: endTime - DAY, endTime, plate: first!.plate });
    await page.getByTestId('point-count').waitFor({ timeout: 30_000 });

    await page.getByRole('textbox', { name: '搜索公司、车辆或线路' }).fill(second!.plate);
    await page.getByText(second!.plate, { exact: true }).last().waitFor({ timeout: 10_000 });
    await page.getByRole('textbox', { name: '搜索公司、车辆或线路' }).press('Enter');
    await expect.poll(() => page.getByTestId('track-vehicle').getAttribute('data-vehicle-id'), { timeout: 10_000 }).toBe(String(second!.vehicleId));
    await page.getByTestId('track-start').fill(local(endTime - DAY));
    await page.getByTestId('track-end').fill(local(endTime + 60_000));
    await page.getByTestId('track-query').click();
    await expect.poll(() => page.getByTestId('track-list').getAttribute('data-count'), { timeout: 30_000 }).toBe('2');

    const colours = await page.locator('[data-testid=track-item] > span').evaluateAll((spans) => spans.map((s) => getComputedStyle(s).backgroundColor));
    expect(new Set(colours).size).toBe(2);
    const before = await timeShown(page);
    await page.getByTestId('play-toggle').click();
    await expect.poll(() => timeShown(page), { timeout: 10_000 }).toBeGreaterThan(before);
  });

  test('a period longer than seven days is refused with 查询时间段不能超过七天 before any track is requested', async () => {
    const [showcase] = await backfilled();
    const endTime = Date.now();
    const page = await e2e.newPage();
    let requested = 0;
    page.on('request', (r) => {
      if (r.url().includes('/trail/binary')) requested++;
    });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(`/monitor/trackPlaybackPage?vehicleId=${showcase!.vehicleId}&startTime=${endTime - 8 * DAY}&endTime=${endTime}`));
    await expect.poll(() => page.getByTestId('period-error').textContent(), { timeout: 15_000 }).toBe('查询时间段不能超过七天');

    // The same from the form.
    await page.getByTestId('period-error').getByRole('button').click();
    await page.getByTestId('track-start').fill('2020-01-01T00:00');
    await page.getByTestId('track-end').fill('2020-01-09T00:00');
    await page.getByTestId('track-query').click();
    await expect.poll(() => page.getByTestId('period-error').textContent()).toBe('查询时间段不能超过七天');
    expect(requested).toBe(0);
  });

  test('in English the same period is refused with “The period can be at most seven days”', async () => {
    const [showcase] = await backfilled();
    const endTime = Date.now();
    const page = await openPlayback({ vehicleId: showcase!.vehicleId, startTime: endTime - 8 * DAY, endTime }, 'en');
    await expect.poll(() => page.getByTestId('period-error').textContent(), { timeout: 15_000 }).toBe('The period can be at most seven days');
  });
});

describe('track search', () => {
  test('a rectangle over the map lists the vehicles that passed and opens one in playback', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/trackPlaybackPageNew'));
    await page.getByTestId('track-search-page').waitFor({ timeout: 30_000 });

    // More than 24 hours is refused before any request.
    await page.getByTestId('search-draw').click();
    const map = (await page.getByTestId('map-view').boundingBox())!;
    await page.mouse.move(map.x + map.width * 0.03, map.y + map.height * 0.03);
    await page.mouse.down();
    await page.mouse.move(map.x + map.width * 0.5, map.y + map.height * 0.5, { steps: 5 });
    await page.mouse.move(map.x + map.width * 0.97, map.y + map.height * 0.97, { steps: 5 });
    await page.mouse.up();
    const end = await page.getByTestId('search-end').inputValue();
    const endMs = new Date(end).getTime();
    await page.getByTestId('search-start').fill(local(endMs - 25 * 3_600_000));
    await page.getByTestId('search-run').click();
    await expect.poll(() => page.getByTestId('search-error').textContent()).toBe('历史查询时间段不能超过24小时');

    await page.getByTestId('search-start').fill(local(endMs - 23 * 3_600_000));
    await page.getByTestId('search-end').fill(local(Date.now() + 120_000));
    await page.getByTestId('search-run').click();
    await expect.poll(async () => Number(await page.getByTestId('search-total').getAttribute('data-count')), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

    const row = page.getByTestId('search-row').first();
    const vehicleId = await row.getAttribute('data-vehicle-id');
    await row.click();
    await page.waitForURL((u) => u.pathname.endsWith('/monitor/trackPlaybackPage') && u.searchParams.get('vehicleId') === vehicleId, { timeout: 10_000 });
    await page.getByTestId('point-count').waitFor({ timeout: 30_000 });
    expect(await count(page, 'point-count')).toBeGreaterThan(0);
  });
});
