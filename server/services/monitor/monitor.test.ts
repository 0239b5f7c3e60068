import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { location, TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';

interface Rec { vehicleId: number; companyId: number; lng: number | null; lat: number | null; stateName: string; vehiidno: string }
interface Company { id: number; pid: number; name: string }

let server: LiveTestServer;
let admin: string;
let east: string;
let eastIds: Set<number>;
let northCompany: Company;
const eastVehicles: number[] = [];
const northVehicles: number[] = [];
const terminals: TestTerminal[] = [];

const idOf = (key: string) => entryByKey(key)!.id;

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 40 });
  admin = await server.login('admin', 'admin123');
  const companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
  const eastCompany = companies.find((c) => c.name === '华东分公司')!;
  northCompany = companies.find((c) => c.name === '华北分公司')!;
  eastIds = new Set(companies.filter((c) => c.id === eastCompany.id || c.pid === eastCompany.id).map((c) => c.id));
  const role = await server.call<{ id: number }>('POST', '/service-priv/role', {
    token: admin, body: { name: '分公司监控', permissionIds: [idOf('/monitor'), idOf('/monitor/index')] },
  });
  const user = await server.call('POST', '/service-priv/user', {
    token: admin, body: { username: 'east_watch', password: 'secret123', userLevel: 2, companyId: eastCompany.id, roleIds: [role.data.id] },
  });
  expect(user.code).toBe(200);
  east = await server.login('east_watch', 'secret123');

  // Three vehicles of each branch report through the gateway, spread over a small box near Shanghai.
  const vehicles = await server.app.storage.terminals.allVehicles();
  const t = Math.floor(server.clock.now() / 1000) * 1000;
  let k = 0;
  for (const v of vehicles) {
    const isEast = eastIds.has(v.companyId);
    const isNorth = !isEast && v.companyPath.startsWith(`/1/${northCompany.id}/`);
    const list = isEast ? eastVehicles : isNorth ? northVehicles : null;
    if (!list || list.length >= 3) continue;
    list.push(v.vehicleId);
    const terminal = await TestTerminal.connect(server.gatewayPort, v.deviceNo);
    terminals.push(terminal);
    await terminal.login();
    await terminal.report(location({ lng: 121 + k / 100, lat: 31 + k / 100, time: t, speed: 40 }));
    k++;
  }
  expect(eastVehicles).toHaveLength(3);
  expect(northVehicles).toHaveLength(3);
});
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
  await server.close();
});

