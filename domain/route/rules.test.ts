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
});
