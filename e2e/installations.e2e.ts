/**
 * Installation records (/information/vehicle_installed) in Chromium against the real server: a device
 * replaced on a seeded vehicle through 新增安装记录 (vehicle and unbound-device pickers, a fake photo
 * refused by its bytes before upload, a real one sent), the record in the list with its kind and
 * devices, its photo in the detail drawer, and a delete that leaves the binding as it is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const e2e = useE2E();
const ROUTE = '/information/vehicle_installed';
const NEW_DEVICE = '019900000001';
const dir = mkdtempSync(path.join(tmpdir(), 'e2e-installations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real 2×2 PNG (so the browser can draw the thumbnail). */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

describe('installation records', () => {
  test('replace a seeded vehicle\'s device with photos, read it back, delete the record only', async () => {
    const admin = await e2e.server.token(ACCOUNTS.admin);
    const vehicles = await e2e.server.api<{ records: { id: number; vehiidno: string; companyId: number; deviceNo: string | null }[] }>('/service-priv/vehicle', { token: admin, query: { current: 1, size: 20 } });
    const vehicle = vehicles.data.records.find((v) => v.deviceNo !== null)!;
    const created = await e2e.server.api('/service-priv/device', { token: admin, body: { deviceNo: NEW_DEVICE, companyId: vehicle.companyId } });
    expect(created.code, created.msg).toBe(200);

    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    const list = page.locator('[data-page="information-vehicle-installed"]');
    // The seed's records: every demo vehicle had its terminal installed.
    await list.locator('tbody tr[data-row-id]').first().waitFor();

    await list.getByRole('button', { name: '新增', exact: true }).click();
    const form = page.getByTestId('installation-form');
    await form.getByLabel('车辆', { exact: true }).fill(vehicle.vehiidno);
    await page.getByRole('listbox').getByRole('option', { name: vehicle.vehiidno }).first().click();
    await form.getByTestId('installation-current-device').getByText(vehicle.deviceNo!).waitFor();
    await form.getByTestId('installation-device').fill('01990000');
    await page.getByRole('listbox').getByRole('option', { name: NEW_DEVICE }).click();
    expect(await form.getByTestId('installation-kind').textContent()).toBe('将记录为：更换');
    await form.locator('input[name=installer]').fill('测试安装员');

    // The limits are stated before any file is chosen; a text file named .jpg is refused by its bytes.
    const photos = form.getByTestId('installation-photos');
    expect(await photos.textContent()).toContain('JPEG 或 PNG，每张不超过 2 MiB，每条记录最多 9 张');
    const fake = path.join(dir, '假照片.jpg');
    writeFileSync(fake, 'not an image');
    const real = path.join(dir, '安装位置.png');
    writeFileSync(real, png());
    await photos.locator('input[type=file]').setInputFiles(fake);
    await photos.getByText('照片「假照片.jpg」不是 JPEG 或 PNG 图片').waitFor();
    await photos.getByTestId('installation-photos-item').getByRole('button', { name: '移除' }).click();
    await photos.locator('input[type=file]').setInputFiles(real);
    await photos.getByText('安装位置.png').waitFor();
    await page.getByTestId('installation-form-submit').click();
    await form.waitFor({ state: 'detached' });

    const row = list.locator('tbody tr[data-row-id]').filter({ hasText: NEW_DEVICE });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain(vehicle.vehiidno);
    expect(text).toContain('更换');
    expect(text).toContain(`${vehicle.deviceNo} → ${NEW_DEVICE}`);
    expect(text).toContain('测试安装员');
    const bound = async () => (await e2e.server.api<{ records: { id: number; deviceNo: string | null }[] }>('/service-priv/vehicle', { token: admin, query: { current: 1, size: 20, keyword: vehicle.vehiidno } })).data.records.find((v) => v.id === vehicle.id)?.deviceNo;
    expect(await bound()).toBe(NEW_DEVICE);

    // The detail shows the photo, fetched with the token and drawn from a blob URL.
    await row.getByTestId('installation-detail').click();
    const drawer = page.getByTestId('installation-detail-drawer');
    const img = drawer.locator('img[alt="安装位置.png"]');
    await img.waitFor();
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(2);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // Delete: the record goes, the vehicle keeps its device.
    await row.getByRole('button', { name: '删除', exact: true }).click();
    await page.getByTestId('confirm-ok').click();
    await row.waitFor({ state: 'detached' });
    expect(await bound()).toBe(NEW_DEVICE);
  });

  test('at 1280×720 the list and the create drawer cover no control and crush no column', async () => {
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    await page.locator('[data-page="information-vehicle-installed"] tbody tr[data-row-id]').first().waitFor();
    await expectCleanLayout(page, 'installation records');
    await page.locator('[data-page="information-vehicle-installed"]').getByRole('button', { name: '新增', exact: true }).click();
    await page.getByTestId('installation-form').waitFor();
    await expectCleanLayout(page, 'create drawer');
  });
});
