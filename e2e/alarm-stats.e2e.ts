/**
 * Alarm statistics against the real stack: scripted JT/T 808 terminals raise alarms over TCP → the
 * server stores them → the safety officer's statistics page counts them by type (uPlot chart drawn,
 * table values equal to the stored alarms), lists a cell's alarms, exports the table as .xlsx; the
 * comparison page puts this week against the last; the processing page exports its query.
 */
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { chinaDate } from '../domain/track/days.ts';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, type RealtimeVehicle, useE2E, vehiclesById } from './harness.ts';

// No simulated fleet: its random alarms would change the counts; every alarm here is scripted.
const e2e = useE2E({ seedVehicles: 20, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

const OVERSPEED = 1 << 1; // bit 1 → 12001 超速报警
const DRIVING_TIME = 1 << 2; // bit 2 → 10032 (driving time over the limit)
const terminals: TestTerminal[] = [];
let raised = false;

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

interface TypeRow { alarmType: number; alarmName: string; count: number; unprocessed: number }

async function raise(v: RealtimeVehicle, alarm: number, driver?: string): Promise<void> {
  const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
  terminals.push(t);
  await t.login();
  const now = Math.floor(Date.now() / 1000) * 1000;
  if (driver) {
    // The driver signs in with the qualification card (0x0702) before driving.
    const card = { msgId: 0x0702, status: 1, time: now - 5000, readResult: 0, name: driver, certificate: '330100198001011234', authority: '杭州市运管局', validUntil: '2030-01-31', idCard: '' } as const;
    expect((await t.request(card)).result).toBe(0);
  }
  expect((await t.report(location({ lng: 121.5, lat: 31.2, time: now - 2000, speed: 40, alarm: 0 }))).result).toBe(0);
  expect((await t.report(location({ lng: 121.5002, lat: 31.2003, time: now - 1000, speed: 95, alarm }))).result).toBe(0);
}

const period = () => ({ startTime: Date.now() - 86_400_000, endTime: Date.now() + 86_400_000 });

/** Two vehicles over the speed limit, one of them (driven by 王建国) also over its driving time: 2 × 12001, 1 × 10032. */
async function raiseOnce(): Promise<void> {
  if (raised) return;
  raised = true;
  const admin = await e2e.server.token(ACCOUNTS.admin);
  const [a, b] = await vehiclesById(e2e.server);
  await raise(a!, OVERSPEED | DRIVING_TIME, '王建国');
  await raise(b!, OVERSPEED);
  await expect.poll(async () => {
    const r = await e2e.server.api<{ total: { count: number } }>('/service-safe/aggregate/alarm/type', { token: admin, body: period() });
    return r.data.total?.count;
  }, { timeout: 20_000 }).toBe(3);
}

async function readXlsx(page: Page, click: () => Promise<void>): Promise<{ name: string; rows: unknown[][] }> {
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await click();
  const file = await download;
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile((await file.path())!);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return { name: file.suggestedFilename(), rows };
}

const cellOf = (page: Page, key: string, col: string) => page.locator(`[data-testid=stats-table-row][data-key="${key}"] [data-col="${col}"]`);

describe('alarm statistics', () => {
  test('the safety officer finds raised alarms counted by type: the chart draws and the table matches the stored alarms', async () => {
    await raiseOnce();
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    await page.goto(consolePath('/safeManagement/alarm/statistics'));
    await page.getByTestId('alarm-stats-page').waitFor({ timeout: 20_000 });

    // Default period: the last 7 days, by type.
    await expect.poll(() => page.getByTestId('stats-summary').getAttribute('data-count'), { timeout: 20_000 }).toBe('3');
    const safety = await e2e.server.token(ACCOUNTS.safety);
    const api = await e2e.server.api<{ records: TypeRow[] }>('/service-safe/aggregate/alarm/type', { token: safety, body: period(), lang: 'zh' });
    expect(api.data.records.map((r) => [r.alarmType, r.count])).toEqual([[12001, 2], [10032, 1]]);
    expect(await page.getByTestId('stats-table-row').count()).toBe(api.data.records.length);
    for (const r of api.data.records) {
      expect(await cellOf(page, `t${r.alarmType}`, 'label').textContent()).toBe(r.alarmName);
      expect(await cellOf(page, `t${r.alarmType}`, 'count').textContent()).toBe(String(r.count));
      expect(await cellOf(page, `t${r.alarmType}`, 'unprocessed').textContent()).toBe(String(r.unprocessed));
    }
    expect(await page.locator('[data-testid=stats-table] [data-row=totals] [data-col=count]').textContent()).toBe('3');
    // uPlot drew its canvas, one bar per type.
    const chart = page.getByTestId('stats-chart');
    expect(await chart.getAttribute('data-points')).toBe('2');
    await chart.locator('canvas').waitFor({ timeout: 5_000 });
    const size = await chart.locator('canvas').evaluate((c: HTMLCanvasElement) => [c.width, c.height]);
    expect(size[0]).toBeGreaterThan(100);
    expect(size[1]).toBeGreaterThan(100);

    // A row opens the alarms behind it.
    await page.locator('[data-testid=stats-table-row][data-key="t12001"]').click();
    await expect.poll(() => page.getByTestId('cell-alarms').getAttribute('data-total'), { timeout: 10_000 }).toBe('2');
    expect(await page.getByTestId('cell-table-row').count()).toBe(2);
    await page.keyboard.press('Escape');

    // The table exports as a workbook with the same figures.
    const { name, rows } = await readXlsx(page, () => page.locator('[data-page=alarm-statistics]').getByTestId('export').click());
    expect(name).toMatch(/\.xlsx$/);
    expect(rows[0]).toEqual(['报警分类', '报警类型', '报警数', '发生次数', '未处理', '涉及车辆']);
    expect(rows.slice(1, -1).map((r) => [r[1], r[2]])).toEqual(api.data.records.map((r) => [r.alarmName, r.count]));
    expect(rows.at(-1)![2]).toBe(3);

    // By day (China days): today holds all three, and it is the last day of the axis.
    await page.getByTestId('stats-tab-date').click();
    const today = page.locator('[data-testid=stats-table-row]').last();
    await expect.poll(() => today.locator('[data-col=label]').textContent(), { timeout: 10_000 }).toBe(chinaDate(Date.now()));
    expect(await today.locator('[data-col=count]').textContent()).toBe('3');
    expect(Number(await page.getByTestId('stats-chart').getAttribute('data-points'))).toBeGreaterThanOrEqual(7);
    // By vehicle: two vehicles, 2 and 1.
    await page.getByTestId('stats-tab-vehicle').click();
    await expect.poll(() => page.locator('[data-testid=stats-table-row] [data-col=count]').allTextContents(), { timeout: 10_000 }).toEqual(['2', '1']);
    // By driver: the signed-in driver's two alarms, and the other vehicle's unidentified driver.
    await page.getByTestId('stats-tab-driver').click();
    await expect.poll(() => page.locator('[data-testid=stats-table-row] [data-col=label]').allTextContents(), { timeout: 10_000 }).toEqual(['王建国', expect.stringMatching(/^未识别驾驶员（.+）$/)]);
    expect(await page.locator('[data-testid=stats-table-row][data-key="c:330100198001011234"] [data-col=count]').textContent()).toBe('2');
  });

  test('a period older than three months is refused before any call, with the spec’s message', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    await page.goto(consolePath('/safeManagement/alarm/statistics'));
    await page.getByTestId('stats-start').fill('2020-01-01T00:00');
    await page.locator('[data-page=alarm-statistics]').getByTestId('search').click();
    expect(await page.getByTestId('report-problem').textContent()).toBe('只能查询最近3个月的报警');
  });

  test('the comparison puts this week against the last, with the change', async () => {
    await raiseOnce();
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    await page.goto(consolePath('/safeManagement/alarm/contrast'));
    await page.locator('[data-page=alarm-contrast]').getByTestId('search').click();
    await expect.poll(() => page.getByTestId('contrast-summary').getAttribute('data-b'), { timeout: 20_000 }).toBe('3');
    expect(await page.getByTestId('contrast-summary').getAttribute('data-a')).toBe('0');
    const row = page.locator('[data-testid=contrast-table-row][data-key="t12001"]');
    expect(await row.locator('[data-col=b]').textContent()).toBe('2');
    expect(await row.locator('[data-col=delta]').textContent()).toBe('+2');
    await page.getByTestId('stats-chart').locator('canvas').waitFor({ timeout: 5_000 });
  });

  test('the processing page exports its query as a workbook, and a failed export says “导出失败”', async () => {
    await raiseOnce();
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    await page.goto(consolePath('/safeManagement/alarmProcessingPage'));
    await page.getByTestId('alarm-search').click();
    await expect.poll(() => page.getByTestId('alarm-total').getAttribute('data-total'), { timeout: 15_000 }).toBe('3');
    const { rows } = await readXlsx(page, () => page.getByTestId('alarm-export').click());
    expect(rows).toHaveLength(1 + 3);
    expect(rows[0]).toContain('车牌号');
    expect(rows.slice(1).filter((r) => r.includes('超速报警'))).toHaveLength(2);

    // A failing export says so with the spec's "export failed".
    await page.route('**/service-safe/alarmInfo/excel', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 500, msg: '服务器内部错误', data: null }) }));
    await page.getByTestId('alarm-export').click();
    await page.getByText(/^导出失败/).waitFor({ timeout: 10_000 });
  });
});
