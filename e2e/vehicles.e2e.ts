/**
 * Vehicles (/information/vehicle) in Chromium against the real server: the header counts, the form
 * checking the VIN live with the domain rule (a wrong check digit is named before saving), a create
 * with its channels, the expiry filter, and 转移公司 over ticked rows (the vehicle leaves the branch).
 */
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { vinCheckDigit } from '../domain/fleet/vin.ts';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const e2e = useE2E();
const ROUTE = '/information/vehicle';
const PLATE = '沪E2E001';

function validVin(): string {
  const draft = 'LFV2A21K0E2E00001'.replace(/E/g, '3');
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

async function choose(page: Page, scope: Locator, label: string | RegExp, option: string | RegExp): Promise<void> {
  await scope.getByLabel(label).first().click();
  await page.getByRole('listbox').getByRole('option', { name: option }).first().click();
}

describe('vehicles', () => {
  test('create with the VIN checked live, find it by the expiry filter, move it to another company', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    const list = page.locator('[data-page="information-vehicle"]');
    await page.getByTestId('vehicle-counts').getByText(/^车辆 \d+$/).waitFor();
    await list.getByRole('row').nth(2).waitFor();
    // Filter bar, buttons and columns fit at 1280×720 (nothing covered, no column under its minimum).
    await page.setViewportSize({ width: 1280, height: 720 });
    await expectCleanLayout(page, 'vehicles');
    // …and the last toolbar button and the title line end inside the list, not past its right edge.
    const right = async (l: Locator) => { const b = await l.boundingBox(); return b ? b.x + b.width : Infinity; };
    const tableRight = await right(list.locator('table').first());
    expect(await right(list.getByRole('button', { name: '导入', exact: true }))).toBeLessThanOrEqual(tableRight + 1);
    expect(await right(page.getByTestId('vehicle-move-open'))).toBeLessThanOrEqual(tableRight + 1);

    await list.getByRole('button', { name: '新增', exact: true }).click();
    const form = page.getByTestId('vehicle-form');
    await form.locator('input[name=vehiidno]').fill(PLATE);
    const good = validVin();
    const wrong = `${good.slice(0, 8)}${good[8] === '1' ? '2' : '1'}${good.slice(9)}`;
    await form.locator('input[name=vin]').fill(wrong.toLowerCase());
    await form.getByText('车架号(VIN)第9位校验位不正确').waitFor();
    await form.locator('input[name=vin]').fill(good);
    await expect.poll(() => form.getByText('车架号(VIN)第9位校验位不正确').count()).toBe(0);
    await choose(page, form, /车辆类型/, '货车');
    await form.getByLabel('保险到期').fill(new Date(Date.now() + 3 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10));
    await form.locator('input[name=channelCount]').fill('2');
    await form.getByLabel('通道 1 名称').fill('前方');
    await page.getByTestId('vehicle-form-submit').click();
    await form.waitFor({ state: 'detached' });

    // The expiry filter finds it, with its badge.
    await page.getByTestId('vehicle-filters').click();
    await choose(page, page.locator('body'), '证件到期', '即将到期');
    await page.keyboard.press('Escape');
    await list.getByPlaceholder('车牌号 / 车架号 / 设备号').fill(PLATE);
    await list.getByPlaceholder('车牌号 / 车架号 / 设备号').press('Enter');
    const row = list.getByRole('row').filter({ hasText: PLATE });
    await row.waitFor();
    expect(await row.textContent()).toContain('即将到期');
    expect(await row.textContent()).toContain(good);

    // 转移公司: tick the row, pick the target, the server moves it.
    await row.getByRole('checkbox', { name: PLATE }).check();
    await page.getByTestId('vehicle-move-open').click();
    const dialog = page.getByTestId('vehicle-move');
    await dialog.getByTestId('vehicle-move-target').click();
    await page.getByRole('listbox').getByRole('option', { name: /华南分公司$/ }).first().click();
    await page.getByTestId('vehicle-move-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('华南分公司');

    const admin = await e2e.server.token(ACCOUNTS.admin);
    const found = await e2e.server.api<{ records: { vehiidno: string; companyName: string; vin: string; channels: { channel: number; name: string }[]; vehicleType: string }[] }>(
      '/service-priv/vehicle', { method: 'GET', token: admin, query: { keyword: PLATE } });
    expect(found.data.records).toMatchObject([{ vehiidno: PLATE, companyName: '华南分公司', vin: good, vehicleType: 'truck', channels: [{ channel: 1, name: '前方' }, { channel: 2, name: '' }] }]);
  });

  test('the vehicle picker (fleet-pickers/VehicleSelect) searches the server as the user types and shows the company', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    // The installation record form uses the picker.
    await page.goto(consolePath('/information/vehicle_installed'));
    await page.locator('[data-page="information-vehicle-installed"]').getByRole('button', { name: '新增', exact: true }).click();
    const picker = page.getByTestId('installation-vehicle');
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const any = await e2e.server.api<{ records: { id: number; vehiidno: string; companyName: string }[] }>('/service-priv/vehicle', { method: 'GET', token: admin, query: { size: 1 } });
    const target = any.data.records[0]!;
    await picker.click();
    await picker.fill(target.vehiidno.slice(1));
    const option = page.getByRole('listbox').getByRole('option', { name: new RegExp(target.vehiidno) });
    await option.waitFor();
    expect(await option.textContent()).toContain(target.companyName);
    await option.click();
    expect(await picker.inputValue()).toBe(target.vehiidno);
  });
});
