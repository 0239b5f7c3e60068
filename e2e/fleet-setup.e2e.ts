/**
 * A fleet from nothing (issue 15 "done when"): a fresh database without demo data, simulated fleet or
 * auto-registration. The first administrator signs in with the password the server printed once, and
 * builds the fleet in the console alone: a company, a device type, a device (013800000042), a vehicle
 * bound to it with a valid VIN, a driver. A simulated terminal with that number then registers, is
 * accepted, and its vehicle drives on /monitor/index; the card its reader reports signs the driver in;
 * a terminal with an unknown number is refused and listed in the device page's registration refusals.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { vinCheckDigit } from '../domain/fleet/vin.ts';
import { startSimulator, type RunningSimulator } from '../server/sim/simulator.ts';
import { simDriverCard } from '../server/sim/driver.ts';
import type { SimTerminalEvent } from '../server/sim/terminal.ts';
import { VehicleProgram } from '../server/sim/vehicle.ts';
import { consolePath, gatewayPort, login, useE2E } from './harness.ts';

const e2e = useE2E({ env: { SEED: '0', SIM_VEHICLES: '0', GATEWAY_AUTO_REGISTER: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0', MEDIA_PLAYBACK_PORT: '0' } });

const COMPANY = '顺风测试运输公司';
const DEVICE_TYPE = 'E2E 车载终端 T8';
const DEVICE_NO = '013800000042';
const UNKNOWN_NO = '013899999999';
const PLATE = '粤B4E2E1';
/** The driver whose qualification card the simulated terminal reports (0x0702) after it authenticates. */
const CARD = simDriverCard(DEVICE_NO, 0)!;
const DRIVER = CARD.name;
/** A VIN of valid characters with its check digit in position 9 (GB 16735). */
const VIN = ((body: string) => `${body.slice(0, 8)}${vinCheckDigit(body)}${body.slice(9)}`)('LGBH52E0XNY000042');

const sims: RunningSimulator[] = [];
afterAll(async () => {
  await Promise.all(sims.map((s) => s.stop()));
});

/** The password `server/main.ts` printed once for the first administrator. */
function printedAdminPassword(): string {
  const m = /^first administrator: admin \/ (\S+) — change it$/m.exec(e2e.server.logs());
  if (!m) throw new Error(`no first-administrator line in the server output:\n${e2e.server.logs().slice(0, 3000)}`);
  return m[1]!;
}

let adminPassword: string | undefined;
async function signIn(): Promise<Page> {
  adminPassword ??= printedAdminPassword();
  const page = await e2e.newPage();
  await login(page, 'admin', adminPassword);
  return page;
}

/** Picks `option` in the Mantine Select labelled `label` inside `scope` (typed first when `search` is given). */
async function choose(page: Page, scope: Locator, label: string | RegExp, option: string | RegExp, search?: string): Promise<void> {
  const input = scope.getByLabel(label).first();
  // Clicking the option already chosen would clear it (Mantine's allowDeselect).
  const current = await input.inputValue();
  if (typeof option === 'string' ? current === option : option.test(current)) return;
  await input.click();
  if (search !== undefined) await input.fill(search);
  await page.getByRole('listbox').getByRole('option', { name: option }).first().click();
}

/** Opens a list page, picks `company` in its tree when given, and opens its 新增 form (`formId` its test id). */
async function openCreateForm(page: Page, route: string, pageId: string, formId: string, company?: string): Promise<{ list: Locator; form: Locator }> {
  await page.goto(consolePath(route));
  const list = page.locator(`[data-page="${pageId}"]`);
  if (company !== undefined) await page.getByTestId('company-tree').getByText(company, { exact: true }).click();
  await list.getByRole('button', { name: '新增', exact: true }).click();
  return { list, form: page.getByTestId(formId) };
}

