/**
 * Terminal parameters against the real stack (issue 17): an administrator picks a simulated vehicle on
 * /information/params/baseParam, 查询 reads its live terminal's parameters (0x8104 → 0x0104), changes the
 * heartbeat interval (0x0001) and presses 设置 (a task: 0x8103), sees the task succeed, and a second 查询
 * reads the new value back from the terminal. (That the simulator's heartbeat cadence follows the new
 * interval is asserted in server/sim/parameters.test.ts.)
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '1', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

interface Realtime { vehicleId: number; vehiidno: string; online: boolean }

async function onlineVehicle(): Promise<Realtime> {
  const token = await e2e.server.token(ACCOUNTS.admin);
  for (let i = 0; i < 100; i++) {
    const r = await e2e.server.api<{ records: Realtime[] }>('/service-monitor/monitor/v3/selectreal', { method: 'POST', token, body: { current: 1, size: 100 } });
    const online = (r.data?.records ?? []).find((v) => v.online);
    if (online) return online;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('the simulated vehicle did not come online');
}

describe('terminal parameters', () => {
  test('query a live terminal, change its heartbeat interval, read the new value back', async () => {
    const v = await onlineVehicle();
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/information/params/baseParam'));
    await page.getByTestId('params-vehicle').fill(v.vehiidno);
    await page.getByRole('option', { name: v.vehiidno }).click();
    await page.getByTestId('params-query').click();
    const heartbeat = page.getByTestId('param-1');
    await heartbeat.waitFor({ timeout: 20_000 });
    const before = Number(await heartbeat.inputValue());
    expect(before).toBeGreaterThan(0);
    const next = before === 7 ? 8 : 7;
    await heartbeat.fill(String(next));
    await page.getByTestId('params-set').click();
    await expect.poll(() => page.getByTestId(`task-state-${v.vehicleId}`).textContent(), { timeout: 20_000 }).toBe('成功');
    // A second 查询 asks the terminal again: it holds the new interval.
    await page.getByTestId('params-query').click();
    await expect.poll(() => page.getByTestId('param-1').inputValue(), { timeout: 20_000 }).toBe(String(next));
  });
});
