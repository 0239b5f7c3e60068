/**
 * Face recognition results in Chromium against the real server (issue 19): a scripted terminal
 * reports a driver identity result (0x0E10: a seeded library driver's face id, similarity, the photo it
 * took); /operation/faceRecognitionManagement/faceRecognitionResult lists it beside the driver's library
 * photo; 误报 marks it (who and when shown), and the 误报 filter finds it.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { TestTerminal } from '../server/gateway/terminal-client.ts';
import { ACCOUNTS, consolePath, gatewayPort, login, useE2E } from './harness.ts';

const e2e = useE2E({ seedVehicles: 8, env: { SIM_VEHICLES: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0' } });
const terminals: TestTerminal[] = [];
/** A 1×1 PNG: the photo the terminal took. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
});

describe('face recognition results', () => {
  test('a terminal’s identity result is listed with both photos, and 误报 marks it', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const get = async <T>(path: string) => {
      const r = await e2e.server.api<T>(path, { method: 'GET', token: admin });
      if (r.code !== 200) throw new Error(`GET ${path}: ${r.code} ${r.msg}`);
      return r.data;
    };
    // A seeded library face and a vehicle it is enrolled on (the demo seed enrols each vehicle's driver).
    const faces = await get<{ records: { driverId: number; name: string; certNo: string; vehicles: { vehicleId: number; vehiidno: string }[] }[] }>('/service-priv/facewarehouse?current=1&size=20');
    const face = faces.records.find((f) => f.certNo !== '' && f.vehicles.length > 0)!;
    expect(face).toBeDefined();
    const devices = await get<{ records: { vehicleId: number; plate: string; deviceNo: string }[] }>(`/service-priv/facerecognition/device?current=1&size=20&keyword=${encodeURIComponent(face.vehicles[0]!.vehiidno)}`);
    const device = devices.records.find((d) => d.vehicleId === face.vehicles[0]!.vehicleId)!;

    const t = await TestTerminal.connect(gatewayPort(e2e.server), device.deviceNo);
    terminals.push(t);
    await t.login();
    const now = Math.floor(Date.now() / 1000) * 1000;
    const reply = await t.request({
      msgId: 0x0e10, result: 0, similarity: 93, threshold: 80, trigger: 0, time: now - 60_000, lat: 30_274_000, lng: 120_155_000,
      faceId: face.certNo, name: face.name, photoType: 1, photo: new Uint8Array(PNG),
    });
    expect(reply.result).toBe(0);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/operation/faceRecognitionManagement/faceRecognitionResult'));
    const list = page.locator('[data-page="operation-face-result"]');
    const search = list.getByPlaceholder('车牌号 / 设备号');
    await search.fill(device.plate);
    await search.press('Enter');
    await expect.poll(() => list.locator('tbody tr[data-row-id]').count(), { timeout: 15_000 }).toBe(1);
    const row = list.locator('tbody tr[data-row-id]').first();
    expect(await row.getByTestId('face-result-plate').textContent()).toBe(device.plate);
    expect(await row.getByTestId('face-result-driver').textContent()).toBe(face.name);
    expect(await row.getByTestId('face-result-kind').textContent()).toBe('通过');
    expect(await row.getByTestId('face-result-score').textContent()).toBe('93 / 80');
    // The captured photo and the library photo, both fetched with the session (object URLs).
    await row.locator('[data-testid="face-captured"][data-loaded="true"]').waitFor();
    expect(await row.getByTestId('face-captured').getAttribute('src')).toMatch(/^blob:/);
    await row.locator('[data-testid="face-library"] img').waitFor();
    expect(await row.locator('[data-testid="face-library"] img').getAttribute('src')).toMatch(/^blob:/);
    expect(await row.getByTestId('face-result-mistake').count()).toBe(0);

    // 误报: the dialog shows both photos; the mark shows on the row with who set it.
    await row.getByTestId('face-result-mark').click();
    await page.getByTestId('face-mistake-remark').fill('不是本人');
    await page.getByTestId('face-mistake-confirm').click();
    await row.getByTestId('face-result-mistake').waitFor();
    expect(await row.getByTestId('face-result-mistake-by').textContent()).toContain('标记为误报');
    expect(await row.getByTestId('face-result-unmark').count()).toBe(1);

    // The 误报 filter: 仅误报 finds it, 未标记 does not.
    await list.getByTestId('face-result-mistake-filter').click();
    await page.getByRole('option', { name: '未标记' }).click();
    await list.getByTestId('face-result-search').click();
    await expect.poll(() => list.locator('tbody tr[data-row-id]').count(), { timeout: 15_000 }).toBe(0);
    await list.getByTestId('face-result-mistake-filter').click();
    await page.getByRole('option', { name: '仅误报' }).click();
    await list.getByTestId('face-result-search').click();
    await expect.poll(() => list.locator('tbody tr[data-row-id]').count(), { timeout: 15_000 }).toBe(1);
    const stored = await get<{ records: { mistake: boolean; mistakeRemark: string }[] }>(`/service-priv/facerecognition/result?current=1&size=5&plate=${encodeURIComponent(device.plate)}`);
    expect(stored.records[0]).toMatchObject({ mistake: true, mistakeRemark: '不是本人' });
  });
});
