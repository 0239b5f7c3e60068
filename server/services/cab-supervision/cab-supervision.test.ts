/**
 * Cab supervision against a live server with simulated terminals: creation refused in Chinese words and
 * without the button (nothing written); a send reaches the connected terminal as a 0x8300 whose 0x0001 turns
 * the receipt 已应答 (ok); an offline vehicle receives it when its terminal comes back; another company's
 * supervision is neither listed nor reachable by id; suggestions follow the platform parameter; the portrait
 * counts the company's stored alarms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryOf, chinaMonth, monthDays } from '../../../domain/appraisal/rules.ts';
import { chinaDayStartMs } from '../../../domain/track/days.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator } from '../../sim/index.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { createUserWithRole } from '../../test/users.ts';

interface Answer<T> { code: number; msg: string; data: T }
interface Sup { id: number; companyId: number; vehicleCount: number; reasonName: string; message: string; lastReceipts: Record<string, number> | null }
interface Receipt { vehicleId: number; state: string; result: number | null }
interface Rec { id: number; kind: string; content: string; counts?: Record<string, number>; receipts?: Receipt[] }

let fleet: SimFleet;
let admin: string;
let viewer: string;
let outsider: string;
let otherCompany: number;
let db: SqliteStorage['db'];
let late: RunningSimulator | undefined;

const call = <T>(url: string, token: string, body: unknown = {}, lang: 'zh' | 'en' = 'zh') =>
  fleet.server.call<T>('POST', `/service-safesheet/cab/${url}`, { token, body, lang }) as Promise<Answer<T>>;
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const query = async (id: number) => (await call<{ records: Rec[] }>('recQuery', admin, { id })).data.records;

beforeAll(async () => {
  fleet = await startSimFleet(12, 41);
  admin = fleet.adminToken;
  db = (fleet.server.app.storage as SqliteStorage).db;
  // Sees the screen (operation 106, cab supervision 133), holds no button.
  viewer = await createUserWithRole(fleet.server, 'cab_viewer', 1, [106, 133]);
  // Every bit, in a sibling company that holds none of the simulated vehicles.
  const other = (await fleet.server.app.storage.companies.create(1, { name: '别家车队', contact: '', phone: '', address: '', remark: '' })).id;
  otherCompany = other;
  outsider = await createUserWithRole(fleet.server, 'cab_outsider', other, [106, 133, 590, 591, 592]);
}, 60_000);
afterAll(async () => {
  await late?.stop();
  await fleet?.close();
});

describe('creating a supervision', () => {
  it('refuses missing reason, empty message, no target and both targets in Chinese; 403 without the button; nothing written', async () => {
    const v = fleet.online[0]!.vehicleId;
    const cases: [unknown, string][] = [
      [{ message: '请注意休息', vehicleIds: [v] }, 'reason: 请选择监管原因'],
      [{ reason: 'fatigue', message: '   ', vehicleIds: [v] }, 'message: 请填写监管消息内容'],
      [{ reason: 'fatigue', message: '请注意休息' }, 'vehicleIds: 请选择要监管的车辆或企业'],
      [{ reason: 'fatigue', message: '请注意休息', vehicleIds: [v], targetCompanyId: 1 }, 'vehicleIds: 车辆和企业只能选择其一'],
      [{ reason: 'fatigue', message: '请注意休息', vehicleIds: Array.from({ length: 501 }, (_, i) => i + 1) }, 'vehicleIds: 一次最多监管 500 辆车，已选 501 辆'],
    ];
    for (const [body, msg] of cases) expect([(await call('sup', admin, body)).code, (await call('sup', admin, body)).msg]).toEqual([400, msg]);
    expect((await call('sup', viewer, { reason: 'fatigue', message: '请注意休息', vehicleIds: [v] })).code).toBe(403);
    expect(count('cab_supervision')).toBe(0);
  });
});

describe('sending to the cab', () => {
  it('the connected terminal gets the 0x8300 and its answer makes the receipt 已应答; the offline vehicle gets it on reconnect', async () => {
    const online = fleet.online[0]!.vehicleId;
    const offline = fleet.offlineVehicle;
    const sup = await call<Sup>('sup', admin, { reason: 'fatigue', message: '您近期疲劳驾驶报警频繁，请停车休息', vehicleIds: [online, offline] });
    expect(sup.code).toBe(200);
    expect(sup.data).toMatchObject({ vehicleCount: 2, reasonName: '频繁疲劳驾驶报警', lastReceipts: null });
    const note = await call('recAdd', admin, { id: sup.data.id, content: '已电话联系车队长' });
    expect(note.code).toBe(200);
    expect((await call('recAdd', admin, { id: sup.data.id, content: ' ' })).msg).toBe('content: 请填写记录内容');
    expect((await call('recSend', viewer, { id: sup.data.id })).code).toBe(403);

    const sent = await call<{ taskId: number }>('recSend', admin, { id: sup.data.id, validMinutes: 30 });
    expect(sent.code).toBe(200);
    await until(async () => (await query(sup.data.id))[0]!.counts!.ok === 1, 15_000, 100);
    const first = await query(sup.data.id);
    expect(first.map((r) => r.kind)).toEqual(['send', 'note']);
    expect(first[0]!.receipts!.map((r) => [r.vehicleId, r.state])).toEqual(expect.arrayContaining([[online, 'ok'], [offline, 'queued']]));
    // The frame the terminal answered: a 0x8300 with TTS (bit 3) and display (bit 2), carrying the message.
    const frame = db.prepare('SELECT msg_id AS m, content, state FROM command_record WHERE vehicle_id = ? AND fun = ?').get(online, 'cabSupervision') as { m: number; content: string; state: string };
    expect(frame).toMatchObject({ m: 0x8300, state: 'ok' });
    expect(JSON.parse(frame.content)).toMatchObject({ text: '您近期疲劳驾驶报警频繁，请停车休息', types: ['tts', 'display'] });

    // The offline vehicle's terminal powers on inside the window.
    const deviceNo = (db.prepare('SELECT device_no AS d FROM vehicle WHERE id = ?').get(offline) as { d: string }).d;
    const spec = readProvisionedTerminals(fleet.server.config.dataDir).find((t) => t.deviceNo === deviceNo)!;
    late = startSimulator({ port: fleet.server.gatewayPort, terminals: [spec], seed: 6, tickMs: 10, rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 } });
    await until(async () => (await query(sup.data.id))[0]!.counts!.ok === 2, 20_000, 100);
    const page = await call<{ records: Sup[]; total: number }>('supPage', viewer, { current: 1, size: 10 });
    expect(page.data.records[0]).toMatchObject({ id: sup.data.id, lastReceipts: expect.objectContaining({ ok: 2, queued: 0 }) });
  }, 60_000);

  it('attack: a user of another company can neither list, read, note nor send a supervision of ours, nor supervise our vehicles', async () => {
    const ours = (await call<{ records: Sup[] }>('supPage', admin, { current: 1, size: 10 })).data.records[0]!;
    const records = count('cab_supervision_record');
    const commands = count('command_record');
    expect((await call<{ total: number }>('supPage', outsider, { current: 1, size: 10 })).data.total).toBe(0);
    expect((await call('recQuery', outsider, { id: ours.id })).code).toBe(404);
    expect((await call('recAdd', outsider, { id: ours.id, content: '篡改' })).code).toBe(404);
    expect((await call('recSend', outsider, { id: ours.id })).code).toBe(404);
    const grab = await call('sup', outsider, { reason: 'other', message: 'x', vehicleIds: [fleet.online[0]!.vehicleId] });
    expect(grab.code).toBe(400);
    expect(grab.msg).toContain('不在您的管辖范围内');
    expect(await call('sup', outsider, { reason: 'other', message: 'x', targetCompanyId: 1 }).then((r) => r.code)).toBe(403);
    expect([count('cab_supervision_record'), count('command_record')]).toEqual([records, commands]);
  });
});

describe('suggestions and the portrait', () => {
  it('suggests a vehicle at the threshold parameter, not below it', async () => {
    const v = fleet.online[1]!.vehicleId;
    const companyId = (db.prepare('SELECT company_id AS c, device_no AS d FROM vehicle WHERE id = ?').get(v) as { c: number; d: string });
    const put = db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, create_time)
      VALUES (?, ?, ?, ?, 'dms', ?, ?, 118.8, 32.0, 40, 'high', ?)`);
    const now = Date.now();
    db.prepare('DELETE FROM alarm WHERE vehicle_id = ? AND alarm_type IN (10001, 10002, 10003, 10004, 10013)').run(v);
    for (const [type, ago] of [[10001, 1], [10004, 2], [10001, 3]] as const) put.run(v, companyId.d, companyId.c, type, now - ago * 3600_000, now - ago * 3600_000, now);
    const suggested = async () => (await call<{ threshold: number; records: { vehicleId: number; total: number; reason: string }[] }>('suggest', viewer)).data;
    expect((await suggested()).threshold).toBe(3);
    expect((await suggested()).records.find((r) => r.vehicleId === v)).toMatchObject({ total: 3, reason: 'fatigue' });
    db.prepare("UPDATE sys_param SET value = '4' WHERE param_key = 'safety.cabSuggestAlarms'").run();
    fleet.server.app.systemConfig.reload();
    expect((await suggested()).records.find((r) => r.vehicleId === v)).toBeUndefined();
    db.prepare("UPDATE sys_param SET value = '3' WHERE param_key = 'safety.cabSuggestAlarms'").run();
    fleet.server.app.systemConfig.reload();
  });

  it("a suggestion's last supervision is the caller's own: one opened by another company (before the vehicle moved here) is not shown", async () => {
    const v = fleet.online[1]!.vehicleId;
    const vc = (db.prepare('SELECT company_id AS c, device_no AS d FROM vehicle WHERE id = ?').get(v) as { c: number; d: string });
    const fleetUser = await createUserWithRole(fleet.server, 'cab_fleet_user', vc.c, [106, 133]);
    const put = db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, create_time)
      VALUES (?, ?, ?, 10001, 'dms', ?, ?, 118.8, 32.0, 40, 'high', ?)`);
    const now = Date.now();
    for (const ago of [1, 2, 3, 4]) put.run(v, vc.d, vc.c, now - ago * 3600_000, now - ago * 3600_000, now);
    const mine = Number(db.prepare("INSERT INTO cab_supervision (company_id, target, reason, message, created_by_name, create_time) VALUES (?, 'vehicles', 'fatigue', '请注意休息', '测试', ?)")
      .run(vc.c, now - 86_400_000).lastInsertRowid);
    const theirs = Number(db.prepare("INSERT INTO cab_supervision (company_id, target, reason, message, created_by_name, create_time) VALUES (?, 'vehicles', 'fatigue', '别家的监管', '别家', ?)")
      .run(otherCompany, now - 60_000).lastInsertRowid);
    const link = db.prepare('INSERT INTO cab_supervision_vehicle (supervision_id, vehicle_id, vehiidno) VALUES (?, ?, ?)');
    link.run(mine, v, 'x');
    link.run(theirs, v, 'x');
    const r = await call<{ records: { vehicleId: number; lastSupervisedTime: number | null }[] }>('suggest', fleetUser);
    expect(r.data.records.find((x) => x.vehicleId === v)?.lastSupervisedTime).toBe(now - 86_400_000);
    // The lookup is answered by the index, not a table scan (SQLite's plan; on PostgreSQL, server-on-pg, its planner decides).
    if ((db as unknown as { url?: string }).url === undefined) {
      const plan = (db.prepare('EXPLAIN QUERY PLAN SELECT max(supervision_id) FROM cab_supervision_vehicle WHERE vehicle_id = ?').all(v) as { detail: string }[]).map((p) => p.detail).join(' ');
      expect(plan).toContain('cab_supervision_vehicle_vehicle');
    }
    db.prepare('DELETE FROM cab_supervision WHERE id IN (?, ?)').run(mine, theirs);
  });

  it("the portrait's alarm total equals the company's stored risk alarms of the month; 403 without the page", async () => {
    const month = chinaMonth(Date.now());
    const r = await fleet.server.call<{ vehicles: number; alarms: number; trend: { month: string; alarms: number }[] }>('GET', `/service-safe/customerPortrait/company?month=${month}`, { token: admin, lang: 'zh' });
    expect(r.code).toBe(200);
    const d = monthDays(month)!;
    const rows = db.prepare('SELECT alarm_type AS t, count(*) AS n FROM alarm WHERE deal_status <> 3 AND start_time >= ? AND start_time < ? GROUP BY 1')
      .all(chinaDayStartMs(d.firstDay), chinaDayStartMs(d.lastDay + 1)) as { t: number; n: number }[];
    const expected = rows.filter((x) => categoryOf(x.t) !== undefined).reduce((s, x) => s + x.n, 0);
    expect(expected).toBeGreaterThan(0);
    expect(r.data.alarms).toBe(expected);
    expect(r.data.vehicles).toBe(count('vehicle'));
    expect(r.data.trend.map((t) => t.month).at(-1)).toBe(month);
    expect(r.data.trend.at(-1)!.alarms).toBe(expected);
    const none = await fleet.server.call('GET', `/service-safe/customerPortrait/company?month=${month}`, { token: viewer, lang: 'zh' });
    expect(none.code).toBe(403);
    const bad = await fleet.server.call('GET', '/service-safe/customerPortrait/company?month=2026-13', { token: admin, lang: 'zh' });
    expect(bad.code).toBe(400);
  });
});
