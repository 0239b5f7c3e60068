import { describe, expect, it } from 'vitest';
import { M_PER_DEG } from '../fence/geometry.ts';
import { locateOnRoute, prepareSections } from './geometry.ts';
import { ROUTE_CODES, RouteEvaluator as Evaluator, type RouteTransition } from './rules.ts';

type RouteEvaluator = Evaluator;
import type { LngLat, Route, RouteSection } from './types.ts';

const O: LngLat = [116.397, 39.909];
const KX = M_PER_DEG * Math.cos((O[1] * Math.PI) / 180);
/** x metres east, y metres north of O. */
const at = (x: number, y = 0): LngLat => [O[0] + x / KX, O[1] + y / M_PER_DEG];
const T0 = Date.parse('2026-11-28T10:00:00+08:00');

const SECTION: RouteSection = { width: 40, maxSeconds: null, minSeconds: null, maxSpeed: null, overspeedSeconds: 0 };
/** An L: 1 km east, then 1 km north; corridor 40 m wide (20 m each side). */
function route(sections: Partial<RouteSection>[] = [{}, {}], deviationSeconds = 30): Route {
  return { id: 5, companyId: 1, name: '渣土线', points: [at(0), at(1000), at(1000, 1000)], sections: sections.map((s) => ({ ...SECTION, ...s })), deviationSeconds };
}

/** Reports every 10 s at the given [x, y] offsets; answers "phase code" (+ section). */
function drive(ev: RouteEvaluator, pts: readonly (readonly [number, number])[], speed = 40, t0 = T0): string[] {
  const seen: string[] = [];
  pts.forEach(([x, y], i) => {
    const [lng, lat] = at(x, y);
    for (const t of ev.evaluate({ vehicleId: 7, time: t0 + i * 10_000, lng, lat, speed })) seen.push(label(t));
  });
  return seen;
}
const label = (t: RouteTransition): string => `${t.phase} ${t.code}${t.section === null ? '' : ` s${t.section}`}${t.travel ? (t.travel.tooLong ? ' long' : ' short') : ''}`;

describe('route geometry', () => {
  const s = prepareSections(route(), 0);
  it('a point 19 m off the first section is on it; 21 m off is outside the corridor', () => {
    expect(locateOnRoute(s, ...at(500, 19)).section).toBe(0);
    expect(locateOnRoute(s, ...at(500, 21)).section).toBe(-1);
    expect(locateOnRoute(s, ...at(1010, 500)).section).toBe(1);
  });
  it('measures metres like a great circle does (within 0.1 %)', () => {
    expect(locateOnRoute(s, ...at(500, 15)).d).toBeCloseTo(15, 1);
  });
});

