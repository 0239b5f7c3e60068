/**
 * Accident analysis in Chromium against the real server (issue 19): a vehicle's terminal reports a
 * collision (JT/T 808 alarm bit 29 in a 0x0200, stored as 碰撞预警); on 人工处理 the officer files an
 * accident for that vehicle and time, ticks the alarm the platform lists in the ±10 minute window (its
 * position fills the form), sees it linked in the detail; the accident is investigated and closed, then
 * on 事故公示 published as a case to the vehicle's company.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, realtimeVehicles, useE2E } from './harness.ts';

// No simulated fleet: its ADAS alarms would add rows to the window; the one alarm here is scripted.
const e2e = useE2E({ seedVehicles: 8, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const COLLISION_BIT = 1 << 29; // JT/T 808 bit 29 → 18005 碰撞预警
const terminals: TestTerminal[] = [];
const pad = (n: number) => String(n).padStart(2, '0');
const typed = (ms: number) => { const d = new Date(ms); return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`; };

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

describe('accident analysis', () => {
  test('file an accident for a vehicle, see its linked collision alarm, publish it as a case', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const v = (await realtimeVehicles(e2e.server))[0]!;
    const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
    terminals.push(t);
    await t.login();
    const at = Math.floor(Date.now() / 60_000) * 60_000 - 120_000;
    expect((await t.report(location({ lng: 116.397, lat: 39.909, time: at - 10_000, speed: 45 }))).result).toBe(0);
    expect((await t.report(location({ lng: 116.3975, lat: 39.9092, time: at, speed: 38, alarm: COLLISION_BIT }))).result).toBe(0);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/safeManagement/accidentAnalysis/manualProcessing'));
    const list = page.locator('[data-page="accident-manual"]');
    await list.getByRole('button', { name: '新增' }).click();
    const form = page.getByTestId('accident-form');
    await form.getByTestId('accident-vehicle').fill(v.vehiidno);
    await page.getByRole('option').filter({ hasText: v.vehiidno }).first().click();
    await form.getByTestId('accident-time').fill(typed(at));
    await form.getByTestId('accident-time').press('Tab');
    // The platform lists the vehicle's alarms in the window: the collision.
    const candidates = form.getByTestId('accident-alarm-candidates');
    await expect.poll(() => candidates.locator('tbody tr').count(), { timeout: 15_000 }).toBe(1);
    expect(await candidates.locator('tbody tr').first().textContent()).toContain('碰撞预警');
    await candidates.locator('input[type="checkbox"]').first().check();
    expect(await form.getByTestId('accident-lng').inputValue()).toContain('116.39');
    await form.getByTestId('accident-place').fill('长安街与府右街路口');
    await form.getByTestId('accident-form-submit').click();
    await form.waitFor({ state: 'detached', timeout: 15_000 });

    const row = list.locator('tbody tr[data-row-id]').first();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain(v.vehiidno);
    expect(await row.textContent()).toContain('轻微事故');
    await row.getByRole('button', { name: '详情' }).click();
    const detail = page.getByTestId('accident-detail');
    await expect.poll(() => detail.getByTestId('accident-linked-alarms').textContent(), { timeout: 15_000 }).toContain('碰撞预警');
    expect(await detail.getByTestId('accident-track').textContent()).toContain('查看事故前后轨迹');
    await page.keyboard.press('Escape');

    // Investigation and closing through the same calls the form makes (the form's state steps are unit-tested).
    const stored = await e2e.server.api<{ records: { id: number; companyName: string; companyId: number; time: number; lng: number; lat: number; place: string; type: string }[] }>(
      '/service-crm/accident/page', { method: 'POST', token: admin, body: { current: 1, size: 5 } });
    const a = stored.data.records[0]!;
    for (const state of ['investigating', 'closed']) {
      const r = await e2e.server.api('/service-crm/accident/update', { method: 'PUT', token: admin, body: { id: a.id, time: a.time, lng: a.lng, lat: a.lat, place: a.place, type: a.type, responsibility: 'full', state } });
      expect(r.code, r.msg).toBe(200);
    }

    await page.goto(consolePath('/safeManagement/accidentAnalysis/accidentPublicity'));
    const pub = page.locator('[data-page="accident-publicity"]');
    await pub.getByTestId(`publicity-publish-${a.id}`).click();
    const dialog = page.getByTestId('accident-publish');
    await dialog.getByTestId('accident-publish-title').fill('路口碰撞：减速观察');
    await dialog.getByTestId('accident-publish-summary').fill('路口未减速导致碰撞，过路口须减速观察。');
    await dialog.getByTestId('accident-publish-companies').fill(a.companyName);
    await page.getByRole('option', { name: a.companyName, exact: true }).first().click();
    // Close the company list (it covers the button) as an operator would: click elsewhere in the dialog.
    await dialog.getByTestId('accident-publish-title').click();
    await dialog.getByTestId('accident-publish-submit').click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    const published = pub.locator(`tbody tr[data-row-id="${a.id}"]`);
    await expect.poll(() => published.textContent(), { timeout: 15_000 }).toContain('路口碰撞：减速观察');
    expect(await published.textContent()).toContain('已公示');
  });
});
