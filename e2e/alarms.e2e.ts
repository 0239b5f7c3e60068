/**
 * Safety alarms against the real stack: a scripted JT/T 808 terminal raises an alarm over TCP →
 * server → push websocket → the stream worker's alarm lists → the global pop-up; the processing
 * page confirms it with a handling action and shows the log; Perm hides what a user may not do.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { answerSnapshots } from './scripted-camera.ts';
import { ACCOUNTS, consolePath, createUserWithRole, gatewayPort, login, type RealtimeVehicle, realtimeVehicles, useE2E } from './harness.ts';

// No simulated fleet: simulated vehicles raise random ADAS/overspeed alarms that would race the scripted
// ones in the pop-up. Every alarm here comes from a scripted terminal, so counts are exact.
const e2e = useE2E({ seedVehicles: 20, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });

const PROCESSING = '/safeManagement/alarmProcessingPage';
const OVERSPEED_BIT = 1 << 1; // JT/T 808 bit 1 → 12001 超速报警
const SOS_BIT = 1 << 0; // JT/T 808 bit 0 → 17001 紧急报警
const terminals: TestTerminal[] = [];
let raised: { alarmId: number; vehicleId: number; plate: string } | undefined;

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

/** A seeded vehicle, a different one per rank (its terminal number registers with the gateway). */
async function freeVehicle(rank = 0): Promise<RealtimeVehicle> {
  const sorted = (await realtimeVehicles(e2e.server)).sort((a, b) => b.vehicleId - a.vehicleId);
  if (!sorted[rank]) throw new Error('no vehicles');
  return sorted[rank];
}

/** Connects a terminal for the vehicle and reports a position, then one with the overspeed bit set. */
async function raiseOverspeed(v: RealtimeVehicle): Promise<void> {
  const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
  terminals.push(t);
  await t.login();
  const now = Math.floor(Date.now() / 1000) * 1000;
  expect((await t.report(location({ lng: 121.5, lat: 31.2, time: now - 2000, speed: 40, alarm: 0 }))).result).toBe(0);
  expect((await t.report(location({ lng: 121.50012, lat: 31.20034, time: now - 1000, speed: 95, alarm: OVERSPEED_BIT }))).result).toBe(0);
}

async function alarmIdOf(token: string, vehicleId: number): Promise<number | undefined> {
  const now = Date.now();
  const r = await e2e.server.api<{ records: { id: number; alarmType: number }[] }>('/service-safe/alarmInfo', {
    token, body: { current: 1, size: 10, startTime: now - 86_400_000, endTime: now + 60_000, vehicleIds: [vehicleId] },
  });
  return r.data.records.find((a) => a.alarmType === 12001)?.id;
}

/**
 * Signs the admin in and opens the live map: sign-in lands on the dashboard, whose first-time guide (a
 * popover) would lie over the pop-up's dialogs in these scenes.
 */
async function signInAdminOnMap(page: Page): Promise<void> {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto(consolePath('/monitor/index'));
}

