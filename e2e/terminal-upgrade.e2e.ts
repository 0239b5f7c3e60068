/**
 * Terminal upgrades against the real stack (issue 17): an administrator uploads a small package on
 * /information/params/hjwsUpdate (it is listed), pushes it on /information/params/hjwsUpdate2 to a
 * simulated vehicle (0x8108 in sub-packages), sees the vehicle end 成功 (the terminal's 0x0108 result 0)
 * and the terminal then reports the package's version as its firmware (0x0107); an offline vehicle of the
 * same push waits 离线排队 until 取消 makes it 已取消.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '1', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

interface Realtime { vehicleId: number; vehiidno: string; online: boolean }

async function vehicles(token: string): Promise<Realtime[]> {
  return (await e2e.server.api<{ records: Realtime[] }>('/service-monitor/monitor/v3/selectreal', { method: 'POST', token, body: { current: 1, size: 100 } })).data?.records ?? [];
}

async function onlineVehicle(token: string): Promise<Realtime> {
  for (let i = 0; i < 100; i++) {
    const r = await e2e.server.api<{ records: Realtime[] }>('/service-monitor/monitor/v3/selectreal', { method: 'POST', token, body: { current: 1, size: 100 } });
    const online = (r.data?.records ?? []).find((v) => v.online);
    if (online) return online;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('the simulated vehicle did not come online');
}

const attributes = async (token: string, vehicleId: number) =>
  (await e2e.server.api<{ answer: { makerId: string; firmwareVersion: string } }>('/service-command/command/terminalFun', { method: 'POST', token, body: { vehicleId, fun: 'attributes' } })).data!.answer;

describe('terminal upgrade', () => {
  test('upload a package in the console, push it to a simulated vehicle, see it succeed; cancel the offline one', async () => {
    const token = await e2e.server.token(ACCOUNTS.admin);
    const v = await onlineVehicle(token);
    const before = await attributes(token, v.vehicleId);
    const version = 'E2E-FW-2';
    expect(before.firmwareVersion).not.toBe(version);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/information/params/hjwsUpdate'));
    await page.getByTestId('upgrade-upload').click();
    // 3000 bytes: more than one 1023-byte body, so the push goes in sub-packages.
    await page.locator('[data-testid="upgrade-upload-form"] input[type="file"]').setInputFiles({ name: 'fw.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(3000, 7) });
    await page.getByTestId('upgrade-name').fill('e2e 固件');
    await page.getByTestId('upgrade-version').fill(version);
    await page.getByTestId('upgrade-maker').fill(before.makerId);
    await page.getByTestId('upgrade-upload-submit').click();
    await expect.poll(() => page.getByTestId('upgrade-package-table').textContent(), { timeout: 20_000 }).toContain(version);

    await page.goto(consolePath('/information/params/hjwsUpdate2'));
    await page.getByTestId('upgrade-push-package').click();
    await page.getByRole('option', { name: new RegExp(version) }).click();
    await page.getByTestId('upgrade-push-vehicles-search').fill(v.vehiidno);
    await page.getByTestId(`upgrade-push-vehicles-option-${v.vehicleId}`).click();
    const off = (await vehicles(token)).find((x) => !x.online)!;
    await page.getByTestId('upgrade-push-vehicles-search').fill(off.vehiidno);
    await page.getByTestId(`upgrade-push-vehicles-option-${off.vehicleId}`).click();
    await page.getByTestId('upgrade-push-send').click();
    await expect.poll(() => page.getByTestId(`task-state-${v.vehicleId}`).textContent(), { timeout: 30_000 }).toBe('成功');
    expect((await attributes(token, v.vehicleId)).firmwareVersion).toBe(version);
    // The offline vehicle waits in the queue; 取消 takes it out, shown at once.
    await expect.poll(() => page.getByTestId(`task-state-${off.vehicleId}`).textContent()).toBe('离线排队');
    await page.getByTestId(`task-cancel-${off.vehicleId}`).click();
    await expect.poll(() => page.getByTestId(`task-state-${off.vehicleId}`).textContent()).toBe('已取消');
    await expect.poll(() => page.getByTestId('upgrade-task-counts').textContent()).toContain('已取消 1');
  });
});
