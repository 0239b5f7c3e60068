/**
 * The cargo box scene of issue 17 against the real stack: a vehicle made a slag truck (type muck) has a
 * scripted terminal; while an operator has /monitor/boxStatus open, the terminal reports its box loaded
 * with the cover open while driving (0x0200 item 0xE1). The platform raises 未密闭运输报警 (70001) in the
 * alarm pop-up, the truck's row shows 重车 / 未密闭 without a reload (the list refreshes every 30 s), and its day of states (状态历史) has the unsealed span;
 * a disposal site added on the screen (消纳场) is stored, and so is a transport permit (准运证) registered
 * for the truck.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { BOX_ITEM_ID, encodeBoxItem, type BoxState } from '../domain/box/status.ts';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, useE2E, vehiclesById } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

// No simulated fleet: its alarms would race the scripted one.
const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const terminals: TestTerminal[] = [];
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

const box = (s: Partial<BoxState>) => [{ id: BOX_ITEM_ID, data: encodeBoxItem({ lifted: false, sealed: true, loaded: false, loadT: null, ...s }) }];

describe('cargo box status', () => {
  test('a slag truck driving loaded with the cover open shows 重车 / 未密闭 and pops up 未密闭运输报警', async () => {
    const vehicle = (await vehiclesById(e2e.server))[0]!;
    const token = await e2e.server.token(ACCOUNTS.admin);
    const updated = await e2e.server.api('/service-priv/vehicle', { method: 'PUT', token, body: { id: vehicle.vehicleId, vehicleType: 'muck' } });
    expect(updated.code).toBe(200);

    const terminal = await TestTerminal.connect(gatewayPort(e2e.server), vehicle.deviceNo);
    terminals.push(terminal);
    await terminal.login();
    const now = () => Math.floor(Date.now() / 1000) * 1000;
    // Empty, cover closed, standing at the site.
    await terminal.report(location({ lng: 121.47, lat: 31.23, time: now() - 60_000, speed: 0, extras: box({}) }));

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/boxStatus'));
    const row = page.locator('tr', { hasText: vehicle.vehiidno });
    await expect.poll(() => row.getByTestId('box-loaded').textContent(), { timeout: 30_000 }).toBe('空车');
    expect(await row.getByTestId('box-sealed').textContent()).toBe('密闭');
    await expectCleanLayout(page, 'box status');

    // Loaded (18 t), cover open, driving at 35 km/h.
    await terminal.report(location({ lng: 121.48, lat: 31.23, time: now() - 1000, speed: 35, extras: box({ loaded: true, sealed: false, loadT: 18 }) }));
    // Inside the rush-hour windows (07–09, 17–19 China time) the same report also raises 非准运时段运输报警
    // (70008), which may arrive second and become the pop-up's newest: look for 70001 among the title and
    // the rows under it, not only in the title.
    const popupLines = page.getByTestId('alarm-popup').locator('[data-testid=alarm-popup-title], [data-testid=alarm-popup-more]');
    await expect.poll(() => popupLines.allTextContents(), { timeout: 30_000 })
      .toContainEqual(expect.stringContaining(`${vehicle.vehiidno} · 未密闭运输报警`));

    // No reload: the list asks the server again by itself every 30 s (BOX_REFRESH_MS), on the same page.
    await expect.poll(() => row.getByTestId('box-loaded').textContent(), { timeout: 45_000, interval: 1000 }).toBe('重车 · 18 吨');
    expect(await row.getByTestId('box-sealed').textContent()).toBe('未密闭');
    expect(await row.getByTestId('box-lifted').textContent()).toBe('平放');

    // The day's states: empty, then loaded with the cover open until now.
    await row.getByTestId('box-history').click();
    const drawer = page.getByTestId('box-history-drawer');
    await drawer.waitFor();
    await expect.poll(() => page.locator('[data-testid=box-timeline] [data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))), { timeout: 15_000 })
      .toEqual(expect.arrayContaining(['empty', 'unsealed']));
    expect(await page.getByTestId('box-history-changes').textContent()).toContain('重车未密闭');
    await expectCleanLayout(page, 'box status history');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // 消纳场: an approved site added on the screen is stored for the company and listed.
    await page.getByTestId('box-sites-open').click();
    await page.getByTestId('box-sites').waitFor();
    await page.getByTestId('box-site-name').fill('江湾消纳场');
    await page.getByTestId('box-site-lng').fill('121.6');
    await page.getByTestId('box-site-lat').fill('31.3');
    await page.getByTestId('box-site-add').click();
    await expect.poll(() => page.getByTestId('box-site-row').filter({ hasText: '江湾消纳场' }).count(), { timeout: 15_000 }).toBe(1);
    const sites = await e2e.server.api<{ name: string; radiusM: number }[]>('/service-monitor/box/sites', { token });
    // Beside the demo sites the seed gives the branches (server/seed/box-sites.ts).
    expect(sites.data).toContainEqual(expect.objectContaining({ name: '江湾消纳场', radiusM: 500, lng: 121.6, lat: 31.3 }));
    await page.keyboard.press('Escape');
    await page.getByTestId('box-sites').waitFor({ state: 'detached' });

    // 准运证: a permit registered on the screen for this truck, valid from today for 30 days (70006's register).
    await page.getByTestId('box-permits-open').click();
    await page.getByTestId('box-permits').waitFor();
    await page.getByTestId('box-permit-vehicle').fill(vehicle.vehiidno);
    await page.getByRole('option', { name: vehicle.vehiidno }).click();
    await page.getByTestId('box-permit-no').fill('沪准运-0001');
    const chinaDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
    const from = chinaDay(Date.now());
    const to = chinaDay(Date.now() + 30 * 86_400_000);
    await page.getByTestId('box-permit-from').fill(from);
    await page.getByTestId('box-permit-from').press('Enter');
    await page.getByTestId('box-permit-to').fill(to);
    await page.getByTestId('box-permit-to').press('Enter');
    await page.getByTestId('box-permit-add').click();
    const permitRow = page.getByTestId('box-permit-row').filter({ hasText: '沪准运-0001' });
    await expect.poll(() => permitRow.count(), { timeout: 15_000 }).toBe(1);
    expect(await permitRow.textContent()).toContain('有效');
    expect(await permitRow.textContent()).toContain(`${from} ~ ${to}`);
    await expectCleanLayout(page, 'box status permits');
    const permits = await e2e.server.api<{ records: { permitNo: string; vehicleId: number; valid: boolean }[] }>(`/service-monitor/box/permit/page?vehicleId=${vehicle.vehicleId}`, { token });
    expect(permits.data.records).toEqual([expect.objectContaining({ permitNo: '沪准运-0001', vehicleId: vehicle.vehicleId, valid: true })]);
  });
});
