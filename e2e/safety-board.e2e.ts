/**
 * The safety board against the real stack: a scripted JT/T 808 terminal raises a high-risk alarm over
 * TCP → server → push websocket → the page refreshes and shows the vehicle's board item → the officer
 * follows, then resolves it in the drawer → the cards and the action log show it. A user without the
 * resolve bit sees no resolve button.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, createUserWithRole, gatewayPort, login, type RealtimeVehicle, useE2E, vehiclesById } from './harness.ts';

// No simulated fleet: simulated vehicles raise random alarms that would put other vehicles on the board.
const e2e = useE2E({ seedVehicles: 20, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

const BOARD = '/safeManagement/safetyBoardPage';
const EMERGENCY_BIT = 1 << 0; // JT/T 808 bit 0 → 17001 紧急报警, high risk by default
const terminals: TestTerminal[] = [];

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

/** Connects the vehicle's terminal, reports a position, then one with the emergency bit. */
async function raiseEmergency(v: RealtimeVehicle): Promise<void> {
  const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
  terminals.push(t);
  await t.login();
  const now = Math.floor(Date.now() / 1000) * 1000;
  expect((await t.report(location({ lng: 121.5, lat: 31.2, time: now - 2000, speed: 30, alarm: 0 }))).result).toBe(0);
  expect((await t.report(location({ lng: 121.5001, lat: 31.2003, time: now - 1000, speed: 30, alarm: EMERGENCY_BIT }))).result).toBe(0);
}

/** The id of the vehicle's emergency alarm (as the safety officer's alarm query finds it). */
async function emergencyOf(vehicleId: number): Promise<number> {
  const token = await e2e.server.token(ACCOUNTS.safety);
  const now = Date.now();
  const found = await e2e.server.api<{ records: { id: number; alarmType: number }[] }>('/service-safe/alarmInfo', {
    token, body: { current: 1, size: 10, startTime: now - 86_400_000, endTime: now + 60_000, vehicleIds: [vehicleId] },
  });
  return found.data.records.find((a) => a.alarmType === 17001)!.id;
}

const statValue = async (page: Page, key: string) => Number(await page.getByTestId(`board-stat-${key}`).getAttribute('data-value'));

async function openBoard(page: Page): Promise<void> {
  await page.goto(consolePath(BOARD));
  await page.locator('[data-testid=board-stat-pending]:not([data-value=""])').waitFor({ timeout: 20_000 });
}

async function act(page: Page, action: string, note: string): Promise<void> {
  await page.getByTestId(`board-action-${action}`).click();
  await page.getByTestId('board-form-note').fill(note);
  await page.getByTestId('board-form-submit').click();
}

