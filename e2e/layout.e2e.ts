/**
 * Layout at three screen sizes (issue 13, "the kit"): on every built screen (a page file under
 * src/pages, the route registry's pages that exist) with the alarm pop-up showing, no control is
 * covered and no column is narrower than its minimum; with the alarm drawer open its 确认 takes a
 * normal (not forced) click; twenty open tabs stay on one line and every one can be reached.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { isLoginPath } from '../domain/session/login-type.ts';
import { PERMISSION_REGISTRY } from '../domain/permissions/registry.ts';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, loginTo, realtimeVehicles, ROOT, routeOf, useE2E } from './harness.ts';
import { expectCleanLayout, layoutProblems } from './layout-checks.ts';
import { samplePixels } from './pixels.ts';

// A small scene: 20 seeded vehicles, no simulated fleet (its random alarms would race the scripted one).
const e2e = useE2E({ seedVehicles: 20, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const OVERSPEED_BIT = 1 << 1;
const PROCESSING = '/safeManagement/alarmProcessingPage';
const terminals: TestTerminal[] = [];

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

/** A scripted terminal of the rank-th seeded vehicle raises an overspeed alarm; returns its plate. */
async function raiseAlarm(rank: number): Promise<string> {
  const v = (await realtimeVehicles(e2e.server)).sort((a, b) => b.vehicleId - a.vehicleId)[rank];
  if (!v) throw new Error('no vehicle');
  const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
  terminals.push(t);
  await t.login();
  const now = Math.floor(Date.now() / 1000) * 1000;
  await t.report(location({ lng: 121.5, lat: 31.2, time: now - 2000, speed: 40, alarm: 0 }));
  await t.report(location({ lng: 121.50012, lat: 31.20034, time: now - 1000, speed: 95, alarm: OVERSPEED_BIT }));
  return v.vehiidno;
}

/** In-app navigation (no reload, so the pop-up keeps showing): the router follows history's popstate. */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((href) => {
    history.pushState(null, '', href);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, consolePath(path));
  await page.waitForURL((u) => routeOf(u.href) === path);
}

const expectClean = expectCleanLayout;

/**
 * Every built screen: the console's page convention (`/a/b` is `src/pages/a/b.page.tsx`, src/app/pages.ts),
 * login pages left out. Read from the files, so a screen added later is checked without editing this test.
 */
function builtRoutes(): string[] {
  const pagesDir = path.join(ROOT, 'src', 'pages');
  return readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.page.tsx'))
    .map((file) => `/${file.split(path.sep).join('/').replace(/\.page\.tsx$/, '')}`)
    .filter((route) => !isLoginPath(route))
    .sort();
}

/**
 * The page's API calls (`/service-…`), counted from the moment it is created: a call a screen starts right
 * as it mounts is seen even before the test's navigation has returned.
 */
interface ApiCalls {
  /** Calls started so far. */
  readonly started: number;
  /**
   * Waits until the page has had no API call in flight for `quietMs` (its first queries answered and rendered,
   * and none chained after them), at most `timeoutMs`: a table's rows and a form's options are then on screen.
   */
  settle(quietMs?: number, timeoutMs?: number): Promise<void>;
}

function watchApiCalls(page: Page): ApiCalls {
  const pending = new Set<unknown>();
  let started = 0;
  let changed = Date.now();
  const api = (url: string) => new URL(url).pathname.startsWith('/service-');
  page.on('request', (r) => {
    if (!api(r.url())) return;
    pending.add(r);
    started += 1;
    changed = Date.now();
  });
  const done = (r: unknown) => {
    if (pending.delete(r)) changed = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    get started() {
      return started;
    },
    async settle(quietMs = 500, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      // at least quietMs from now: a call the last action is about to start has that long to show up
      changed = Math.max(changed, Date.now());
      for (;;) {
        const now = Date.now();
        if (now >= deadline) return;
        const quietFor = now - changed;
        if (pending.size === 0 && quietFor >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(pending.size === 0 ? quietMs - quietFor : 50, deadline - now)));
      }
    },
  };
}

