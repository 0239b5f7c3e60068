/**
 * The /largeScreen walls against the real stack: a wall opened with a display key (not a user
 * session) keeps running across a forced end of the user's token and a server restart (reconnects by
 * itself, alarms raised after the restart roll in), a revoked key stops it without a dialog, the
 * eight variants open without the shell, and the layout scales with the viewport without scroll bars.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, freePort, login, realtimeVehicles, routeOf, useE2E, type RealtimeVehicle } from './harness.ts';

// No simulated fleet: its random alarms would race the scripted ones; the gateway port is fixed so
// the terminals find it again after the restart.
const GATEWAY = await freePort();
const e2e = useE2E({ seedVehicles: 20, env: { SIM_VEHICLES: '0', GATEWAY_PORT: String(GATEWAY), MEDIA_PORT: '0' } });

const WALLS = ['overallMonitoring', 'monitoringCenter', 'monitoringCenterNew', 'shellProject', 'monitoringCenterQingHua', 'monitoringCenterZiBo', 'monitoringParkCharge', 'monitoringCenterKaiXin'];
const OVERSPEED_BIT = 1 << 1; // → 12001
const SOS_BIT = 1 << 0; // → 17001
const terminals: TestTerminal[] = [];
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close().catch(() => undefined)));
});

async function adminToken(): Promise<string> {
  return e2e.server.token(ACCOUNTS.admin);
}

async function createKey(name: string): Promise<{ id: number; key: string }> {
  const r = await e2e.server.api<{ id: number; key: string }>('/service-priv/wall/display/create', { method: 'POST', token: await adminToken(), body: { name } });
  expect(r.code).toBe(200);
  return r.data;
}

/** Connects a terminal for the vehicle and reports a position, then one with `bit` set (one new alarm). */
async function raise(v: RealtimeVehicle, bit: number, lng: number): Promise<TestTerminal> {
  const t = await TestTerminal.connect(GATEWAY, v.deviceNo);
  terminals.push(t);
  await t.login();
  const now = Math.floor(Date.now() / 1000) * 1000;
  expect((await t.report(location({ lng, lat: 31.2, time: now - 2000, speed: 40, alarm: 0 }))).result).toBe(0);
  expect((await t.report(location({ lng: lng + 0.0002, lat: 31.2003, time: now - 1000, speed: 95, alarm: bit }))).result).toBe(0);
  return t;
}

async function newestAlarmOf(vehicleId: number): Promise<number> {
  const now = Date.now();
  for (let i = 0; i < 50; i++) {
    const r = await e2e.server.api<{ records: { id: number; vehicleId: number }[] }>('/service-safe/alarmInfo', {
      token: await adminToken(), body: { current: 1, size: 10, startTime: now - 86_400_000, endTime: now + 60_000, vehicleIds: [vehicleId] },
    });
    const id = r.data.records[0]?.id;
    if (id !== undefined) return id;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`no alarm stored for vehicle ${vehicleId}`);
}

async function serverTotal(): Promise<number> {
  const r = await e2e.server.api<{ vehicleTotal: number }>('/service-monitor/screen/V3/realtimestat', { token: await adminToken() });
  return r.data.vehicleTotal;
}

async function dialogs(page: Page): Promise<number> {
  return page.getByRole('dialog').count();
}

