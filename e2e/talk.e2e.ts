/**
 * The alarm pop-up's voice buttons against the real stack: a scripted JT/T 808 terminal raises an
 * alarm; its media side (server/sim/intercom.ts, in this process so the test can read what it heard)
 * answers 0x9101 intercom / broadcast requests on the media port. Chromium gets a fake microphone
 * (a beeping tone) for the intercom; a refused microphone is simulated by a getUserMedia that rejects.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { location, TestTerminal } from '../server/gateway/terminal-client.ts';
import { simCanData } from '../server/sim/can.ts';
import { SimIntercom } from '../server/sim/intercom.ts';
import { ACCOUNTS, consolePath, gatewayPort as harnessGatewayPort, login, useE2E } from './harness.ts';

// No simulated fleet (its random alarms would race the scripted ones in the pop-up).
const e2e = useE2E(
  { seedVehicles: 12, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } },
  ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required'],
);

const OVERSPEED_BIT = 1 << 1;
const terminals: TestTerminal[] = [];
const intercom = new SimIntercom();

afterAll(async () => {
  intercom.close();
  await Promise.all(terminals.map((t) => t.close()));
});

const gatewayPort = (): number => harnessGatewayPort(e2e.server);

interface Realtime { vehicleId: number; vehiidno: string; deviceNo: string }

async function vehicle(rank: number): Promise<Realtime> {
  const token = await e2e.server.token(ACCOUNTS.admin);
  const page = await e2e.server.api<{ records: Realtime[] }>('/service-monitor/monitor/v3/selectreal', { token, body: { current: 1, size: 100 } });
  const sorted = [...page.data.records].sort((a, b) => b.vehicleId - a.vehicleId);
  return sorted[rank]!;
}

/** A terminal for the vehicle that raises an overspeed alarm and whose media side answers intercom and broadcast requests. */
async function raiseAlarm(v: Realtime): Promise<TestTerminal> {
  const t = await TestTerminal.connect(gatewayPort(), v.deviceNo);
  terminals.push(t);
  await t.login();
  let seen = 0;
  const poll = setInterval(() => {
    for (; seen < t.commands.length; seen++) {
      const m = t.commands[seen]!.message;
      if (m.msgId === 0x9101 && (m.dataType === 2 || m.dataType === 4)) {
        void intercom.start({ host: m.host, port: m.tcpPort, sim: v.deviceNo, simLength: 6, channel: m.channel, mode: m.dataType === 2 ? 'talk' : 'broadcast' });
      }
      if (m.msgId === 0x9102 && m.command === 4) intercom.stop(v.deviceNo);
    }
  }, 10);
  void t.closed.then(() => clearInterval(poll));
  const now = Math.floor(Date.now() / 1000) * 1000;
  await t.report(location({ lng: 121.5, lat: 31.2, time: now - 2000, speed: 40, alarm: 0 }));
  await t.report(location({ lng: 121.5001, lat: 31.2003, time: now - 1000, speed: 95, alarm: OVERSPEED_BIT }));
  return t;
}

async function popupFor(page: Page, v: Realtime): Promise<void> {
  await page.locator(`[data-testid=alarm-popup-title][data-plate="${v.vehiidno}"]`).waitFor({ timeout: 20_000 });
  // Sign-in lands on the live map, where the pop-up docks compact: 展开 shows every button.
  const expand = page.locator('[data-testid=alarm-popup-expand][data-expanded=false]');
  if ((await expand.count()) > 0) await expand.click();
}

async function signedIn(deny = false): Promise<Page> {
  const page = await e2e.newPage();
  if (deny) {
    // What a browser does when the user refuses the microphone.
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
  }
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.locator('[data-testid=alarm-counter][data-popup=on]').waitFor({ timeout: 20_000 });
  return page;
}

