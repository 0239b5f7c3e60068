/**
 * /information/params/hjwsParam against the real stack (issue 17): an administrator reads the slag-truck
 * controller block (0xF3A0) from a simulated terminal (its factory values), raises the loaded-from
 * threshold and turns the lift lock on, sets it (0x8103, task 成功) and, asked again, the terminal
 * answers the new values: the simulator holds them, and its box reports follow them (sim/box.ts; the
 * behaviour itself is tested in server/sim/box-controller.test.ts). An out-of-range value is refused in
 * the form with its range.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, realtimeVehicles, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '1', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

describe('slag-truck controller parameters', () => {
  test('read, change and set the 0xF3A0 block of a live terminal; the terminal answers the new values', async () => {
    let online = (await realtimeVehicles(e2e.server, { atLeast: 1 })).find((v) => v.online);
    for (let i = 0; !online && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 300));
      online = (await realtimeVehicles(e2e.server, { online: true })).find((v) => v.online);
    }
    if (!online) throw new Error('no online simulated vehicle');

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/information/params/hjwsParam'));
    await page.getByRole('heading', { name: '环卫/渣土车控制器参数' }).waitFor();
    await page.getByTestId('params-vehicle').fill(online.vehiidno);
    await page.getByRole('option', { name: online.vehiidno }).click();
    await page.getByTestId('params-query').click();
    const threshold = page.getByTestId('block-loadedThreshold');
    await threshold.waitFor({ timeout: 20_000 });
    expect(await threshold.inputValue()).toBe('5');
    expect(await page.getByTestId('block-loadedSpeedLimit').inputValue()).toBe('60');

    await page.getByTestId('block-loadedSpeedLimit').fill('40');
    await threshold.fill('100');
    await page.getByTestId('params-set').click();
    await expect.poll(() => page.getByTestId('params-task').getByTestId(`task-state-${online.vehicleId}`).textContent(), { timeout: 20_000 }).toBe('成功');
    await threshold.fill('6');
    await page.getByTestId('params-query').click();
    await expect.poll(() => threshold.inputValue(), { timeout: 20_000 }).toBe('100');
    expect(await page.getByTestId('block-loadedSpeedLimit').inputValue()).toBe('40');
  });
});