/**
 * Resizes the viewport and waits until the screen has followed: resize observers and media queries ran,
 * a call the new size started answered, and the controls' boxes stayed put over 100 ms (charts and the
 * map redraw to their new boxes; layoutProblems() then also waits for CSS transitions).
 */
async function resizeTo(page: Page, calls: ApiCalls, size: { width: number; height: number }): Promise<void> {
  const before = calls.started;
  await page.setViewportSize(size);
  const geometry = () =>
    page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          // after the next frame: ResizeObserver callbacks and React's commit for the new size have run
          requestAnimationFrame(() =>
            setTimeout(() => {
              const boxes = [...document.querySelectorAll('button, a[href], input, [role=tab], th, canvas')].map((el) => {
                const r = el.getBoundingClientRect();
                return `${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.width)},${Math.round(r.height)}`;
              });
              resolve(`${innerWidth}x${innerHeight}|${boxes.join(';')}`);
            }, 0),
          ),
        ),
    );
  const deadline = Date.now() + 10_000;
  let last = await geometry();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await geometry();
    if (now === last && now.startsWith(`${size.width}x${size.height}|`)) break;
    last = now;
    if (Date.now() > deadline) break; // still moving after 10 s: check anyway, the report shows what was where
  }
  if (calls.started > before) await calls.settle();
}

/**
 * Waits for the first live data on a page: at 3840×2160 Chromium paints the map in software (no GPU in CI),
 * which on a loaded 2-core machine took over 20 s; nothing here measures speed.
 */
const FIRST_PAINT_MS = 60_000;

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 3840, height: 2160 },
] as const;

