/**
 * The live map's vehicle menu and the alarm pop-up beside the map, drawers and dialogs (issue 13),
 * against the real stack: scripted JT/T 808 terminals (no simulated fleet, so every vehicle on the
 * map and every alarm is one of ours) → gateway → push → stream worker → deck.gl map.
 *
 * - Right-click a vehicle on the map or in the list: the spec's vehicle menu (/global rightMenu,
 *   menu808); a TTS with a preset phrase reaches the terminal (0x8300) and its answer shows.
 * - Each command behind its bit; a role without menu808 gets no menu (no terminal commands).
 * - Near the map's bottom-right corner and the list's bottom the menu stays inside the viewport.
 * - The pop-up docks compact beside the map: the map really narrows (canvas = container), keeps its
 *   centre, and brings back the chosen vehicle the narrower map would cut off; nothing is covered.
 * - With the pop-up docked, a dialog and a right-hand drawer open left of it: layout checks find no
 *   covered control (the pop-up's included), and both take ordinary (not forced) clicks.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { entryByKey } from '../domain/permissions/access.ts';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, createUserWithRole, gatewayPort, login, type RealtimeVehicle, realtimeVehicles, routeOf, useE2E } from './harness.ts';
import { coveredControls, layoutProblems } from './layout-checks.ts';

const e2e = useE2E({ seedVehicles: 20, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const OVERSPEED_BIT = 1 << 1;
const terminals: TestTerminal[] = [];

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

type Box = { x: number; y: number; width: number; height: number };

/** The rank-th seeded vehicle with a scripted terminal online at a position (a few streets apart per rank). */
async function onlineVehicle(rank: number): Promise<{ v: RealtimeVehicle; t: TestTerminal; lng: number; lat: number }> {
  const v = (await realtimeVehicles(e2e.server)).sort((a, b) => b.vehicleId - a.vehicleId)[rank];
  if (!v) throw new Error('no vehicle');
  const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
  terminals.push(t);
  await t.login();
  const lng = 121.47 + rank * 0.02;
  const lat = 31.23 + rank * 0.01;
  expect((await t.report(location({ lng, lat, time: Math.floor(Date.now() / 1000) * 1000 - 1000, speed: 0, alarm: 0 }))).result).toBe(0);
  return { v, t, lng, lat };
}

async function raiseOverspeed(t: TestTerminal, lng: number, lat: number): Promise<void> {
  const now = Math.floor(Date.now() / 1000) * 1000;
  expect((await t.report(location({ lng, lat, time: now, speed: 95, alarm: OVERSPEED_BIT }))).result).toBe(0);
}

async function openMonitor(username: string, password: string, size = { width: 1920, height: 1080 }): Promise<Page> {
  const page = await e2e.newPage();
  await page.setViewportSize(size);
  await login(page, username, password);
  await page.goto(consolePath('/monitor/index'));
  await page.locator('[data-testid=connection][data-state=open]').waitFor({ timeout: 30_000 });
  await page.locator('.maplibregl-ctrl-zoom-in').waitFor({ timeout: 20_000 });
  return page;
}

/** The map's centre (WGS-84) and zoom as MapView last reported them (after the camera stopped). */
async function camera(page: Page): Promise<{ lng: number; lat: number; zoom: number; canvas: number }> {
  const map = page.getByTestId('map-view');
  const [lng, lat] = ((await map.getAttribute('data-center')) ?? 'NaN,NaN').split(',').map(Number) as [number, number];
  return { lng, lat, zoom: Number(await map.getAttribute('data-zoom')), canvas: Number(await map.getAttribute('data-canvas-width')) };
}

/** Picks the plate from the 车辆 tab's search: the card opens and the map flies to street zoom over the vehicle. */
async function choose(page: Page, plate: string, lng: number, lat: number): Promise<void> {
  await page.getByTestId('vehicle-search').fill(plate);
  await page.getByRole('option', { name: plate, exact: true }).click();
  await expect.poll(() => page.getByTestId('details-plate').textContent(), { timeout: 10_000 }).toBe(plate);
  await expect.poll(async () => {
    const c = await camera(page);
    return c.zoom >= 14 && Math.abs(c.lng - lng) < 1e-4 && Math.abs(c.lat - lat) < 1e-4;
  }, { timeout: 15_000 }).toBe(true);
}

async function mapBox(page: Page): Promise<Box> {
  return (await page.getByTestId('map-view').boundingBox())!;
}

