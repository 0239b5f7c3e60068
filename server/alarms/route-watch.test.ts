/**
 * Platform route evaluation over the gateway (issue 17): a scripted terminal bound to a route drives
 * along it and off its corridor; the alarm service stores and pushes one 13010 with the route's name,
 * ended when the vehicle is back; a section left too early is one 13003; a key point not reached in
 * its window is one 13011 naming the point and the window.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { M_PER_DEG } from '../../domain/fence/geometry.ts';
import { chinaTimeOfDayMs } from '../../domain/track/days.ts';
import { ROUTE_CODES } from '../../domain/route/rules.ts';
import type { Route } from '../../domain/route/types.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import type { RouteSource } from './route-watch.ts';
import { AlarmService } from './service.ts';

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const servers: LiveTestServer[] = [];
const services: AlarmService[] = [];
afterEach(async () => {
  while (services.length > 0) await services.pop()!.stop();
  while (servers.length > 0) await servers.pop()!.close();
});

const O = [121.47, 31.23] as const;
const KX = M_PER_DEG * Math.cos((O[1] * Math.PI) / 180);
/** x metres east, y metres north of O. */
const at = (x: number, y: number) => ({ lng: O[0] + x / KX, lat: O[1] + y / M_PER_DEG });

const ROUTE: Route = {
  id: 61, companyId: 1, name: '外滩渣土线', deviationSeconds: 20,
  points: [[O[0], O[1]], [at(2000, 0).lng, O[1]], [at(2000, 0).lng, at(0, 2000).lat]],
  sections: [
    { width: 40, maxSeconds: null, minSeconds: 60, maxSpeed: null, overspeedSeconds: 0 },
    { width: 40, maxSeconds: null, minSeconds: null, maxSpeed: null, overspeedSeconds: 0 },
  ],
};

async function serverWithRoutes(routes: { route: Route; vehicleIds: number[] }[]) {
  const server = await startLiveServer({ seedVehicles: 3 });
  servers.push(server);
  const pushed: Record<string, unknown>[] = [];
  const source: RouteSource = { load: () => routes };
  const app = server.app;
  const service = new AlarmService(app.storage, app.live.store, {
    publishAlarm: (path, alarm) => {
      pushed.push(alarm);
      app.push.publishAlarm(path, alarm);
    },
  }, { routes: source });
  await service.init();
  services.push(service);
  app.live.gateway.onReport = (vehicleId, report, edition) => service.onReport(vehicleId, report, edition);
  return { server, service, pushed };
}

async function drive(server: LiveTestServer, service: AlarmService, deviceNo: string, path: readonly (readonly [number, number])[]): Promise<void> {
  const t = await TestTerminal.connect(server.gatewayPort, deviceNo);
  await t.login();
  for (const [x, y] of path) {
    server.clock.advance(10_000);
    expect((await t.report(location({ ...at(x, y), time: seconds(server.clock.now()), speed: 30 }))).result).toBe(0);
    await service.idle();
  }
  await t.close();
}

async function alarmsOf(server: LiveTestServer, vehicleId: number) {
  const now = server.clock.now();
  return (await server.app.storage.alarms.query(ALL_COMPANIES, { startTime: now - 86_400_000, endTime: now + 86_400_000, vehicleIds: [vehicleId] }, 0, 100)).records;
}

describe('platform routes over the gateway', () => {
  it('a bound vehicle driving off the corridor for the deviation time raises one 13010, pushed once with the route name, ended back on it', async () => {
    const list: { route: Route; vehicleIds: number[] }[] = [];
    const { server, service, pushed } = await serverWithRoutes(list);
    const [bound, unbound] = await server.app.storage.terminals.allVehicles();
    list.push({ route: ROUTE, vehicleIds: [bound!.vehicleId] });
    service.routesChanged();

    // On the first section, then 60 m north of it (the corridor is 20 m each side) for 30 s, then back.
    await drive(server, service, bound!.deviceNo, [[100, 0], [300, 5], [500, 60], [700, 60], [900, 60], [1100, 60], [1300, 0], [1500, 0]]);
    const stored = (await alarmsOf(server, bound!.vehicleId)).filter((a) => a.alarmType === ROUTE_CODES.deviation);
    expect(stored).toEqual([expect.objectContaining({ alarmType: ROUTE_CODES.deviation, source: 'platform', count: 1, endTime: expect.any(Number) })]);
    expect(stored[0]!.lng).toBeCloseTo(at(500, 60).lng, 5); // dated at the first report off the corridor
    expect(pushed.filter((p) => p.alarmType === ROUTE_CODES.deviation)).toEqual([
      expect.objectContaining({ id: stored[0]!.id, alarmName: '平台路线偏离报警', content: '路线：外滩渣土线' }),
    ]);

    // The same drive by a vehicle not bound to the route: nothing.
    await drive(server, service, unbound!.deviceNo, [[100, 0], [500, 60], [700, 60], [900, 60], [1100, 60]]);
    expect(await alarmsOf(server, unbound!.vehicleId)).toEqual([]);
  });

  it('a section left too early is one 13003 naming the section and the time', async () => {
    const list: { route: Route; vehicleIds: number[] }[] = [];
    const { server, service, pushed } = await serverWithRoutes(list);
    const [v] = await server.app.storage.terminals.allVehicles();
    list.push({ route: ROUTE, vehicleIds: [v!.vehicleId] });
    service.routesChanged();
    // From before the start onto section 0, over 2 km in 30 s (60 s is the least), into section 1.
    await drive(server, service, v!.deviceNo, [[-200, 0], [0, 0], [1000, 0], [1900, 0], [2000, 100]]);
    const stored = await alarmsOf(server, v!.vehicleId);
    expect(stored).toEqual([expect.objectContaining({ alarmType: ROUTE_CODES.sectionTime, count: 1 })]);
    expect(pushed).toEqual([expect.objectContaining({ alarmType: ROUTE_CODES.sectionTime, content: '路线：外滩渣土线，路段 1，行驶 30 秒（不足）' })]);
  });

  it('a key point not reached before its window closes is one 13011 naming the turning point and the window', async () => {
    const list: { route: Route; vehicleIds: number[] }[] = [];
    const { server, service, pushed } = await serverWithRoutes(list);
    const [v] = await server.app.storage.terminals.allVehicles();
    // The window: this China minute to two minutes on (its close is 60–120 s away).
    const minute = Math.floor(chinaTimeOfDayMs(server.clock.now()) / 60_000);
    const hhmm = (m: number) => `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const keyPoint = { point: 1, arriveFrom: hhmm(minute), arriveBy: hhmm(minute + 2) };
    list.push({ route: { ...ROUTE, deviationSeconds: 3600, keyPoints: [keyPoint] }, vehicleIds: [v!.vehicleId] });
    service.routesChanged();
    // 50 m every 10 s along section 0 for 150 s: 750 m, far short of the turning point at 2 km.
    await drive(server, service, v!.deviceNo, Array.from({ length: 15 }, (_, i) => [50 + i * 50, 0] as const));
    const stored = await alarmsOf(server, v!.vehicleId);
    expect(stored).toEqual([expect.objectContaining({ alarmType: ROUTE_CODES.keyPointMissed, source: 'platform', count: 1 })]);
    expect(pushed).toEqual([expect.objectContaining({ alarmType: ROUTE_CODES.keyPointMissed, alarmName: '关键点未到达报警', content: `路线：外滩渣土线，关键点：拐点 2（${keyPoint.arriveFrom}–${keyPoint.arriveBy} 未到达）` })]);
  });
});