describe('layout checks', () => {
  test('the checks report a covered button and a crushed column, and leave out what an open menu or a modal dialog is meant to cover', async () => {
    // A page made for the checks: if they answered [] for everything, every scene below would pass for nothing.
    const page = await e2e.newPage();
    await page.setContent(`
      <button data-testid="under-panel" style="position:absolute;left:10px;top:10px;width:120px;height:32px">保存</button>
      <div style="position:absolute;left:60px;top:0;width:200px;height:60px;background:#eee"></div>
      <button data-testid="under-menu" style="position:absolute;left:10px;top:100px;width:120px;height:32px">详情</button>
      <div role="menu" style="position:absolute;left:0;top:90px;width:200px;height:60px;background:#fff"></div>
      <table style="position:absolute;top:200px;width:300px;table-layout:fixed"><thead><tr>
        <th data-min-width="80" style="width:40px">类型</th><th data-min-width="80">车牌</th>
      </tr></thead></table>`);
    const found = await layoutProblems(page);
    expect(found.covered.map((c) => c.control)).toEqual(['button[under-panel] "保存"']);
    expect(found.narrow).toEqual([expect.objectContaining({ column: '类型', minWidth: 80 })]);
    expect(found.narrow[0]!.width).toBeLessThan(80);

    // With a modal dialog open only its own controls count; one covered inside it still does.
    await page.setContent(`
      <button style="position:absolute;left:10px;top:10px;width:120px;height:32px">页面按钮</button>
      <div style="position:fixed;inset:0;background:rgba(0,0,0,.4)"></div>
      <div role="dialog" aria-modal="true" style="position:fixed;left:300px;top:50px;width:300px;height:200px;background:#fff">
        <button data-testid="in-dialog" style="position:absolute;left:10px;top:10px;width:120px;height:32px">确认</button>
        <div style="position:absolute;left:0;top:0;width:60px;height:60px;background:red"></div>
      </div>`);
    expect((await layoutProblems(page)).covered.map((c) => c.control)).toEqual(['button[in-dialog] "确认"']);
    await page.close();
  });

  test(`at ${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')} every built screen, with the alarm pop-up showing, has no covered control and no column under its minimum`, { timeout: 900_000 }, async () => {
    // ~100 screens, each opened once and settled (its calls answered), then checked at each size in turn
    // (the viewport resized on the same page, the way a window is resized; sizes zigzag so each screen starts at
    // the size the last one ended on). Three walks, one per size with a new login, took ~585 s in CI.
    const routes = builtRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const page = await e2e.newPage();
    const calls = watchApiCalls(page);
    await page.setViewportSize(SIZES[0]);
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.locator('[data-testid=alarm-counter][data-popup=on]').waitFor({ timeout: FIRST_PAINT_MS });
    // rank 3: the scenes below raise theirs on ranks 0–2
    const plate = await raiseAlarm(3);
    await page.locator(`[data-testid=alarm-popup-title][data-plate="${plate}"]`).waitFor({ timeout: FIRST_PAINT_MS });
    const problems: unknown[] = [];
    let sizes: readonly { width: number; height: number }[] = SIZES;
    for (const route of routes) {
      await go(page, route);
      // settle() waits half a second without a call in flight, and layoutProblems() waits for CSS transitions:
      // no fixed pause on top (it cost 40 s per size over a hundred screens).
      await calls.settle();
      for (const [k, size] of sizes.entries()) {
        if (k > 0) await resizeTo(page, calls, size);
        const found = await layoutProblems(page);
        if (found.covered.length || found.narrow.length) problems.push({ route, size: `${size.width}×${size.height}`, ...found });
      }
      sizes = [...sizes].reverse();
    }
    // every screen's offenders at once, not only the first screen's
    expect(problems).toEqual([]);
    await page.close();
  });

  SIZES.forEach((size, i) => {
    test(`at ${size.width}×${size.height} nothing covers a control with the alarm pop-up showing, and the alarm drawer's 确认 takes its click`, async () => {
      const page = await e2e.newPage();
      await page.setViewportSize(size);
      // straight to the live map (one console load, not the dashboard first)
      await loginTo(page, ACCOUNTS.admin, '/monitor/index');
      await page.locator('[data-testid=alarm-counter][data-popup=on]').waitFor({ timeout: FIRST_PAINT_MS });
      await page.locator('.maplibregl-ctrl-zoom-in').waitFor({ timeout: FIRST_PAINT_MS });
      const plate = await raiseAlarm(i);
      await page.locator(`[data-testid=alarm-popup-title][data-plate="${plate}"]`).waitFor({ timeout: FIRST_PAINT_MS });
      await expectClean(page, 'monitor');
      // The zoom buttons take their clicks with the pop-up showing.
      await page.locator('.maplibregl-ctrl-zoom-out').click();

      await go(page, '/monitor/videoMonitor');
      await page.getByTestId('alarm-popup').waitFor();
      await expectClean(page, 'video wall');

      await go(page, '/monitor/mediaRemoteExtraction');
      await page.getByTestId('alarm-popup').waitFor();
      await expectClean(page, 'recordings');

      await go(page, PROCESSING);
      await page.getByTestId('alarm-search').click();
      const row = page.locator('[data-testid=alarm-row]').filter({ hasText: plate }).first();
      await row.waitFor({ timeout: 15_000 });
      await row.getByTestId('alarm-row-detail').click();
      await page.getByTestId('alarm-confirm').click();
      await page.getByTestId('handle-action').click();
      await page.getByRole('option', { name: '风险解除' }).click();
      await expectClean(page, 'alarm drawer');
      // Playwright's normal click: it fails when something else (the pop-up) would receive it.
      await page.getByTestId('handle-submit').click({ timeout: 5_000 });
      await page.getByTestId('alarm-popup').waitFor();
      await page.close();
    });
  });

  test('after a reload the header offers 开启声音 until a click lets alarm sound play; the dark theme darkens the console and the basemap', async () => {
    const page = await e2e.newPage();
    await loginTo(page, ACCOUNTS.admin, '/monitor/index');
    const map = page.getByTestId('map-view');
    await page.locator('.maplibregl-ctrl-zoom-in').waitFor({ timeout: 20_000 });
    const light = await samplePixels(map);
    // Desktop Chrome holds an AudioContext suspended until the page has had a click (after every reload);
    // headless Chromium lets it run, so the reload installs that policy in the page.
    await page.addInitScript(() => {
      let clicked = false;
      addEventListener('pointerdown', () => (clicked = true), { capture: true });
      const Real = window.AudioContext;
      window.AudioContext = class extends Real {
        constructor(options?: AudioContextOptions) {
          super(options);
          void super.suspend();
        }
        override resume(): Promise<void> {
          return clicked ? super.resume() : Promise.resolve();
        }
      };
    });
    await page.reload();
    const unlock = page.getByTestId('alarm-sound-unlock');
    await unlock.waitFor({ timeout: 20_000 });
    expect(await unlock.textContent()).toBe('开启声音');
    await unlock.click();
    await unlock.waitFor({ state: 'detached', timeout: 5_000 });

    await page.getByTestId('theme-switch').click();
    await page.getByTestId('theme-option-dark').click();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.locator('[data-testid=map-view][data-basemap-variant=dark]').waitFor();
    const body = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = (body.match(/\d+/g) ?? []).map(Number);
    expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(200);
    // the basemap repaints dark (same bundled data, dark paint)
    await expect.poll(async () => (await samplePixels(map)).mean, { timeout: 10_000 }).toBeLessThan(light.mean / 2);
    await page.close();
  });

  test('twenty open tabs stay on one line and every tab can be reached and opened', async () => {
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const routes = PERMISSION_REGISTRY.filter(
      (e) => e.type === 1 && e.pid !== 0 && !e.flags?.length && !e.key.startsWith('/monitor') && !PERMISSION_REGISTRY.some((c) => c.pid === e.id && c.type === 1),
    )
      .map((e) => e.key)
      .slice(0, 20);
    expect(routes).toHaveLength(20);
    for (const r of routes) {
      await go(page, r);
      // the shell opens a tab once the route has rendered (its lazy page loaded)
      await page.getByTestId(`tab-${r}`).waitFor({ timeout: 15_000 });
    }
    const bar = page.getByTestId('tabs-bar');
    const tabs = bar.locator('[role=tab]');
    const openPaths = () => page.locator('[data-testid^="tab-/"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(4)));
    await expect.poll(openPaths).toEqual(routes);
    // one line: the strip is as tall as one tab row, not a column of one-character labels
    expect((await bar.boundingBox())!.height).toBeLessThan(48);
    await page.getByTestId('tabs-scroll-left').waitFor();
    for (const r of routes) {
      // a normal click scrolls the strip to the tab and fails if anything covers it
      await page.getByTestId(`tab-${r}`).getByRole('tab').click();
      await page.waitForURL((u) => routeOf(u.href) === r);
    }
    await expectClean(page, 'tabs');
    // the 21st closes the least recently used tab instead of growing the strip
    await go(page, '/monitor/index');
    await expect.poll(() => tabs.count()).toBe(20);
    expect(await page.getByTestId(`tab-${routes[0]}`).count()).toBe(0);

    // A reload restores the tabs, bounded: a stored route this user cannot open is dropped.
    await page.evaluate(() => {
      const stored = JSON.parse(sessionStorage.getItem('tabs') ?? '{}') as { paths: string[] };
      sessionStorage.setItem('tabs', JSON.stringify({ ...stored, paths: [...stored.paths, '/no/such/route'] }));
    });
    await page.reload();
    await page.getByTestId('tab-/monitor/index').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('tab-/no/such/route').count()).toBe(0);
    expect(await tabs.count()).toBeLessThanOrEqual(20);
    await page.close();
  });
});