/** Saves a form of the kit's drawer and waits until it closed. */
async function save(page: Page, form: Locator, formId: string): Promise<void> {
  await page.getByTestId(`${formId}-submit`).click();
  await form.waitFor({ state: 'detached' });
}

/**
 * A simulated vehicle that is driving now and keeps driving for the next minutes (the simulator's
 * vehicles park at night and between trips): the first seed whose program says so. Stepped on a copy;
 * the terminal gets a fresh program of the same seed, so it does exactly that.
 */
function drivingProgram(deviceNo: string, plate: string): VehicleProgram {
  const make = (seed: number, startMs: number) => new VehicleProgram({
    seed, deviceNo, plate, startMs, intervalMs: 1000, parkedIntervalMs: 60_000, edition2019Share: 0, firstReportAfterMs: 3000,
    rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0, driftPerDay: 0, adasPerDrivingHour: 0, dmsPerDrivingHour: 0, sosPerDay: 0, cameraFaultPerDay: 0 },
  });
  const now = Date.now();
  for (let seed = 1; seed < 5000; seed++) {
    const probe = make(seed, now);
    let moving = true;
    for (let i = 0; i < 240 && moving; i++) {
      probe.step();
      moving = probe.position.speed > 10;
    }
    if (moving) return make(seed, now);
  }
  throw new Error('no seed drives for the next four minutes');
}

/** The device 013800000042 in the new company (picked in the tree), of the new type; a number with a letter is named under its field first. */
async function createDevice(page: Page): Promise<void> {
  const { list, form } = await openCreateForm(page, '/information/device', 'information-device', 'device-form', COMPANY);
  await form.locator('input[name=deviceNo]').fill(`${DEVICE_NO.slice(0, 11)}X`);
  await page.getByTestId('device-form-submit').click();
  await form.getByText('设备号为 12 位数字（终端手机号，不足 12 位前面补 0）').last().waitFor();
  await form.locator('input[name=deviceNo]').fill(DEVICE_NO);
  await form.locator('input[name=terminalId]').fill('T000042');
  await form.locator('input[name=model]').fill('FLEETSIM-808');
  await form.locator('input[name=maker]').fill('模拟终端厂');
  await choose(page, form, '设备类型', DEVICE_TYPE);
  await form.locator('input[name=channelCount]').fill('4');
  await save(page, form, 'device-form');
  await list.locator('tr', { hasText: DEVICE_NO }).first().waitFor();
}

/** The vehicle, in the new company (picked in the tree), bound to the device, with a VIN the form checks as it is typed. */
async function createVehicle(page: Page): Promise<void> {
  const { list, form } = await openCreateForm(page, '/information/vehicle', 'information-vehicle', 'vehicle-form', COMPANY);
  await form.locator('input[name=vehiidno]').fill(PLATE);
  await choose(page, form, '车牌颜色', '蓝色');
  // A wrong check digit is named under the field before anything is sent.
  const wrongDigit = VIN[8] === '0' ? '1' : '0';
  await form.locator('input[name=vin]').fill(`${VIN.slice(0, 8)}${wrongDigit}${VIN.slice(9)}`);
  await form.getByText('车架号(VIN)第9位校验位不正确').waitFor();
  await form.locator('input[name=vin]').fill(VIN);
  await form.getByText('车架号(VIN)第9位校验位不正确').waitFor({ state: 'detached' });
  await choose(page, form, '车辆类型', '货车');
  // The device picker offers devices installed on no vehicle, searched on the server.
  await choose(page, form, '设备号', new RegExp(DEVICE_NO), DEVICE_NO.slice(0, 8));
  await save(page, form, 'vehicle-form');
  await list.getByRole('cell', { name: PLATE, exact: true }).first().waitFor();
  await list.getByRole('cell', { name: DEVICE_NO }).first().waitFor();
}

