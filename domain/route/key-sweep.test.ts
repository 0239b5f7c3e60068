/**
 * Key points judged by the clock (issue 17): a vehicle that stops reporting inside a key point's window
 * is judged when the window closes (`sweep`), not at its next position; the next position raises nothing
 * more; a vehicle that reached the point is never judged; a window is swept only once it has closed.
 */
import { describe, expect, it } from 'vitest';
import { M_PER_DEG } from '../fence/geometry.ts';
import { ROUTE_CODES, RouteEvaluator } from './rules.ts';
import type { LngLat, Route, RouteSection } from './types.ts';

const O: LngLat = [116.397, 39.909];
const KX = M_PER_DEG * Math.cos((O[1] * Math.PI) / 180);
const at = (x: number, y = 0): LngLat => [O[0] + x / KX, O[1] + y / M_PER_DEG];
const T0 = Date.parse('2026-11-28T10:00:00+08:00');
const SECTION: RouteSection = { width: 40, maxSeconds: null, minSeconds: null, maxSpeed: null, overspeedSeconds: 0 };
/** 1 km east then 1 km north; turning point 1 due 10:00–10:01, turning point 2 due 10:00–10:05. */
const ROUTE: Route = {
  id: 5, companyId: 1, name: '渣土线', points: [at(0), at(1000), at(1000, 1000)], sections: [SECTION, SECTION], deviationSeconds: 3600,
  keyPoints: [{ point: 1, arriveFrom: '10:00', arriveBy: '10:01' }, { point: 2, arriveFrom: '10:00', arriveBy: '10:05' }],
};

function report(ev: RouteEvaluator, vehicleId: number, time: number, x: number, y = 0) {
  const [lng, lat] = at(x, y);
  return ev.evaluate({ vehicleId, time, lng, lat, speed: 36 });
}

describe('key points swept at their close', () => {
  it('a silent vehicle is judged at the close, at its last position; its later report adds nothing', () => {
    const ev = new RouteEvaluator([{ route: ROUTE, vehicleIds: [7, 8] }]);
    // 7 reports twice on section 0 and goes silent; 8 reaches turning point 1 (10 m from it), then goes silent.
    expect([...report(ev, 7, T0 + 10_000, 100), ...report(ev, 7, T0 + 20_000, 200)]).toEqual([]);
    expect([...report(ev, 8, T0 + 10_000, 600), ...report(ev, 8, T0 + 20_000, 990)]).toEqual([]);
    expect(ev.sweep(T0 + 59_999)).toEqual([]);
    const due = ev.sweep(T0 + 60_000);
    expect(due.map((t) => [t.vehicleId, t.code, t.keyPoint?.point, t.time])).toEqual([[7, ROUTE_CODES.keyPointMissed, 1, T0 + 60_000]]);
    const [lng, lat] = at(200);
    expect(due[0]).toMatchObject({ lng, lat, phase: 'occur' });
    expect(ev.sweep(T0 + 61_000)).toEqual([]);
    // 7 reports again after the close: nothing more for point 1 (it is still followed for point 2).
    expect(report(ev, 7, T0 + 90_000, 300)).toEqual([]);
    // Point 2 closes at 10:05: both vehicles are silent short of it; each is judged once.
    expect(ev.sweep(T0 + 300_000).map((t) => [t.vehicleId, t.keyPoint?.point, t.time]).sort()).toEqual([[7, 2, T0 + 300_000], [8, 2, T0 + 300_000]]);
    expect(report(ev, 8, T0 + 400_000, 1000, 500)).toEqual([]);
    expect(ev.sweep(T0 + 86_400_000)).toEqual([]);
  });

  it('a late report from inside the window after the sweep judged it neither follows the point again nor raises a second 13011', () => {
    const ev = new RouteEvaluator([{ route: { ...ROUTE, keyPoints: [ROUTE.keyPoints![0]!] }, vehicleIds: [7] }]);
    report(ev, 7, T0 + 10_000, 100);
    expect(ev.sweep(T0 + 60_000)).toHaveLength(1);
    // A position stamped 10:00:50 (the terminal's clock is behind the server's) arrives after the sweep.
    expect(report(ev, 7, T0 + 50_000, 150)).toEqual([]);
    expect(report(ev, 7, T0 + 70_000, 200)).toEqual([]);
    expect(ev.sweep(T0 + 120_000)).toEqual([]);
  });

  it('a route replaced before the close lets go of its windows (nothing swept)', () => {
    const ev = new RouteEvaluator([{ route: ROUTE, vehicleIds: [7] }]);
    report(ev, 7, T0 + 10_000, 100);
    ev.replace([{ route: ROUTE, vehicleIds: [] }], T0 + 20_000);
    expect(ev.sweep(T0 + 600_000)).toEqual([]);
  });
});