describe.each(['index', 'scan'] as const)('route rules (%s candidates)', (candidates) => {
  class RouteEvaluator extends Evaluator {
    constructor(routes: ConstructorParameters<typeof Evaluator>[0]) {
      super(routes, { candidates });
    }
  }
  it('a point just outside the corridor for the deviation time is one 13010 dated from leaving; back inside ends it', () => {
    const ev = new RouteEvaluator([{ route: route(), vehicleIds: [7] }]);
    const seen: RouteTransition[] = [];
    [[100, 0], [200, 0], [300, 25], [400, 25], [500, 25], [600, 25], [700, 0]].forEach(([x, y], i) => {
      const [lng, lat] = at(x!, y);
      seen.push(...ev.evaluate({ vehicleId: 7, time: T0 + i * 10_000, lng, lat, speed: 40 }));
    });
    expect(seen.map(label)).toEqual([`start ${ROUTE_CODES.deviation}`, `end ${ROUTE_CODES.deviation}`]);
    expect(seen[0]!.time).toBe(T0 + 20_000); // the first position outside
    expect(seen[1]!.time).toBe(T0 + 60_000);
  });

  it('jitter over the edge shorter than the deviation time raises nothing', () => {
    const ev = new RouteEvaluator([{ route: route(), vehicleIds: [7] }]);
    expect(drive(ev, [[100, 0], [200, 22], [300, 5], [400, 23], [500, 0]])).toEqual([]);
  });

  it('a vehicle never on the route, or not bound to it, deviates from nothing', () => {
    const ev = new RouteEvaluator([{ route: route(), vehicleIds: [8] }]);
    expect(drive(ev, [[100, 0], [200, 500], [300, 500], [400, 500], [500, 500], [600, 500]])).toEqual([]);
    const ev2 = new RouteEvaluator([{ route: route(), vehicleIds: [7] }]);
    expect(drive(ev2, [[100, 500], [200, 500], [300, 500], [400, 500], [500, 500]])).toEqual([]);
  });

  it('a section left too early is 13003 (too short); one left too late is 13003 (too long); an unknown entry is not judged', () => {
    // Enters at the start, leaves section 0 after 30 s where 60 s is the least.
    const ev = new RouteEvaluator([{ route: route([{ minSeconds: 60 }, {}]), vehicleIds: [7] }]);
    expect(drive(ev, [[-100, 0], [0, 0], [400, 0], [800, 0], [1000, 100]])).toEqual([`occur ${ROUTE_CODES.sectionTime} s0 short`]);
    const slow = new RouteEvaluator([{ route: route([{ maxSeconds: 20 }, {}]), vehicleIds: [7] }]);
    expect(drive(slow, [[-100, 0], [0, 0], [300, 0], [600, 0], [900, 0], [1000, 100]])).toEqual([`occur ${ROUTE_CODES.sectionTime} s0 long`]);
    // First position mid-section: its entry time is unknown.
    const mid = new RouteEvaluator([{ route: route([{ minSeconds: 60 }, {}]), vehicleIds: [7] }]);
    expect(drive(mid, [[500, 0], [1000, 100]])).toEqual([]);
  });

  it('leaving past the last turning point finishes the route: its last section is judged, no deviation', () => {
    const ev = new RouteEvaluator([{ route: route([{}, { minSeconds: 600 }]), vehicleIds: [7] }]);
    expect(drive(ev, [[0, 0], [500, 0], [1000, 100], [1000, 500], [1000, 990], [1000, 1100], [1000, 1500], [1000, 2000], [1000, 3000], [1000, 4000]]))
      .toEqual([`occur ${ROUTE_CODES.sectionTime} s1 short`]);
  });

  it('section overspeed is held after its duration and ends at or below the limit', () => {
    const ev = new RouteEvaluator([{ route: route([{ maxSpeed: 60, overspeedSeconds: 15 }, {}]), vehicleIds: [7] }]);
    const seen: string[] = [];
    [[100, 70], [200, 70], [300, 70], [400, 50]].forEach(([x, speed], i) => {
      const [lng, lat] = at(x!);
      for (const t of ev.evaluate({ vehicleId: 7, time: T0 + i * 10_000, lng, lat, speed: speed! })) seen.push(label(t));
    });
    expect(seen).toEqual([`start ${ROUTE_CODES.sectionOverspeed} s0`, `end ${ROUTE_CODES.sectionOverspeed} s0`]);
  });

  it('a route removed or unbound ends the deviation it held', () => {
    const ev = new RouteEvaluator([{ route: route([{}, {}], 0), vehicleIds: [7] }]);
    expect(drive(ev, [[100, 0], [200, 300]])).toEqual([`start ${ROUTE_CODES.deviation}`]);
    expect(ev.replace([], T0 + 60_000).map(label)).toEqual([`end ${ROUTE_CODES.deviation}`]);
  });

  it('night speed limit: 50 km/h over a 40 night limit at 22:30 is 12006; the same 50 under the day limit of 60 at 10:00 is nothing', () => {
    const r = route([{ maxSpeed: 60, nightMaxSpeed: 40, overspeedSeconds: 0 }, {}]);
    const night = Date.parse('2026-11-28T22:30:00+08:00');
    expect(drive(new RouteEvaluator([{ route: r, vehicleIds: [7] }]), [[100, 0], [200, 0]], 50, night)).toEqual([`start ${ROUTE_CODES.sectionOverspeed} s0`]);
    expect(drive(new RouteEvaluator([{ route: r, vehicleIds: [7] }]), [[100, 0], [200, 0]], 50, T0)).toEqual([]);
    // 05:59 is still night, 06:00 is day (the window is [22:00, 06:00)).
    expect(drive(new RouteEvaluator([{ route: r, vehicleIds: [7] }]), [[100, 0]], 50, Date.parse('2026-11-28T05:59:00+08:00'))).toEqual([`start ${ROUTE_CODES.sectionOverspeed} s0`]);
    expect(drive(new RouteEvaluator([{ route: r, vehicleIds: [7] }]), [[100, 0]], 50, Date.parse('2026-11-28T06:00:00+08:00'))).toEqual([]);
  });

  it('a route with a time window is not evaluated outside it, and what it held ends when the window closes', () => {
    const r: Route = { ...route([{}, {}], 0), startTime: '08:00', endTime: '09:00' };
    // 10:00: outside the window, leaving the corridor deviates from nothing.
    expect(drive(new RouteEvaluator([{ route: r, vehicleIds: [7] }]), [[100, 0], [200, 300], [300, 300]])).toEqual([]);
    // 08:59:40 on the route, 08:59:50 off it (deviation, delay 0), 09:00:00 the window closes.
    const ev = new RouteEvaluator([{ route: r, vehicleIds: [7] }]);
    const seen = drive(ev, [[100, 0], [200, 300], [300, 300], [400, 300]], 40, Date.parse('2026-11-28T08:59:40+08:00'));
    expect(seen).toEqual([`start ${ROUTE_CODES.deviation}`, `end ${ROUTE_CODES.deviation}`]);
  });

  describe('key points (13011)', () => {
    /** Turning point 1 (1000 m east) must be reached between 10:00 and 10:01. */
    const keyed = (): Route => ({ ...route(), keyPoints: [{ point: 1, arriveFrom: '10:00', arriveBy: '10:01' }] });

    it('a vehicle on the route in the window that has not reached the point by 10:01 raises one 13011 dated 10:01', () => {
      const ev = new RouteEvaluator([{ route: keyed(), vehicleIds: [7] }]);
      const seen: RouteTransition[] = [];
      // 100 m per 10 s: at 10:01 (the 7th position) it is at 700 m, short of the point.
      [100, 200, 300, 400, 500, 600, 700, 800].forEach((x, i) => {
        const [lng, lat] = at(x);
        seen.push(...ev.evaluate({ vehicleId: 7, time: T0 + i * 10_000, lng, lat, speed: 36 }));
      });
      expect(seen.map(label)).toEqual([`occur ${ROUTE_CODES.keyPointMissed}`]);
      expect(seen[0]!.time).toBe(T0 + 60_000);
      expect(seen[0]!.keyPoint).toEqual({ point: 1, arriveFrom: '10:00', arriveBy: '10:01' });
    });

    it('reaching the point (within half the corridor width of it) or passing it in the window raises nothing', () => {
      // 990 m: 10 m from the point, the corridor is 40 m wide.
      expect(drive(new RouteEvaluator([{ route: keyed(), vehicleIds: [7] }]), [[300, 0], [600, 0], [990, 0], [1000, 300], [1000, 600], [1000, 900], [1000, 950], [1000, 980]])).toEqual([]);
      // From section 0 at 800 m to section 1 at 100 m north of the point: passed it without a fix near it.
      expect(drive(new RouteEvaluator([{ route: keyed(), vehicleIds: [7] }]), [[800, 0], [1000, 100], [1000, 200], [1000, 300], [1000, 400], [1000, 500], [1000, 600], [1000, 700]])).toEqual([]);
    });

    it('a vehicle never on the route during the window is not judged', () => {
      expect(drive(new RouteEvaluator([{ route: keyed(), vehicleIds: [7] }]), [[100, 500], [200, 500], [300, 500], [400, 500], [500, 500], [600, 500], [700, 500], [800, 500]])).toEqual([]);
    });

    it('judged at the first position after the close even far from the route (the vehicle drove off)', () => {
      const ev = new RouteEvaluator([{ route: { ...keyed(), deviationSeconds: 3600 }, vehicleIds: [7] }]);
      expect(drive(ev, [[100, 0], [200, 0], [200, 5000]], 40, T0 + 30_000)).toEqual([]);
      const [lng, lat] = at(200, 9000);
      expect(ev.evaluate({ vehicleId: 7, time: T0 + 70_000, lng, lat, speed: 40 }).map(label)).toEqual([`occur ${ROUTE_CODES.keyPointMissed}`]);
    });
  });
});