describe('alarm pop-up voice buttons', () => {
  test('talk opens a two-way intercom: the microphone reaches the terminal, the terminal is heard, hang-up closes it with 0x9102 command 4', async () => {
    const page = await signedIn();
    const v = await vehicle(0);
    const t = await raiseAlarm(v);
    await popupFor(page, v);
    await page.getByTestId('alarm-btn-talk').click();
    await page.locator('[data-testid=talk-panel][data-state=talking]').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('talk-state').textContent()).toBe('对讲中');
    expect(t.commands.find((c) => c.message.msgId === 0x9101)!.message).toMatchObject({ dataType: 2, channel: 1 });
    // The fake microphone's audio arrives at the terminal as G.711A 1078 packets.
    await expect.poll(() => intercom.heard(v.deviceNo)?.packets ?? 0, { timeout: 15_000 }).toBeGreaterThan(20);
    const heard = intercom.heard(v.deviceNo)!;
    expect(heard).toMatchObject({ mode: 'talk', payloadTypes: [6], addressedRight: true, timestampsInOrder: true });
    // Chromium's fake microphone beeps once a second: sound, not only silence (0xD5 / 0x55), arrives.
    await expect.poll(() => intercom.heard(v.deviceNo)!.audio.some((b) => b !== 0xd5 && b !== 0x55), { timeout: 15_000 }).toBe(true);
    // The terminal's microphone plays in the browser.
    await expect.poll(async () => Number(await page.getByTestId('talk-counters').getAttribute('data-received')), { timeout: 10_000 }).toBeGreaterThan(5);

    await page.getByTestId('talk-hangup').click();
    await page.locator('[data-testid=talk-panel][data-state=stopped]').waitFor();
    await expect.poll(() => t.commands.some((c) => c.message.msgId === 0x9102 && 'command' in c.message && c.message.command === 4), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId('talk-error').count()).toBe(0);
  });

  test('without the microphone the intercom says the spec’s message and no terminal is asked', async () => {
    const page = await signedIn(true);
    const v = await vehicle(1);
    const t = await raiseAlarm(v);
    await popupFor(page, v);
    await page.getByTestId('alarm-btn-talk').click();
    await page.locator('[data-testid=talk-panel][data-state=stopped][data-detail=noMicrophone]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('talk-error').textContent()).toBe('对讲未开启或连接失败');
    expect(t.commands.some((c) => c.message.msgId === 0x9101)).toBe(false);
  });

  test('phone reminder makes the terminal call back (0x8400), and the ring reminder plays on its speaker', async () => {
    const page = await signedIn();
    const v = await vehicle(2);
    const t = await raiseAlarm(v);
    await popupFor(page, v);
    await page.getByTestId('alarm-btn-phoneReminder').click();
    await page.getByTestId('phone-number').fill('abc');
    await page.getByTestId('phone-call').click();
    expect(await page.getByTestId('phone-result').textContent()).toBe('请输入正确的电话号码（3–20位数字）');
    await page.getByTestId('phone-number').fill('138 0013 8000');
    await page.getByTestId('phone-call').click();
    await expect.poll(() => page.getByTestId('phone-result').textContent(), { timeout: 10_000 }).toContain('终端应答成功');
    expect(t.commands.find((c) => c.message.msgId === 0x8400)!.message).toEqual({ msgId: 0x8400, flag: 0, phone: '13800138000' });
    await page.keyboard.press('Escape');
    await page.getByTestId('phone-form').waitFor({ state: 'detached' });

    await page.getByTestId('alarm-btn-musicReminder').click();
    await page.getByText('铃声已下发到终端，播放约 3 秒').waitFor({ timeout: 15_000 });
    expect(t.commands.find((c) => c.message.msgId === 0x9101)!.message).toMatchObject({ dataType: 4 });
    await expect.poll(() => intercom.heard(v.deviceNo)?.bytes ?? 0, { timeout: 10_000 }).toBeGreaterThan(4000);
    expect(intercom.heard(v.deviceNo)!.mode).toBe('broadcast');
  });

  test('a video wall tile has the same intercom', async () => {
    const page = await signedIn();
    const v = await vehicle(4);
    const t = await raiseAlarm(v);
    // The wall opens only cameras the device has: this terminal reports one (0x1003 to the platform's 0x9003).
    t.send({ msgId: 0x1003, audioEncoding: 6, audioChannels: 1, samplingRate: 0, samplingBits: 0, audioFrameLength: 320, audioOutput: true, videoEncoding: 98, maxAudioChannels: 1, maxVideoChannels: 1 });
    const token = await e2e.server.token(ACCOUNTS.admin);
    await expect.poll(async () => (await e2e.server.api<{ source: string }>(`/service-priv/channel/device?vehicleId=${v.vehicleId}`, { token })).data.source).toBe('terminal');
    await page.goto(consolePath(`/monitor/videoMonitor?vehicleId=${v.vehicleId}&plate=${encodeURIComponent(v.vehiidno)}&channels=1`));
    await page.getByTestId('video-talk-0').click();
    await page.locator('[data-testid=talk-panel][data-state=talking]').waitFor({ timeout: 20_000 });
    await expect.poll(() => intercom.heard(v.deviceNo)?.packets ?? 0, { timeout: 15_000 }).toBeGreaterThan(5);
    await page.keyboard.press('Escape');
    await page.getByTestId('talk-panel').waitFor({ state: 'detached' });
    // Closing the modal hangs up.
    await expect.poll(() => t.commands.some((c) => c.message.msgId === 0x9102 && 'command' in c.message && c.message.command === 4), { timeout: 10_000 }).toBe(true);
  });

  test('the OBD buttons show the engine as the terminal reported it over the CAN bus (J1939 for large vehicles, OBD-II otherwise)', async () => {
    const page = await signedIn();
    const v = await vehicle(3);
    const t = await raiseAlarm(v);
    await popupFor(page, v);
    // A truck at 60 km/h with 250 L left of 400 L: engine 1,740 rpm (server/sim/can.ts).
    const upload = simCanData(v.deviceNo, 400, location({ lng: 121.5, lat: 31.2, time: Date.now(), speed: 60, status: 0x3, fuel: 250 }))!;
    expect((await t.request(upload)).result).toBe(0);
    await page.getByTestId('alarm-btn-obdLargeVehicle').click();
    await page.locator('[data-testid=obd-panel][data-protocol=j1939]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('obd-engineRpm').textContent()).toBe('1740 rpm');
    expect(await page.getByTestId('obd-fuelPct').textContent()).toBe('62.4 %');
    expect(await page.getByTestId('obd-engineHours').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('obd-panel').waitFor({ state: 'detached' });
    await page.getByTestId('alarm-btn-obd').click();
    await page.locator('[data-testid=obd-panel][data-protocol=obd2]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('obd-coolantC').textContent()).toBe('88 °C');
    expect(await page.getByTestId('obd-engineHours').count()).toBe(0);
  });
});
