/**
 * Device work reports (设备工作报表, issue 18) from a scripted terminal: a vehicle checked in the company tree
 * reports for two minutes through the gateway with a storage unit fault (JT/T 1078 item 0x14 bit 2) in the middle.
 * 存储异常 lists that fault with its minutes and exports the same row; 设备在线报表 shows the vehicle online today
 * for the two minutes it reported.
 */
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, test } from 'vitest';
import { videoAlarmItem } from '../domain/alarms/video.ts';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, realtimeVehicles, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 20, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const EXPAND = '展开';
const today = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
const terminals: TestTerminal[] = [];

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

describe('device work reports', () => {
  test('a scripted storage fault shows in 存储异常 with its minutes and export, and the vehicle online in 设备在线报表', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/report/deviceWorkReport/deviceStorageAbnormal'));
    const report = page.locator('[data-page="report-device-storage"]');
    await expect.poll(() => report.getByTestId('report-problem').textContent()).toBe('请在左侧勾选车辆（最多500辆）');

    // Check the first vehicle under 华东分公司 and find its terminal by the plate the tree shows.
    const tree = page.getByTestId('company-tree');
    await tree.getByRole('treeitem').filter({ hasText: '华东分公司' }).first().getByRole('button', { name: EXPAND }).click();
    const boxes = tree.getByRole('checkbox');
    for (let i = 0; i < 5 && (await boxes.count()) < 1; i++) {
      const closed = tree.getByRole('button', { name: EXPAND });
      if ((await closed.count()) > 0) await closed.last().click();
      await page.waitForTimeout(300);
    }
    await boxes.first().click();
    await expect.poll(() => report.getByTestId('vehicle-filter').textContent()).toBe('已选 1 辆车');
    const label = (await boxes.first().locator('xpath=ancestor::*[@role="treeitem"][1]').textContent()) ?? '';
    const vehicle = (await realtimeVehicles(e2e.server)).find((v) => label.includes(v.vehiidno));
    expect(vehicle, label).toBeDefined();

    // Two minutes of reports, one every 40 s; the storage unit fault holds from the second to the last (80 s).
    const t = await TestTerminal.connect(gatewayPort(e2e.server), vehicle!.deviceNo);
    terminals.push(t);
    await t.login();
    const base = Math.floor(Date.now() / 1000) * 1000 - 120_000;
    for (const [k, word] of [[0, 0], [1, 4], [2, 4], [3, 0]] as const) {
      const r = await t.report(location({ lng: 121.47, lat: 31.23, time: base + k * 40_000, extras: [videoAlarmItem(word)] }));
      expect(r.result).toBe(0);
    }
    const token = await e2e.server.token(ACCOUNTS.admin);
    const body = { startDate: today(), endDate: today(), vehicleIds: [vehicle!.vehicleId], current: 1, size: 10 };
    await expect.poll(async () => (await e2e.server.api<{ total: number }>('/service-safe/devstatus/storagelist', { token, body })).data.total, { timeout: 20_000 }).toBe(1);

    // The China day of the reports, typed: 快捷 "今天" is the browser's own day, and this headless browser runs on
    // UTC, which from 16:00 to 24:00 UTC is the day before China's (a CI run at 16:10 UTC listed nothing).
    await report.getByTestId('start-date').fill(today());
    await report.getByTestId('end-date').fill(today());
    await report.getByTestId('search').click();
    const row = report.locator('tbody tr[aria-rowindex]').first();
    await row.waitFor({ timeout: 30_000 });
    expect(await row.locator('[data-col=vehiidno]').textContent()).toBe(vehicle!.vehiidno);
    expect(await row.locator('[data-col=fault]').textContent()).toBe('存储单元故障报警');
    expect(await row.locator('[data-col=minutes]').textContent()).toBe('1.3'); // 80 s
    expect(await report.locator('tr[data-row=totals] [data-col=fault]').textContent()).toBe('1');

    const download = page.waitForEvent('download', { timeout: 60_000 });
    await report.getByTestId('export').click();
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await (await download).path())!);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).values.toString()).toContain('存储单元故障报警');

    // The dashboard's "device offline" target: the same vehicle was online today for the two minutes it reported.
    await page.goto(consolePath('/report/deviceWorkReport/deviceOnlineReport'));
    const online = page.locator('[data-page="report-device-online"]');
    await tree.getByRole('treeitem').filter({ hasText: '华东分公司' }).first().getByRole('button', { name: EXPAND }).click();
    for (let i = 0; i < 5 && (await boxes.count()) < 1; i++) {
      const closed = tree.getByRole('button', { name: EXPAND });
      if ((await closed.count()) > 0) await closed.last().click();
      await page.waitForTimeout(300);
    }
    await boxes.first().click();
    await online.getByTestId('start-date').fill(today());
    await online.getByTestId('end-date').fill(today());
    await online.getByTestId('search').click();
    const day = online.locator('tbody tr[aria-rowindex]').first();
    await day.waitFor({ timeout: 30_000 });
    expect(await day.locator('[data-col=online]').textContent()).toBe('是');
    expect(await day.locator('[data-col=sessions]').textContent()).toBe('1');
    expect(await day.locator('[data-col=onlineMinutes]').textContent()).toBe('2');
  });
});
