/**
 * The transport permit register (准运证) and 70006 through the gateway with scripted terminals, and the
 * per-truck limits: a rated load set on one truck's controller (0xF3A0, acknowledged by the terminal)
 * is the one its 70009 uses; another truck keeps the default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOX_ITEM_ID, encodeBoxItem, type BoxState } from '../../../domain/box/status.ts';
import { blockDefaults } from '../../../domain/terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../../../domain/terminal-params/hjws.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { location, TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { until } from '../../test/sim-fleet.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

const DAY = 86_400_000;
let server: LiveTestServer;
let admin: string;
let viewer: string;
let db: SqliteStorage['db'];
let a: { vehicleId: number; deviceNo: string; terminal: TestTerminal };
let b: { vehicleId: number; deviceNo: string; terminal: TestTerminal };

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 4 });
  // Start at the next 12:00 China time: outside the rush hours of 70008.
  const start = server.clock.now();
  const noonUtc = 4 * 3_600_000;
  server.clock.advance(Math.floor((start - noonUtc) / DAY) * DAY + noonUtc + DAY - start);
  admin = await server.login('admin', 'admin123');
  // The box screen (12) without its buttons: reads permits, may not keep them.
  viewer = await createUserWithRole(server, 'permit_viewer', 1, [3, 12]);
  db = (server.app.storage as unknown as SqliteStorage).db;
  // The demo seed gave the seeded slag trucks permits (server/seed/box-permits.ts): checked, then cleared.
  const muck = (db.prepare("SELECT count(*) AS n FROM vehicle WHERE vehicle_type = 'muck'").get() as { n: number }).n;
  expect((db.prepare('SELECT count(*) AS n FROM box_permit').get() as { n: number }).n).toBe(muck);
  db.prepare('DELETE FROM box_permit').run();
  server.app.boxStatus.reloadPermits();
  const [va, vb] = await server.app.storage.terminals.allVehicles();
  db.prepare("UPDATE vehicle SET vehicle_type = 'muck' WHERE id IN (?, ?)").run(va!.vehicleId, vb!.vehicleId);
  const connect = async (v: { vehicleId: number; deviceNo: string }) => {
    const terminal = await TestTerminal.connect(server.gatewayPort, v.deviceNo);
    await terminal.login();
    return { vehicleId: v.vehicleId, deviceNo: v.deviceNo, terminal };
  };
  a = await connect(va!);
  b = await connect(vb!);
}, 60_000);
afterAll(async () => {
  await a?.terminal.close();
  await b?.terminal.close();
  await server?.close();
});

async function report(t: TestTerminal, speed: number, s: Partial<BoxState>): Promise<void> {
  const time = Math.floor(server.clock.now() / 1000) * 1000;
  const extras = [{ id: BOX_ITEM_ID, data: encodeBoxItem({ lifted: false, sealed: true, loaded: false, loadT: null, ...s }) }];
  const reply = await t.request({ msgId: 0x0200, ...location({ lng: 121.5, lat: 31.2, time, speed, extras }) } as never);
  expect(reply).toMatchObject({ msgId: 0x8001, replyId: 0x0200, result: 0 });
}
async function settle(): Promise<void> {
  await server.app.alarms.idle();
  await new Promise((r) => setImmediate(r));
  await server.app.alarms.idle();
}
const alarms = (vehicleId: number, code: number) =>
  db.prepare('SELECT count(*) AS n, coalesce(sum(end_time IS NULL), 0) AS open FROM alarm WHERE vehicle_id = ? AND alarm_type = ?').get(vehicleId, code) as { n: number; open: number };
const savePermit = (body: Record<string, unknown>, token = admin, lang: 'zh' | 'en' = 'en') =>
  server.call<{ id: number }>('POST', '/service-monitor/box/permit/save', { token, body, lang });

describe('transport permits (准运证) and 70006', () => {
  it('keeps permits per vehicle: 400 naming the field for a reversed period or a taken number, 404 for another vehicle, 403 without the button; a refusal writes nothing', async () => {
    const now = server.clock.now();
    const made = await savePermit({ vehicleId: a.vehicleId, permitNo: 'ZY-001', validFrom: now - 10 * DAY, validTo: now - DAY, route: '江湾工地—浦东消纳场' });
    expect(made.code).toBe(200);
    const count = () => (db.prepare('SELECT count(*) AS n FROM box_permit').get() as { n: number }).n;
    const reversed = await savePermit({ vehicleId: b.vehicleId, permitNo: 'ZY-002', validFrom: now, validTo: now - DAY });
    expect(reversed.status).toBe(400);
    expect(reversed.msg).toMatch(/validTo/);
    const taken = await savePermit({ vehicleId: b.vehicleId, permitNo: 'ZY-001', validFrom: now, validTo: now + DAY }, admin, 'zh');
    // Both trucks belong to the same company only if the seed put them there; a taken number is refused per company.
    if ((db.prepare('SELECT count(DISTINCT company_id) AS n FROM vehicle WHERE id IN (?, ?)').get(a.vehicleId, b.vehicleId) as { n: number }).n === 1) {
      expect(taken.status).toBe(400);
      expect(taken.msg).toMatch(/permitNo.*同号/);
    } else {
      expect(taken.status).toBe(200);
      db.prepare('DELETE FROM box_permit WHERE id = ?').run(taken.data.id);
      server.app.boxStatus.reloadPermits();
    }
    expect((await savePermit({ vehicleId: 99_999_999, permitNo: 'ZY-9', validFrom: now, validTo: now + DAY })).status).toBe(400);
    expect((await savePermit({ id: 99_999_999, vehicleId: a.vehicleId, permitNo: 'ZY-9', validFrom: now, validTo: now + DAY })).status).toBe(404);
    expect((await savePermit({ vehicleId: a.vehicleId, permitNo: 'ZY-9', validFrom: now, validTo: now + DAY }, viewer)).status).toBe(403);
    expect(count()).toBe(1);
    const page = await server.call<{ total: number; records: { permitNo: string; vehicleId: number; valid: boolean; route: string }[] }>('GET', `/service-monitor/box/permit/page?current=1&size=10&vehicleId=${a.vehicleId}`, { token: viewer });
    expect(page.code).toBe(200);
    expect(page.data.records).toEqual([expect.objectContaining({ permitNo: 'ZY-001', vehicleId: a.vehicleId, valid: false, route: '江湾工地—浦东消纳场' })]);
    expect((await server.call<{ total: number }>('GET', '/service-monitor/box/permit/page?valid=1', { token: admin })).data.total).toBe(0);
  });

  it('raises 70006 while a loaded truck drives with only an expired permit, ends it once a valid one is registered; an empty truck and a truck at rest need none', async () => {
    // Truck a holds only the expired ZY-001 (the previous test).
    server.clock.advance(10_000);
    await report(a.terminal, 30, { loaded: false, loadT: 0 });
    await report(a.terminal, 0, { loaded: true, loadT: 20 });
    await settle();
    expect(alarms(a.vehicleId, 70006)).toEqual({ n: 0, open: 0 });
    server.clock.advance(10_000);
    await report(a.terminal, 30, { loaded: true, loadT: 20 });
    await settle();
    expect(alarms(a.vehicleId, 70006)).toEqual({ n: 1, open: 1 });
    const now = server.clock.now();
    expect((await savePermit({ vehicleId: a.vehicleId, permitNo: 'ZY-003', validFrom: now - DAY, validTo: now + 30 * DAY })).code).toBe(200);
    server.clock.advance(10_000);
    await report(a.terminal, 30, { loaded: true, loadT: 20 });
    await settle();
    expect(alarms(a.vehicleId, 70006)).toEqual({ n: 1, open: 0 });
    expect((await server.call<{ total: number }>('GET', '/service-monitor/box/permit/page?valid=1', { token: admin })).data.total).toBe(1);
  });

  it('70009 uses the rated load the truck acknowledged in its 0xF3A0 block: 25 t overloads a truck set to 20 t, not one left at the default 31 t', async () => {
    const block = { ...blockDefaults(HJWS_PARAMS), ratedLoad: 20 };
    const task = await server.call<{ id: number }>('POST', '/service-command/params/task', { token: admin, body: { vehicleIds: [a.vehicleId], params: [{ id: 0xf3a0, value: block }] } });
    expect(task.code).toBe(200);
    await until(async () => (await server.call<{ vehicles: { state: string }[] }>('GET', `/service-command/params/task?id=${task.data.id}`, { token: admin })).data.vehicles[0]!.state === 'ok', 15_000);
    // The scripted terminal acknowledged the set (0x0001 result 0); the box service reads it on its timer.
    server.app.boxStatus.refreshControllerParams();
    expect(server.app.boxStatus.limitsOf(a.vehicleId).ratedLoadT).toBe(20);
    expect(server.app.boxStatus.limitsOf(b.vehicleId).ratedLoadT).toBe(31);
    server.clock.advance(10_000);
    await report(a.terminal, 0, { loaded: true, loadT: 25 });
    await report(b.terminal, 0, { loaded: true, loadT: 25 });
    await settle();
    expect(alarms(a.vehicleId, 70009)).toEqual({ n: 1, open: 1 });
    expect(alarms(b.vehicleId, 70009)).toEqual({ n: 0, open: 0 });
    // 21 t is within 20 t × 1.05: the alarm ends.
    server.clock.advance(10_000);
    await report(a.terminal, 0, { loaded: true, loadT: 21 });
    await settle();
    expect(alarms(a.vehicleId, 70009)).toEqual({ n: 1, open: 0 });
  });

  it('a deleted permit is gone (404 the second time)', async () => {
    const id = (db.prepare("SELECT id FROM box_permit WHERE permit_no = 'ZY-001'").get() as { id: number }).id;
    expect((await server.call('POST', '/service-monitor/box/permit/delete', { token: viewer, body: { id } })).status).toBe(403);
    expect((await server.call('POST', '/service-monitor/box/permit/delete', { token: admin, body: { id } })).code).toBe(200);
    expect((await server.call('POST', '/service-monitor/box/permit/delete', { token: admin, body: { id } })).status).toBe(404);
  });
});

describe('a truck moved to another company takes its permits along', () => {
  type PermitPage = { total: number; records: { id: number; permitNo: string; companyId: number; companyName: string }[] };
  const page = (token: string, query: string) =>
    server.call<PermitPage>('GET', `/service-monitor/box/permit/page?current=1&size=50&${query}`, { token, lang: 'en' });
  const move = (ids: number[], companyId: number) =>
    server.call<{ moved: number }>('POST', '/service-priv/vehicle/modifyVehiCompany', { token: admin, body: { ids, companyId }, lang: 'zh' });
  const companyOf = (vehicleId: number) => (db.prepare('SELECT company_id AS id FROM vehicle WHERE id = ?').get(vehicleId) as { id: number }).id;
  type Company = { id: number; name: string; path: string };
  /** The seeded branches outside the subtree truck b stands in now. */
  const otherBranches = (): Company[] => {
    const companies = db.prepare('SELECT id, name, path FROM company').all() as Company[];
    const home = companies.find((c) => c.id === companyOf(b.vehicleId))!;
    return companies.filter((c) => ['华北分公司', '华东分公司', '华南分公司'].includes(c.name) && !home.path.startsWith(c.path));
  };
  const bits = () => [3, 12, permissionId('/monitor/boxStatus:site')];

  it('the old company no longer lists, edits or deletes them, the new one does, and 70006 judges the truck by the new company', async () => {
    const home = companyOf(b.vehicleId);
    const [target] = otherBranches();
    const oldUser = await createUserWithRole(server, 'permit_old_owner', home, bits());
    const newUser = await createUserWithRole(server, 'permit_new_owner', target!.id, bits());
    const now = server.clock.now();
    // Truck b drives on an expired permit, registered by its company; the target company has registered none.
    const expired = await savePermit({ vehicleId: b.vehicleId, permitNo: 'ZY-100', validFrom: now - 30 * DAY, validTo: now - DAY }, oldUser);
    expect(expired.code).toBe(200);
    expect((await page(oldUser, `vehicleId=${b.vehicleId}`)).data.total).toBe(1);
    expect((await page(newUser, `vehicleId=${b.vehicleId}`)).data.total).toBe(0);

    expect((await move([b.vehicleId], target!.id)).data).toEqual({ moved: 1 });
    // Listing: the old company's user finds it neither by vehicle nor by number; the new company's finds it as theirs.
    expect((await page(oldUser, `vehicleId=${b.vehicleId}`)).data.total).toBe(0);
    expect((await page(oldUser, 'keyword=ZY-100')).data.total).toBe(0);
    expect((await page(newUser, `vehicleId=${b.vehicleId}`)).data.records).toEqual([
      expect.objectContaining({ id: expired.data.id, permitNo: 'ZY-100', companyId: target!.id, companyName: target!.name }),
    ]);
    // Opening it to edit, or deleting it: 404 for the old company, nothing written.
    const edit = (token: string, validTo: number) => savePermit({ id: expired.data.id, vehicleId: b.vehicleId, permitNo: 'ZY-100', validFrom: now - 30 * DAY, validTo }, token);
    expect((await edit(oldUser, now + 30 * DAY)).status).toBe(404);
    expect((await server.call('POST', '/service-monitor/box/permit/delete', { token: oldUser, body: { id: expired.data.id } })).status).toBe(404);
    expect(db.prepare('SELECT valid_to AS validTo FROM box_permit WHERE id = ?').get(expired.data.id)).toEqual({ validTo: now - DAY });

    // The target company now keeps a register (b's expired permit): b driving loaded raises 70006 there. The box
    // service follows the move on its 2 s timer.
    expect(alarms(b.vehicleId, 70006)).toEqual({ n: 0, open: 0 });
    await report(b.terminal, 30, { loaded: false, loadT: 0 });
    const end = Date.now() + 8_000;
    while (alarms(b.vehicleId, 70006).open === 0 && Date.now() < end) {
      server.clock.advance(1_000);
      await report(b.terminal, 30, { loaded: true, loadT: 20 });
      await settle();
      if (alarms(b.vehicleId, 70006).open === 0) await new Promise((r) => setTimeout(r, 250));
    }
    expect(alarms(b.vehicleId, 70006)).toEqual({ n: 1, open: 1 });
    // The new company's user renews it: the next report ends the alarm.
    expect((await edit(newUser, now + 30 * DAY)).code).toBe(200);
    server.clock.advance(10_000);
    await report(b.terminal, 30, { loaded: true, loadT: 20 });
    await settle();
    expect(alarms(b.vehicleId, 70006)).toEqual({ n: 1, open: 0 });
  });

  it('a move that would give the target company a permit number twice is refused with 409 naming plate and number; nothing moves', async () => {
    const home = companyOf(b.vehicleId);
    const [clashing] = otherBranches();
    const now = server.clock.now();
    const other = await server.app.storage.vehicles.create({
      vehiidno: '粤Z·PM001', plateColor: 2, companyId: clashing!.id, lineId: null, vin: '', vehicleType: 'muck', status: 1, insuranceExpire: null, inspectionExpire: null, remark: '',
    });
    expect((await savePermit({ vehicleId: other, permitNo: 'ZY-200', validFrom: now - DAY, validTo: now + DAY })).code).toBe(200);
    expect((await savePermit({ vehicleId: b.vehicleId, permitNo: 'ZY-200', validFrom: now - DAY, validTo: now + DAY })).code).toBe(200);
    const permitsOfB = () => db.prepare('SELECT id, company_id AS companyId FROM box_permit WHERE vehicle_id = ? ORDER BY id').all(b.vehicleId);
    const before = permitsOfB();
    const refused = await move([b.vehicleId], clashing!.id);
    expect(refused.status).toBe(409);
    const plate = (db.prepare('SELECT vehiidno FROM vehicle WHERE id = ?').get(b.vehicleId) as { vehiidno: string }).vehiidno;
    expect(refused.msg).toBe(`车辆「${plate}」的准运证「ZY-200」与目标单位已有的准运证同号，请先修改或删除其中一张再转移`);
    expect(companyOf(b.vehicleId)).toBe(home);
    expect(permitsOfB()).toEqual(before);
  });
});