/**
 * Drags the map by (dx, dy): the vehicle at the centre moves with it. The pause before the release
 * leaves maplibre no speed for inertia, so the map stops exactly where the mouse did.
 */
async function dragMap(page: Page, dx: number, dy: number): Promise<void> {
  const b = await mapBox(page);
  // A path centred a little left of and below the map's centre: clear of the card (top right) and the toolbar.
  const x = b.x + b.width / 2 - dx / 2 - 100;
  const y = b.y + b.height / 2 - dy / 2 + 100;
  const before = await page.getByTestId('map-view').getAttribute('data-center');
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 20 });
  await page.waitForTimeout(300);
  await page.mouse.up();
  await expect.poll(() => page.getByTestId('map-view').getAttribute('data-center')).not.toBe(before);
}

/** The vehicle menu's dropdown box once it is open for the vehicle. */
async function menuBox(page: Page, vehicleId: number): Promise<Box> {
  const dropdown = page.locator(`[data-testid=vehicle-menu][data-vehicle-id="${vehicleId}"] .mantine-Menu-dropdown`);
  await dropdown.waitFor();
  // Mantine places the dropdown (flip, shift) a frame after it mounts: read it once it stops moving.
  let last = '';
  await expect.poll(async () => {
    const now = JSON.stringify(await dropdown.boundingBox());
    const same = now === last;
    last = now;
    return same;
  }, { interval: 100 }).toBe(true);
  return (await dropdown.boundingBox())!;
}

function inside(b: Box, size: { width: number; height: number }): boolean {
  return b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width + 0.5 && b.y + b.height <= size.height + 0.5;
}

/** In-app navigation (no reload, so the pop-up keeps showing): the router follows history's popstate. */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((href) => {
    history.pushState(null, '', href);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, consolePath(path));
  await page.waitForURL((u) => routeOf(u.href) === path);
}

const ids = (keys: readonly string[]) => keys.map((k) => {
  const e = entryByKey(k);
  if (!e) throw new Error(`no permission ${k}`);
  return e.id;
});
const MONITOR = ['/monitor', '/monitor/index', '/global', '/global/alarm', '/global/rightMenu'];

