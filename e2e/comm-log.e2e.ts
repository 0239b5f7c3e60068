/**
 * Communication logs against the real stack (issue 17): a scripted terminal reports a position (0x0200)
 * and the console sends it a command (temporary tracking, 0x8202); on /monitor/deviceLog the operator
 * picks the vehicle and searches: both frames are listed with their direction, and opening each shows
 * the wire bytes in hex beside the gateway's decoding of them.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, realtimeVehicles, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 5, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const terminals: TestTerminal[] = [];
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

describe('communication log', () => {
  test("a terminal's report and the platform's command are found on /monitor/deviceLog, hex beside decoded", async () => {
    const v = (await realtimeVehicles(e2e.server))[0]!;
    const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
    terminals.push(t);
    await t.login();
    expect((await t.report(location({ lng: 121.4737, lat: 31.2304, speed: 300, time: Date.now() - 1000 }))).result).toBe(0);
    const token = await e2e.server.token(ACCOUNTS.admin);
    const sent = await e2e.server.api('/service-command/command/terminalFun', { method: 'POST', token, body: { vehicleId: v.vehicleId, fun: 'tracking', interval: 7, validity: 90 } });
    expect(sent.code).toBe(200);
    expect(t.commands.map((c) => c.message.msgId)).toContain(0x8202);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/monitor/deviceLog'));
    await page.getByTestId('commlog-vehicle').fill(v.vehiidno);
    await page.getByRole('option', { name: v.vehiidno }).click();
    await page.getByTestId('commlog-search').click();

    const report = page.locator('[data-testid="commlog-row"][data-msgid="0x0200"]');
    await report.first().waitFor({ timeout: 20_000 });
    expect(await report.first().getAttribute('data-direction')).toBe('up');
    await report.first().getByTestId('commlog-detail').click();
    const open = page.getByTestId('commlog-open');
    await expect.poll(() => open.getAttribute('data-msgid')).toBe('0x0200');
    expect(await open.getByTestId('commlog-hex').textContent()).toMatch(/^7e 02 00 /);
    const decoded = JSON.parse((await open.getByTestId('commlog-decoded').textContent())!) as { body: { lng: number; lat: number } };
    expect(decoded.body).toMatchObject({ lng: 121.4737, lat: 31.2304 });

    const command = page.locator('[data-testid="commlog-row"][data-msgid="0x8202"]');
    expect(await command.first().getAttribute('data-direction')).toBe('down');
    await command.first().getByTestId('commlog-detail').click();
    await expect.poll(() => open.getAttribute('data-msgid')).toBe('0x8202');
    expect(await open.getByTestId('commlog-hex').textContent()).toMatch(/^7e 82 02 /);
    const cmd = JSON.parse((await open.getByTestId('commlog-decoded').textContent())!) as { body: { interval: number; validity: number } };
    expect(cmd.body).toMatchObject({ interval: 7, validity: 90 });
  });
});