describe('monitor calls scoped to the caller’s company subtree', () => {
  it('counts only the branch’s own vehicles in realtimestat', async () => {
    const store = server.app.live.store;
    let own = 0;
    for (let s = 0; s < store.count; s++) if (eastIds.has(store.columns.companyId[s]!)) own++;
    const r = await server.call<{ vehicleTotal: number; vehicleOnline: number; vehicleRunning: number }>('GET', '/service-monitor/monitor/realtimestat', { token: east });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ vehicleTotal: own, vehicleOnline: 3, vehicleRunning: 3 });
    const all = await server.call<{ vehicleTotal: number; vehicleOnline: number }>('GET', '/service-monitor/monitor/realtimestat', { token: admin });
    expect(all.data).toMatchObject({ vehicleTotal: 40, vehicleOnline: 6 });
  });

  it('answers 404 for another branch’s vehicle and leaves it out of batch and frame answers', async () => {
    const one = await server.call('GET', `/service-monitor/monitor/realtime?vehicleId=${northVehicles[0]}`, { token: east, lang: 'en' });
    expect(one.status).toBe(404);
    const batch = await server.call<Rec[]>('POST', '/service-monitor/monitor/batchrealtime', { token: east, body: { vehicleIds: [...eastVehicles, ...northVehicles] } });
    expect(batch.data.map((r) => r.vehicleId).sort()).toEqual([...eastVehicles].sort());
    const frame = await server.call<{ total: number; records: Rec[] }>('POST', '/service-monitor/monitor/searchFrameVehicles', {
      token: east, body: { minLng: 120, minLat: 30, maxLng: 122, maxLat: 32 },
    });
    expect(frame.data.total).toBe(3);
    expect(frame.data.records.every((r) => eastIds.has(r.companyId))).toBe(true);
    const adminFrame = await server.call<{ total: number }>('POST', '/service-monitor/monitor/searchFrameVehicles', {
      token: admin, body: { minLng: 120, minLat: 30, maxLng: 122, maxLat: 32 },
    });
    expect(adminFrame.data.total).toBe(6);
  });

  it('refuses a companyId outside the caller’s subtree with 403', async () => {
    const r = await server.call('GET', `/service-monitor/monitor/realtimestat?companyId=${northCompany.id}`, { token: east });
    expect(r.status).toBe(403);
  });

  it('answers 403 to a user without the monitor permission', async () => {
    const branch = await server.login('branch', 'branch123');
    expect((await server.call('GET', '/service-monitor/monitor/realtimestat', { token: branch })).status).toBe(403);
  });

  it('narrows the frame query to the rectangle drawn', async () => {
    const r = await server.call<{ total: number; records: Rec[] }>('POST', '/service-monitor/monitor/searchFrameVehicles', {
      token: admin, body: { minLng: 120.995, minLat: 30.995, maxLng: 121.015, maxLat: 31.015 },
    });
    expect(r.data.total).toBe(2);
    for (const rec of r.data.records) expect(rec.lng!).toBeLessThanOrEqual(121.015);
  });

  it('pages the realtime list and filters it by state', async () => {
    const driving = await server.call<{ records: Rec[]; total: number }>('POST', '/service-monitor/monitor/v3/selectreal', {
      token: admin, body: { current: 1, size: 4, state: 'driving' },
    });
    expect(driving.data.total).toBe(6);
    expect(driving.data.records).toHaveLength(4);
    expect(driving.data.records.every((r) => r.stateName === 'driving')).toBe(true);
    const never = await server.call<{ total: number }>('POST', '/service-monitor/monitor/v3/selectreal', { token: east, body: { state: 'neverOnline' } });
    const stat = await server.call<{ neverOnline: number; total: number }>('POST', '/service-monitor/monitor/v3/selectrealstat', { token: east, body: {} });
    expect(never.data.total).toBe(stat.data.neverOnline);
    expect(stat.data.total).toBe(stat.data.neverOnline + 3);
  });
});

describe('monitor validation messages', () => {
  it('refuses more than 100 vehicles with the spec’s limit message in the caller’s language', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1);
    const zh = await server.call('POST', '/service-monitor/monitor/batchrealtime', { token: admin, body: { vehicleIds: ids } });
    expect(zh.status).toBe(400);
    expect(zh.msg).toBe('最多只能同时监控100辆车');
    const en = await server.call('POST', '/service-monitor/monitor/batchrealtime', { token: admin, body: { vehicleIds: ids }, lang: 'en' });
    expect(en.msg).toBe('At most 100 vehicles can be monitored at once');
    const ok = await server.call<Rec[]>('POST', '/service-monitor/monitor/batchrealtime', { token: admin, body: { vehicleIds: ids.slice(0, 100) } });
    expect(ok.code).toBe(200);
    expect(ok.data).toHaveLength(40);
  });

  it('asks for a complete rectangle when a corner is missing or the box is flat', async () => {
    for (const body of [{ minLng: 120, minLat: 30, maxLng: 122 }, { minLng: 120, minLat: 30, maxLng: 120, maxLat: 32 }, {}]) {
      const r = await server.call('POST', '/service-monitor/monitor/searchFrameVehicles', { token: admin, body, lang: 'en' });
      expect(r.status).toBe(400);
      expect(r.msg).toBe('A complete rectangle must be drawn to query by frame');
    }
    const zh = await server.call('POST', '/service-monitor/monitor/searchFrameVehicles', { token: admin, body: { minLng: 1 } });
    expect(zh.msg).toBe('请绘制完整的矩形后再按框查询');
  });

  it('shows gateway counters to administrators only', async () => {
    const r = await server.call<{ gateway: { authenticated: number; positions: number } }>('GET', '/service-monitor/gateway/stats', { token: admin });
    expect(r.data.gateway.authenticated).toBe(6);
    expect(r.data.gateway.positions).toBe(6);
    expect((await server.call('GET', '/service-monitor/gateway/stats', { token: east })).status).toBe(403);
  });
});