describe('walls', () => {
  test('a wall on a display key keeps running across a forced end of the user token and a server restart', async () => {
    const { key } = await createKey('Control room');
    const vehicles = (await realtimeVehicles(e2e.server)).sort((a, b) => a.vehicleId - b.vehicleId);
    const page = await e2e.newPage();
    // The browser also holds an operator's session: the wall must not depend on it.
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(`/largeScreen/monitoringCenter?key=${encodeURIComponent(key)}`));
    await page.getByTestId('wall').waitFor();
    expect(await page.getByTestId('standalone').count()).toBe(1);
    await expect.poll(() => page.getByTestId('wall-figure-total').textContent(), { timeout: 20_000 }).toBe(String(await serverTotal()));
    await page.locator('[data-testid=wall-connection][data-state=open]').waitFor({ timeout: 20_000 });
    // The fleet reaches the map through the stream worker.
    await expect.poll(async () => Number(await page.getByTestId('wall-map').getAttribute('data-frames')), { timeout: 20_000 }).toBeGreaterThan(0);

    // A live alarm rolls in with its plate.
    await raise(vehicles[0]!, OVERSPEED_BIT, 121.5);
    const first = await newestAlarmOf(vehicles[0]!.vehicleId);
    await page.locator(`[data-testid=wall-alarm][data-alarm-id="${first}"]`).getByText(vehicles[0]!.vehiidno, { exact: false }).waitFor({ timeout: 20_000 });

    // Forced token expiry: every session of the signed-in user ends on the server.
    const admin = await adminToken();
    const me = await e2e.server.api<{ user: { id: number } }>('/service-priv/user/current', { token: admin });
    expect((await e2e.server.api('/service-priv/user/revokeSessions', { method: 'POST', token: admin, body: { id: me.data.user.id } })).code).toBe(200);
    expect((await e2e.server.api('/service-priv/user/current', { token: admin })).status).toBe(401);
    await raise(vehicles[1]!, SOS_BIT, 121.6);
    const second = await newestAlarmOf(vehicles[1]!.vehicleId);
    await page.locator(`[data-testid=wall-alarm][data-alarm-id="${second}"]`).waitFor({ timeout: 20_000 });
    expect(routeOf(page.url())).toBe('/largeScreen/monitoringCenter');

    // Server restart: the wall loses its stream, reconnects alone, and the next alarm rolls in.
    await Promise.all(terminals.splice(0).map((t) => t.close().catch(() => undefined)));
    await e2e.server.restart();
    await page.locator('[data-testid=wall-connection][data-state=open]').waitFor({ timeout: 40_000 });
    await raise(vehicles[2]!, OVERSPEED_BIT, 121.7);
    const third = await newestAlarmOf(vehicles[2]!.vehicleId);
    await page.locator(`[data-testid=wall-alarm][data-alarm-id="${third}"]`).waitFor({ timeout: 30_000 });
    // Figures keep refreshing after the restart: online now counts the terminal that reported.
    const online = await e2e.server.api<{ vehicleOnline: number }>('/service-monitor/screen/V3/realtimestat', { token: await adminToken() });
    await expect.poll(() => page.getByTestId('wall-figure-online').textContent(), { timeout: 20_000 }).toBe(String(online.data.vehicleOnline));
    expect(routeOf(page.url())).toBe('/largeScreen/monitoringCenter');
    expect(await dialogs(page)).toBe(0);
    expect(await page.getByTestId('wall-alarm').count()).toBeGreaterThanOrEqual(3);
  }, 180_000);

  test('a revoked display key stops a running wall at once with a full-screen notice, no dialog and no login page', async () => {
    const { id, key } = await createKey('To revoke');
    const page = await e2e.newPage();
    await page.goto(consolePath(`/largeScreen/overallMonitoring?key=${encodeURIComponent(key)}`));
    await page.getByTestId('wall').waitFor();
    await page.locator('[data-testid=wall-connection][data-state=open]').waitFor({ timeout: 20_000 });
    const r = await e2e.server.api('/service-priv/wall/display/revoke', { method: 'POST', token: await adminToken(), body: { id } });
    expect(r.code).toBe(200);
    // No reload: the server ends the wall's stream (4001) and the wall says so at once.
    await page.getByTestId('wall-refused').getByText('此显示凭据已被吊销或无效').waitFor({ timeout: 15_000 });
    expect(routeOf(page.url())).toBe('/largeScreen/overallMonitoring');
    expect(await dialogs(page)).toBe(0);
  });

  test('each of the eight walls opens without the shell; the parking and Shell walls name their missing sources', async () => {
    const { key } = await createKey('Tour');
    const page = await e2e.newPage();
    for (const wall of WALLS) {
      await page.goto(consolePath(`/largeScreen/${wall}?key=${encodeURIComponent(key)}`));
      await page.locator(`[data-testid=wall][data-wall=${wall}]`).waitFor();
      expect(await page.getByTestId('wall-panel-map').count()).toBe(1);
      expect(await page.getByTestId('side-nav').count()).toBe(0);
    }
    await page.goto(consolePath(`/largeScreen/monitoringParkCharge?key=${encodeURIComponent(key)}`));
    await page.locator('[data-testid=wall-missing-source][data-source=parkingRevenue]').getByText('service-ps').waitFor();
    await page.goto(consolePath(`/largeScreen/shellProject?key=${encodeURIComponent(key)}`));
    await page.locator('[data-testid=wall-missing-source][data-source=shellFuel]').waitFor();
  });

  test('the layout scales with the viewport from 1920×1080 to 7680×2160 without scroll bars', async () => {
    const { key } = await createKey('Sizes');
    const page = await e2e.newPage();
    const sizes: Record<string, number> = {};
    for (const [width, height] of [[1920, 1080], [3840, 2160], [7680, 2160]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(consolePath(`/largeScreen/overallMonitoring?key=${encodeURIComponent(key)}`));
      await page.getByTestId('wall-title').waitFor();
      const m = await page.evaluate(() => {
        const doc = document.documentElement;
        const title = document.querySelector('[data-testid=wall-title]')!;
        const panels = [...document.querySelectorAll('[data-testid^=wall-panel-]')].map((p) => p.getBoundingClientRect());
        return {
          scrollX: doc.scrollWidth - doc.clientWidth, scrollY: doc.scrollHeight - doc.clientHeight,
          titlePx: parseFloat(getComputedStyle(title).fontSize),
          outside: panels.filter((r) => r.right > innerWidth + 1 || r.bottom > innerHeight + 1 || r.width < 50).length,
        };
      });
      expect([width, m.scrollX, m.scrollY, m.outside]).toEqual([width, 0, 0, 0]);
      sizes[`${width}x${height}`] = m.titlePx;
    }
    // One type scale: twice the height, twice the type; a wider wall of the same height keeps it.
    expect(sizes['3840x2160']! / sizes['1920x1080']!).toBeCloseTo(2, 1);
    expect(sizes['7680x2160']).toBeCloseTo(sizes['3840x2160']!, 1);
  });

  test('wall setup: an administrator makes a key (shown once, with each wall’s address) and revokes it', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/largeScreen/wallSetup'));
    await page.getByTestId('display-create').click();
    await page.getByTestId('display-form').getByLabel('名称').fill('Lobby');
    await page.getByTestId('display-form-submit').click();
    const address = await page.getByTestId('wall-address-monitoringCenter').textContent();
    expect(address).toMatch(/\/bcmp-web\/largeScreen\/monitoringCenter\?key=wd\.\d+\./);
    const wall = await e2e.newPage();
    await wall.goto(address!.replace(/^https?:\/\/[^/]+/, ''));
    await wall.getByTestId('wall').waitFor();
    await page.getByTestId('display-revoke').first().click();
    await page.getByTestId('confirm-ok').click();
    await page.getByText('已吊销（admin）').first().waitFor();
    await wall.reload();
    await wall.getByTestId('wall-refused').waitFor();
  });

  test('wall setup: an overlapping layout is refused with the reason; a new title reaches the wall without a build', async () => {
    const { key } = await createKey('Layout');
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/largeScreen/wallSetup'));
    await page.getByRole('tab', { name: '大屏布局' }).click();
    await page.getByTestId('preset-monitoringCenterZiBo').getByTestId('preset-edit').click();
    const json = page.getByTestId('preset-json');
    const preset = JSON.parse(await json.inputValue()) as { title: { zh: string; en: string }; panels: { kind: string; x: number; y: number; w: number; h: number }[] };
    await json.fill(JSON.stringify({ ...preset, panels: [...preset.panels, { kind: 'onlineRate', x: 0, y: 0, w: 2, h: 2 }] }));
    await page.getByTestId('preset-save').click();
    await page.getByTestId('preset-problem').getByText('第 7 个面板与第 1 个面板重叠').waitFor();
    await json.fill(JSON.stringify({ ...preset, title: { zh: '淄博调度大厅', en: 'Zibo dispatch hall' } }));
    await page.getByTestId('preset-save').click();
    await page.getByTestId('preset-monitoringCenterZiBo').getByText('自定义').waitFor();
    const wall = await e2e.newPage();
    await wall.goto(consolePath(`/largeScreen/monitoringCenterZiBo?key=${encodeURIComponent(key)}`));
    await wall.getByTestId('wall-title').getByText('淄博调度大厅').waitFor();
  });
});
