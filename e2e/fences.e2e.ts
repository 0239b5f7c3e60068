/**
 * The fence scene of issue 17 against the real stack.
 *
 * The "done when" walk, one test: an operator on /monitor/shape_map draws a rectangle around a
 * vehicle's position with the mouse (terra-draw on the map), saves it bound to that vehicle, sends it
 * (下发: the vehicle's scripted terminal answers 0x8602 with 0x0001 and the task shows 成功), then the
 * terminal reports a position inside and one outside the fence, the platform's fence evaluation raises
 * 离开区域报警 (13006) in the alarm pop-up, and the operator opens that terminal's communication log
 * (/monitor/deviceLog) and finds the platform's 0x8602 set-area frame (down) carrying the fence, the
 * terminal's 0x0001 answer to it (up) and the 0x0200 position report outside the fence that raised the
 * alarm (up). The screen's layout at 1280×720 covers no control.
 *
 * The drawing paths: a circle and a polygon drawn by mouse are stored as drawn; a vertex of the
 * polygon dragged on the map (编辑图形 → 保存图形) is stored where the cursor released it (within 3 px) while
 * the map holds still under the drag; the rule edited in the
 * form (修改) is stored; 删除 after the confirmation removes the fence.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, useE2E, vehiclesById } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

// No simulated fleet: its random alarms would race the scripted one.
const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const terminals: TestTerminal[] = [];
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

/** Where the scripted vehicle stands: near the map's first view (China at zoom 4.1), so it is on screen at 1280×720. */
const HOME = { lng: 104.3, lat: 35.8 };
const FIRST_PAINT_MS = 30_000;

/** Screen pixel of a WGS-84 position on the bundled (WGS-84, Web Mercator, 512-px tiles) basemap, from the map's reported camera. */
async function pixelOf(page: Page, lng: number, lat: number): Promise<{ x: number; y: number }> {
  const map = page.getByTestId('map-view');
  const [center, zoom, box] = await Promise.all([map.getAttribute('data-center'), map.getAttribute('data-zoom'), map.boundingBox()]);
  if (!center || !zoom || !box) throw new Error('the map reported no camera');
  const [clng, clat] = center.split(',').map(Number) as [number, number];
  const world = 512 * 2 ** Number(zoom);
  const mx = (l: number) => ((l + 180) / 360) * world;
  const my = (p: number) => ((1 - Math.log(Math.tan(Math.PI / 4 + (p * Math.PI) / 360)) / Math.PI) / 2) * world;
  return { x: box.x + box.width / 2 + mx(lng) - mx(clng), y: box.y + box.height / 2 + my(lat) - my(clat) };
}

/** The WGS-84 position under a screen pixel (the inverse of `pixelOf`). */
async function lngLatOf(page: Page, x: number, y: number): Promise<{ lng: number; lat: number }> {
  const map = page.getByTestId('map-view');
  const [center, zoom, box] = await Promise.all([map.getAttribute('data-center'), map.getAttribute('data-zoom'), map.boundingBox()]);
  if (!center || !zoom || !box) throw new Error('the map reported no camera');
  const [clng, clat] = center.split(',').map(Number) as [number, number];
  const world = 512 * 2 ** Number(zoom);
  const cx = ((clng + 180) / 360) * world;
  const cy = ((1 - Math.log(Math.tan(Math.PI / 4 + (clat * Math.PI) / 360)) / Math.PI) / 2) * world;
  const mx = cx + x - (box.x + box.width / 2), my = cy + y - (box.y + box.height / 2);
  return { lng: (mx / world) * 360 - 180, lat: (Math.atan(Math.sinh(Math.PI * (1 - (2 * my) / world))) * 180) / Math.PI };
}

/** The map's camera as the page reports it (after each camera stop). */
async function cameraOf(page: Page): Promise<string> {
  const map = page.getByTestId('map-view');
  return `${await map.getAttribute('data-center')}@${await map.getAttribute('data-zoom')}`;
}

