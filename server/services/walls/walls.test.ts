import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESETS } from '../../../domain/walls/preset.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import { connectPush } from '../../push/test-client.ts';
import { seededSignIns, startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole } from '../../test/users.ts';
import { chinaDate } from './index.ts';

let server: TestServer;
let admin: string;
let branch: string;
let branchPath: string;
let branchCompanyId: number;

beforeAll(async () => {
  server = await startServer();
  ({ admin, branch, branchPath } = await seededSignIns(server));
  branchCompanyId = (await server.app.storage.users.findByUsername('branch'))!.companyId;
});
afterAll(async () => server?.close());

interface Created { id: number; key: string; companyId: number; name: string }

async function createDisplay(name: string, companyId = branchCompanyId): Promise<Created> {
  const r = await server.call<Created>('POST', '/service-priv/wall/display/create', { token: admin, body: { name, companyId } });
  expect(r.code).toBe(200);
  return r.data;
}

const store = () => server.app.live.store;
function vehiclesUnder(path: string): number {
  let n = 0;
  for (let s = 0; s < store().count; s++) if (store().companyPathOf(s).startsWith(path)) n++;
  return n;
}

describe('display credentials', () => {
  it('are created by an administrator for a company, shown once, and listed without their secret', async () => {
    const c = await createDisplay('Lobby wall');
    expect(c.key).toMatch(/^wd\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(c.companyId).toBe(branchCompanyId);
    const list = await server.call<{ records: Record<string, unknown>[] }>('GET', '/service-priv/wall/display/page?current=1&size=50', { token: admin });
    const row = list.data.records.find((r) => r['id'] === c.id)!;
    expect(row).toMatchObject({ name: 'Lobby wall', companyId: branchCompanyId, revokedTime: null, createdByName: 'admin' });
    expect(JSON.stringify(list.data)).not.toContain(c.key.split('.')[2]);
    expect(Object.keys(row)).not.toContain('key');
    // The list's search: name or company, wildcards taken literally.
    const found = await server.call<{ records: { id: number }[] }>('GET', '/service-priv/wall/display/page?current=1&size=50&keyword=lobby', { token: admin });
    expect(found.data.records.map((r) => r.id)).toEqual([c.id]);
    const literal = await server.call<{ records: unknown[] }>('GET', '/service-priv/wall/display/page?current=1&size=50&keyword=%25', { token: admin });
    expect(literal.data.records).toEqual([]);
  });

  it("read the wall's data of their company subtree, with figures equal to what a user of that company reads", async () => {
    const c = await createDisplay('Figures');
    const asDisplay = await server.call<{ vehicleTotal: number }>('GET', '/service-monitor/screen/V3/realtimestat', { token: c.key });
    expect(asDisplay.code).toBe(200);
    expect(asDisplay.data.vehicleTotal).toBe(vehiclesUnder(branchPath));
    expect(asDisplay.data.vehicleTotal).toBeLessThan(store().count);
    const asAdmin = await server.call<{ vehicleTotal: number }>('GET', `/service-monitor/screen/V3/realtimestat?companyId=${branchCompanyId}`, { token: admin });
    expect(asAdmin.data).toEqual(asDisplay.data);
    const preset = await server.call<{ preset: unknown; viewer: { kind: string; name: string } }>('GET', '/service-priv/wall/preset/get?wall=monitoringCenter', { token: c.key });
    expect(preset.data.preset).toEqual(DEFAULT_PRESETS.monitoringCenter);
    expect(preset.data.viewer).toMatchObject({ kind: 'display', name: 'Figures' });
  });

  it('attack: a display credential cannot write anything (every POST answers 401 and no row changes)', async () => {
    const c = await createDisplay('Writer?');
    const before = [server.count('display_credential'), server.count('wall_preset'), server.count('user'), server.count('alarm')];
    const writes: [string, unknown][] = [
      ['/service-priv/wall/display/create', { name: 'more' }],
      ['/service-priv/wall/display/revoke', { id: c.id }],
      ['/service-priv/wall/preset/save', { wall: 'monitoringCenter', preset: DEFAULT_PRESETS.overallMonitoring }],
      ['/service-priv/wall/preset/reset', { wall: 'monitoringCenter' }],
      ['/service-priv/user/revokeSessions', { id: 1 }],
      ['/service-priv/logout', {}],
    ];
    for (const [path, body] of writes) {
      const r = await server.call('POST', path, { token: c.key, body });
      expect([path, r.status]).toEqual([path, 401]);
    }
    expect([server.count('display_credential'), server.count('wall_preset'), server.count('user'), server.count('alarm')]).toEqual(before);
  });

  it("attack: a display credential reads nothing but the walls' calls (user lists, vehicle records, set-up lists: 401)", async () => {
    const c = await createDisplay('Reader?');
    for (const path of ['/service-priv/user/page?current=1&size=10', '/service-priv/user/current', '/service-monitor/monitor/realtimestat', '/service-priv/wall/display/page?current=1&size=10', '/service-priv/wall/preset/list']) {
      const r = await server.call('GET', path, { token: c.key });
      expect([path, r.status]).toEqual([path, 401]);
    }
  });

  it("attack: a display credential cannot widen its scope with another company's id (403)", async () => {
    const c = await createDisplay('Widen?');
    const root = (await server.app.storage.companies.listAll(ALL_COMPANIES)).find((co) => !branchPath.startsWith(co.path) || co.path === '/1/')!;
    const outside = (await server.app.storage.companies.listAll(ALL_COMPANIES)).find((co) => !co.path.startsWith(branchPath))!;
    expect(root).toBeDefined();
    const r = await server.call('GET', `/service-monitor/screen/V3/realtimestat?companyId=${outside.id}`, { token: c.key });
    expect(r.status).toBe(403);
    await expect(connectPush(server.url, c.key, { companyId: String(outside.id) }).then((p) => p.closed)).resolves.toMatchObject({ code: 4003 });
  });

  it('attack: a tampered, truncated or guessed key is refused (401), on HTTP and on the push stream', async () => {
    const c = await createDisplay('Tamper');
    const [, id, secret] = c.key.split('.');
    const flipped = secret!.slice(0, -1) + (secret!.endsWith('A') ? 'B' : 'A');
    for (const bad of [`wd.${id}.${flipped}`, `wd.${id}.${secret!.slice(0, 20)}`, `wd.${Number(id) + 1000}.${secret}`, `wd.${id}`, 'wd.']) {
      const r = await server.call('GET', '/service-monitor/screen/V3/realtimestat', { token: bad });
      expect([bad, r.status]).toEqual([bad, 401]);
    }
    await expect(connectPush(server.url, `wd.${id}.${flipped}`)).rejects.toMatchObject({ status: 401 });
  });

  it('opens the push stream scoped to its company: the directory holds exactly the subtree’s vehicles', async () => {
    const c = await createDisplay('Stream');
    const p = await connectPush(server.url, c.key);
    try {
      const dir = await p.waitFor(() => p.received.find((m) => m.kind === 'directory'));
      if (dir.kind !== 'directory') throw new Error('directory first');
      expect(dir.vehicles.length).toBe(vehiclesUnder(branchPath));
    } finally {
      p.close();
    }
  });

  it('keeps working when user sessions end, and stops at once when revoked (HTTP 401, push refused)', async () => {
    const c = await createDisplay('Revoke me');
    // Every user session of the administrator who made it ends: the wall does not care.
    const adminUser = (await server.app.storage.users.findByUsername('admin'))!;
    const other = await server.login('admin', 'admin123');
    await server.call('POST', '/service-priv/logout', { token: other });
    expect((await server.call('GET', '/service-monitor/screen/V3/realtimestat', { token: c.key })).status).toBe(200);
    expect(adminUser.id).toBeGreaterThan(0);

    const open = await connectPush(server.url, c.key);
    await open.waitFor(() => open.received.find((m) => m.kind === 'directory'));
    const r = await server.call<{ revokedTime: number; revokedByName: string }>('POST', '/service-priv/wall/display/revoke', { token: admin, body: { id: c.id } });
    // The stream that was open ends at once (4001), not at its next reconnect.
    await expect(open.closed).resolves.toMatchObject({ code: 4001 });
    expect(r.code).toBe(200);
    expect(r.data.revokedByName).toBe('admin');
    expect((await server.call('GET', '/service-monitor/screen/V3/realtimestat', { token: c.key })).status).toBe(401);
    await expect(connectPush(server.url, c.key)).rejects.toMatchObject({ status: 401 });
    expect((await server.call('POST', '/service-priv/wall/display/revoke', { token: admin, body: { id: c.id } })).status).toBe(409);
  });

  it('attack: a branch administrator can neither see nor revoke a credential of a company outside its subtree', async () => {
    const outside = (await server.app.storage.companies.listAll(ALL_COMPANIES)).find((co) => !co.path.startsWith(branchPath))!;
    const c = await createDisplay('Head office', outside.id);
    const setup = await createUserWithRole(server, 'wallsetup', branchCompanyId, [163, 321, 322, 323]);
    const list = await server.call<{ records: { id: number }[] }>('GET', '/service-priv/wall/display/page?current=1&size=100', { token: setup });
    expect(list.data.records.map((r) => r.id)).not.toContain(c.id);
    expect((await server.call('POST', '/service-priv/wall/display/revoke', { token: setup, body: { id: c.id } })).status).toBe(404);
    expect((await server.call('POST', '/service-priv/wall/display/create', { token: setup, body: { name: 'x', companyId: outside.id } })).status).toBe(403);
    // Without the create bit: 403.
    expect((await server.call('POST', '/service-priv/wall/display/create', { token: branch, body: { name: 'x' } })).status).toBe(403);
  });
});

describe('wall presets', () => {
  it('refuses an overlapping layout with the problem in the user language, and stores a valid one for every viewer', async () => {
    const base = DEFAULT_PRESETS.monitoringCenter;
    const overlapping = { ...base, panels: [...base.panels, { kind: 'alarmWeek', x: 0, y: 0, w: 2, h: 2 }] };
    const bad = await server.call('POST', '/service-priv/wall/preset/save', { token: admin, lang: 'en', body: { wall: 'monitoringCenter', preset: overlapping } });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('overlaps');
    const changed = { ...base, title: { zh: '调度大厅', en: 'Dispatch hall' }, map: { center: [121.47, 31.23], zoom: 8 } };
    const saved = await server.call<{ stored: boolean }>('POST', '/service-priv/wall/preset/save', { token: admin, body: { wall: 'monitoringCenter', preset: changed } });
    expect(saved.data.stored).toBe(true);
    const c = await createDisplay('Preset reader');
    const got = await server.call<{ preset: typeof changed; stored: boolean }>('GET', '/service-priv/wall/preset/get?wall=monitoringCenter', { token: c.key });
    expect(got.data.preset.title.en).toBe('Dispatch hall');
    expect(got.data.preset.map).toEqual({ center: [121.47, 31.23], zoom: 8 });
    await server.call('POST', '/service-priv/wall/preset/reset', { token: admin, body: { wall: 'monitoringCenter' } });
    const reset = await server.call<{ stored: boolean; preset: unknown }>('GET', '/service-priv/wall/preset/get?wall=monitoringCenter', { token: c.key });
    expect(reset.data).toMatchObject({ stored: false, preset: DEFAULT_PRESETS.monitoringCenter });
  });
});

describe('wall alarm figures', () => {
  it("count today's stored alarms of the scope by type, day and risk level, and list the newest first", async () => {
    const storage = server.app.storage;
    const vehicles = await storage.fleet.searchVehicles({ all: false, rootId: branchCompanyId, rootPath: branchPath }, '', 5);
    const v = vehicles[0]!;
    const now = store().clock();
    const base = {
      vehicleId: v.id, deviceNo: v.deviceNo!, companyId: v.companyId, source: 'platform' as const, lng: 120, lat: 30, speed: 40, dealStatus: 0 as const, createTime: now,
    };
    const c = await createDisplay('Alarms');
    const before = await server.call<{ total: number }>('GET', '/service-monitor/screen/V3/getUserAlarmData', { token: c.key });
    await storage.alarms.insert({ ...base, alarmType: 10001, startTime: now - 3000, riskLevel: 'high' });
    await storage.alarms.insert({ ...base, alarmType: 10001, startTime: now - 2000, riskLevel: 'high' });
    const newest = await storage.alarms.insert({ ...base, alarmType: 10006, startTime: now - 1000, riskLevel: 'medium' });

    const types = await server.call<{ total: number; types: { alarmType: number; count: number }[]; date: string }>('GET', '/service-monitor/screen/V3/getUserAlarmData', { token: c.key, lang: 'en' });
    expect(types.data.total).toBe(before.data.total + 3);
    expect(types.data.date).toBe(chinaDate(now));
    expect(types.data.types.find((t) => t.alarmType === 10001)?.count).toBeGreaterThanOrEqual(2);
    const week = await server.call<{ days: { date: string; count: number; today: boolean }[] }>('GET', '/service-monitor/screen/V3/getWeekUserAlarmData', { token: c.key });
    expect(week.data.days).toHaveLength(8);
    expect(week.data.days[7]).toMatchObject({ date: chinaDate(now), count: types.data.total, today: true });
    const levels = await server.call<{ total: number; levels: { level: string; count: number }[] }>('GET', '/service-safesheet/screen/synplatformlevel', { token: c.key });
    expect(levels.data.total).toBe(types.data.total);
    const rolling = await server.call<{ records: { id: number; vehiidno: string; alarmName: string }[] }>('GET', '/service-safesheet/screenV2/realtimeAlarms?size=5', { token: c.key, lang: 'en' });
    expect(rolling.data.records[0]).toMatchObject({ id: newest, vehiidno: v.vehiidno });
    // Another company's credential sees none of them.
    const outside = (await storage.companies.listAll(ALL_COMPANIES)).find((co) => !co.path.startsWith(branchPath) && co.path !== '/1/' && !branchPath.startsWith(co.path));
    if (outside) {
      const o = await createDisplay('Elsewhere', outside.id);
      const r = await server.call<{ records: { id: number }[] }>('GET', '/service-safesheet/screenV2/realtimeAlarms?size=50', { token: o.key });
      expect(r.data.records.map((a) => a.id)).not.toContain(newest);
    }
  });

  it("serves the operation dashboard's risk ranking and 7-day driving behind a display key, equal to the dashboard's own answer", async () => {
    const c = await createDisplay('Dashboard figures');
    const risk = await server.call<{ records: unknown[] }>('GET', '/service-priv/wall/data/riskRanking', { token: c.key });
    const dashRisk = await server.call<{ records: unknown[] }>('GET', `/service-monitor/dashboard/riskRanking?companyId=${branchCompanyId}`, { token: admin });
    expect(risk.code).toBe(200);
    expect(risk.data.records).toEqual(dashRisk.data.records);
    const mile = await server.call<unknown[]>('GET', '/service-priv/wall/data/dailyMile', { token: c.key });
    const dashMile = await server.call<unknown[]>('GET', `/service-onlinegps/geography/getVehicleDailyMile?companyId=${branchCompanyId}`, { token: admin });
    expect(mile.code).toBe(200);
    expect(mile.data).toEqual(dashMile.data);
  });

  it("counts today's live video of the scope's vehicles only (connections, vehicles, open now, volume)", async () => {
    const storage = server.app.storage;
    const inside = (await storage.fleet.searchVehicles({ all: false, rootId: branchCompanyId, rootPath: branchPath }, '', 2))[0]!;
    const outsideCo = (await storage.companies.listAll(ALL_COMPANIES)).find((co) => !co.path.startsWith(branchPath) && !branchPath.startsWith(co.path))!;
    const outside = (await storage.fleet.searchVehicles({ all: false, rootId: outsideCo.id, rootPath: outsideCo.path }, '', 1))[0]!;
    const now = store().clock();
    const c = await createDisplay('Video');
    const before = (await server.call<{ connections: number; open: number }>('GET', '/service-safesheet/screen/synvideo', { token: c.key })).data;
    await storage.streams.start({ userId: 1, vehicleId: inside.id, channel: 1, stream: 0, startedAt: now - 3 * 86_400_000 });
    const ended = await storage.streams.start({ userId: 1, vehicleId: inside.id, channel: 1, stream: 0, startedAt: now - 2000 });
    await storage.streams.end(ended, now - 1000, 2 * 1048576, 'closed');
    await storage.streams.start({ userId: 1, vehicleId: inside.id, channel: 2, stream: 0, startedAt: now - 500 });
    await storage.streams.start({ userId: 1, vehicleId: outside.id, channel: 1, stream: 0, startedAt: now - 400 });
    const r = await server.call<{ connections: number; vehicles: number; open: number; megabytes: number }>('GET', '/service-safesheet/screen/synvideo', { token: c.key });
    expect(r.data.connections).toBe(before.connections + 2);
    expect(r.data.open).toBe(before.open + 1);
    expect(r.data.vehicles).toBeGreaterThanOrEqual(1);
    expect(r.data.megabytes).toBeGreaterThanOrEqual(2);
  });

  it('rolls vehicles up into the first level of companies and lists the latest reports (vehicles that never reported left out)', async () => {
    const c = await createDisplay('Companies');
    const r = await server.call<{ companies: { companyId: number; total: number }[] }>('GET', '/service-safesheet/screen/synvehicle?top=50', { token: c.key });
    expect(r.data.companies.reduce((n, co) => n + co.total, 0)).toBe(vehiclesUnder(branchPath));
    const last = await server.call<{ records: unknown[] }>('GET', '/service-monitor/screen/V3/getVehicleLast?size=5', { token: c.key });
    expect(last.code).toBe(200);
    expect(last.data.records.length).toBeLessThanOrEqual(5);
  });
});
