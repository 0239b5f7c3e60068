/**
 * ADAS parameters and multi-vehicle parameter tasks against the real stack (issue 17). On
 * /information/params/adasParam an administrator reads the ADAS block (0xF364) from a simulated
 * terminal, changes the alarm speed threshold, sets it (0x8103) and reads it back; saves the form as a
 * template; then sends the block to two vehicles at once, one online and one whose terminal is offline:
 * the task view shows 成功 for the first and 离线排队 for the second, with the counts.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, realtimeVehicles, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '1', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

describe('ADAS parameters and parameter tasks', () => {
  test('read and set the ADAS block of a live terminal; send it to an online and an offline vehicle', async () => {
    const all = await realtimeVehicles(e2e.server, { atLeast: 3 });
    let online = all.find((v) => v.online);
    for (let i = 0; !online && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 300));
      online = (await realtimeVehicles(e2e.server, { online: true })).find((v) => v.online);
    }
    const offline = all.find((v) => !v.online && v.deviceNo && v.vehicleId !== online!.vehicleId);
    if (!online || !offline) throw new Error(`need one online and one offline vehicle: ${JSON.stringify(all)}`);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/information/params/adasParam'));
    await page.getByTestId('params-vehicle').fill(online.vehiidno);
    await page.getByRole('option', { name: online.vehiidno }).click();
    await page.getByTestId('params-query').click();
    const threshold = page.getByTestId('block-alarmSpeedThreshold');
    await threshold.waitFor({ timeout: 20_000 });
    // The simulated terminal ships the standard's defaults.
    expect(await threshold.inputValue()).toBe('30');
    expect(await page.getByTestId('block-forwardCollisionTime').inputValue()).toBe('27');
    await threshold.fill('45');
    await page.getByTestId('params-set').click();
    await expect.poll(() => page.getByTestId('params-task').getByTestId(`task-state-${online.vehicleId}`).textContent(), { timeout: 20_000 }).toBe('成功');
    // Asked again, the terminal answers the new threshold.
    await threshold.fill('31');
    await page.getByTestId('params-query').click();
    await expect.poll(() => threshold.inputValue(), { timeout: 20_000 }).toBe('45');

    // Save the form as a template: it is listed.
    await page.getByTestId('template-save-open').click();
    await page.getByTestId('template-name').fill('ADAS 城区 45');
    await page.getByTestId('template-save').click();
    await page.getByTestId('template-ADAS 城区 45').waitFor({ timeout: 10_000 });

    // Both vehicles at once: the online one succeeds, the offline one waits in the queue.
    for (const v of [online, offline]) {
      await page.getByTestId('batch-vehicles-search').fill(v.vehiidno);
      await page.getByTestId(`batch-vehicles-option-${v.vehicleId}`).click();
      await page.getByTestId(`batch-vehicles-chosen-${v.vehicleId}`).waitFor();
    }
    expect(await page.getByTestId('batch-vehicles-count').textContent()).toBe('已选 2 / 500 辆');
    await page.getByTestId('batch-send').click();
    const task = page.getByTestId('batch-task');
    await expect.poll(() => task.getByTestId(`task-state-${online.vehicleId}`).textContent(), { timeout: 20_000 }).toBe('成功');
    expect(await task.getByTestId(`task-state-${offline.vehicleId}`).textContent()).toBe('离线排队');
    expect(await page.getByTestId('batch-task-counts').textContent()).toBe('排队 1 · 已下发 0 · 成功 1 · 失败 0 · 超时 0');
  });
});
