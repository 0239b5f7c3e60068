/**
 * A key point's window closing while its vehicle is silent (issue 17): the alarm service's periodic
 * sweep, on the server's test clock, stores and pushes one 13011 at the close — not at the vehicle's
 * next position — for the vehicle short of the point; the vehicle that reached it raises nothing; the
 * silent vehicle's later report does not raise it again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { M_PER_DEG } from '../../domain/fence/geometry.ts';
import { ROUTE_CODES } from '../../domain/route/rules.ts';
import type { Route } from '../../domain/route/types.ts';
import { chinaTimeOfDayMs } from '../../domain/track/days.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import type { RouteSource } from './route-watch.ts';
import { AlarmService } from './service.ts';

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
let server: LiveTestServer | undefined;
let service: AlarmService | undefined;
afterEach(async () => {
  await service?.stop();
  await server?.close();
});

const O = [121.47, 31.23] as const;
const KX = M_PER_DEG * Math.cos((O[1] * Math.PI) / 180);
const at = (x: number, y: number) => ({ lng: O[0] + x / KX, lat: O[1] + y / M_PER_DEG });
const hhmm = (m: number) => `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

describe('13011 when the window closes on a silent vehicle', () => {
  it('is stored and pushed once by the sweep at the close; a vehicle that reached the point raises nothing', { timeout: 120_000 }, async () => {
    server = await startLiveServer({ seedVehicles: 3 });
    const app = server.app;
    const [silent, reached] = await app.storage.terminals.allVehicles();
    // The window: this China minute to three minutes on (its close 120–180 s away).
    const now = server.clock.now();
    const minute = Math.floor(chinaTimeOfDayMs(now) / 60_000);
    const close = now - (chinaTimeOfDayMs(now) % 60_000) + 180_000;
    const keyPoint = { point: 1, arriveFrom: hhmm(minute), arriveBy: hhmm(minute + 3) };
    const route: Route = {
      id: 71, companyId: 1, name: '关键点线', deviationSeconds: 3600, keyPoints: [keyPoint],
      points: [[O[0], O[1]], [at(2000, 0).lng, O[1]], [at(2000, 0).lng, at(0, 2000).lat]],
      sections: [0, 1].map(() => ({ width: 40, maxSeconds: null, minSeconds: null, maxSpeed: null, overspeedSeconds: 0 })),
    };
    const source: RouteSource = { load: () => [{ route, vehicleIds: [silent!.vehicleId, reached!.vehicleId] }] };
    const pushed: Record<string, unknown>[] = [];
    service = new AlarmService(app.storage, app.live.store, { publishAlarm: (_path, alarm) => pushed.push(alarm) }, { routes: source });
    await service.init();
    const svc = service;
    app.live.gateway.onReport = (vehicleId, report, edition) => svc.onReport(vehicleId, report, edition);
    const clock = server.clock;
    const port = server.gatewayPort;

    async function drive(deviceNo: string, path: readonly (readonly [number, number])[]): Promise<TestTerminal> {
      const t = await TestTerminal.connect(port, deviceNo);
      await t.login();
      for (const [x, y] of path) {
        clock.advance(10_000);
        expect((await t.report(location({ ...at(x, y), time: seconds(clock.now()), speed: 30 }))).result).toBe(0);
        await svc.idle();
      }
      return t;
    }
    const alarms = async (vehicleId: number) =>
      (await app.storage.alarms.query(ALL_COMPANIES, { startTime: now - 86_400_000, endTime: now + 86_400_000, vehicleIds: [vehicleId] }, 0, 100)).records
        .filter((a) => a.alarmType === ROUTE_CODES.keyPointMissed);

    // One reaches turning point 1 (10 m from it), the other stops 1.85 km short and falls silent.
    const b = await drive(reached!.deviceNo, [[500, 0], [1000, 0], [1500, 0], [1990, 0]]);
    const a = await drive(silent!.deviceNo, [[50, 0], [100, 0], [150, 0]]);
    expect(clock.now()).toBeLessThan(close);
    svc.sweep();
    await svc.idle();
    expect(await alarms(silent!.vehicleId)).toEqual([]);

    // The window closes; nobody reports; the periodic sweep runs on the server's clock.
    clock.advance(close + 1000 - clock.now());
    svc.sweep();
    await svc.idle();
    const stored = await alarms(silent!.vehicleId);
    expect(stored).toEqual([expect.objectContaining({ alarmType: ROUTE_CODES.keyPointMissed, source: 'platform', count: 1, startTime: close })]);
    expect(stored[0]!.lng).toBeCloseTo(at(150, 0).lng, 5); // where it was last seen
    expect(pushed.filter((p) => p.alarmType === ROUTE_CODES.keyPointMissed)).toEqual([
      expect.objectContaining({ id: stored[0]!.id, vehicleId: silent!.vehicleId, content: `路线：关键点线，关键点：拐点 2（${keyPoint.arriveFrom}–${keyPoint.arriveBy} 未到达）` }),
    ]);
    expect(await alarms(reached!.vehicleId)).toEqual([]);

    // The silent vehicle reports again after the close, and the sweep runs again: still one.
    clock.advance(20_000);
    expect((await a.report(location({ ...at(200, 0), time: seconds(clock.now()), speed: 30 }))).result).toBe(0);
    await svc.idle();
    svc.sweep();
    await svc.idle();
    expect(await alarms(silent!.vehicleId)).toHaveLength(1);
    expect(pushed.filter((p) => p.alarmType === ROUTE_CODES.keyPointMissed)).toHaveLength(1);
    await a.close();
    await b.close();
  });
});
