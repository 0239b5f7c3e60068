/**
 * An operator's day (issue 13, "Done when"), walked at 1280×720 and at 1920×1080 with the same steps:
 * the seeded operator signs in, finds a vehicle by plate on the 车辆 tab (selected, card open, the map
 * flies to it), sends it a TTS with a preset phrase from its right-click menu (the scripted terminal
 * receives the 0x8300 text), replays yesterday with the quick range (track and stop list), handles an
 * alarm from the alarm list while the alarm pop-up is showing, opens the photo the pop-up's 拍照 took
 * for it, and opens 20 tabs from the menu and switches between them. Every click is Playwright's
 * normal one (actionability: it fails when something else would take the click); at each stop no
 * control is covered and no column is under its minimum width. Frame rates and wall-clock times are
 * never asserted.
 *
 * The seeded 监控员 role (server/seed/seed.ts) is monitor-only; a duty operator's day also needs the
 * alarm pop-up, the vehicle command menu, the alarm list and its evidence. So before the walk the
 * administrator grants that role these rights through the roles call, as an administrator setting up
 * a duty shift would; the operator account itself is the seeded one.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { PERMISSION_REGISTRY } from '../domain/permissions/registry.ts';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, gatewayPort, login, type RealtimeVehicle, realtimeVehicles, routeOf, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';
import { answerSnapshots } from './scripted-camera.ts';

// A small scene: 20 seeded vehicles, one simulated (with two days of history to replay yesterday),
// the others driven by scripted terminals in the test.
const e2e = useE2E({
  seedVehicles: 20,
  history: { vehicles: 1, days: 2 },
  env: { SIM_VEHICLES: '1', GATEWAY_PORT: '0', MEDIA_PORT: '0' },
});

const DAY = 86_400_000;
const OVERSPEED_BIT = 1 << 1; // JT/T 808 bit 1 → 12001 超速报警
const PHRASE = '请系好安全带';
const terminals: TestTerminal[] = [];

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

/** Registry ids of the keys and of everything under them (routes and their buttons). */
function subtrees(...keys: string[]): number[] {
  return PERMISSION_REGISTRY.filter((e) => keys.some((k) => e.key === k || e.key.startsWith(`${k}/`) || e.key.startsWith(`${k}:`))).map((e) => e.id);
}

/** What a duty operator holds: the whole monitoring centre, alarm handling, alarm media, messages, the pop-up and command menu. */
const DUTY_KEYS = ['/home', '/monitor', '/safeManagement/alarmProcessingPage', '/safeManagement/safetyBoardPage', '/report/media', '/operation/messageManagement', '/global'];
const DUTY_GROUPS = ['/safeManagement', '/report', '/operation'];

let granted: Promise<void> | undefined;
/** Grants the seeded 监控员 role a duty operator's rights (once per server). */
function grantDutyRights(): Promise<void> {
  granted ??= (async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const roles = await e2e.server.api<{ id: number; name: string }[]>('/service-priv/role/list', { token: admin });
    const role = roles.data.find((r) => r.name === '监控员');
    if (!role) throw new Error(`no seeded 监控员 role among ${roles.data.map((r) => r.name).join(', ')}`);
    const ids = [...new Set([...subtrees(...DUTY_KEYS), ...PERMISSION_REGISTRY.filter((e) => DUTY_GROUPS.includes(e.key)).map((e) => e.id)])];
    const set = await e2e.server.api('/service-priv/role/role_permissions', { token: admin, body: { roleId: role.id, permissionIds: ids } });
    if (set.code !== 200) throw new Error(`granting the duty rights: ${set.code} ${set.msg}`);
  })();
  return granted;
}

/** The simulated vehicle with two days of history (the first seeded vehicle), as playback finds it. */
async function historyVehicle(): Promise<{ vehicleId: number; plate: string }> {
  const token = await e2e.server.token(ACCOUNTS.admin);
  const now = Date.now();
  const found = await e2e.server.api<{ records: { vehicleId: number; plate: string }[] }>('/service-onlinegps/geography/searchFrameGps', {
    token, body: { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90, startTime: now - DAY + 60_000, endTime: now },
  });
  const first = [...found.data.records].sort((a, b) => a.vehicleId - b.vehicleId)[0];
  if (!first) throw new Error('no vehicle with history');
  return first;
}