describe('safety board', () => {
  test('a terminal’s high-risk alarm appears on the open board; the officer follows, then resolves it; the cards and the log show it', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    await openBoard(page);
    const pendingBefore = await statValue(page, 'pending');
    const resolvedBefore = await statValue(page, 'resolved');

    const v = (await vehiclesById(e2e.server))[0]!;
    await raiseEmergency(v);
    // No reload: the push stream's alarm makes the page refresh.
    const row = page.locator(`[data-testid=board-row][data-vehicle-id="${v.vehicleId}"]`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getAttribute('data-state')).toBe('pending');
    expect(await row.textContent()).toContain(v.vehiidno);
    expect(await row.textContent()).toContain('紧急报警');
    await page.locator(`[data-testid=board-stat-pending][data-value="${pendingBefore + 1}"]`).waitFor({ timeout: 10_000 });

    await row.getByTestId('board-row-detail').click();
    const detail = page.getByTestId('board-detail');
    await detail.waitFor();
    expect(await page.getByTestId('board-alarm-row').count()).toBe(1);

    // Follow without a note is stopped before calling.
    await page.getByTestId('board-action-follow').click();
    await page.getByTestId('board-form-submit').click();
    expect(await page.getByTestId('board-form-problem').textContent()).toBe('请填写说明');
    await page.getByTestId('board-form-note').fill('已电话联系司机');
    await page.getByTestId('board-form-submit').click();
    await page.locator('[data-testid=board-detail][data-state=following]').waitFor({ timeout: 10_000 });
    await page.locator('[data-testid=board-stat-following]:not([data-value="0"])').waitFor({ timeout: 10_000 });

    await act(page, 'resolve', '司机已停车休息，风险解除');
    await page.locator('[data-testid=board-detail][data-state=resolved]').waitFor({ timeout: 10_000 });
    // A resolved item allows nothing more.
    expect(await page.locator('[data-testid^=board-action-]').count()).toBe(0);
    // The resolve handled the alarm it held.
    await page.locator('[data-testid=board-alarm-row][data-deal-status="2"]').waitFor({ timeout: 10_000 });

    const log = page.getByTestId('board-log-row');
    expect(await log.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')))).toEqual(['open', 'follow', 'resolve']);
    expect(await log.nth(0).getByTestId('board-log-user').textContent()).toBe('平台');
    expect(await log.nth(1).getByTestId('board-log-user').textContent()).toBe('刘安全');
    expect(await log.nth(1).getByTestId('board-log-note').textContent()).toContain('已电话联系司机');
    expect(await log.nth(2).getByTestId('board-log-note').textContent()).toBe('司机已停车休息，风险解除');

    await page.keyboard.press('Escape');
    await page.locator(`[data-testid=board-stat-resolved][data-value="${resolvedBefore + 1}"]`).waitFor({ timeout: 10_000 });
    expect(await statValue(page, 'pending')).toBe(pendingBefore);
    // The default list shows open items only.
    await row.waitFor({ state: 'detached', timeout: 10_000 });
  });

  test('handling the alarm from the processing list resolves its board item: the open board’s resolved count rises without a reload', async () => {
    const board = await e2e.newPage();
    await login(board, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    await openBoard(board);
    const v = (await vehiclesById(e2e.server))[2]!;
    await raiseEmergency(v);
    const row = board.locator(`[data-testid=board-row][data-vehicle-id="${v.vehicleId}"]`);
    await row.waitFor({ timeout: 20_000 });
    const resolvedBefore = await statValue(board, 'resolved');

    // The same console in a second window (the same signed-in session) handles the alarm from the list.
    const alarmId = await emergencyOf(v.vehicleId);
    const list = await board.context().newPage();
    await list.goto(consolePath('/safeManagement/alarmProcessingPage'));
    await list.getByTestId('alarm-search').click();
    const alarmRow = list.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`);
    await alarmRow.waitFor({ timeout: 15_000 });
    await alarmRow.getByTestId('alarm-row-detail').click();
    await list.getByTestId('alarm-confirm').click();
    // The dialog names what is being handled.
    expect(await list.getByTestId('handle-subject').textContent()).toBe(`${v.vehiidno} · 紧急报警`);
    await list.getByTestId('handle-content').fill('已联系司机，误触紧急按钮');
    await list.getByTestId('handle-submit').click();
    // Plain words, not a protocol status; the form closes.
    const said = list.getByTestId('handle-result');
    await said.waitFor({ timeout: 15_000 });
    expect(await said.textContent()).toMatch(/^已处理/);
    expect(await said.textContent()).not.toContain('终端应答');
    await list.getByTestId('handle-form').waitFor({ state: 'detached', timeout: 5_000 });

    // The board window was not reloaded: its card and its list follow.
    await board.locator(`[data-testid=board-stat-resolved][data-value="${resolvedBefore + 1}"]`).waitFor({ timeout: 10_000 });
    await row.waitFor({ state: 'detached', timeout: 10_000 });
  });

  test('operator A handles an alarm in her browser; operator B’s open board, alarm list and pop-up follow at once, without a reload', async () => {
    // B: another operator in another browser (no shared session, no BroadcastChannel): only the push channel links them.
    const board = await e2e.newPage();
    await login(board, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await openBoard(board);
    const list = await board.context().newPage();
    await list.goto(consolePath('/safeManagement/alarmProcessingPage'));
    await list.getByTestId('alarm-processing-page').waitFor({ timeout: 15_000 });

    const v = (await vehiclesById(e2e.server))[3]!;
    await raiseEmergency(v);
    const row = board.locator(`[data-testid=board-row][data-vehicle-id="${v.vehicleId}"]`);
    await row.waitFor({ timeout: 20_000 });
    const resolvedBefore = await statValue(board, 'resolved');
    const alarmId = await emergencyOf(v.vehicleId);
    // B's pop-up shows the alarm (admin: pop-ups on, emergency is linked to a pop-up).
    await board.locator(`[data-testid=alarm-popup][data-alarm-id="${alarmId}"]`).waitFor({ timeout: 20_000 });
    await list.getByTestId('alarm-search').click();
    const bRow = list.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`);
    await bRow.waitFor({ timeout: 15_000 });
    expect(await bRow.getByTestId('alarm-row-status').textContent()).toBe('未处理');

    // A: the safety officer handles it from her own alarm list.
    const a = await e2e.newPage();
    await login(a, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    await a.goto(consolePath('/safeManagement/alarmProcessingPage'));
    await a.getByTestId('alarm-search').click();
    await a.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`).getByTestId('alarm-row-detail').click();
    await a.getByTestId('alarm-confirm').click();
    await a.getByTestId('handle-content').fill('已联系司机');
    await a.getByTestId('handle-submit').click();
    await a.getByTestId('handle-result').waitFor({ timeout: 15_000 });
    const handledAt = Date.now();

    // B, not reloaded, no search clicked: the board's resolved count, the list row and the pop-up follow.
    await board.locator(`[data-testid=board-stat-resolved][data-value="${resolvedBefore + 1}"]`).waitFor({ timeout: 3_000 });
    await row.waitFor({ state: 'detached', timeout: 3_000 });
    await expect.poll(() => bRow.getByTestId('alarm-row-status').textContent(), { timeout: 3_000, interval: 50 }).toBe('人工处理');
    expect(await bRow.getByTestId('alarm-row-user').textContent()).toBe('刘安全');
    await board.locator(`[data-testid=alarm-popup][data-alarm-id="${alarmId}"]`).waitFor({ state: 'detached', timeout: 3_000 });
    // Everything above typically lands within the 1 s the issue asks (push at commit + one refetch); 3 s bounds a loaded CI machine.
    expect(Date.now() - handledAt).toBeLessThan(6_000);
  });

  test('a user without the resolve bit can follow but has no resolve button', async () => {
    // Registry ids: 17 /safeManagement, 21 safetyBoardPage, 23 :follow, 24 :upload, 25 :unpush (no 22 :resolve).
    await createUserWithRole(e2e.server, { name: 'board follower', permissionIds: [17, 21, 23, 24, 25] }, { username: 'boardfollower', password: 'follow123', realName: '赵跟进' });

    const v = (await vehiclesById(e2e.server))[1]!;
    await raiseEmergency(v);
    const page = await e2e.newPage();
    await login(page, 'boardfollower', 'follow123');
    await openBoard(page);
    const row = page.locator(`[data-testid=board-row][data-vehicle-id="${v.vehicleId}"]`);
    await row.waitFor({ timeout: 20_000 });
    await row.getByTestId('board-row-detail').click();
    await page.getByTestId('board-action-follow').waitFor();
    expect(await page.getByTestId('board-action-report').count()).toBe(1);
    expect(await page.getByTestId('board-action-unpush').count()).toBe(1);
    expect(await page.getByTestId('board-action-resolve').count()).toBe(0);
    await act(page, 'follow', '继续观察');
    await page.locator('[data-testid=board-detail][data-state=following]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('board-action-resolve').count()).toBe(0);
    expect(await page.getByTestId('board-action-continueFollow').count()).toBe(1);
  });
});
