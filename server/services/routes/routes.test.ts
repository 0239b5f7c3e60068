/**
 * Routes against a live server with simulated terminals: create with bound vehicles, list and read,
 * send to terminals as a task (online ones hold the route at once, an offline one stays queued), update
 * (terminals outdated), unbind and delete sending 0x8607, the evaluation's source following every write,
 * and the rules (400 naming the field with nothing written, 403 by button bits, 404 outside the scope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { createUserWithRole } from '../../test/users.ts';
import { sqliteRouteSource } from './store.ts';

interface RouteView {
  id: number; companyId: number; name: string; points: number[][]; sections: Record<string, unknown>[]; deviationSeconds: number; vehicleCount: number;
  vehicles: { vehicleId: number; sendState: string; online: boolean; track: string }[];
}
interface Task { id: number; kind: string; routeId: number; counts: Record<string, number>; vehicles: { vehicleId: number; state: string }[] }

let fleet: SimFleet;
let admin: string, east: string, viewer: string;
let db: SqliteStorage['db'];
let eastId: number, outside: number;

const call = <T>(method: string, url: string, token: string, body?: unknown) => fleet.server.call<T>(method, url, { token, body });
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const section = { width: 50, maxSeconds: 900, minSeconds: 60, maxSpeed: 60, overspeedSeconds: 10 };
const points = [[114.05, 22.54], [114.06, 22.54], [114.06, 22.55]];
const plan = { points, sections: [section, { ...section, maxSeconds: null, minSeconds: null, maxSpeed: null }] };
const terminalOf = (vehicleId: number) => {
  const d = (db.prepare('SELECT device_no AS d FROM vehicle WHERE id = ?').get(vehicleId) as { d: string }).d;
  return fleet.sim.terminals.find((t) => t.program.deviceNo === d)!;
};

beforeAll(async () => {
  fleet = await startSimFleet(12, 29);
  admin = fleet.adminToken;
  db = (fleet.server.app.storage as SqliteStorage).db;
  eastId = (db.prepare("SELECT company_id AS id FROM user WHERE username = 'branch'").get() as { id: number }).id;
  const eastPath = (db.prepare('SELECT path FROM company WHERE id = ?').get(eastId) as { path: string }).path;
  outside = (db.prepare(`SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE NOT (c.path >= ? AND c.path < ?) ORDER BY v.id LIMIT 1`).get(eastPath, `${eastPath}~`) as { id: number }).id;
  east = await createUserWithRole(fleet.server, 'route_east', eastId, [3, 11, 430, 431, 432, 433]);
  viewer = await createUserWithRole(fleet.server, 'route_viewer', 1, [3, 11]);
}, 60_000);
afterAll(async () => {
  await fleet?.close();
});

describe('routes', () => {
  let routeId: number;

  it('creates a route with vehicles, lists it, reads it back; the evaluation sees it', async () => {
    const vehicleIds = [...fleet.online.slice(0, 2).map((o) => o.vehicleId), fleet.offlineVehicle];
    const made = await call<RouteView>('POST', '/service-monitor/route-plan', admin, { name: ' 南山渣土线 ', ...plan, vehicleIds });
    expect(made.code).toBe(200);
    routeId = made.data.id;
    expect(made.data).toMatchObject({ name: '南山渣土线', points, deviationSeconds: 30, vehicleCount: 3 });
    expect(made.data.vehicles.map((v) => v.sendState)).toEqual(['none', 'none', 'none']);
    const page = await call<{ records: RouteView[] }>('GET', `/service-monitor/route-plan/page?name=${encodeURIComponent('南山')}`, admin);
    expect(page.data.records.map((r) => r.id)).toContain(routeId);
    const loaded = sqliteRouteSource(db).load().find((x) => x.route.id === routeId);
    expect(loaded?.route.sections[0]).toEqual({ ...section, nightMaxSpeed: null });
    expect([...loaded!.vehicleIds].sort()).toEqual([...vehicleIds].sort());
    expect(fleet.server.app.alarms.routeWatch?.evaluator.routeCount).toBeGreaterThan(0);
  });

  it('sends it: online terminals hold the route (0x8606), the offline one is queued', async () => {
    const sent = await call<Task>('POST', '/service-monitor/route-plan/send', admin, { id: routeId });
    expect(sent.code).toBe(200);
    expect(sent.data).toMatchObject({ kind: 'routeSet', routeId });
    const task = () => call<Task>('GET', `/service-monitor/route-plan/task?id=${sent.data.id}`, admin).then((r) => r.data);
    await until(async () => (await task()).counts.ok === 2, 15_000, 100);
    expect((await task()).vehicles.find((v) => v.vehicleId === fleet.offlineVehicle)?.state).toBe('queued');
    const held = terminalOf(fleet.online[0]!.vehicleId).routes.get(routeId);
    expect(held?.points.map((p) => [p[0], p[1]])).toEqual(points);
    expect(held?.sections[0]).toEqual({ ...section, nightMaxSpeed: null });
    const detail = await call<RouteView>('GET', `/service-monitor/route-plan?id=${routeId}`, admin);
    expect(detail.data.vehicles.filter((v) => v.sendState === 'ok')).toHaveLength(2);
    const records = await call<{ records: { fun: string; state: string; content: { routeId: number; msgId: number } }[] }>('GET', `/service-command/command_record/fun?taskId=${sent.data.id}`, admin);
    expect(records.data.records.filter((r) => r.state === 'ok').map((r) => [r.fun, r.content.routeId, r.content.msgId])).toEqual(Array(2).fill(['routeSet', routeId, 0x8606]));
  });

  it('an update makes the terminals outdated; unbinding deletes the route there (0x8607); deleting it deletes it on the rest', async () => {
    const put = await call<RouteView>('PUT', '/service-monitor/route-plan', admin, { id: routeId, name: '南山渣土线', ...plan, deviationSeconds: 60 });
    expect(put.data.deviationSeconds).toBe(60);
    expect(put.data.vehicles.filter((v) => v.sendState !== 'none' && v.sendState !== 'queued').every((v) => v.sendState === 'outdated')).toBe(true);
    const [a, b] = fleet.online.map((o) => o.vehicleId);
    const un = await call<RouteView & { deleteTaskId: number }>('PUT', '/service-monitor/route-plan/vehicles', admin, { id: routeId, vehicleIds: [b, fleet.offlineVehicle] });
    expect(un.data.vehicleCount).toBe(2);
    expect(un.data.deleteTaskId).toBeGreaterThan(0);
    await until(() => terminalOf(a!).routes.get(routeId) === undefined, 15_000, 100);
    expect(terminalOf(b!).routes.get(routeId)).toBeDefined();
    const del = await call<{ deleted: number; deleteTaskIds: number[] }>('DELETE', '/service-monitor/route-plan', admin, { ids: [routeId] });
    expect(del.data.deleted).toBe(1);
    await until(() => terminalOf(b!).routes.get(routeId) === undefined, 15_000, 100);
    expect((await call<Task>('GET', `/service-monitor/route-plan/task?id=${del.data.deleteTaskIds[0]}`, admin)).data).toMatchObject({ kind: 'routeDelete', routeId });
    expect((await call('GET', `/service-monitor/route-plan?id=${routeId}`, admin)).status).toBe(404);
    expect(sqliteRouteSource(db).load().some((x) => x.route.id === routeId)).toBe(false);
  });

  it('400 naming the field and nothing written', async () => {
    const before = count('route_plan');
    const bad = async (body: Record<string, unknown>, field: RegExp) => {
      const r = await call('POST', '/service-monitor/route-plan', admin, { name: '坏路线', ...plan, ...body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.msg).toMatch(field);
    };
    await bad({ points: [[114, 22]], sections: [] }, /points/);
    await bad({ points: [[114, 22], [114, 22]], sections: [section] }, /points\[1\]/);
    await bad({ sections: [section] }, /sections/);
    await bad({ sections: [{ ...section, width: 0 }, section] }, /width/);
    await bad({ sections: [{ ...section, minSeconds: 900 }, section] }, /sections\[0\]\.minSeconds/);
    await bad({ points: Array.from({ length: 33 }, (_, i) => [114 + i / 100, 22]), sections: Array(32).fill(section) }, /points/);
    await bad({ companyId: eastId, vehicleIds: [outside] }, /vehicleIds/);
    await bad({ name: 'x'.repeat(51) }, /name/);
    await bad({ sections: [{ ...section, nightMaxSpeed: 70 }, section] }, /sections\[0\]\.nightMaxSpeed/);
    await bad({ sections: [section, { ...section, maxSpeed: null, nightMaxSpeed: 30 }] }, /sections\[1\]\.nightMaxSpeed/);
    await bad({ startTime: '08:00' }, /endTime/);
    await bad({ startTime: '8:00', endTime: '18:00' }, /startTime/);
    await bad({ startTime: '08:00', endTime: '08:00' }, /endTime/);
    await bad({ keyPoints: [{ point: 3, arriveFrom: '08:00', arriveBy: '09:00' }] }, /keyPoints\[0\]\.point/);
    await bad({ keyPoints: [{ point: 1, arriveFrom: '08:00', arriveBy: '25:00' }] }, /keyPoints\[0\]\.arriveBy/);
    expect(count('route_plan')).toBe(before);
    const first = await call<RouteView>('POST', '/service-monitor/route-plan', east, { name: '东线', ...plan });
    expect(first.data.companyId).toBe(eastId);
    const dup = await call('POST', '/service-monitor/route-plan', east, { name: '东线', ...plan });
    expect(dup.msg).toMatch(/name/);
    const none = await call('POST', '/service-monitor/route-plan/send', east, { id: first.data.id });
    expect(none.msg).toMatch(/vehicleIds/);
  });

  it('a window, a night limit and key points are stored, read back, and sent (attribute bit 0, night speed); an update clears them', async () => {
    const vehicleId = fleet.online[2]!.vehicleId;
    const body = {
      name: '夜间限速线', points, startTime: '21:00', endTime: '07:00',
      sections: [{ ...section, nightMaxSpeed: 40 }, { ...section, maxSeconds: null, minSeconds: null, maxSpeed: null }],
      keyPoints: [{ point: 1, arriveFrom: '08:00', arriveBy: '09:30' }], vehicleIds: [vehicleId],
    };
    const made = await call<RouteView & { startTime: string; endTime: string; keyPoints: unknown[] }>('POST', '/service-monitor/route-plan', admin, body);
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({ startTime: '21:00', endTime: '07:00', keyPoints: body.keyPoints });
    expect(made.data.sections[0]).toMatchObject({ nightMaxSpeed: 40 });
    const loaded = sqliteRouteSource(db).load().find((x) => x.route.id === made.data.id)!.route;
    expect(loaded).toMatchObject({ startTime: '21:00', endTime: '07:00', keyPoints: body.keyPoints });
    const sent = await call<Task>('POST', '/service-monitor/route-plan/send', admin, { id: made.data.id });
    await until(async () => (await call<Task>('GET', `/service-monitor/route-plan/task?id=${sent.data.id}`, admin)).data.counts.ok === 1, 15_000, 100);
    // The terminal holds what 0x8606 carried: the daily window, and the night limit where its edition has the field (2019).
    const terminal = terminalOf(vehicleId);
    const held = terminal.routes.get(made.data.id)!;
    expect(held).toMatchObject({ startTime: '21:00', endTime: '07:00' });
    expect(held.sections[0]).toMatchObject({ maxSpeed: 60, nightMaxSpeed: terminal.program.edition === 2019 ? 40 : null });
    // Clearing the window and key points on update.
    const put = await call<RouteView & { startTime: string | null; keyPoints: unknown[] }>('PUT', '/service-monitor/route-plan', admin, { id: made.data.id, name: '夜间限速线', ...plan });
    expect(put.data).toMatchObject({ startTime: null, keyPoints: [] });
  });

  it('403 without the button bit; another branch cannot see it', async () => {
    const hq = await call<RouteView>('POST', '/service-monitor/route-plan', admin, { name: '总部线', ...plan });
    expect((await call('POST', '/service-monitor/route-plan', viewer, { name: 'v', ...plan })).status).toBe(403);
    expect((await call('DELETE', '/service-monitor/route-plan', viewer, { ids: [hq.data.id] })).status).toBe(403);
    expect((await call('POST', '/service-monitor/route-plan/send', viewer, { id: hq.data.id })).status).toBe(403);
    expect((await call('GET', '/service-monitor/route-plan/page', viewer)).code).toBe(200);
    expect((await call('GET', `/service-monitor/route-plan?id=${hq.data.id}`, east)).status).toBe(404);
  });
});