describe('fences', () => {
  test('draw a fence round a vehicle, bind and send it, and its terminal leaving it pops the fence alarm up', async () => {
    const vehicle = (await vehiclesById(e2e.server))[0]!;
    const terminal = await TestTerminal.connect(gatewayPort(e2e.server), vehicle.deviceNo);
    terminals.push(terminal);
    await terminal.login();
    const now = () => Math.floor(Date.now() / 1000) * 1000;
    await terminal.report(location({ lng: HOME.lng, lat: HOME.lat, time: now() - 5000, speed: 20, alarm: 0 }));
    // Leaving an area is a low-risk type that only counts by default; this company has it pop up (alarm linkage page).
    const token = await e2e.server.token(ACCOUNTS.admin);
    const linkage = await e2e.server.api('/service-safe/companysetting/doCompanyAlarmSettingLinkage', { method: 'POST', token, body: { alarmTypes: [13006], popup: true } });
    expect(linkage.status).toBe(200);

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/shape_map'));
    await page.locator('[data-testid=map-view][data-zoom]').waitFor({ timeout: FIRST_PAINT_MS });
    await page.getByTestId('fence-list').waitFor();
    await page.locator('[data-fence-draw=ready]').waitFor({ timeout: FIRST_PAINT_MS });

    // Draw a rectangle by mouse: two clicks 30 px either side of the vehicle (about 1.2° at zoom 4.1).
    await page.getByTestId('fence-draw-rect').click();
    const at = await pixelOf(page, HOME.lng, HOME.lat);
    await page.mouse.move(at.x - 30, at.y - 30);
    await page.mouse.click(at.x - 30, at.y - 30);
    await page.mouse.move(at.x + 30, at.y + 30, { steps: 8 });
    await page.mouse.click(at.x + 30, at.y + 30);

    // The form opens with the drawn rectangle; name it and bind the vehicle.
    const form = page.getByTestId('fence-form');
    await form.waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('fence-geometry').textContent()).toMatch(/^矩形 \d+ × \d+ 米$/);
    await page.getByTestId('fence-name').fill('仓库围栏');
    await page.getByTestId('fence-add-vehicle').fill(vehicle.vehiidno);
    await page.getByRole('option', { name: vehicle.vehiidno }).click();
    await expect.poll(() => page.getByTestId('fence-bound-vehicles').textContent()).toContain(vehicle.vehiidno);
    await page.getByTestId('fence-form-submit').click();
    await form.waitFor({ state: 'detached', timeout: 15_000 });

    // The saved fence is listed and selected, bound to one vehicle, and the stored shape holds the vehicle.
    const row = page.locator('[data-testid=fence-row][data-selected=true]');
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('仓库围栏');
    expect(await row.textContent()).toContain('1 辆车');
    const fenceId = Number(await row.getAttribute('data-fence-id'));
    const stored = await e2e.server.api<{ geometry: { shape: string; sw: [number, number]; ne: [number, number] } }>(`/service-monitor/fence?id=${fenceId}`, { token });
    const g = stored.data!.geometry;
    expect(g.shape).toBe('rect');
    expect(g.sw[0]).toBeLessThan(HOME.lng);
    expect(g.ne[0]).toBeGreaterThan(HOME.lng);
    expect(g.sw[1]).toBeLessThan(HOME.lat);
    expect(g.ne[1]).toBeGreaterThan(HOME.lat);
    expect(g.ne[0] - g.sw[0]).toBeLessThan(5);

    // 下发: the terminal receives 0x8602 and answers 0x0001; the task shows 成功 for the vehicle.
    await page.getByTestId('fence-send').click();
    await expect.poll(() => page.getByTestId(`fence-task-state-${vehicle.vehicleId}`).getAttribute('data-state'), { timeout: 20_000 }).toBe('ok');
    expect(await page.getByTestId(`fence-task-state-${vehicle.vehicleId}`).textContent()).toBe('成功');
    expect(terminal.commands.some((c) => c.message.msgId === 0x8602)).toBe(true);

    await expectCleanLayout(page, 'fences');

    // Inside, then well outside: the platform raises 离开区域报警 and the pop-up shows it.
    await terminal.report(location({ lng: HOME.lng, lat: HOME.lat, time: now() - 2000, speed: 30, alarm: 0 }));
    await terminal.report(location({ lng: HOME.lng + 4, lat: HOME.lat, time: now() - 1000, speed: 30, alarm: 0 }));
    const title = page.locator(`[data-testid=alarm-popup-title][data-plate="${vehicle.vehiidno}"]`);
    await title.waitFor({ timeout: FIRST_PAINT_MS });
    expect(await title.getAttribute('data-alarm-type')).toBe('13006');
    expect(await title.textContent()).toContain('离开区域报警');
    await expectCleanLayout(page, 'fences with the alarm pop-up');

    // The terminal's communication log: the set-area frame the platform sent, the terminal's answer to it,
    // and the position report outside the fence that raised the alarm.
    await page.goto(consolePath('/monitor/deviceLog'));
    await page.getByTestId('commlog-vehicle').fill(vehicle.vehiidno);
    await page.getByRole('option', { name: vehicle.vehiidno }).click();
    const rowOf = (msgId: string) => page.locator(`[data-testid="commlog-row"][data-msgid="${msgId}"]`);
    // The log is written about once a second by its writer thread: search until the last report is in.
    await expect.poll(async () => {
      await page.getByTestId('commlog-search').click();
      await page.waitForTimeout(500);
      return (await rowOf('0x0200').count()) >= 3 && (await rowOf('0x8602').count()) >= 1;
    }, { timeout: 30_000, interval: 1500 }).toBe(true);
    const open = page.getByTestId('commlog-open');
    let shown = '';
    /** Opens a row's frame: its hex and decoding once the panel shows that frame (not the one opened before). */
    const decodedOf = async (row: ReturnType<typeof rowOf>, msgId: string) => {
      await row.getByTestId('commlog-detail').click();
      await expect.poll(async () => (await open.getAttribute('data-msgid')) === msgId && (await open.getByTestId('commlog-hex').textContent()) !== shown).toBe(true);
      shown = (await open.getByTestId('commlog-hex').textContent())!;
      return { hex: shown, decoded: JSON.parse((await open.getByTestId('commlog-decoded').textContent())!) as { body: Record<string, unknown> } };
    };
    // 1. The platform's set-rectangle frame (0x8602, down) carrying this fence.
    const set = rowOf('0x8602').first();
    expect(await set.getAttribute('data-direction')).toBe('down');
    const setFrame = await decodedOf(set, '0x8602');
    expect(setFrame.hex).toMatch(/^7e 86 02 /);
    expect((setFrame.decoded.body['areas'] as { id: number }[]).map((a) => a.id)).toEqual([fenceId]);
    // 2. The terminal's general answer to it (0x0001, up): replyId 0x8602, result 0.
    const answers = rowOf('0x0001');
    let answered = false;
    for (let i = 0; i < (await answers.count()) && !answered; i++) {
      const a = await decodedOf(answers.nth(i), '0x0001');
      answered = a.decoded.body['replyId'] === 0x8602 && a.decoded.body['result'] === 0;
    }
    expect(answered).toBe(true);
    // 3. The position report outside the fence that raised 13006 (0x0200, up), 4° east of the vehicle's home.
    const reports = rowOf('0x0200');
    let outsideFound = false;
    for (let i = 0; i < (await reports.count()) && !outsideFound; i++) {
      const r = await decodedOf(reports.nth(i), '0x0200');
      outsideFound = Math.abs((r.decoded.body['lng'] as number) - (HOME.lng + 4)) < 1e-6;
      if (outsideFound) expect(await reports.nth(i).getAttribute('data-direction')).toBe('up');
    }
    expect(outsideFound).toBe(true);
  });

  test('draw a circle and a polygon by mouse, drag a vertex of the polygon, edit its rule, delete it', async () => {
    const token = await e2e.server.token(ACCOUNTS.admin);
    type Stored = { id: number; name: string; geometry: { shape: string; center?: [number, number]; radius?: number; points?: [number, number][] }; rule: { forbidIn: boolean; maxSpeed: number | null } };
    const stored = async (id: number) => (await e2e.server.api<Stored>(`/service-monitor/fence?id=${id}`, { token })).data!;
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/shape_map'));
    await page.locator('[data-testid=map-view][data-zoom]').waitFor({ timeout: FIRST_PAINT_MS });
    await page.getByTestId('fence-list').waitFor();
    await page.locator('[data-fence-draw=ready]').waitFor({ timeout: FIRST_PAINT_MS });
    const form = page.getByTestId('fence-form');
    const save = async (name: string): Promise<number> => {
      await form.waitFor({ timeout: 10_000 });
      await page.getByTestId('fence-name').fill(name);
      await page.getByTestId('fence-form-submit').click();
      await form.waitFor({ state: 'detached', timeout: 15_000 });
      const row = page.locator('[data-testid=fence-row][data-selected=true]');
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain(name);
      return Number(await row.getAttribute('data-fence-id'));
    };
    /**
     * Waits for the camera to stop moving (a save fits the map to the fence): no move in flight (the fence map's
     * data-camera) and the same reported camera twice in a row.
     */
    const settled = async () => {
      let last = '';
      await expect.poll(async () => {
        const now = await cameraOf(page);
        const same = now === last && (await page.locator('[data-fence-draw=ready][data-camera=moving]').count()) === 0;
        last = now;
        return same;
      }, { timeout: 15_000, interval: 400 }).toBe(true);
    };

    // A circle: its centre clicked 9° west of HOME, then its edge 15 px east (≈ 55 km at zoom 4.1).
    const west = { lng: HOME.lng - 9, lat: HOME.lat };
    await page.getByTestId('fence-draw-circle').click();
    const c = await pixelOf(page, west.lng, west.lat);
    await page.mouse.move(c.x, c.y);
    await page.mouse.click(c.x, c.y);
    await page.mouse.move(c.x + 15, c.y, { steps: 6 });
    await page.mouse.click(c.x + 15, c.y);
    await form.waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('fence-geometry').textContent()).toMatch(/^圆心 .*，半径 \d+ 米$/);
    const circleId = await save('圆形围栏');
    const circle = (await stored(circleId)).geometry;
    expect(circle.shape).toBe('circle');
    expect(Math.abs(circle.center![0] - west.lng)).toBeLessThan(0.2);
    expect(Math.abs(circle.center![1] - west.lat)).toBeLessThan(0.2);
    expect(circle.radius!).toBeGreaterThan(30_000);
    expect(circle.radius!).toBeLessThan(80_000);
    await settled();

    // A polygon: four clicks round the middle of the map (now fitted to the circle), closed on its first vertex.
    await page.getByTestId('fence-draw-polygon').click();
    const box = (await page.getByTestId('map-view').boundingBox())!;
    const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 + 20 };
    const corners = [[-80, -50], [80, -50], [100, 50], [-80, 50]].map(([dx, dy]) => ({ x: mid.x + dx!, y: mid.y + dy! }));
    const clicked = await Promise.all(corners.map((p) => lngLatOf(page, p.x, p.y)));
    for (const p of [...corners, corners[0]!]) {
      await page.mouse.move(p.x, p.y, { steps: 6 });
      await page.mouse.click(p.x, p.y);
    }
    await form.waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('fence-geometry').textContent()).toMatch(/^多边形 4/);
    const polygonId = await save('多边形围栏');
    const before = (await stored(polygonId)).geometry;
    expect(before.shape).toBe('polygon');
    expect(before.points).toHaveLength(4);
    // Stored where it was clicked, within 16 px (a GCJ-02 basemap would shift it by ~500 m), in either winding.
    const px = Math.abs(clicked[1]!.lng - clicked[0]!.lng) / 160; // degrees of longitude per pixel
    const offByPx = clicked.map((c) => Math.min(...before.points!.map(([lng, lat]) => Math.max(Math.abs(lng - c.lng), Math.abs(lat - c.lat)))) / px);
    expect(Math.max(...offByPx), `clicked ${JSON.stringify(clicked)}, stored ${JSON.stringify(before.points)}`).toBeLessThan(16);
    await settled();

    // 编辑图形: drag the vertex furthest east 40 px further east, then 保存图形.
    await page.getByTestId('fence-edit-shape').click();
    await page.getByTestId('fence-save-shape').waitFor();
    await settled();
    const k = before.points!.reduce((best, p, i, all) => (p[0] > all[best]![0] ? i : best), 0);
    const v = await pixelOf(page, before.points![k]![0], before.points![k]![1]);
    // Where the release point lies on the map as it stands before the drag, and its scale (degrees per pixel).
    const camera = await cameraOf(page);
    const release = await lngLatOf(page, v.x + 40, v.y);
    const origin = await lngLatOf(page, v.x, v.y);
    const corner = await lngLatOf(page, v.x + 100, v.y + 100);
    const perPx = { lng: (corner.lng - origin.lng) / 100, lat: (corner.lat - origin.lat) / 100 };
    await page.mouse.move(v.x, v.y, { steps: 4 });
    await page.mouse.down();
    await page.mouse.move(v.x + 40, v.y, { steps: 20 });
    // terra-draw skips every 5th drag event: the release point is sent more than once so that one lands.
    for (const dx of [41, 40, 40]) await page.mouse.move(v.x + dx, v.y);
    await page.mouse.up();
    await page.getByTestId('fence-save-shape').click();
    await page.getByTestId('fence-save-shape').waitFor({ state: 'detached', timeout: 15_000 });
    const near = (p: [number, number], q: [number, number], d: number) => Math.abs(p[0] - q[0]) < d && Math.abs(p[1] - q[1]) < d;
    // The other three vertices stay put; the fourth is the dragged one.
    await expect.poll(async () => (await stored(polygonId)).geometry.points!.filter((p) => !before.points!.some((q) => near(p, q, 1e-7))).length, { timeout: 10_000 }).toBe(1);
    const after = (await stored(polygonId)).geometry.points!;
    expect(after).toHaveLength(4);
    expect(before.points!.filter((q) => after.some((p) => near(p, q, 1e-7)))).toHaveLength(3);
    const dragged = after.find((p) => !before.points!.some((q) => near(p, q, 1e-7)))!;
    // It is stored where the cursor let it go on the map as it stood: within 3 px (the camera read from the page's
    // rounded data-center/data-zoom is good to about 1 px here). Before the fix the map panned ~30 px along with
    // the drag (maplibre's pan starts at mousedown; terra-draw stopped it only at its first pointermove, which a
    // busy page delivers coalesced), so the vertex moved only ~10 px on the map.
    const off = { x: (dragged[0] - release.lng) / perPx.lng, y: (dragged[1] - release.lat) / perPx.lat };
    expect(Math.hypot(off.x, off.y), `released at ${JSON.stringify(release)}, stored ${JSON.stringify(dragged)}, off by ${JSON.stringify(off)} px`).toBeLessThan(3);
    // And the map held still under the drag.
    expect(await cameraOf(page)).toBe(camera);

    // 修改: the rule becomes a forbidden area with a 50 km/h limit.
    await page.getByTestId('fence-edit').click();
    await form.waitFor({ timeout: 10_000 });
    await page.getByTestId('fence-rule-forbidIn').check();
    await page.getByTestId('fence-max-speed').fill('50');
    await page.getByTestId('fence-form-submit').click();
    await form.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(async () => (await stored(polygonId)).rule, { timeout: 10_000 }).toMatchObject({ forbidIn: true, maxSpeed: 50 });
    expect((await stored(polygonId)).geometry.points).toEqual(after); // the shape as saved
    await expect.poll(() => page.locator(`[data-testid=fence-row][data-fence-id="${polygonId}"]`).textContent()).toContain('50');

    // 删除, confirmed: gone from the list and from the server.
    await page.getByTestId('fence-selected').getByRole('button', { name: '删除' }).click();
    await page.getByTestId('confirm-ok').click();
    await page.locator(`[data-testid=fence-row][data-fence-id="${polygonId}"]`).waitFor({ state: 'detached', timeout: 15_000 });
    expect((await e2e.server.api(`/service-monitor/fence?id=${polygonId}`, { token })).status).toBe(404);
    expect((await stored(circleId)).name).toBe('圆形围栏'); // the other one stays
  });
});