/** A driver of the new company who drives the vehicle, with the certificate number the terminal's card reader reports. */
async function createDriver(page: Page): Promise<void> {
  const { list, form } = await openCreateForm(page, '/information/driver', 'information-driver', 'driver-form');
  await form.locator('input[name=name]').fill(DRIVER);
  await choose(page, form, '所属公司', new RegExp(COMPANY));
  await form.locator('input[name=licenceNo]').fill('440301199001011234');
  await choose(page, form, '准驾车型', 'A2');
  await form.locator('input[name=phone]').fill('13800138042');
  await form.locator('input[name=certNo]').fill(CARD.certificate);
  await choose(page, form, '驾驶车辆', new RegExp(PLATE), PLATE.slice(0, 3));
  await save(page, form, 'driver-form');
  const row = list.locator('tr', { hasText: DRIVER });
  await row.first().waitFor();
  await expect.poll(() => row.first().textContent()).toContain(PLATE);
}

/** The device page: the entered device online on its vehicle, and the refused number in 注册拒绝, ready to be added. */
async function expectRefusalShown(page: Page, deviceNo: string): Promise<void> {
  await page.goto(consolePath('/information/device'));
  const list = page.locator('[data-page="information-device"]');
  const entered = list.locator('tr', { hasText: DEVICE_NO }).first();
  await expect.poll(() => entered.textContent(), { timeout: 10_000 }).toContain(PLATE);
  expect(await entered.textContent()).toContain('在线');
  // The refused number is no device: registration refusals are the only place it shows.
  expect(await list.locator('tr', { hasText: deviceNo }).count()).toBe(0);
  await page.getByTestId('device-refusals-open').click();
  const refused = page.getByTestId('device-refusals-table').locator(`[data-device-no="${deviceNo}"]`);
  await refused.waitFor({ timeout: 10_000 });
  expect(await refused.textContent()).toContain('4 无该终端');
  // 添加为设备 opens the device form with the number filled in.
  await refused.getByTestId('device-refusal-add').click();
  expect(await page.getByTestId('device-form').locator('input[name=deviceNo]').inputValue()).toBe(deviceNo);
}

