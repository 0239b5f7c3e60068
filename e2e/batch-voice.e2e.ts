/**
 * Batch voice dispatch against the real stack (issue 19): on /operation/messageManagement/batchTtsTask an
 * administrator types a text and sends it to one online simulated vehicle and one offline vehicle; the
 * online terminal's 0x0001 turns its row 已应答 while the offline one shows 等待上线; then the offline
 * vehicle's terminal connects and authenticates, receives the 0x8300 with that text, and its row turns
 * 已应答 too. The log screen lists the dispatch with both acknowledged.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, realtimeVehicles, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 3, env: { SIM_VEHICLES: '1', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
let late: TestTerminal | undefined;
afterAll(async () => {
  await late?.close();
});

describe('batch voice dispatch', () => {
  test('one online vehicle acknowledges, one offline waits and acknowledges once its terminal connects', async () => {
    const online = (await realtimeVehicles(e2e.server, { online: true }))[0]!;
    const offline = (await realtimeVehicles(e2e.server, { atLeast: 3 })).find((v) => !v.online && v.deviceNo)!;
    expect(offline).toBeDefined();
    const text = '前方施工，请减速慢行';

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/operation/messageManagement/batchTtsTask'));
    await page.getByTestId('voice-text').fill(text);
    for (const v of [online, offline]) {
      await page.getByTestId('voice-vehicles-search').fill(v.vehiidno);
      await page.getByTestId(`voice-vehicles-option-${v.vehicleId}`).click();
    }
    await page.getByTestId('voice-send-submit').click();
    await expect.poll(() => page.getByTestId(`voice-state-${online.vehicleId}`).textContent(), { timeout: 30_000 }).toBe('已应答');
    await expect.poll(() => page.getByTestId(`voice-state-${offline.vehicleId}`).textContent()).toBe('等待上线');

    // The offline vehicle's terminal powers on: it is sent the text on authenticating and answers 0x0001.
    late = await TestTerminal.connect(gatewayPort(e2e.server), offline.deviceNo);
    await late.login();
    await expect.poll(() => page.getByTestId(`voice-state-${offline.vehicleId}`).textContent(), { timeout: 30_000 }).toBe('已应答');
    const got = late.commands.map((c) => c.message).find((m) => m.msgId === 0x8300);
    expect(got).toMatchObject({ msgId: 0x8300, text, flags: 1 << 3 });
    await expect.poll(() => page.getByTestId('voice-task-counts').textContent()).toContain('已应答 2');

    await page.goto(consolePath('/operation/messageManagement/batchTtsLog'));
    await expect.poll(() => page.getByText(text).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('body').textContent()).toContain('已应答 2');
  });
});
