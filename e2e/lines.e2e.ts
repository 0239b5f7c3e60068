/**
 * Lines (/information/lineManagement) in Chromium against the real server: the seeded bus lines are
 * listed with their stations; a new line opens straight in the editor, where clicks on the map add
 * numbered stations (a polyline joins them), a station is renamed in the list, 上行 is saved, 下行 is made
 * from it reversed and saved; a dragged marker makes the direction unsaved; a vehicle of the line's
 * company is put on the line; the line's node in the vehicle page's tree lists exactly its vehicles.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';
import { expectCleanLayout } from './layout-checks.ts';

const e2e = useE2E();
const ROUTE = '/information/lineManagement';
const FLEET = '北京冷链车队';

interface Detail { id: number; name: string; stations: { up: { name: string; lng: number; lat: number }[]; down: { name: string }[] }; vehicles: { vehiidno: string }[] }

describe('lines: stations on the map, vehicles on the line', () => {
  test('create a line, add stations by clicking the map, save both directions, put a vehicle on it', async () => {
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath(ROUTE));
    const list = page.locator('[data-page="information-line-management"]');
    await list.getByRole('cell', { name: '机场快线', exact: true }).waitFor();
    await expectCleanLayout(page, 'line list 1280×720');
    await page.setViewportSize({ width: 1600, height: 900 });
    await expectCleanLayout(page, 'line list 1600×900');

    // A seeded line: its stations as numbered markers joined by the polyline.
    await list.getByRole('row').filter({ hasText: '机场快线' }).getByTestId('line-open-editor').click();
    await expect.poll(() => page.getByTestId('line-station-marker').count()).toBe(8);
    expect(await page.getByTestId('line-summary').textContent()).toMatch(/^8 个站点 · 全程 \d+\.\d+ 公里$/);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('line-station-marker').count()).toBe(0);

    // A new line belongs to the company picked in the tree.
    const tree = page.getByTestId('company-tree');
    await tree.locator('input').first().fill(FLEET);
    await tree.getByText(FLEET, { exact: true }).last().click();
    await list.getByRole('button', { name: '新增' }).click();
    const form = page.getByTestId('line-form');
    await form.locator('input[name="name"]').fill('E2E 环线');
    await form.locator('input[name="code"]').fill('E2E1');
    await page.getByTestId('line-form-submit').click();

    // The editor opens on the new line: click the map three times.
    const map = page.getByTestId('line-map');
    await map.locator('canvas').first().waitFor();
    await page.waitForTimeout(800);
    const box = (await map.boundingBox())!;
    for (const [fx, fy] of [[0.3, 0.4], [0.5, 0.5], [0.7, 0.45]] as const) {
      await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
      await page.waitForTimeout(150);
    }
    await expect.poll(() => page.getByTestId('line-station-marker').count()).toBe(3);
    expect(await page.getByTestId('line-station-row').count()).toBe(3);
    await page.getByRole('textbox', { name: '站点名称 1' }).fill('东门');
    await page.getByTestId('line-save-stations').click();
    await page.getByText('上行站点已保存').waitFor();

    // Dragging a marker moves its station: the direction has unsaved changes until discarded.
    const marker = (await page.getByTestId('line-station-marker').nth(1).boundingBox())!;
    await page.mouse.move(marker.x + marker.width / 2, marker.y + marker.height / 2);
    await page.mouse.down();
    await page.mouse.move(marker.x + 60, marker.y + 50, { steps: 8 });
    await page.mouse.up();
    await page.getByText('有未保存的修改').waitFor();
    await page.getByRole('button', { name: '放弃修改' }).click();
    await expect.poll(() => page.getByText('有未保存的修改').count()).toBe(0);

    await page.getByTestId('line-tab-down').click();
    await page.getByTestId('line-copy-reverse').click();
    expect(await page.getByTestId('line-station-row').count()).toBe(3);
    await page.getByTestId('line-save-stations').click();
    await page.getByText('下行站点已保存').waitFor();

    const token = await e2e.server.token(ACCOUNTS.admin);
    const found = await e2e.server.api<{ records: { id: number }[] }>('/service-priv/line/page', { method: 'GET', token, query: { keyword: 'E2E 环线' } });
    const id = found.data.records[0]!.id;
    const detail = (await e2e.server.api<Detail>(`/service-priv/line/${id}`, { method: 'GET', token })).data;
    expect(detail.stations.up.map((s) => s.name)).toEqual(['东门', '站点 2', '站点 3']);
    expect(detail.stations.down.map((s) => s.name)).toEqual(['站点 3', '站点 2', '东门']);
    expect(detail.stations.up[0]!.lng).toBeGreaterThan(70);

    // A vehicle onto the line, through the vehicle picker.
    const fleet = (await e2e.server.api<{ id: number; name: string }[]>('/service-priv/company/tree', { method: 'GET', token })).data.find((c) => c.name === FLEET)!;
    const vehicles = await e2e.server.api<{ records: { id: number; vehiidno: string }[] }>('/service-priv/vehicle', { method: 'GET', token, query: { current: 1, size: 2, companyId: fleet.id } });
    const plate = vehicles.data.records[0]!.vehiidno;
    await page.getByTestId('line-tab-vehicles').click();
    await page.getByTestId('line-vehicle-pick').fill(plate);
    await page.getByRole('option', { name: plate }).click();
    await page.getByTestId('line-vehicle-add').click();
    await page.getByTestId('line-vehicles').getByText(plate, { exact: true }).waitFor();
    // Another, checked in the drawer's company tree (the 500-at-once batch path).
    const second = vehicles.data.records[1]!;
    const pickTree = page.getByTestId('line-vehicle-tree');
    await pickTree.locator('input').first().fill(second.vehiidno);
    // The search hit opens the path to the vehicle in the tree.
    await pickTree.getByText(second.vehiidno, { exact: true }).last().click();
    await pickTree.locator(`[data-node-id="V_${second.id}"] input[type=checkbox]`).check();
    await page.getByTestId('line-vehicle-add-checked').click();
    await page.getByTestId('line-vehicles').getByText(second.vehiidno, { exact: true }).waitFor();
    const after = (await e2e.server.api<Detail>(`/service-priv/line/${id}`, { method: 'GET', token })).data;
    expect(after.vehicles.map((v) => v.vehiidno).sort()).toEqual([plate, second.vehiidno].sort());

    // The line's L node in the vehicle page's tree lists the line's vehicles, and only those.
    await page.keyboard.press('Escape');
    await page.goto(consolePath('/information/vehicle'));
    const vehicleList = page.locator('[data-page="information-vehicle"]');
    await vehicleList.locator('tbody tr[data-row-id]').first().waitFor();
    const vehicleTree = page.getByTestId('company-tree');
    // The search hit opens the path to the line's company; ArrowRight opens the company, showing its lines.
    await vehicleTree.locator('input').first().fill(FLEET);
    await vehicleTree.getByText(FLEET, { exact: true }).last().click();
    await vehicleTree.locator(`[data-node-id="C_${fleet.id}"]`).press('ArrowRight');
    await vehicleTree.locator(`[data-node-id="L_${id}"]`).click();
    await vehicleTree.locator(`[data-node-id="L_${id}"][aria-selected="true"]`).waitFor();
    await page.getByTestId('vehicle-line').getByText('线路：E2E 环线').waitFor();
    await expect.poll(async () => (await vehicleList.locator('tbody tr[data-row-id]').allTextContents()).map((row) => [plate, second.vehiidno].find((p) => row.includes(p)) ?? row).sort())
      .toEqual([plate, second.vehiidno].sort());
  });
});
