/**
 * The alarm settings pages against the real stack: a safety officer switches enable / auto-handle
 * and the linkage (pop-up, TTS) of one alarm type, and sets a platform risk level; a reload shows
 * what the server kept. A user of a child company sees the root's setting marked as inherited; a
 * user without the pages' permissions gets the 404 page and the calls answer 403.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const e2e = useE2E({ seedVehicles: 10, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
/** The desk sizes every screen of this file is checked at (issue 13). */
const DESK_SIZES = [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }] as const;

const SETTINGS = '/safeManagement/alarmSettings/index';
const LINKAGE = '/safeManagement/alarmSettings/alarmLinkagePage';
const LEVELS = '/safeManagement/alarmSettings/platformLevelPage';

/** Opens a settings page and narrows the table to one alarm type by its code; answers its row. */
async function openRow(page: Page, route: string, alarmType: number, rowTestId = 'settings-row'): Promise<Locator> {
  await page.goto(consolePath(route));
  // The first page of a cold server on a loaded machine can take a while to come up.
  await page.getByTestId('settings-search').waitFor({ timeout: 60_000 });
  await page.getByTestId('settings-search').fill(String(alarmType));
  const row = page.locator(`[data-testid=${rowTestId}][data-alarm-type="${alarmType}"]`);
  await row.waitFor({ timeout: 20_000 });
  return row;
}

/** Signs in and waits for the shell, so the session is in place before the next navigation. */
async function signIn(page: Page, username: string, password: string): Promise<void> {
  await login(page, username, password);
  await page.getByTestId('user-display-name').waitFor({ timeout: 60_000 });
}

/** Mantine's switch input is visually hidden: click it directly, as a label click would. */
async function flip(row: Locator, field: string): Promise<void> {
  await row.getByTestId(`switch-${field}`).dispatchEvent('click');
}

async function checkedSoon(row: Locator, field: string, expected: boolean): Promise<void> {
  await expect.poll(() => row.getByTestId(`switch-${field}`).isChecked(), { timeout: 15_000 }).toBe(expected);
}