describe('a fleet from nothing', () => {
  test('the first administrator builds company, device type, device, vehicle and driver in the console; the terminal registers and its vehicle drives on the monitor', async () => {
    const page = await signIn();

    // Company under the root the server created.
    // The tree holds the root company the server created; the list its (not yet existing) subsidiaries.
    const { list: companies, form: companyForm } = await openCreateForm(page, '/information/company', 'information-company', 'company-form');
    await companies.getByText('我的公司', { exact: true }).first().waitFor();
    await choose(page, companyForm, /上级公司/, '我的公司');
    await companyForm.locator('input[name=name]').fill(COMPANY);
    await companyForm.locator('input[name=contact]').fill('陈经理');
    await save(page, companyForm, 'company-form');
    await companies.getByRole('cell', { name: COMPANY, exact: true }).waitFor();

    // Device type.
    const { list: types, form: typeForm } = await openCreateForm(page, '/information/deviceType', 'information-device-type', 'device-type-form');
    await typeForm.locator('input[name=devTypeName]').fill(DEVICE_TYPE);
    await choose(page, typeForm, /协议/, /2013/);
    await typeForm.locator('input[name=makerId]').fill('SIMFL');
    await typeForm.locator('input[name=model]').fill('FLEETSIM-808');
    await save(page, typeForm, 'device-type-form');
    await types.getByRole('cell', { name: DEVICE_TYPE, exact: true }).waitFor();

    // Device, vehicle (bound to the device) and driver (driving the vehicle), each on its own page.
    await createDevice(page);
    await createVehicle(page);
    await createDriver(page);

    // The terminal with that number: registers (0x8100 result 0), authenticates, drives and reports every second.
    const events: { deviceNo: string; e: SimTerminalEvent }[] = [];
    const onEvent = (deviceNo: string, e: SimTerminalEvent) => events.push({ deviceNo, e });
    const kinds = (no: string) => events.filter((x) => x.deviceNo === no).map((x) => x.e.kind);
    sims.push(startSimulator({
      port: gatewayPort(e2e.server), rateHz: 1, refusedRetryS: 5, onEvent,
      terminals: [{ deviceNo: DEVICE_NO, program: drivingProgram(DEVICE_NO, PLATE), registration: { model: 'FLEETSIM-808', terminalId: 'T000042', plateColor: 1 } }],
    }));
    await expect.poll(() => kinds(DEVICE_NO), { timeout: 20_000 }).toEqual(['registered', 'authenticated']);

    // The monitor: the one vehicle of the fleet is online and driving, and its position changes.
    const token = await e2e.server.token({ username: 'admin', password: adminPassword! });
    // Alarms of the drive (a driver over the limit) would dock the pop-up beside the map: not this scene's subject.
    expect((await e2e.server.api('/service-safe/usersetting/doUserAlarmPopSettingDetailPopup', { token, body: { popup: false } })).code).toBe(200);
    await page.goto(consolePath('/monitor/index'));
    await page.locator('[data-testid=connection][data-state=open]').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=vehicle-list]')?.getAttribute('data-length')) === 1, null, { timeout: 30_000 });
    const row = page.getByTestId('vehicle-row').first();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain(PLATE);
    await expect.poll(() => page.getByTestId('count-online').textContent(), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => page.getByTestId('count-driving').textContent(), { timeout: 15_000 }).toBe('1');
    const position = async (): Promise<string> => {
      await row.getByRole('button').click();
      const card = page.getByTestId('details-card');
      await expect.poll(() => card.getByTestId('details-plate').textContent(), { timeout: 10_000 }).toBe(PLATE);
      const text = (await card.textContent()) ?? '';
      await card.getByRole('button', { name: '关闭' }).first().click();
      await card.waitFor({ state: 'detached' });
      const m = /(\d+\.\d{6}), (\d+\.\d{6})/.exec(text);
      if (!m) throw new Error(`no position on the details card: ${text}`);
      return `${m[1]}, ${m[2]}`;
    };
    const first = await position();
    await expect.poll(position, { timeout: 20_000, interval: 2000 }).not.toBe(first);

    // The card the terminal read (0x0702) signed the driver in on that vehicle: the driver page lists it.
    await page.goto(consolePath('/information/driver'));
    await page.locator('[data-page="information-driver"]').locator('tr', { hasText: DRIVER }).first().getByTestId('driver-signins-open').click();
    const signIns = page.getByTestId('driver-signins');
    await expect.poll(() => signIns.textContent(), { timeout: 15_000 }).toContain(PLATE);
    expect(await signIns.textContent()).toContain('签到中');
    await page.keyboard.press('Escape');

    // 同步车牌到终端: the saved plate goes to the online terminal (0x8103), which accepts it.
    await page.goto(consolePath('/information/vehicle'));
    await page.locator('[data-page="information-vehicle"]').locator('tr', { hasText: PLATE }).first().getByRole('button', { name: '修改', exact: true }).click();
    await page.getByTestId('vehicle-form').getByTestId('vehicle-sync-cab').click();
    await page.getByText(`终端已接受车牌 ${PLATE}`).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');

    // A terminal whose number nobody entered: refused with result 4, and listed on the device page.
    sims.push(startSimulator({ port: gatewayPort(e2e.server), rateHz: 1, refusedRetryS: 600, onEvent, terminals: [{ deviceNo: UNKNOWN_NO, plate: '粤B9X999' }], rates: { neverOnlineShare: 0 } }));
    await expect.poll(() => events.find((x) => x.deviceNo === UNKNOWN_NO)?.e, { timeout: 20_000 }).toMatchObject({ kind: 'registerRefused', result: 4 });
    expect(kinds(UNKNOWN_NO)).not.toContain('authenticated');
    await expectRefusalShown(page, UNKNOWN_NO);
  }, 240_000); // six pages and a drive on a shared machine
});
