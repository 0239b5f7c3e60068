/**
 * The platform's route evaluation on the server: loads every route with the vehicles bound to it
 * from a `RouteSource` (the database: server/services/routes/), keeps a `RouteEvaluator`
 * (domain/route/rules.ts) over them and turns each live position into route transitions that
 * AlarmService feeds to the alarm engine (13010 platform route deviation, 13003 section travel time,
 * 12006 section overspeed, 13011 key point missed — also from the periodic sweep when the vehicle is silent).
 *
 * A report without a GNSS fix (status bit 1 clear) is not evaluated: its coordinates are stale or
 * zero, and a vehicle "at 0, 0" would be off every route it follows.
 */
import { ROUTE_HELD_CODES, RouteEvaluator, type RouteTransition } from '../../domain/route/rules.ts';
import type { Route } from '../../domain/route/types.ts';
import type { LocationReport } from '../gateway/jt808/index.ts';

export interface RouteSource {
  load(): { route: Route; vehicleIds: readonly number[] }[];
  /** The night window of the sections' night speed limit (setting ROUTE_NIGHT_WINDOW; default 22:00–06:00 China time). */
  readonly nightWindow?: { startTime: string; endTime: string };
}

const POSITIONED = 0b10;
const NONE: readonly RouteTransition[] = Object.freeze([]);

export class RouteWatch {
  readonly evaluator: RouteEvaluator;

  constructor(private readonly source: RouteSource) {
    this.evaluator = new RouteEvaluator(source.load(), { night: source.nightWindow });
  }

  reload(now: number): readonly RouteTransition[] {
    return this.evaluator.replace(this.source.load(), now);
  }

  /**
   * The key point windows closed by `now` while their vehicle was silent (13011 without waiting for
   * its next position). AlarmService calls it from its periodic sweep on the store's clock.
   */
  sweep(now: number): readonly RouteTransition[] {
    return this.evaluator.sweep(now);
  }

  /**
   * One live report. `stale` lists the route codes the engine may hold from before a restart that no
   * route holds now (the vehicle's first evaluated position): the caller ends them.
   */
  report(vehicleId: number, loc: Pick<LocationReport, 'time' | 'lng' | 'lat' | 'speed' | 'status'>): { transitions: readonly RouteTransition[]; stale: readonly number[] } {
    if ((loc.status & POSITIONED) === 0) return { transitions: NONE, stale: [] };
    const first = !this.evaluator.seen(vehicleId);
    const transitions = this.evaluator.evaluate({ vehicleId, time: loc.time, lng: loc.lng, lat: loc.lat, speed: loc.speed });
    if (!first || !this.evaluator.seen(vehicleId)) return { transitions, stale: [] };
    return { transitions, stale: ROUTE_HELD_CODES.filter((code) => !this.evaluator.holds(vehicleId, code)) };
  }
}

/** The text a route alarm carries (its log entry and its push): the route, the section, the time spent. */
export function routeNote(t: Pick<RouteTransition, 'route' | 'section' | 'travel' | 'keyPoint'>): string {
  let s = `路线：${t.route.name}`;
  if (t.section !== null) s += `，路段 ${t.section + 1}`;
  if (t.travel) s += `，行驶 ${t.travel.seconds} 秒（${t.travel.tooLong ? '过长' : '不足'}）`;
  if (t.keyPoint) s += `，关键点：拐点 ${t.keyPoint.point + 1}（${t.keyPoint.arriveFrom}–${t.keyPoint.arriveBy} 未到达）`;
  return s;
}