describe('the vehicle menu on the live map', () => {
  test('right-click a vehicle on the map, then in the list: the vehicle menu; a TTS with a preset phrase reaches the terminal, which answers', async () => {
    const { v, t, lng, lat } = await onlineVehicle(0);
    const page = await openMonitor(ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await choose(page, v.vehiidno, lng, lat);

    // On the map: the vehicle sits at the centre after the fly.
    const b = await mapBox(page);
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2, { button: 'right' });
    const menu = page.locator(`[data-testid=vehicle-menu][data-vehicle-id="${v.vehicleId}"]`);
    await menu.waitFor({ timeout: 5_000 });
    // The administrator holds every bit: live video, talk, TTS, photo, call back, track, alarm history …
    for (const k of ['details', 'live', 'talk', 'tts', 'photo', 'phone', 'track', 'alarms', 'position', 'tempTrack', 'terminalControl', 'attributes', 'params', 'fence', 'commLog']) await menu.getByTestId(`menu-${k}`).waitFor();
    // … and the entries whose issues have not landed are listed, disabled, as not built yet.
    expect(await menu.getByTestId('menu-later-upgrade').getAttribute('data-disabled')).not.toBeNull();
    await menu.getByTestId('menu-tts').click();
    await page.getByTestId('tts-form').waitFor();
    await page.getByTestId('tts-preset').click();
    await page.getByRole('option', { name: '您已超速，请减速慢行' }).click();
    expect(await page.getByTestId('tts-text').inputValue()).toBe('您已超速，请减速慢行');
    await page.getByTestId('tts-send').click();
    await expect.poll(() => page.getByTestId('tts-result').textContent(), { timeout: 15_000 }).toContain('终端应答');
    // The terminal got the phrase as JT/T 808 0x8300.
    expect(t.commands.filter((c) => c.message.msgId === 0x8300).map((c) => (c.message as { text?: string }).text)).toContain('您已超速，请减速慢行');
    await page.keyboard.press('Escape');
    await page.getByTestId('tts-form').waitFor({ state: 'detached' });

    // In the list: the same menu for the row's vehicle, and the same TTS reaches the terminal again.
    const row = page.locator(`[data-testid=vehicle-row][data-vehicle-id="${v.vehicleId}"]`);
    await row.click({ button: 'right' });
    await menu.waitFor();
    await menu.getByTestId('menu-tts').click();
    await page.getByTestId('tts-preset').click();
    await page.getByRole('option', { name: '请系好安全带' }).click();
    await page.getByTestId('tts-send').click();
    await expect.poll(() => page.getByTestId('tts-result').textContent(), { timeout: 15_000 }).toContain('终端应答');
    expect(t.commands.filter((c) => c.message.msgId === 0x8300).map((c) => (c.message as { text?: string }).text)).toContain('请系好安全带');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('each command is behind its bit: a duty role with TTS only sees TTS; a role without menu808 gets no menu and no card commands', async () => {
    const { v, lng, lat } = await onlineVehicle(1);
    await createUserWithRole(e2e.server, { name: '值班-TTS', permissionIds: ids([...MONITOR, '/global/rightMenu:menu808', '/global/alarm:ttsReminder']) },
      { username: 'dutytts', password: 'duty1234', realName: '值班员甲' });
    await createUserWithRole(e2e.server, { name: '值班-无指令', permissionIds: ids([...MONITOR, '/global/alarm:ttsReminder']) },
      { username: 'dutynone', password: 'duty1234', realName: '值班员乙' });

    let page = await openMonitor('dutytts', 'duty1234');
    await choose(page, v.vehiidno, lng, lat);
    const row = page.locator(`[data-testid=vehicle-row][data-vehicle-id="${v.vehicleId}"]`);
    await row.click({ button: 'right' });
    const menu = page.locator(`[data-testid=vehicle-menu][data-vehicle-id="${v.vehicleId}"]`);
    await menu.getByTestId('menu-tts').waitFor({ timeout: 5_000 });
    for (const k of ['live', 'talk', 'photo', 'phone', 'track', 'alarms', 'music', 'audio', 'obd']) expect(await menu.getByTestId(`menu-${k}`).count(), k).toBe(0);
    await page.keyboard.press('Escape');
    await page.close();

    page = await openMonitor('dutynone', 'duty1234');
    await choose(page, v.vehiidno, lng, lat);
    // The map's right-click on the vehicle and the list's: nothing opens (no terminal commands).
    const b = await mapBox(page);
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2, { button: 'right' });
    await page.locator(`[data-testid=vehicle-row][data-vehicle-id="${v.vehicleId}"]`).click({ button: 'right' });
    await page.waitForTimeout(500);
    expect(await page.getByTestId('vehicle-menu').count()).toBe(0);
    expect(await page.getByTestId('menu-tts').count()).toBe(0);
    // The card shows the vehicle but no 指令 button.
    expect(await page.getByTestId('details-plate').textContent()).toBe(v.vehiidno);
    expect(await page.getByTestId('details-menu').count()).toBe(0);
    await page.close();
  });

  test('at the list’s bottom and near the map’s bottom-right corner the menu opens inside the viewport', async () => {
    const size = { width: 1280, height: 720 };
    const { v, lng, lat } = await onlineVehicle(2);
    const page = await openMonitor(ACCOUNTS.admin.username, ACCOUNTS.admin.password, size);
    // No terminal reports after the page opened: the list still fills from the connection's snapshot.
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=vehicle-list]')?.getAttribute('data-length')) === 20, null, { timeout: 30_000 });

    // The list's last row on screen, near the viewport's bottom: right-clicked at its right end.
    const list = page.getByTestId('vehicle-list');
    const lb = (await list.boundingBox())!;
    const rows = page.getByTestId('vehicle-row');
    let bottom = -1;
    for (let i = 0; i < (await rows.count()); i++) {
      const rb = await rows.nth(i).boundingBox();
      if (rb && rb.y + rb.height <= Math.min(lb.y + lb.height, size.height)) bottom = i;
    }
    const bottomRow = rows.nth(bottom);
    const rowId = Number(await bottomRow.getAttribute('data-vehicle-id'));
    const rb = (await bottomRow.boundingBox())!;
    expect(rb.y).toBeGreaterThan(size.height / 2);
    await bottomRow.click({ button: 'right', position: { x: rb.width - 10, y: rb.height / 2 } });
    const inList = await menuBox(page, rowId);
    expect({ inList, inside: inside(inList, size) }).toMatchObject({ inside: true });
    expect(inList.y).toBeLessThan(rb.y); // it turned upwards: below the row there is no room
    await page.keyboard.press('Escape');
    await page.getByTestId('vehicle-menu').waitFor({ state: 'detached' });

    // The map: the vehicle dragged close to the bottom-right corner (left of the zoom buttons), the card closed.
    await choose(page, v.vehiidno, lng, lat);
    await page.getByTestId('details-card').getByRole('button', { name: '关闭' }).click();
    await page.getByTestId('details-card').waitFor({ state: 'detached' });
    const b = await mapBox(page);
    const target = { x: b.x + b.width - 70, y: b.y + b.height - 110 };
    await dragMap(page, target.x - (b.x + b.width / 2), target.y - (b.y + b.height / 2));
    await page.mouse.click(target.x, target.y, { button: 'right' });
    const onMap = await menuBox(page, v.vehicleId);
    expect({ onMap, inside: inside(onMap, size) }).toMatchObject({ inside: true });
    // Opened at the corner it turned to fit: it would run off the right and bottom edges otherwise.
    expect(onMap.x).toBeLessThan(target.x);
    expect(onMap.y).toBeLessThan(target.y);
    await page.close();
  });
});