/** A scripted terminal for the rank-th seeded vehicle from the end (never the simulated one): online, parked in Shanghai, with a camera. */
async function scriptedVehicle(rank: number): Promise<{ v: RealtimeVehicle; t: TestTerminal }> {
  const v = (await realtimeVehicles(e2e.server)).sort((a, b) => b.vehicleId - a.vehicleId)[rank];
  if (!v) throw new Error('no vehicle');
  const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
  terminals.push(t);
  await t.login();
  answerSnapshots(t, v.deviceNo);
  const now = Math.floor(Date.now() / 1000) * 1000;
  expect((await t.report(location({ lng: 121.5 + rank * 0.01, lat: 31.2, time: now, speed: 0 }))).result).toBe(0);
  return { v, t };
}

/** The id of the vehicle's overspeed alarm (12001) of the last day, as the alarm list's call answers it. */
async function alarmIdOf(token: string, vehicleId: number): Promise<number> {
  const now = Date.now();
  for (let i = 0; i < 50; i++) {
    const r = await e2e.server.api<{ records: { id: number; alarmType: number }[] }>('/service-safe/alarmInfo', {
      token, body: { current: 1, size: 10, startTime: now - DAY, endTime: now + 60_000, vehicleIds: [vehicleId] },
    });
    const id = r.data?.records.find((a) => a.alarmType === 12001)?.id;
    if (id !== undefined) return id;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no overspeed alarm of vehicle ${vehicleId}`);
}

/** Opens a menu entry as a user does: unfolds its groups in the side navigation, then clicks it. */
async function openFromMenu(page: Page, route: string): Promise<void> {
  const chain: string[] = [];
  for (let e = PERMISSION_REGISTRY.find((x) => x.key === route && x.type === 1); e && e.pid !== 0; ) {
    const parent = PERMISSION_REGISTRY.find((x) => x.id === e!.pid);
    if (parent) chain.unshift(parent.key);
    e = parent;
  }
  for (const group of chain) {
    const nav = page.getByTestId(`nav-group-${group}`);
    if ((await nav.getAttribute('data-expanded')) === null) await nav.click();
  }
  await page.getByTestId(`nav-${route}`).click();
  await page.waitForURL((u) => routeOf(u.href) === route);
}

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;

describe("an operator's day", () => {
  SIZES.forEach((size, rank) => {
    test(`at ${size.width}×${size.height}: find by plate, TTS from the right-click menu, yesterday's track, an alarm handled under the pop-up with its photo, 20 tabs`, { timeout: 300_000 }, async () => {
      await grantDutyRights();
      const [{ v, t }, replay] = await Promise.all([scriptedVehicle(rank), historyVehicle()]);
      const page = await e2e.newPage();
      await page.setViewportSize(size);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));

      // Sign in. The console lands on the operator's first page; on the dashboard a first sign-in shows its
      // guide, which the operator ignores (once per user: the second walk does not see it).
      const guideRead = page.waitForResponse((r) => r.url().includes('/service-priv/guide/fetch'), { timeout: 30_000 }).catch(() => null);
      await login(page, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
      await page.getByTestId('side-nav').waitFor({ timeout: 30_000 });
      if (routeOf(page.url()) === '/home/index') {
        const read = await guideRead;
        const guide = read ? ((await read.json()) as { data?: { done?: boolean } }).data : undefined;
        if (guide && !guide.done) {
          await page.getByTestId('guide-ignore').waitFor();
          await expectCleanLayout(page, 'dashboard with its guide');
          await page.getByTestId('guide-ignore').click();
          await page.getByTestId('guide-ignore').waitFor({ state: 'detached' });
        }
        await expectCleanLayout(page, 'dashboard');
      }
      await page.locator('[data-testid=alarm-counter][data-popup=on]').waitFor({ timeout: 20_000 });
      await openFromMenu(page, '/monitor/index');
      await page.locator('[data-testid=connection][data-state=open]').waitFor({ timeout: 30_000 });
      await page.locator('.maplibregl-ctrl-zoom-in').waitFor({ timeout: 20_000 });
      await expectCleanLayout(page, 'monitor');

      // Find the vehicle by plate on the 车辆 tab and pick it: its card opens, its row is highlighted.
      await page.getByTestId('vehicle-search').fill(v.vehiidno);
      await page.getByRole('option', { name: v.vehiidno, exact: true }).click();
      await expect.poll(() => page.getByTestId('details-plate').textContent(), { timeout: 10_000 }).toBe(v.vehiidno);
      const row = page.locator(`[data-testid=vehicle-row][data-vehicle-id="${v.vehicleId}"]`);
      await row.waitFor({ timeout: 5_000 });
      expect(await row.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
      await expectCleanLayout(page, 'vehicle picked');

      // The map flew to it: right-clicking the middle of the map picks this vehicle and opens its menu.
      const map = page.getByTestId('map-view');
      const menu = page.locator(`[data-testid=vehicle-menu][data-vehicle-id="${v.vehicleId}"]`);
      await expect.poll(async () => {
        const box = (await map.boundingBox())!;
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' });
        return menu.isVisible();
      }, { timeout: 20_000, interval: 1_000 }).toBe(true);
      await expectCleanLayout(page, 'vehicle menu');

      // TTS with a preset phrase: the terminal receives the text (0x8300) and its answer shows.
      await page.getByTestId('menu-tts').click();
      await page.getByTestId('tts-form').waitFor();
      await page.getByTestId('tts-preset').click();
      await page.getByRole('option', { name: PHRASE }).click();
      await expectCleanLayout(page, 'TTS form');
      await page.getByTestId('tts-send').click();
      await expect.poll(() => page.getByTestId('tts-result').textContent(), { timeout: 15_000 }).toContain('终端应答');
      const spoken = t.commands.filter((c) => c.message.msgId === 0x8300).map((c) => (c.message as { text?: string }).text);
      expect(spoken).toEqual([PHRASE]);
      await page.keyboard.press('Escape');
      await page.getByTestId('tts-form').waitFor({ state: 'detached' });

      // Replay yesterday: the quick range, the track on the map and its stop list.
      await openFromMenu(page, '/monitor/trackPlaybackPage');
      await page.getByTestId('track-playback-page').waitFor({ timeout: 30_000 });
      const treeSearch = page.getByRole('textbox', { name: '搜索公司、车辆或线路' });
      await treeSearch.fill(replay.plate);
      await page.getByText(replay.plate, { exact: true }).last().waitFor({ timeout: 10_000 });
      await treeSearch.press('Enter');
      await expect.poll(() => page.getByTestId('track-vehicle').getAttribute('data-vehicle-id'), { timeout: 10_000 }).toBe(String(replay.vehicleId));
      await page.getByTestId('track-quick-yesterday').click();
      await page.getByTestId('point-count').waitFor({ timeout: 30_000 });
      expect(Number(await page.getByTestId('point-count').textContent())).toBeGreaterThan(100);
      expect(Number(await page.getByTestId('stop-count').textContent())).toBeGreaterThanOrEqual(1);
      await page.getByRole('tab', { name: /停车点/ }).click();
      const stop = page.getByTestId('stop-list-row').first();
      await stop.waitFor({ timeout: 5_000 });
      expect(await stop.getByTestId('stop-duration').textContent()).toMatch(/分/);
      await expectCleanLayout(page, 'track playback');

      // An alarm arrives while the operator works: the pop-up shows it; its 拍照 asks the camera for evidence.
      const now = Math.floor(Date.now() / 1000) * 1000;
      expect((await t.report(location({ lng: 121.5, lat: 31.2, time: now - 1000, speed: 40 }))).result).toBe(0);
      expect((await t.report(location({ lng: 121.50012, lat: 31.20034, time: now, speed: 95, alarm: OVERSPEED_BIT }))).result).toBe(0);
      const popup = page.getByTestId('alarm-popup');
      // The simulated vehicle may raise alarms of its own: act on the pop-up while it shows this one.
      const ours = popup.filter({ has: page.locator(`[data-testid=alarm-popup-title][data-plate="${v.vehiidno}"]`) });
      await ours.waitFor({ timeout: 20_000 });
      const admin = await e2e.server.token(ACCOUNTS.admin);
      const alarmId = await alarmIdOf(admin, v.vehicleId);
      await expectCleanLayout(page, 'track playback with the pop-up');
      await ours.getByTestId('alarm-btn-photoSnap').click();
      await expect.poll(() => t.commands.some((c) => c.message.msgId === 0x8801), { timeout: 15_000 }).toBe(true);
      await expectCleanLayout(page, 'snapshot dialog');
      await page.keyboard.press('Escape');

      // Handle it from the alarm list, the pop-up still showing: every click lands on what it aims at.
      await openFromMenu(page, '/safeManagement/alarmProcessingPage');
      await page.getByTestId('alarm-search').click();
      const listed = page.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`);
      await listed.waitFor({ timeout: 15_000 });
      await popup.waitFor();
      await expectCleanLayout(page, 'alarm list with the pop-up');
      await listed.getByTestId('alarm-row-detail').click();
      await page.getByTestId('alarm-confirm').click();
      await page.getByTestId('handle-action').click();
      await page.getByRole('option', { name: '风险解除' }).click();
      await expectCleanLayout(page, 'handling form with the pop-up');
      await page.getByTestId('handle-submit').click();
      await expect.poll(() => listed.getByTestId('alarm-row-status').textContent(), { timeout: 15_000 }).toBe('人工处理');
      expect(await listed.getByTestId('alarm-row-user').textContent()).toBe('张监控');
      const handled = await e2e.server.api<{ dealStatus: number }>(`/service-safe/alarmInfo/${alarmId}`, { token: admin });
      expect(handled.data.dealStatus).toBe(2);

      // The alarm's evidence: the photo the pop-up's 拍照 took, through the media report.
      await page.getByTestId('alarm-detail').waitFor();
      const evidence = page.locator('[data-testid=alarm-evidence]');
      await expect.poll(async () => {
        // the photo is stored when its last sub-package arrives; the evidence list reads it on open
        if (Number(await evidence.getAttribute('data-photos')) > 0) return true;
        await page.keyboard.press('Escape');
        await page.getByTestId('alarm-detail').waitFor({ state: 'detached' });
        await listed.getByTestId('alarm-row-detail').click();
        await page.locator('[data-testid=alarm-evidence][data-state=ready]').waitFor({ timeout: 15_000 });
        return Number(await evidence.getAttribute('data-photos')) > 0;
      }, { timeout: 40_000, interval: 2_000 }).toBe(true);
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('[data-testid=alarm-evidence] img[data-testid=media-photo]');
        return img !== null && img.complete && img.naturalWidth > 0;
      }, undefined, { timeout: 20_000 });
      await evidence.locator('img[data-testid=media-photo]').first().scrollIntoViewIfNeeded();
      await expectCleanLayout(page, 'alarm evidence');
      await page.keyboard.press('Escape');
      await page.getByTestId('alarm-detail').waitFor({ state: 'detached' });

      // Twenty tabs opened from the menu: one line, every tab reachable by a normal click.
      const bar = page.getByTestId('tabs-bar');
      const openTabs = () => page.locator('[data-testid^="tab-/"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(4)));
      const menuRoutes = await page.locator('[data-testid^="nav-/"]').evaluateAll((els) =>
        els.filter((e) => !e.getAttribute('data-flags')).map((e) => e.getAttribute('data-testid')!.slice(4)),
      );
      for (const route of menuRoutes) {
        if ((await openTabs()).length >= 20) break;
        if ((await openTabs()).includes(route)) continue;
        await openFromMenu(page, route);
        await page.getByTestId(`tab-${route}`).waitFor({ timeout: 15_000 });
      }
      const open = await openTabs();
      expect(open).toHaveLength(20);
      expect((await bar.boundingBox())!.height).toBeLessThan(48);
      for (const route of open) {
        await page.getByTestId(`tab-${route}`).getByRole('tab').click();
        await page.waitForURL((u) => routeOf(u.href) === route);
      }
      await expectCleanLayout(page, '20 tabs');
      // The walk threw nothing in the page.
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});