async function openProcessing(page: Page, alarmId: number): Promise<void> {
  await page.goto(consolePath(PROCESSING));
  await page.getByTestId('alarm-search').click();
  await page.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`).waitFor({ timeout: 15_000 });
}

describe('safety alarms', () => {
  test('a terminal’s overspeed alarm pops up with its plate, name, speed and place, and the voice setting is read', async () => {
    const page = await e2e.newPage();
    await signInAdminOnMap(page);
    // The setting call answered (defaults: pop-up and voice on) before anything arrives.
    await page.locator('[data-testid=alarm-counter][data-voice=on][data-popup=on]').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('alarm-popup').count()).toBe(0);

    const admin = await e2e.server.token(ACCOUNTS.admin);
    const v = await freeVehicle();
    await raiseOverspeed(v);

    const popup = page.getByTestId('alarm-popup');
    await popup.waitFor({ timeout: 20_000 });
    expect(await popup.getAttribute('data-voice')).toBe('on');
    // Overspeed is a medium risk: its default linkage sounds a tone (the user's voice setting is on too).
    await page.locator('[data-testid=alarm-counter][data-tones="1"]').waitFor({ timeout: 5_000 });
    // The pop-up knows the vehicle is online (from the live stream): the device buttons are enabled.
    await page.locator('[data-testid=alarm-popup][data-online=true]').waitFor({ timeout: 10_000 });
    // On the live map the pop-up docks compact: 展开 shows the full one with every button.
    const expand = page.locator('[data-testid=alarm-popup-expand][data-expanded=false]');
    if ((await expand.count()) > 0) await expand.click();
    await page.locator('[data-testid=alarm-popup][data-mode=full]').waitFor();
    expect(await page.getByTestId('alarm-btn-ttsReminder').isEnabled()).toBe(true);
    expect(await page.getByTestId('alarm-popup-title').textContent()).toBe(`${v.vehiidno} · 超速报警`);
    expect(await page.getByTestId('alarm-popup-speed').textContent()).toContain('95 km/h');
    expect(await page.getByTestId('alarm-popup-place').textContent()).toContain('121.50012, 31.20034');
    expect(await page.getByTestId('alarm-popup-risk').textContent()).toBe('中风险');
    expect(Number(await page.getByTestId('alarm-counter').getAttribute('data-unread'))).toBe(1);

    // The administrator may confirm: the quick handle shows on an unprocessed alarm.
    expect(await page.getByTestId('alarm-btn-handle').count()).toBe(1);
    // A button whose capability is not built says so.
    // OBD: the scripted terminal sends no CAN data (0x0705), and the panel says so.
    await page.getByTestId('alarm-btn-obd').click();
    await page.getByTestId('obd-none').waitFor({ timeout: 5_000 });
    await page.keyboard.press('Escape');
    await page.getByTestId('obd-none').waitFor({ state: 'detached' });

    // TTS reminder: the text goes to the terminal (0x8300) and its answer shows.
    await page.getByTestId('alarm-btn-ttsReminder').click();
    await page.getByTestId('tts-text').fill('请减速慢行');
    await page.getByTestId('tts-send').click();
    await expect.poll(() => page.getByTestId('tts-result').textContent(), { timeout: 15_000 }).toContain('终端应答');
    expect(terminals[0]!.commands.some((c) => c.message.msgId === 0x8300)).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('tts-form').waitFor({ state: 'detached' });

    const alarmId = await alarmIdOf(admin, v.vehicleId);
    expect(alarmId).toBe(Number(await popup.getAttribute('data-alarm-id')));
    raised = { alarmId: alarmId!, vehicleId: v.vehicleId, plate: v.vehiidno };

    // Closing the pop-up marks the alarms read.
    await page.getByTestId('alarm-popup-close').click();
    await page.locator('[data-testid=alarm-counter][data-unread="0"]').waitFor({ timeout: 5_000 });
    expect(await popup.count()).toBe(0);

    // The next alarm opens the pop-up again; its quick "handle" confirms it with a handling action.
    const other = await freeVehicle(2);
    await raiseOverspeed(other);
    await page.locator(`[data-testid=alarm-popup-title][data-plate="${other.vehiidno}"]`).waitFor({ timeout: 20_000 });
    const otherId = Number(await popup.getAttribute('data-alarm-id'));
    await page.getByTestId('alarm-btn-handle').click();
    await page.getByTestId('handle-action').click();
    await page.getByRole('option', { name: '无风险' }).click();
    await page.getByTestId('handle-submit').click();
    await page.getByTestId('handle-result').waitFor({ timeout: 15_000 });
    const handled = await e2e.server.api<{ dealStatus: number; dealType: number; dealUsername: string }>(`/service-safe/alarmInfo/${otherId}`, { token: admin });
    expect(handled.data).toMatchObject({ dealStatus: 2, dealType: 4, dealUsername: '系统管理员' });
    await page.keyboard.press('Escape');
    // The pop-up knows it is handled: no second "handle" offered.
    await expect.poll(() => page.getByTestId('alarm-btn-handle').count(), { timeout: 5_000 }).toBe(0);

    // Track playback opens around the alarm time (playback reads vehicleId, startTime, endTime).
    await page.getByTestId('alarm-btn-trackPlayback').click();
    await page.waitForURL((u) => u.pathname.endsWith('/monitor/trackPlaybackPage'));
    const q = new URL(page.url()).searchParams;
    expect(Number(q.get('vehicleId'))).toBe(other.vehicleId);
    expect(Number(q.get('startTime'))).toBeLessThan(Number(q.get('endTime')));
  });

  test('the safety officer confirms the alarm with a handling action and the page shows it manually processed, logged under his name', async () => {
    expect(raised).toBeDefined();
    const { alarmId } = raised!;
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    // The safety role holds no /global/alarm: the pop-up area is removed (spec §6).
    await openProcessing(page, alarmId);
    expect(await page.getByTestId('alarm-counter').count()).toBe(0);
    const row = page.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`);
    expect(await row.getByTestId('alarm-row-status').textContent()).toBe('未处理');

    await row.getByTestId('alarm-row-detail').click();
    await page.getByTestId('alarm-confirm').click();
    await page.getByTestId('handle-action').click();
    await page.getByRole('option', { name: '风险跟踪' }).click();
    await page.getByTestId('handle-content').fill('已电话联系司机减速');
    await page.getByTestId('handle-submit').click();
    // The terminal's answer shows (overspeed is a state bit 0x8203 cannot confirm: "nothing to send").
    await page.getByTestId('handle-result').waitFor({ timeout: 15_000 });

    await expect.poll(() => page.getByTestId('alarm-detail-status').textContent(), { timeout: 10_000 }).toBe('人工处理');
    await expect.poll(() => row.getByTestId('alarm-row-status').textContent(), { timeout: 10_000 }).toBe('人工处理');
    expect(await row.getByTestId('alarm-row-user').textContent()).toBe('刘安全');
    const log = page.locator('[data-testid=alarm-log-row][data-action=confirm]');
    await log.first().waitFor({ timeout: 10_000 });
    expect(await log.first().getByTestId('alarm-log-user').textContent()).toBe('刘安全');
    expect(await log.first().getByTestId('alarm-log-deal-type').textContent()).toBe('风险跟踪');
  });

  test('a user with the pop-up turned off only sees the counter; without the confirm right there is no confirm button, and the deal right handles a filtered vehicle in a batch', async () => {
    expect(raised).toBeDefined();
    // Registry ids: 17 /safeManagement, 18 alarmProcessingPage, 20 :deal (no 19 :confirm); 290/291 the alarm area.
    await createUserWithRole(e2e.server, { name: 'alarm viewer', permissionIds: [17, 18, 20, 290, 291] }, { username: 'alarmviewer', password: 'viewer123', realName: '王查看' });

    // This user turned the pop-up and the voice off: new alarms only count.
    const own = await e2e.server.token({ username: 'alarmviewer', password: 'viewer123' });
    expect((await e2e.server.api('/service-safe/usersetting/doUserAlarmPopSettingDetailPopup', { token: own, body: { popup: false } })).code).toBe(200);
    expect((await e2e.server.api('/service-safe/usersetting/doUserAlarmPopSettingDetailVoice', { token: own, body: { voice: false } })).code).toBe(200);

    const page = await e2e.newPage();
    await login(page, 'alarmviewer', 'viewer123');
    await page.locator('[data-testid=alarm-counter][data-popup=off][data-voice=off]').waitFor({ timeout: 20_000 });
    const third = await freeVehicle(1);
    await raiseOverspeed(third);
    await page.locator('[data-testid=alarm-counter][data-unread="1"]').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('alarm-popup').count()).toBe(0);

    // A range reaching back more than 3 months is refused before any call.
    // The page opens on its default query; count only what the bad range would send after it.
    const opened = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/service-safe/alarmInfo');
    await page.goto(consolePath(PROCESSING));
    await opened;
    let queried = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/service-safe/alarmInfo') queried++;
    });
    const old = new Date();
    old.setMonth(old.getMonth() - 4);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page.getByTestId('filter-start').fill(`${old.getFullYear()}-${pad(old.getMonth() + 1)}-${pad(old.getDate())}T00:00`);
    await page.getByTestId('alarm-search').click();
    expect(await page.getByTestId('alarm-query-problem').textContent()).toBe('只能查询最近3个月的报警');
    expect(queried).toBe(0);

    // More than 5000 matches: the server serves the first 5000 and says so; the page shows the spec's message.
    const alarmQuery = (u: URL) => u.pathname === '/service-safe/alarmInfo';
    await page.route(alarmQuery, (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: 200, msg: '', data: { records: [], total: 5000, current: 1, size: 500, capped: true, matched: 7345 } }) }),
    );
    await page.getByTestId('filter-start').fill(`${new Date().getFullYear()}-${pad(new Date().getMonth() + 1)}-${pad(new Date().getDate())}T00:00`);
    await page.getByTestId('alarm-search').click();
    await expect.poll(() => page.getByTestId('alarm-capped').textContent(), { timeout: 10_000 }).toContain('仅显示前5000条（共匹配 7345 条）');
    await page.unroute(alarmQuery);

    await openProcessing(page, raised!.alarmId);
    await page.locator(`[data-testid=alarm-row][data-alarm-id="${raised!.alarmId}"]`).getByTestId('alarm-row-detail').click();
    await page.getByTestId('alarm-detail').waitFor();
    await page.getByTestId('alarm-invalid').waitFor();
    expect(await page.getByTestId('alarm-confirm').count()).toBe(0);
    expect(await page.getByTestId('alarm-typical').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('alarm-detail').waitFor({ state: 'detached' });

    // The vehicle filter narrows the query to one vehicle; the deal right allows batch handling.
    await page.getByTestId('filter-vehicles').fill(third.vehiidno);
    await page.getByRole('option', { name: third.vehiidno }).click();
    await page.getByTestId('alarm-search').click();
    await expect.poll(() => page.getByTestId('alarm-total').getAttribute('data-total'), { timeout: 10_000 }).toBe('1');
    const row = page.getByTestId('alarm-row');
    expect(await row.getByTestId('alarm-row-status').textContent()).toBe('未处理');
    await row.locator('input[type=checkbox]').check();
    await page.getByTestId('alarm-batch').click();
    await page.getByTestId('batch-submit').click();
    await expect.poll(() => row.getByTestId('alarm-row-status').textContent(), { timeout: 10_000 }).toBe('人工处理');
    expect(await row.getByTestId('alarm-row-user').textContent()).toBe('王查看');
  });

  test('a vehicle’s alarm history (its menu) opens on the last 7 days, with the period shown and changeable', async () => {
    expect(raised).toBeDefined();
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.safety.username, ACCOUNTS.safety.password);
    await page.goto(consolePath(`${PROCESSING}?vehicleId=${raised!.vehicleId}&plate=${encodeURIComponent(raised!.plate)}`));
    await page.locator(`[data-testid=alarm-row][data-alarm-id="${raised!.alarmId}"]`).waitFor({ timeout: 15_000 });
    const pad = (n: number) => String(n).padStart(2, '0');
    const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    const weekAgo = new Date();
    weekAgo.setDate(weekAgo.getDate() - 6);
    expect(await page.getByTestId('filter-start').inputValue()).toBe(`${day(weekAgo)} 00:00`);
    expect(await page.getByTestId('filter-end').inputValue()).toBe(`${day(new Date())} 23:59`);
    // Only that vehicle's alarms.
    const plates = await page.getByTestId('alarm-row').evaluateAll((rows) => rows.map((r) => r.querySelector('td[data-accessor=plate]')?.textContent ?? r.textContent));
    expect(plates.length).toBeGreaterThan(0);
    expect(plates.every((p) => (p ?? '').includes(raised!.plate))).toBe(true);
    // The period is the operator's to change: a quick range replaces it.
    await page.getByTestId('filter-quick').click();
    await page.getByTestId('filter-quick-today').click();
    expect(await page.getByTestId('filter-start').inputValue()).toBe(`${day(new Date())} 00:00`);
  });

  test('the company’s linkage decides: an SOS switched to TTS only counts without a pop-up or tone, is spoken in the cab and logged under the platform', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    // The root company's row for 17001 (inherited by every fleet): no pop-up, no tone, speak it.
    const set = await e2e.server.api('/service-safe/companysetting/doCompanyAlarmSettingLinkage', {
      token: admin, body: { alarmTypes: [17001], popup: false, voice: false, tts: true },
    });
    expect(set.code).toBe(200);

    const page = await e2e.newPage();
    await signInAdminOnMap(page);
    const counter = page.locator('[data-testid=alarm-counter][data-voice=on][data-popup=on]');
    await counter.waitFor({ timeout: 20_000 });
    const v = await freeVehicle(3);
    const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
    terminals.push(t);
    await t.login();
    const now = Math.floor(Date.now() / 1000) * 1000;
    expect((await t.report(location({ lng: 121.5, lat: 31.2, time: now - 1000, speed: 30, alarm: SOS_BIT }))).result).toBe(0);

    // The driver hears it: 0x8300 with the TTS and display flags.
    await expect.poll(() => t.commands.filter((c) => c.message.msgId === 0x8300).map((c) => c.message), { timeout: 15_000 })
      .toEqual([expect.objectContaining({ flags: 0b1100, text: '平台提醒：紧急报警，请注意安全驾驶' })]);
    // The console counts it, but neither pops up nor sounds.
    await page.locator('[data-testid=alarm-counter][data-unread="1"]').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('alarm-popup').count()).toBe(0);
    expect(await counter.getAttribute('data-tones')).toBe('0');
    // Clicking the counter still shows it.
    await counter.click();
    await page.locator(`[data-testid=alarm-popup-title][data-plate="${v.vehiidno}"][data-alarm-type="17001"]`).waitFor({ timeout: 5_000 });
    const alarmId = Number(await page.getByTestId('alarm-popup').getAttribute('data-alarm-id'));

    // The processing log shows what the platform did and what the terminal answered.
    await openProcessing(page, alarmId);
    await page.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`).getByTestId('alarm-row-detail').click();
    const log = page.locator('[data-testid=alarm-log-row][data-action=linkageTts]');
    await log.waitFor({ timeout: 10_000 });
    expect(await log.getByTestId('alarm-log-user').textContent()).toBe('平台联动');
    expect(await log.textContent()).toContain('联动语音播报');
    expect(await log.textContent()).toContain('终端应答成功');
  });

  test('an alarm’s detail shows its evidence: the photo the terminal took for it, a map at the place, the address, and live video / track buttons', async () => {
    const v = await freeVehicle(4);
    const t = await TestTerminal.connect(gatewayPort(e2e.server), v.deviceNo);
    terminals.push(t);
    await t.login();
    // The scripted terminal answers snapshots (0x8801) with the simulator's camera (fixtures/video/photo-ch*.jpg).
    answerSnapshots(t, v.deviceNo);
    const now = Math.floor(Date.now() / 1000) * 1000;
    expect((await t.report(location({ lng: 121.5, lat: 31.2, time: now - 2000, speed: 40, alarm: 0 }))).result).toBe(0);
    expect((await t.report(location({ lng: 121.50012, lat: 31.20034, time: now - 1000, speed: 95, alarm: OVERSPEED_BIT }))).result).toBe(0);
    const admin = await e2e.server.token(ACCOUNTS.admin);
    let alarmId: number | undefined;
    await expect.poll(async () => (alarmId = await alarmIdOf(admin, v.vehicleId)), { timeout: 10_000 }).toBeDefined();
    // A photo taken for the alarm (what the pop-up's snapshot button does) lands in the alarm-media report.
    const snap = await e2e.server.api<{ items: unknown[] }>('/service-command/command/photoSnap', { token: admin, body: { vehicleId: v.vehicleId, alarmId, channels: [1] } });
    expect(snap.code).toBe(200);
    expect(snap.data.items.length).toBeGreaterThanOrEqual(1);

    // Addresses follow the user's reverse-geocoding setting (on for new users; the seeded admin has it off).
    const on = await e2e.server.api('/service-priv/user', { method: 'PUT', token: admin, body: { id: 1, geoInverse: true } });
    expect(on.code).toBe(200);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await openProcessing(page, alarmId!);
    const listed = page.locator(`[data-testid=alarm-row][data-alarm-id="${alarmId}"]`);
    // The list shows the place in words, not only coordinates.
    expect(await listed.getByTestId('alarm-row-place').textContent()).toContain('上海');
    await listed.getByTestId('alarm-row-detail').click();
    const evidence = page.getByTestId('alarm-evidence');
    await page.locator('[data-testid=alarm-evidence][data-state=ready]').waitFor({ timeout: 15_000 });
    expect(Number(await evidence.getAttribute('data-photos'))).toBeGreaterThanOrEqual(1);
    // The photo itself renders (a real JPEG through the authenticated route).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=alarm-evidence] img[data-testid=media-photo]');
      return img !== null && img.complete && img.naturalWidth > 0;
    }, undefined, { timeout: 20_000 });
    // A map at the alarm's place, with its canvas.
    const map = evidence.getByTestId('evidence-map');
    expect(Number(await map.getAttribute('data-lng'))).toBeCloseTo(121.50012, 4);
    await map.locator('canvas').first().waitFor({ timeout: 15_000 });
    expect(await evidence.getByTestId('evidence-address').textContent()).toContain('上海');
    // The track button opens playback around the alarm's moment (± 5 minutes).
    await evidence.getByTestId('evidence-track').click();
    await page.waitForURL((u) => u.pathname.endsWith('/monitor/trackPlaybackPage'));
    const q = new URL(page.url()).searchParams;
    expect(Number(q.get('vehicleId'))).toBe(v.vehicleId);
    expect(Number(q.get('endTime')) - Number(q.get('startTime'))).toBeLessThanOrEqual(10 * 60_000);
  });
});