describe('the alarm pop-up beside the map, drawers and dialogs', () => {
  test('at 1280×720 the pop-up docks compact: the map narrows, keeps the chosen vehicle in view, and no control is covered', async () => {
    const { v, t, lng, lat } = await onlineVehicle(3);
    const page = await openMonitor(ACCOUNTS.admin.username, ACCOUNTS.admin.password, { width: 1280, height: 720 });
    await choose(page, v.vehiidno, lng, lat);
    // The vehicle near the right edge: a map that only kept its centre would cut it off when the pop-up docks.
    const b = await mapBox(page);
    await dragMap(page, b.width / 2 - 110, 0);
    const wide = await camera(page);
    expect(Math.abs(wide.canvas - b.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(wide.lng - lng)).toBeGreaterThan(1e-4);

    await raiseOverspeed(t, lng, lat);
    const popup = page.locator(`[data-testid=alarm-popup][data-mode=compact]`);
    await popup.waitFor({ timeout: 20_000 });
    expect(await popup.getByTestId('alarm-popup-title').textContent()).toBe(`${v.vehiidno} · 超速报警`);
    // Compact: vehicle, alarm, time, address (or the position), 处理 / 详情 / 视频 and 展开 — nothing else.
    for (const id of ['alarm-popup-time', 'alarm-popup-place', 'alarm-btn-handle', 'alarm-btn-detail', 'alarm-btn-live', 'alarm-popup-expand']) await popup.getByTestId(id).waitFor();
    expect(await popup.getByTestId('alarm-btn-ttsReminder').count()).toBe(0);
    const dock = (await page.getByTestId('alarm-dock').boundingBox())!;
    expect(dock.width).toBeLessThanOrEqual(280);

    // The map gave up the pop-up's width: its canvas follows the container, and the chosen vehicle is back at the centre.
    await expect.poll(async () => {
      const now = await mapBox(page);
      const c = await camera(page);
      return Math.abs(c.canvas - now.width) <= 1 && now.width < b.width - 200 && Math.abs(c.lng - lng) < 1e-4 && Math.abs(c.lat - lat) < 1e-4;
    }, { timeout: 10_000 }).toBe(true);
    const narrow = await mapBox(page);
    expect(narrow.x + narrow.width).toBeLessThanOrEqual(dock.x + 1);
    // Both canvases — maplibre's basemap and deck.gl's overlay (vehicles) — are drawn at the new width.
    const canvasWidths = () => page.locator('[data-testid=map-view] canvas').evaluateAll((cs) => cs.map((c) => (c as HTMLCanvasElement).getBoundingClientRect().width));
    await expect.poll(async () => (await canvasWidths()).map((w) => Math.abs(w - narrow.width) <= 1), { timeout: 5_000 }).toEqual([true, true]);
    expect({ ...(await layoutProblems(page)) }).toEqual({ covered: [], narrow: [] });
    await page.locator('.maplibregl-ctrl-zoom-out').click();
    await expect.poll(async () => (await camera(page)).zoom).toBeLessThan(wide.zoom);

    // 展开: the full pop-up (every button); the map narrows further and keeps its centre; 精简 gives the width back.
    const centre = await camera(page);
    await page.getByTestId('alarm-popup-expand').click();
    await page.locator('[data-testid=alarm-popup][data-mode=full]').getByTestId('alarm-btn-ttsReminder').waitFor();
    await expect.poll(async () => (await mapBox(page)).width, { timeout: 5_000 }).toBeLessThan(narrow.width - 40);
    await expect.poll(async () => Math.abs((await camera(page)).canvas - (await mapBox(page)).width), { timeout: 5_000 }).toBeLessThanOrEqual(1);
    const after = await camera(page);
    expect(Math.abs(after.lng - centre.lng)).toBeLessThan(1e-4);
    expect(Math.abs(after.lat - centre.lat)).toBeLessThan(1e-4);
    expect(await coveredControls(page)).toEqual([]);
    await page.getByTestId('alarm-popup-expand').click();
    await page.locator('[data-testid=alarm-popup][data-mode=compact]').waitFor();

    // 关闭: the pop-up undocks and the map takes the whole width again.
    await page.getByTestId('alarm-popup-close').click();
    await page.getByTestId('alarm-dock').waitFor({ state: 'detached' });
    await expect.poll(async () => Math.abs((await camera(page)).canvas - b.width), { timeout: 5_000 }).toBeLessThanOrEqual(1);
    await page.close();
  });

  test('with the pop-up docked, a dialog and a right-hand drawer open left of it: nothing covered, every click lands', async () => {
    const { v, t, lng, lat } = await onlineVehicle(4);
    const page = await openMonitor(ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await choose(page, v.vehiidno, lng, lat);
    await raiseOverspeed(t, lng, lat);
    const popup = page.getByTestId('alarm-popup');
    await page.locator(`[data-testid=alarm-popup-title][data-plate="${v.vehiidno}"]`).waitFor({ timeout: 20_000 });
    const alarmId = Number(await popup.getAttribute('data-alarm-id'));

    // A dialog (the vehicle menu's TTS) while the pop-up is docked.
    const b = await mapBox(page);
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2, { button: 'right' });
    await page.locator(`[data-testid=vehicle-menu][data-vehicle-id="${v.vehicleId}"]`).getByTestId('menu-tts').click();
    await page.getByTestId('tts-form').waitFor();
    await page.waitForTimeout(400); // the dialog's transition
    const dock = (await page.getByTestId('alarm-dock').boundingBox())!;
    const dialog = (await page.locator('[role=dialog]').filter({ has: page.getByTestId('tts-form') }).boundingBox())!;
    expect(dialog.x + dialog.width).toBeLessThanOrEqual(dock.x + 1);
    expect(await coveredControls(page)).toEqual([]);
    // The pop-up takes its click beside the dialog (展开), and the dialog stays open and takes its own.
    await page.getByTestId('alarm-popup-expand').click();
    await page.locator('[data-testid=alarm-popup][data-mode=full]').waitFor();
    await page.getByTestId('tts-form').waitFor();
    await page.getByTestId('tts-text').fill('请靠边停车');
    await page.getByTestId('tts-send').click();
    await expect.poll(() => page.getByTestId('tts-result').textContent(), { timeout: 15_000 }).toContain('终端应答');
    expect(t.commands.some((c) => c.message.msgId === 0x8300 && (c.message as { text?: string }).text === '请靠边停车')).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('tts-form').waitFor({ state: 'detached' });

    // A right-hand drawer (新增 user) on another page: it opens against the pop-up's left edge.
    await go(page, '/system/user');
    await page.getByRole('button', { name: '新增', exact: true }).click();
    const form = page.getByTestId('user-form');
    await form.waitFor();
    await page.waitForTimeout(400); // the drawer's slide-in
    await popup.waitFor();
    const drawer = (await page.locator('[role=dialog]').filter({ has: form }).boundingBox())!;
    const dock2 = (await page.getByTestId('alarm-dock').boundingBox())!;
    expect(drawer.x + drawer.width).toBeLessThanOrEqual(dock2.x + 1);
    expect(await coveredControls(page)).toEqual([]);
    // The drawer's 保存 takes an ordinary click (the empty form answers with its own field errors) …
    await page.getByTestId('user-form-submit').click({ timeout: 5_000 });
    await form.locator('[aria-invalid=true]').first().waitFor();
    // … and so does the pop-up's 详情: the alarm as the server holds it, over the drawer.
    await popup.getByTestId('alarm-btn-detail').click({ timeout: 5_000 });
    const detail = page.locator(`[data-testid=popup-detail][data-alarm-id="${alarmId}"]`);
    await detail.waitFor({ timeout: 10_000 });
    expect(await detail.getByTestId('popup-detail-status').textContent()).toBe('未处理');
    // Its close button closes it alone (Escape would close every open Mantine dialog, the drawer too).
    await page.locator('[role=dialog]').filter({ has: detail }).locator('.mantine-Modal-close').click();
    await detail.waitFor({ state: 'detached' });
    await form.waitFor();
    await page.close();
  });
});
