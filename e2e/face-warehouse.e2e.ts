/**
 * The face warehouse in Chromium against the real server: two vehicles, each with a driver who has a
 * photo (and one vehicle with no driver), are ticked on /information/vehicle and synced with 同步人脸库;
 * the dialog answers per vehicle (enrolled, or skipped and why); then
 * /operation/faceRecognitionManagement/faceWarehouse lists those drivers' faces (thumbnail fetched with
 * the session, the vehicle they are enrolled on, 已入库), and a new photo turns the row 照片已更新待同步.
 */
import { describe, expect, test } from 'vitest';
import { vinCheckDigit } from '../domain/fleet/vin.ts';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E();
/** A 1×1 PNG, and another (a different photo: its bytes differ). */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG2 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function vin(n: number): string {
  const draft = `LFV2A21K${'0'}7${String(400000 + n).padStart(7, '0')}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

describe('face warehouse', () => {
  test('同步人脸库 on ticked vehicles enrols their drivers, and the warehouse lists their faces', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const call = async <T>(path: string, method: 'POST' | 'GET', body?: unknown) => {
      const r = await e2e.server.api<T>(path, { method, token: admin, body });
      if (r.code !== 200) throw new Error(`${method} ${path}: ${r.code} ${r.msg}`);
      return r.data;
    };
    const plates = ['浙R7E201', '浙R7E202', '浙R7E203'];
    const ids: number[] = [];
    for (const [i, plate] of plates.entries()) ids.push((await call<{ id: number }>('/service-priv/vehicle', 'POST', { vehiidno: plate, vin: vin(i) })).id);
    const ann = (await call<{ id: number }>('/service-priv/driver', 'POST', { name: '人脸测试甲', vehicleIds: [ids[0]] })).id;
    const bob = (await call<{ id: number }>('/service-priv/driver', 'POST', { name: '人脸测试乙', vehicleIds: [ids[1]] })).id;
    await call('/service-priv/driver/photo', 'POST', { id: ann, file: PNG });
    await call('/service-priv/driver/photo', 'POST', { id: bob, file: PNG });

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/information/vehicle'));
    const list = page.locator('[data-page="information-vehicle"]');
    await list.locator('tbody tr[data-row-id]').first().waitFor();
    await list.getByPlaceholder('车牌号 / 车架号 / 设备号').fill('浙R7E20');
    await list.getByPlaceholder('车牌号 / 车架号 / 设备号').press('Enter');
    await expect.poll(() => list.locator('tbody tr[data-row-id]').count()).toBe(3);
    await page.getByTestId('vehicle-select-page').check();
    await page.getByTestId('vehicle-face-sync').click();

    const dialog = page.getByTestId('face-sync');
    await dialog.getByTestId('face-sync-summary').waitFor();
    expect(await dialog.getByTestId('face-sync-summary').textContent()).toBe('入库 2 人，未变化 0 人，跳过 1 项');
    const rowOf = (id: number) => dialog.locator(`tr[data-vehicle="${id}"]`);
    expect(await rowOf(ids[0]!).textContent()).toContain('人脸测试甲 已入库');
    expect(await rowOf(ids[1]!).textContent()).toContain('人脸测试乙 已入库');
    expect(await rowOf(ids[2]!).textContent()).toContain('车辆未绑定司机');
    await page.getByTestId('face-sync-close').click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto(consolePath('/operation/faceRecognitionManagement/faceWarehouse'));
    const warehouse = page.locator('[data-page="operation-face-warehouse"]');
    const search = warehouse.getByPlaceholder('司机姓名 / 驾驶证号 / 从业资格证号 / 车牌号');
    await search.fill('人脸测试');
    await search.press('Enter');
    await expect.poll(() => warehouse.locator('tbody tr[data-row-id]').count(), { timeout: 15_000 }).toBe(2);
    for (const [id, name, plate] of [[ann, '人脸测试甲', plates[0]], [bob, '人脸测试乙', plates[1]]] as const) {
      const row = warehouse.locator(`tbody tr[data-row-id="${id}"]`);
      expect(await row.getByTestId('face-driver').textContent()).toBe(name);
      expect(await row.getByTestId('face-vehicles').textContent()).toBe(plate);
      expect(await row.locator('[data-state]').textContent()).toBe('已入库');
      // The thumbnail is the driver's photo, fetched with the session and shown through an object URL.
      await row.locator('[data-testid="face-thumb"] img').waitFor();
      expect(await row.locator('[data-testid="face-thumb"] img').getAttribute('src')).toMatch(/^blob:/);
    }

    // A new photo for one driver: that face reads 照片已更新待同步 until it is synced again.
    await call('/service-priv/driver/photo', 'POST', { id: ann, file: PNG2 });
    await warehouse.getByTestId('search').click();
    await expect.poll(() => warehouse.locator(`tbody tr[data-row-id="${ann}"] [data-state]`).textContent()).toBe('照片已更新待同步');
    expect(await warehouse.locator(`tbody tr[data-row-id="${bob}"] [data-state]`).textContent()).toBe('已入库');
  });
});
