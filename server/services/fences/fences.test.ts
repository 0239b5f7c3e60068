/**
 * Fences against a live server with simulated terminals: create with bound vehicles, list and read,
 * send to terminals as a task (online at once and held by the simulated terminal, an offline one
 * queued until its terminal comes back), update (terminals outdated), unbind and delete sending the
 * area delete, the evaluation's source following every write, and the rules (400 naming the field
 * with nothing written, 403 by button bits, 404 outside the scope, all-or-nothing delete).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFenceSource } from '../../db/sqlite/fences.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator } from '../../sim/index.ts';
import { TestTerminal } from '../../gateway/terminal-client.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { createUserWithRole } from '../../test/users.ts';

interface FenceView {
  id: number; companyId: number; name: string; shape: string; geometry: Record<string, unknown>; rule: Record<string, unknown>; vehicleCount: number;
  vehicles: { vehicleId: number; sendState: string; online: boolean; result: number | null }[];
}
interface Task { id: number; kind: string; fenceId: number; counts: Record<string, number>; vehicles: { vehicleId: number; state: string; result: number | null }[] }

let fleet: SimFleet;
let admin: string;
let db: SqliteStorage['db'];
let late: RunningSimulator | undefined;
let east: string, viewer: string;
let eastId: number;
let outside: number;

const call = <T>(method: string, url: string, token: string, body?: unknown) => fleet.server.call<T>(method, url, { token, body });
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const rule = { alarmIn: true, alarmOut: true, forbidIn: false, forbidOut: false, maxSpeed: 60, overspeedSeconds: 10, startTime: null, endTime: null };
const terminalOf = (sim: RunningSimulator, vehicleId: number) => {
  const d = (db.prepare('SELECT device_no AS d FROM vehicle WHERE id = ?').get(vehicleId) as { d: string }).d;
  return sim.terminals.find((t) => t.program.deviceNo === d)!;
};

beforeAll(async () => {
  fleet = await startSimFleet(12, 23);
  admin = fleet.adminToken;
  db = (fleet.server.app.storage as SqliteStorage).db;
  eastId = (db.prepare("SELECT company_id AS id FROM user WHERE username = 'branch'").get() as { id: number }).id;
  const eastPath = (db.prepare('SELECT path FROM company WHERE id = ?').get(eastId) as { path: string }).path;
  outside = (db.prepare(`SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE NOT (c.path >= ? AND c.path < ?) ORDER BY v.id LIMIT 1`).get(eastPath, `${eastPath}~`) as { id: number }).id;
  east = await createUserWithRole(fleet.server, 'fence_east', eastId, [3, 10, 390, 391, 392, 393]);
  viewer = await createUserWithRole(fleet.server, 'fence_viewer', 1, [3, 10]);
}, 60_000);
afterAll(async () => {
  await late?.stop();
  await fleet?.close();
});

describe('fences', () => {
  let fenceId: number;

  it('creates a circle with vehicles, lists it by name, reads it back with its vehicles; the evaluation sees it', async () => {
    const vehicleIds = [...fleet.online.slice(0, 2).map((o) => o.vehicleId), fleet.offlineVehicle];
    const made = await call<FenceView>('POST', '/service-monitor/fence', admin, {
      name: ' 北门停车场 ', geometry: { shape: 'circle', center: [114.05, 22.54], radius: 500 }, rule, vehicleIds,
    });
    expect(made.code).toBe(200);
    fenceId = made.data.id;
    expect(made.data).toMatchObject({ name: '北门停车场', shape: 'circle', geometry: { center: [114.05, 22.54], radius: 500 }, rule, vehicleCount: 3 });
    expect(made.data.vehicles.map((v) => v.sendState)).toEqual(['none', 'none', 'none']);
    const page = await call<{ records: FenceView[]; total: number }>('GET', `/service-monitor/fence/page?name=${encodeURIComponent('北门')}`, admin);
    expect(page.data.records.map((f) => f.id)).toContain(fenceId);
    expect((await call<{ total: number }>('GET', `/service-monitor/fence/page?name=nosuchfence`, admin)).data.total).toBe(0);
    const loaded = sqliteFenceSource(db).load().find((x) => x.fence.id === fenceId);
    expect(loaded?.fence.geometry).toEqual({ shape: 'circle', center: [114.05, 22.54], radius: 500 });
    expect([...loaded!.vehicleIds].sort()).toEqual([...vehicleIds].sort());
  });

  it('sends it: online terminals hold the area at once, the offline one is queued until its terminal comes back', async () => {
    const sent = await call<Task>('POST', '/service-monitor/fence/send', admin, { id: fenceId });
    expect(sent.code).toBe(200);
    expect(sent.data).toMatchObject({ kind: 'fenceSet', fenceId });
    const task = () => call<Task>('GET', `/service-monitor/fence/task?id=${sent.data.id}`, admin).then((r) => r.data);
    await until(async () => (await task()).counts.ok === 2, 15_000, 100);
    expect((await task()).vehicles.find((v) => v.vehicleId === fleet.offlineVehicle)?.state).toBe('queued');
    const held = terminalOf(fleet.sim, fleet.online[0]!.vehicleId).fences.get('circle', fenceId);
    expect(held?.rule).toMatchObject({ alarmIn: true, alarmOut: true, maxSpeed: 60, overspeedSeconds: 10 });
    expect(held?.geometry).toEqual({ shape: 'circle', center: [114.05, 22.54], radius: 500 });
    const detail = await call<FenceView>('GET', `/service-monitor/fence?id=${fenceId}`, admin);
    expect(detail.data.vehicles.filter((v) => v.sendState === 'ok').length).toBe(2);
    expect(detail.data.vehicles.find((v) => v.vehicleId === fleet.offlineVehicle)).toMatchObject({ sendState: 'queued', online: false });
    // The offline terminal powers on: the queued send is delivered.
    const deviceNo = (db.prepare('SELECT device_no AS d FROM vehicle WHERE id = ?').get(fleet.offlineVehicle) as { d: string }).d;
    const spec = readProvisionedTerminals(fleet.server.config.dataDir).find((t) => t.deviceNo === deviceNo)!;
    late = startSimulator({ port: fleet.server.gatewayPort, terminals: [spec], seed: 3, tickMs: 10, rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 } });
    await until(async () => (await task()).counts.ok === 3, 20_000, 100);
    expect(late.terminals[0]!.fences.get('circle', fenceId)).toBeDefined();
    const records = await call<{ records: { fun: string; state: string; content: { fenceId: number; msgId: number } }[] }>('GET', `/service-command/command_record/fun?taskId=${sent.data.id}`, admin);
    expect(records.data.records.map((r) => [r.fun, r.state, r.content.fenceId, r.content.msgId])).toEqual(Array(3).fill(['fenceSet', 'ok', fenceId, 0x8600]));
  });

  it('an update makes the terminals outdated; sending again modifies it there', async () => {
    const put = await call<FenceView>('PUT', '/service-monitor/fence', admin, { id: fenceId, name: '北门停车场', geometry: { shape: 'circle', center: [114.05, 22.54], radius: 800 }, rule });
    expect(put.data.vehicles.every((v) => v.sendState === 'outdated')).toBe(true);
    const again = await call<Task>('POST', '/service-monitor/fence/send', admin, { id: fenceId, vehicleIds: [fleet.online[0]!.vehicleId] });
    await until(async () => (await call<Task>('GET', `/service-monitor/fence/task?id=${again.data.id}`, admin)).data.counts.ok === 1, 15_000, 100);
    expect((terminalOf(fleet.sim, fleet.online[0]!.vehicleId).fences.get('circle', fenceId)?.geometry as { radius: number }).radius).toBe(800);
  });

  it('unbinding a vehicle deletes the area on its terminal; deleting the fence deletes it on the others', async () => {
    const [a, b] = fleet.online.map((o) => o.vehicleId);
    const un = await call<FenceView & { deleteTaskId: number }>('PUT', '/service-monitor/fence/vehicles', admin, { id: fenceId, vehicleIds: [b, fleet.offlineVehicle] });
    expect(un.data.vehicleCount).toBe(2);
    expect(un.data.deleteTaskId).toBeGreaterThan(0);
    await until(() => terminalOf(fleet.sim, a!).fences.get('circle', fenceId) === undefined, 15_000, 100);
    expect(terminalOf(fleet.sim, b!).fences.get('circle', fenceId)).toBeDefined();
    const del = await call<{ deleted: number; deleteTaskIds: number[] }>('DELETE', '/service-monitor/fence', admin, { ids: [fenceId] });
    expect(del.data).toMatchObject({ deleted: 1 });
    expect(del.data.deleteTaskIds).toHaveLength(1);
    await until(() => terminalOf(fleet.sim, b!).fences.get('circle', fenceId) === undefined && late!.terminals[0]!.fences.get('circle', fenceId) === undefined, 15_000, 100);
    const t = await call<Task>('GET', `/service-monitor/fence/task?id=${del.data.deleteTaskIds[0]}`, admin);
    expect(t.data).toMatchObject({ kind: 'fenceDelete', fenceId });
    expect((await call('GET', `/service-monitor/fence?id=${fenceId}`, admin)).status).toBe(404);
    expect(sqliteFenceSource(db).load().some((x) => x.fence.id === fenceId)).toBe(false);
  });

  it('a change of shape deletes the old kind of area on the terminal; sending again stores the new one', async () => {
    const v = fleet.online[1]!.vehicleId;
    const terminal = terminalOf(fleet.sim, v);
    const made = await call<FenceView>('POST', '/service-monitor/fence', admin, { name: '变形围栏', geometry: { shape: 'circle', center: [121.4, 31.2], radius: 300 }, rule, vehicleIds: [v] });
    const first = await call<Task>('POST', '/service-monitor/fence/send', admin, { id: made.data.id });
    await until(async () => (await call<Task>('GET', `/service-monitor/fence/task?id=${first.data.id}`, admin)).data.counts.ok === 1, 15_000, 100);
    expect(terminal.fences.get('circle', made.data.id)).toBeDefined();
    const put = await call<FenceView>('PUT', '/service-monitor/fence', admin, { id: made.data.id, name: '变形围栏', geometry: { shape: 'polygon', points: [[121.4, 31.2], [121.41, 31.2], [121.405, 31.21]] }, rule });
    expect(put.data).toMatchObject({ shape: 'polygon', vehicles: [{ vehicleId: v, sendState: 'outdated' }] });
    await until(() => terminal.fences.get('circle', made.data.id) === undefined, 15_000, 100);
    expect(terminal.fences.get('polygon', made.data.id)).toBeUndefined();
    const again = await call<Task>('POST', '/service-monitor/fence/send', admin, { id: made.data.id });
    await until(async () => (await call<Task>('GET', `/service-monitor/fence/task?id=${again.data.id}`, admin)).data.counts.ok === 1, 15_000, 100);
    expect(terminal.fences.get('polygon', made.data.id)?.geometry).toEqual({ shape: 'polygon', points: [[121.4, 31.2], [121.41, 31.2], [121.405, 31.21]] });
  });

  it('partial failure: a terminal that refuses is failed with its result, the others ok; a 2019 terminal gets the name', async () => {
    const taken = new Set([...fleet.online.map((o) => o.vehicleId), fleet.offlineVehicle]);
    const other = (db.prepare('SELECT id, device_no AS d FROM vehicle WHERE device_no IS NOT NULL ORDER BY id').all() as { id: number; d: string }[]).find((v) => !taken.has(v.id))!;
    const scripted = await TestTerminal.connect(fleet.server.gatewayPort, other.d, 2019);
    try {
      await scripted.login();
      await until(() => fleet.server.app.live.gateway.isReachable(other.id));
      scripted.commandResult = 2; // 不支持
      const made = await call<FenceView>('POST', '/service-monitor/fence', admin, {
        name: '矩形区域', geometry: { shape: 'rect', sw: [120.1, 30.2], ne: [120.2, 30.3] }, rule: { ...rule, startTime: '07:00', endTime: '20:00' },
        vehicleIds: [fleet.online[2]!.vehicleId, other.id],
      });
      const sent = await call<Task>('POST', '/service-monitor/fence/send', admin, { id: made.data.id });
      const task = () => call<Task>('GET', `/service-monitor/fence/task?id=${sent.data.id}`, admin).then((r) => r.data);
      await until(async () => { const t = await task(); return t.counts.ok === 1 && t.counts.failed === 1; }, 15_000, 100);
      expect((await task()).vehicles.find((v) => v.vehicleId === other.id)).toMatchObject({ state: 'failed', result: 2 });
      const got = scripted.commands.find((c) => c.message.msgId === 0x8602)?.message;
      expect(got).toMatchObject({ action: 1, areas: [{ id: made.data.id, name: '矩形区域', startTime: '000000070000', endTime: '000000200000', maxSpeed: 60, topLeft: { lat: 30.3, lng: 120.1 } }] });
      const detail = await call<FenceView>('GET', `/service-monitor/fence?id=${made.data.id}`, admin);
      expect(detail.data.vehicles.find((v) => v.vehicleId === other.id)).toMatchObject({ sendState: 'failed', result: 2, online: true });
      expect((await call('DELETE', '/service-monitor/fence', admin, { ids: [made.data.id] })).code).toBe(200);
    } finally {
      await scripted.close();
    }
  });

  it('a fence written through the API is evaluated at once: a terminal leaving it raises 13006 on the platform', async () => {
    const taken = new Set([...fleet.online.map((o) => o.vehicleId), fleet.offlineVehicle]);
    const other = (db.prepare('SELECT id, device_no AS d FROM vehicle WHERE device_no IS NOT NULL ORDER BY id DESC').all() as { id: number; d: string }[]).find((v) => !taken.has(v.id))!;
    const scripted = await TestTerminal.connect(fleet.server.gatewayPort, other.d, 2013);
    try {
      await scripted.login();
      const made = await call<FenceView>('POST', '/service-monitor/fence', admin, {
        name: '离场报警', geometry: { shape: 'circle', center: [113.3, 23.1], radius: 200 }, rule: { ...rule, alarmIn: false, maxSpeed: null }, vehicleIds: [other.id],
      });
      expect(made.code).toBe(200);
      const t = Date.now();
      await scripted.report({ alarm: 0, status: 3, altitude: 10, speed: 20, direction: 90, lng: 113.3, lat: 23.1, time: t - 2000 });
      // ~1 km east: out of the circle (and past the leave hysteresis).
      await scripted.report({ alarm: 0, status: 3, altitude: 10, speed: 20, direction: 90, lng: 113.31, lat: 23.1, time: t - 1000 });
      await until(() => db.prepare('SELECT 1 FROM alarm WHERE vehicle_id = ? AND alarm_type = 13006').get(other.id) !== undefined, 10_000, 100);
    } finally {
      await scripted.close();
    }
  });

  it('a fence edited while its send is in flight: the late answer confirms the old version, so the vehicle stays outdated, and a resend holds the new one', async () => {
    const taken = new Set([...fleet.online.map((o) => o.vehicleId), fleet.offlineVehicle]);
    const other = (db.prepare('SELECT id, device_no AS d FROM vehicle WHERE device_no IS NOT NULL ORDER BY id').all() as { id: number; d: string }[]).filter((v) => !taken.has(v.id))[1]!;
    const scripted = await TestTerminal.connect(fleet.server.gatewayPort, other.d, 2013);
    try {
      await scripted.login();
      await until(() => fleet.server.app.live.gateway.isReachable(other.id));
      scripted.commandResult = null; // holds its answer: the send stays in flight
      const made = await call<FenceView>('POST', '/service-monitor/fence', admin, {
        name: '在途修改', geometry: { shape: 'circle', center: [113.5, 22.3], radius: 300 }, rule, vehicleIds: [other.id],
      });
      const sent = await call<Task>('POST', '/service-monitor/fence/send', admin, { id: made.data.id });
      await until(() => scripted.commands.some((c) => c.message.msgId === 0x8600), 10_000, 50);
      const first = scripted.commands.find((c) => c.message.msgId === 0x8600)!;
      expect(first.message).toMatchObject({ areas: [{ radius: 300 }] });
      // The operator widens it while the terminal has not answered yet.
      const edited = await call<FenceView>('PUT', '/service-monitor/fence', admin, {
        id: made.data.id, name: '在途修改', geometry: { shape: 'circle', center: [113.5, 22.3], radius: 800 }, rule,
      });
      expect(edited.data.vehicles[0]).toMatchObject({ vehicleId: other.id, sendState: 'outdated' });
      // Now the terminal answers the old frame: that task succeeded, but the terminal holds 300 m, not 800 m.
      scripted.send({ msgId: 0x0001, replySerial: first.serial, replyId: 0x8600, result: 0 });
      const task = () => call<Task>('GET', `/service-monitor/fence/task?id=${sent.data.id}`, admin).then((r) => r.data);
      await until(async () => (await task()).counts.ok === 1, 15_000, 100);
      const detail = () => call<FenceView>('GET', `/service-monitor/fence?id=${made.data.id}`, admin).then((r) => r.data.vehicles[0]!);
      expect(await detail()).toMatchObject({ sendState: 'outdated', result: 0 });
      // Sent again, the new version arrives as a modify and the vehicle is ok.
      scripted.commandResult = 0;
      const again = await call<Task>('POST', '/service-monitor/fence/send', admin, { id: made.data.id });
      await until(async () => (await call<Task>('GET', `/service-monitor/fence/task?id=${again.data.id}`, admin)).data.counts.ok === 1, 15_000, 100);
      const second = scripted.commands.filter((c) => c.message.msgId === 0x8600).at(-1)!;
      expect(second.message).toMatchObject({ action: 2, areas: [{ radius: 800 }] }); // modify: the terminal holds an older version
      expect(await detail()).toMatchObject({ sendState: 'ok' });
      expect((await call('DELETE', '/service-monitor/fence', admin, { ids: [made.data.id] })).code).toBe(200);
    } finally {
      await scripted.close();
    }
  });

  it('each write patches only the fence it wrote into the platform evaluation (no full re-read), and that answers as a full re-read would', async () => {
    const watch = fleet.server.app.alarms.fenceWatch!;
    const before = watch.evaluator.changedBindings;
    const vehicleIds = fleet.online.slice(0, 2).map((o) => o.vehicleId);
    const made = await call<FenceView>('POST', '/service-monitor/fence', admin, {
      name: '增量', geometry: { shape: 'rect', sw: [100.1, 30.1], ne: [100.2, 30.2] }, rule, vehicleIds,
    });
    // Patched in: its two bindings sit beside the packed ones (a full re-read would have packed them).
    expect(watch.evaluator.changedBindings).toBe(before + 2);
    const count = watch.evaluator.fenceCount;
    expect(count).toBe((db.prepare('SELECT count(*) AS n FROM fence').get() as { n: number }).n);
    expect((await call('PUT', '/service-monitor/fence/vehicles', admin, { id: made.data.id, vehicleIds: vehicleIds.slice(0, 1) })).code).toBe(200);
    expect(watch.evaluator.changedBindings).toBe(before + 1);
    expect((await call('DELETE', '/service-monitor/fence', admin, { ids: [made.data.id] })).code).toBe(200);
    expect(watch.evaluator.fenceCount).toBe(count - 1);
    expect(watch.evaluator.changedBindings).toBe(before);
  });

  it('400 naming the field and nothing written', async () => {
    const fences = count('fence');
    const bad = async (body: Record<string, unknown>, field: RegExp) => {
      const r = await call('POST', '/service-monitor/fence', admin, { name: '坏围栏', rule, ...body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.msg).toMatch(field);
    };
    await bad({ geometry: { shape: 'circle', center: [114, 22], radius: 5 } }, /geometry\.radius/);
    await bad({ geometry: { shape: 'circle', radius: 50 } }, /geometry\.center/);
    await bad({ geometry: { shape: 'circle', center: [114, 22], radius: 50, points: [[1, 1]] } }, /geometry\.points/);
    await bad({ geometry: { shape: 'circle', center: [200, 22], radius: 50 } }, /geometry\.center/);
    await bad({ geometry: { shape: 'rect', sw: [114.1, 22], ne: [114, 22.1] } }, /geometry\.ne/);
    await bad({ geometry: { shape: 'polygon', points: [[114, 22], [114.1, 22]] } }, /geometry\.points/);
    await bad({ geometry: { shape: 'polygon', points: [[114, 22], [114.1, 22.1], [114.1, 22], [114, 22.1]] } }, /geometry\.points/);
    await bad({ geometry: { shape: 'polygon', points: Array.from({ length: 126 }, (_, i) => [114 + Math.cos(i / 20), 22 + Math.sin(i / 20)]) } }, /geometry\.points/);
    await bad({ geometry: { shape: 'circle', center: [114, 22], radius: 50 }, rule: { ...rule, startTime: '08:00' } }, /rule\.endTime/);
    await bad({ geometry: { shape: 'circle', center: [114, 22], radius: 50 }, rule: { ...rule, startTime: '25:00', endTime: '08:00' } }, /rule\.startTime/);
    await bad({ geometry: { shape: 'circle', center: [114, 22], radius: 50 }, rule: { ...rule, maxSpeed: 300 } }, /rule\.maxSpeed/);
    // A vehicle outside the fence's company (the administrator sees it, the east company does not own it).
    await bad({ geometry: { shape: 'circle', center: [114, 22], radius: 50 }, companyId: eastId, vehicleIds: [outside] }, /vehicleIds/);
    await bad({ geometry: { shape: 'circle', center: [114, 22], radius: 50 }, companyId: 999_999 }, /companyId/);
    await bad({ geometry: { shape: 'circle', center: [114, 22], radius: 50 }, name: 'x'.repeat(51) }, /name/);
    const first = await call<FenceView>('POST', '/service-monitor/fence', east, { name: '东区', geometry: { shape: 'rect', sw: [114, 22], ne: [114.1, 22.1] }, rule });
    expect(first.code).toBe(200);
    expect(first.data.companyId).toBe(eastId);
    const dup = await call('POST', '/service-monitor/fence', east, { name: '东区', geometry: { shape: 'rect', sw: [114, 22], ne: [114.1, 22.1] }, rule });
    expect(dup.status).toBe(400);
    expect(dup.msg).toMatch(/name/);
    // Another branch's vehicle cannot be bound by the east user either.
    expect((await call('PUT', '/service-monitor/fence/vehicles', east, { id: first.data.id, vehicleIds: [outside] })).status).toBe(400);
    const none = await call('POST', '/service-monitor/fence/send', east, { id: first.data.id });
    expect(none.status).toBe(400);
    expect(none.msg).toMatch(/vehicleIds/);
    expect(count('fence')).toBe(fences + 1);
  });

  it('403 without the button bit; another branch cannot see or delete; a delete is all or nothing', async () => {
    const hq = await call<FenceView>('POST', '/service-monitor/fence', admin, { name: '总部围栏', geometry: { shape: 'polygon', points: [[114, 22], [114.1, 22], [114.05, 22.1]] }, rule });
    expect(hq.code).toBe(200);
    expect((await call('POST', '/service-monitor/fence', viewer, { name: 'v', geometry: { shape: 'circle', center: [114, 22], radius: 50 }, rule })).status).toBe(403);
    expect((await call('DELETE', '/service-monitor/fence', viewer, { ids: [hq.data.id] })).status).toBe(403);
    expect((await call('POST', '/service-monitor/fence/send', viewer, { id: hq.data.id })).status).toBe(403);
    expect((await call('GET', `/service-monitor/fence/page`, viewer)).code).toBe(200);
    expect((await call('GET', `/service-monitor/fence?id=${hq.data.id}`, east)).status).toBe(404);
    const eastPage = await call<{ records: FenceView[] }>('GET', '/service-monitor/fence/page?size=500', east);
    const pathOf = (companyId: number) => (db.prepare('SELECT path FROM company WHERE id = ?').get(companyId) as { path: string }).path;
    // The east subtree's own (its fleets' seeded ones too), never the head office's.
    expect(eastPage.data.records.every((f) => pathOf(f.companyId).startsWith(pathOf(eastId)))).toBe(true);
    expect(eastPage.data.records.map((f) => f.id)).not.toContain(hq.data.id);
    const mine = eastPage.data.records.find((f) => f.name === '东区')!.id;
    const before = count('fence');
    expect((await call('DELETE', '/service-monitor/fence', east, { ids: [mine, hq.data.id] })).status).toBe(404);
    expect(count('fence')).toBe(before);
    expect((await call('DELETE', '/service-monitor/fence', east, { ids: [mine] })).code).toBe(200);
  });
});
