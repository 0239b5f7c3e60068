/**
 * The route scene of issue 17 against the real stack: an operator on /monitor/route_map plans a route by
 * clicking three turning points on the map around a vehicle's position, binds the vehicle, saves, and
 * sends it (下发: the vehicle's scripted terminal answers 0x8606 with 0x0001 and the task shows 成功); the
 * terminal then reports a position on the route and one far off it, and the platform's route evaluation
 * raises 平台路线偏离报警 (13010) in the alarm pop-up; the vehicle's row shows 偏离路线.
 * The route's newer fields are set in the screen too — a daily time window round the present, a day and a
 * night speed limit on the first section, the middle turning point a key point with its arrival window —
 * and the terminal (a 2019 one: the night limit is a 2019 field) decodes them from the 0x8606 it
 * receives.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import type { SetRoute } from '../server/gateway/jt808/routes.ts';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, useE2E, vehiclesById } from './harness.ts';

// No simulated fleet: its random alarms would race the scripted one.
const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const terminals: TestTerminal[] = [];
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

const HOME = { lng: 104.3, lat: 35.8 };
const FIRST_PAINT_MS = 30_000;

/** Screen pixel of a WGS-84 position on the bundled basemap, from the map's reported camera (as e2e/fences.e2e.ts). */
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

/** 'HH:mm' in China time (the route's windows are China time) of an epoch ms. */
function chinaHhmm(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

describe('route planning', () => {
  test('plan a route by clicking the map, bind and send it, and its terminal leaving the corridor pops the deviation alarm up', async () => {
    const vehicle = (await vehiclesById(e2e.server))[0]!;
    const terminal = await TestTerminal.connect(gatewayPort(e2e.server), vehicle.deviceNo, 2019);
    terminals.push(terminal);
    await terminal.login();
    const now = () => Math.floor(Date.now() / 1000) * 1000;
    const token = await e2e.server.token(ACCOUNTS.admin);
    expect((await e2e.server.api('/service-safe/companysetting/doCompanyAlarmSettingLinkage', { method: 'POST', token, body: { alarmTypes: [13010], popup: true } })).status).toBe(200);

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/route_map'));
    await page.locator('[data-testid=map-view][data-zoom]').waitFor({ timeout: FIRST_PAINT_MS });
    await page.getByTestId('route-list').waitFor();

    await page.getByTestId('route-add').click();
    await page.getByTestId('route-planner').waitFor();
    // Three turning points: west of the vehicle, on it, north-east of it.
    const at = await pixelOf(page, HOME.lng, HOME.lat);
    for (const [dx, dy] of [[-40, 0], [0, 0], [30, -30]] as const) {
      await page.mouse.click(at.x + dx, at.y + dy);
    }
    await expect.poll(() => page.getByTestId('route-point-row').count()).toBe(3);
    expect(await page.getByTestId('route-section-row').count()).toBe(2);
    await page.getByTestId('route-name').fill('兰州渣土线');
    await page.getByLabel('偏离判定时长（秒）').fill('0');
    // The daily window holds the present (so the deviation below is judged); the key point's window does
    // not (no 13011 pop-up races the deviation's).
    const daily = { startTime: chinaHhmm(Date.now() - 3600_000), endTime: chinaHhmm(Date.now() + 3 * 3600_000) };
    const keyWindow = { arriveFrom: chinaHhmm(Date.now() + 4 * 3600_000), arriveBy: chinaHhmm(Date.now() + 5 * 3600_000) };
    await page.getByTestId('route-start-time').fill(daily.startTime);
    await page.getByTestId('route-end-time').fill(daily.endTime);
    await page.getByTestId('route-max-speed-0').fill('80');
    await page.getByTestId('route-night-0').fill('40');
    await page.getByTestId('route-key-1').check();
    await page.getByTestId('route-key-from-1').fill(keyWindow.arriveFrom);
    await page.getByTestId('route-key-by-1').fill(keyWindow.arriveBy);
    await page.getByTestId('route-add-vehicle').fill(vehicle.vehiidno);
    await page.getByRole('option', { name: vehicle.vehiidno }).click();
    await page.getByTestId('route-save').click();
    await page.getByTestId('route-planner').waitFor({ state: 'detached', timeout: 15_000 });

    const row = page.locator('[data-testid=route-row][data-selected=true]');
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('兰州渣土线');
    expect(await row.textContent()).toContain('3 个拐点');
    const routeId = Number(await row.getAttribute('data-route-id'));
    type Stored = { points: [number, number][]; deviationSeconds: number; startTime: string | null; endTime: string | null; sections: { maxSpeed: number | null; nightMaxSpeed: number | null }[]; keyPoints: unknown[] };
    const stored = await e2e.server.api<Stored>(`/service-monitor/route-plan?id=${routeId}`, { token });
    expect(stored.data!.points).toHaveLength(3);
    expect(stored.data!.deviationSeconds).toBe(0);
    expect(stored.data!).toMatchObject({ ...daily, keyPoints: [{ point: 1, ...keyWindow }] });
    expect(stored.data!.sections.map((s) => [s.maxSpeed, s.nightMaxSpeed])).toEqual([[80, 40], [null, null]]);
    const [, middle] = stored.data!.points;
    expect(Math.abs(middle![0] - HOME.lng)).toBeLessThan(0.5);
    expect(Math.abs(middle![1] - HOME.lat)).toBeLessThan(0.5);

    // 下发: the terminal receives 0x8606 and answers 0x0001.
    await page.getByTestId('route-send').click();
    await page.getByTestId('route-task-ok').waitFor({ timeout: 20_000 });
    // What the terminal decoded from the 0x8606 bytes: by time (attribute bit 0) every day in the window,
    // section 1 limited to 80 km/h by day and 40 at night; the key point is the platform's own (not sent).
    const set = terminal.commands.find((c) => c.message.msgId === 0x8606)?.message as SetRoute | undefined;
    expect(set).toBeDefined();
    expect(set!.attribute & 1).toBe(1);
    expect([set!.startTime, set!.endTime]).toEqual([daily.startTime, daily.endTime].map((t) => `000000${t.replace(':', '')}00`));
    expect(set!.points.map((p) => [p.maxSpeed, p.nightMaxSpeed])).toEqual([[80, 40], [null, null], [null, null]]);
    await expect.poll(() => page.getByTestId(`route-send-state-${vehicle.vehicleId}`).getAttribute('data-state'), { timeout: 20_000 }).toBe('ok');

    // On the middle turning point, then far off the corridor: 平台路线偏离报警 pops up.
    await terminal.report(location({ lng: middle![0], lat: middle![1], time: now() - 2000, speed: 30, alarm: 0 }));
    await terminal.report(location({ lng: middle![0], lat: middle![1] - 2, time: now() - 1000, speed: 30, alarm: 0 }));
    const title = page.locator(`[data-testid=alarm-popup-title][data-plate="${vehicle.vehiidno}"]`);
    await title.waitFor({ timeout: FIRST_PAINT_MS });
    expect(await title.getAttribute('data-alarm-type')).toBe('13010');
    expect(await title.textContent()).toContain('平台路线偏离报警');
  });
});