describe('alarm settings pages', () => {
  test('enable and auto-handle of a type are switched, sent, and kept after a reload', async () => {
    const page = await e2e.newPage();
    await signIn(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    // 12003 平台超速报警: the platform overspeed rule.
    let row = await openRow(page, SETTINGS, 12003);
    expect(await row.getByTestId('switch-enabled').isChecked()).toBe(true);
    expect(await row.getByTestId('switch-autoHandle').isChecked()).toBe(false);
    expect(await row.textContent()).toContain('系统默认');

    await flip(row, 'enabled');
    await checkedSoon(row, 'enabled', false);
    await flip(row, 'autoHandle');
    await checkedSoon(row, 'autoHandle', true);
    expect(await row.textContent()).toContain('本公司');

    await page.reload();
    row = await openRow(page, SETTINGS, 12003);
    expect(await row.getByTestId('switch-enabled').isChecked()).toBe(false);
    expect(await row.getByTestId('switch-autoHandle').isChecked()).toBe(true);

    // The server holds the same: the engine reads these settings.
    const token = await e2e.server.token(ACCOUNTS.safety);
    const r = await e2e.server.api<{ records: { alarmType: number; enabled: boolean; autoHandle: boolean }[] }>(
      '/service-safe/companysetting/findCompanyAlarmSetting', { token });
    expect(r.data.records.find((x) => x.alarmType === 12003)).toMatchObject({ enabled: false, autoHandle: true });
  });

  test('pop-up and TTS linkage of a type are switched and kept after a reload', async () => {
    const page = await e2e.newPage();
    await signIn(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    // 12001 超速报警 (808 bit 1), a medium risk: pop-up and tone by default, never TTS.
    let row = await openRow(page, LINKAGE, 12001);
    expect(await row.getByTestId('switch-popup').isChecked()).toBe(true);
    expect(await row.getByTestId('switch-voice').isChecked()).toBe(true);
    expect(await row.getByTestId('switch-tts').isChecked()).toBe(false);
    await flip(row, 'popup');
    await checkedSoon(row, 'popup', false);
    await flip(row, 'tts');
    await checkedSoon(row, 'tts', true);

    await page.reload();
    row = await openRow(page, LINKAGE, 12001);
    expect(await row.getByTestId('switch-popup').isChecked()).toBe(false);
    expect(await row.getByTestId('switch-voice').isChecked()).toBe(true);
    expect(await row.getByTestId('switch-tts').isChecked()).toBe(true);
    // 15001 GNSS 模块故障, a low risk: no linkage by default.
    row = await openRow(page, LINKAGE, 15001);
    expect(await row.getByTestId('switch-popup').isChecked()).toBe(false);
    expect(await row.getByTestId('switch-voice').isChecked()).toBe(false);
  });

  test('a platform risk level is saved and kept after a reload', async () => {
    const page = await e2e.newPage();
    await signIn(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    // 12002 超速预警: its catalogue level is low; the company picks high.
    let row = await openRow(page, LEVELS, 12002, 'level-row');
    const select = row.getByTestId('level-select');
    expect(await select.inputValue()).toBe('低风险');
    await select.click();
    await page.getByRole('option', { name: '高风险' }).click();
    expect(await page.getByTestId('level-changed').textContent()).toBe('已修改 1 项');
    await page.getByTestId('level-save').click();
    await expect.poll(() => page.getByTestId('level-changed').textContent(), { timeout: 15_000 }).toBe('已修改 0 项');
    expect(await select.inputValue()).toBe('高风险');

    await page.reload();
    row = await openRow(page, LEVELS, 12002, 'level-row');
    expect(await row.getByTestId('level-select').inputValue()).toBe('高风险');
    expect(await row.getAttribute('data-changed')).toBeNull();
  });

  test('the three pages at both desk sizes: nothing covered, no column below its minimum; the header box selects every shown type', async () => {
    const page = await e2e.newPage();
    await signIn(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    for (const size of DESK_SIZES) {
      await page.setViewportSize(size);
      for (const [route, row] of [[SETTINGS, 'settings-row'], [LINKAGE, 'settings-row'], [LEVELS, 'level-row']] as const) {
        await page.goto(consolePath(route));
        await page.getByTestId(row).first().waitFor({ timeout: 60_000 });
        await expectCleanLayout(page, `${route} at ${size.width}×${size.height}`);
      }
    }
    // The kit's header box selects every shown type: the search narrowed to 1200x (platform overspeed …).
    await page.goto(consolePath(SETTINGS));
    await page.getByTestId('settings-search').fill('1200');
    await expect.poll(() => page.getByTestId('settings-row').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    const shown = await page.getByTestId('settings-row').count();
    await page.getByTestId('rows-select-all').check();
    expect(await page.getByTestId('settings-selected').textContent()).toBe(`已选 ${shown} 项`);
    await page.getByTestId('rows-select-all').uncheck();
    expect(await page.getByTestId('settings-selected').textContent()).toBe('已选 0 项');
  });

  test('a user of a child company sees the root company’s setting as inherited', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const tree = await e2e.server.api<{ id: number; pid: number | null; name: string }[]>('/service-priv/company/tree', { token: admin });
    const east = tree.data.find((c) => c.name === '华东分公司')!;
    const root = tree.data.find((c) => !tree.data.some((p) => p.id === c.pid))!;
    const roles = await e2e.server.api<{ id: number; name: string }[]>('/service-priv/role/list', { token: admin });
    const safetyRole = roles.data.find((r) => r.name === '安全员')!;
    const created = await e2e.server.api('/service-priv/user', {
      token: admin, body: { username: 'east-safety', password: 'east123456', realName: '钱安全', userLevel: 2, companyId: east.id, roleIds: [safetyRole.id] },
    });
    expect(created.code, created.msg).toBe(200);
    // The root company turns 12004 (platform overspeed warning) off for its whole subtree.
    const rootSafety = await e2e.server.token(ACCOUNTS.safety);
    const off = await e2e.server.api('/service-safe/companysetting/doCompanyAlarmSettingEnableStatus', {
      token: rootSafety, body: { companyId: root.id, alarmTypes: [12004], enabled: false },
    });
    expect(off.code).toBe(200);

    const page = await e2e.newPage();
    await signIn(page, 'east-safety', 'east123456');
    const row = await openRow(page, SETTINGS, 12004);
    expect(await row.getByTestId('switch-enabled').isChecked()).toBe(false);
    expect(await row.textContent()).toContain(`继承自公司 ${root.id}`);
    // A type nobody set shows the system default.
    const other = await openRow(page, SETTINGS, 12005);
    expect(await other.textContent()).toContain('系统默认');
  });

  test('a user without the settings permissions gets the 404 page and the calls are refused', async () => {
    const page = await e2e.newPage();
    await signIn(page, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
    for (const route of [SETTINGS, LINKAGE, LEVELS]) {
      await page.goto(consolePath(route));
      await page.getByTestId('not-found').waitFor({ timeout: 20_000 });
      expect(await page.locator('[data-testid=settings-row], [data-testid=level-row]').count()).toBe(0);
    }
    const token = await e2e.server.token(ACCOUNTS.operator);
    const read = await e2e.server.api('/service-safe/companysetting/findCompanyAlarmSetting', { token });
    expect(read.status).toBe(403);
    const write = await e2e.server.api('/service-safe/companysetting/doCompanyAlarmSettingEnableStatus', { token, body: { alarmTypes: [12001], enabled: false } });
    expect(write.status).toBe(403);
  });
});
