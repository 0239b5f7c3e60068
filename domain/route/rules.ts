/**
 * The platform's route rules: a state machine per (vehicle, route) fed one live position at a time,
 * answering transitions the alarm service turns into alarms (server/alarms/route-watch.ts).
 *
 * Rules (issue 17), for the vehicles bound to a route only:
 * - On the route: within width / 2 of a section's line (the nearest such section is the one it is on).
 * - Deviation (13010 平台路线偏离报警): a vehicle that has been on the route and is now outside its whole
 *   corridor for `deviationSeconds` without a break starts a held alarm dated from the first position
 *   outside; back inside ends it. A vehicle never seen on the route is not deviating from it (it has
 *   not started the route yet), and one that leaves past the last turning point has finished it.
 *   The delay is the jitter protection: a fix wandering a few metres over the edge comes back within
 *   seconds, so no distance hysteresis is added (the corridor is exactly what was planned).
 * - Section travel time (13003 路段行驶时间不足/过长): judged when the vehicle leaves a section forwards
 *   (into the next one, or past the end of the last); the time runs from entering it forwards (from the
 *   previous section, or section 0 from outside). A section entered any other way (first position, back
 *   from a deviation mid-route, backwards) has no known start and is not judged.
 * - Section overspeed (12006): on a section with `maxSpeed`, above it without a break for
 *   `overspeedSeconds` starts a held alarm dated from the first report above; at or below it, or leaving
 *   the section, ends it.
 * - Section overspeed uses the section's night limit (`nightMaxSpeed`) inside the night window (an
 *   evaluator option, default 22:00–06:00 China time), its day limit otherwise.
 * - Route time window (`startTime`/`endTime`, 0x8606 根据时间): outside it the route does not apply: the
 *   vehicle is not located on it, and what it held ends at the first position outside the window.
 * - Key point (13011 关键点未到达报警): a vehicle on the route while a key point's window is open must
 *   reach the point before the window closes; at its first position after the close, a point not
 *   reached is one 13011 dated at the close. Reached: within the corridor's half width of the point
 *   (the wider of the two sections meeting there), or passing it along the route (moving forwards
 *   from a section before the point to one after it; the first point by being on section 0, the last by
 *   finishing the route). A vehicle that never is on the route during the window is not judged (it
 *   is not running the route that day). One that stops reporting is judged when the window closes
 *   (`sweep`, driven by the server's clock: a heap of window closes, so a tick costs O(closes due ·
 *   log n), never a scan of the vehicles), at its last known position; its next position then raises
 *   nothing more for that window.
 * A held code is one alarm per vehicle whatever the number of routes holding it.
 */
import { PLATFORM_RULES } from '../alarms/sources.ts';
import { haversineM, inWindow, windowMinutes } from '../fence/geometry.ts';
import { chinaTimeOfDayMs } from '../track/days.ts';
import { locateOnRoute, prepareSections, SectionIndex, type PreparedSection } from './geometry.ts';
import { DEFAULT_NIGHT_WINDOW, type Route } from './types.ts';

export const ROUTE_CODES = Object.freeze({
  deviation: PLATFORM_RULES.routeDeviation,
  sectionTime: 13003,
  sectionOverspeed: PLATFORM_RULES.sectionOverspeed,
  keyPointMissed: PLATFORM_RULES.keyPointMissed,
});
const DAY_MS = 86_400_000;
/** The codes a route holds (start … end). */
export const ROUTE_HELD_CODES: readonly number[] = Object.freeze([ROUTE_CODES.deviation, ROUTE_CODES.sectionOverspeed]);
const DEV = 0, OVER = 1;
/** A vehicle this far along the last section (0..1) when it leaves the corridor has reached the end. */
const END_T = 0.9;

export interface BoundRoute {
  readonly route: Route;
  readonly vehicleIds: readonly number[];
}

export interface RoutePosition {
  readonly vehicleId: number;
  /** GPS time, epoch ms. */
  readonly time: number;
  readonly lng: number;
  readonly lat: number;
  /** km/h */
  readonly speed: number;
}

export interface RouteTransition {
  readonly phase: 'occur' | 'start' | 'end';
  readonly code: number;
  readonly vehicleId: number;
  readonly route: Route;
  /** The section concerned (13003, 12006), else null. */
  readonly section: number | null;
  /** 13003: the seconds spent on the section and which limit they broke. */
  readonly travel?: { readonly seconds: number; readonly tooLong: boolean };
  /** 13011: the turning point (index into route.points) not reached and its window. */
  readonly keyPoint?: { readonly point: number; readonly arriveFrom: string; readonly arriveBy: string };
  readonly time: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
}

interface Rec {
  ri: number;
  /** Section it is on, −1 outside the corridor. */
  section: number;
  /** When it entered that section forwards (NaN: unknown). */
  sectionSince: number;
  lastT: number;
  /** First position outside after being on the route (NaN: none pending). */
  offSince: number;
  offLng: number;
  offLat: number;
  offSpeed: number;
  overSince: number;
  overLng: number;
  overLat: number;
  overSpeed: number;
  held: number;
}

/** A key point window a vehicle has been on the route in: reached yet or not, judged at `deadline`. */
interface KeyState {
  readonly vehicleId: number;
  /** Index of the route (changes when the routes are replaced and the route kept). */
  ri: number;
  /** Index into the route's keyPoints. */
  readonly k: number;
  /** The window's close, epoch ms. */
  readonly deadline: number;
  reached: boolean;
  /** Judged by the sweep (kept so a late position inside the window does not follow it again). */
  judged: boolean;
  /** No longer in its vehicle's list: the sweep's heap entry is stale (lazy deletion). */
  done: boolean;
}

interface VehicleState {
  recs: Rec[];
  keys: KeyState[];
  readonly heldBy: [number, number];
  /** The last evaluated position: where a vehicle silent at a key point's close is placed. */
  lastLng: number;
  lastLat: number;
  lastSpeed: number;
}

/** A key point compiled: its point, the radius that counts as reaching it, its window in minutes of the day. */
interface CompiledKey {
  readonly point: number;
  readonly arriveFrom: string;
  readonly arriveBy: string;
  readonly radius: number;
  readonly window: readonly [number, number];
}

interface Compiled {
  readonly routes: Route[];
  readonly sections: PreparedSection[][];
  readonly byId: Map<number, number>;
  readonly signatures: string[];
  readonly bound: Map<number, number[]>;
  readonly index: SectionIndex;
  /** Per route: its time window (null: always). */
  readonly windows: (readonly [number, number] | null)[];
  /** Per route: its key points. */
  readonly keys: CompiledKey[][];
}

const NONE: readonly RouteTransition[] = Object.freeze([]);

export class RouteEvaluator {
  private c: Compiled;
  private readonly states = new Map<number, VehicleState>();
  private readonly out: RouteTransition[] = [];
  /** Per call: the nearest corridor section per route position (reused). */
  private readonly hits = new Map<number, { section: number; t: number; d: number }>();

  private readonly scan: boolean;
  private readonly night: readonly [number, number] | null;
  /** Key point windows being followed, by close (a min-heap; entries whose state went are skipped). */
  private readonly closes = new DeadlineHeap();

  /**
   * @param options.candidates 'index' (default): the sections near the position; 'scan': every section of every bound route (the benchmark's baseline).
   * @param options.night the night window of the sections' night speed limit (default 22:00–06:00 China time).
   */
  constructor(routes: readonly BoundRoute[], options: { candidates?: 'index' | 'scan'; night?: { startTime: string; endTime: string } } = {}) {
    this.c = compile(routes);
    this.scan = options.candidates === 'scan';
    this.night = windowMinutes(options.night ?? DEFAULT_NIGHT_WINDOW);
  }

  get routeCount(): number {
    return this.c.routes.length;
  }

  seen(vehicleId: number): boolean {
    return this.states.has(vehicleId);
  }

  holds(vehicleId: number, code: number): boolean {
    const slot = ROUTE_HELD_CODES.indexOf(code);
    return slot >= 0 && (this.states.get(vehicleId)?.heldBy[slot] ?? 0) > 0;
  }

  /** The section the vehicle is on per route it has been on (−1: outside), for the console's state column. */
  stateOf(vehicleId: number): { routeId: number; section: number; deviating: boolean }[] {
    return (this.states.get(vehicleId)?.recs ?? []).map((r) => ({ routeId: this.c.routes[r.ri]!.id, section: r.section, deviating: (r.held & (1 << DEV)) !== 0 }));
  }

  /** Replaces the routes; a route removed, changed or unbound lets go of what it held ('end' at `time`). */
  replace(routes: readonly BoundRoute[], time: number): RouteTransition[] {
    const old = this.c;
    const next = compile(routes);
    this.out.length = 0;
    for (const [vehicleId, st] of this.states) {
      const kept: Rec[] = [];
      const p: RoutePosition = { vehicleId, time, lng: NaN, lat: NaN, speed: 0 };
      for (const rec of st.recs) {
        const route = old.routes[rec.ri]!;
        const ri = next.byId.get(route.id);
        if (ri !== undefined && next.signatures[ri] === old.signatures[rec.ri] && next.bound.get(vehicleId)?.includes(ri)) {
          rec.ri = ri;
          kept.push(rec);
          continue;
        }
        this.release(st, rec, DEV, p, route, null);
        this.release(st, rec, OVER, p, route, rec.section >= 0 ? rec.section : null);
      }
      st.recs = kept;
      // A key point window of a route changed or unbound is not judged (its rule is gone).
      st.keys = st.keys.filter((ks) => {
        const route = old.routes[ks.ri]!;
        const ri = next.byId.get(route.id);
        const keep = ri !== undefined && next.signatures[ri] === old.signatures[ks.ri] && next.bound.get(vehicleId)?.includes(ri) === true;
        if (keep) ks.ri = ri;
        else ks.done = true;
        return keep;
      });
      if (kept.length === 0 && st.keys.length === 0 && !next.bound.has(vehicleId)) this.states.delete(vehicleId);
    }
    this.c = next;
    return this.out.splice(0);
  }

  /** One live position (in time order per vehicle): the transitions it causes, often none. */
  evaluate(p: RoutePosition): readonly RouteTransition[] {
    const c = this.c;
    const bound = c.bound.get(p.vehicleId);
    let st = this.states.get(p.vehicleId);
    if (bound === undefined && st === undefined) return NONE;
    const first = st === undefined;
    if (st === undefined) this.states.set(p.vehicleId, (st = { recs: [], keys: [], heldBy: [0, 0], lastLng: p.lng, lastLat: p.lat, lastSpeed: p.speed }));
    this.out.length = 0;
    // Key point windows closed since the last position: judged first, dated at their close.
    if (st.keys.length > 0) this.judgeKeys(st, p);
    st.lastLng = p.lng;
    st.lastLat = p.lat;
    st.lastSpeed = p.speed;
    // The nearest corridor section per route, from the sections near the position only.
    this.hits.clear();
    if (this.scan) {
      for (const ri of bound ?? []) if (inWindow(c.windows[ri]!, p.time)) this.hits.set(ri, locateOnRoute(c.sections[ri]!, p.lng, p.lat, findRec(st.recs, ri)?.section ?? -1));
    }
    for (const k of this.scan ? [] : c.index.near(p.lng, p.lat)) {
      const s = c.index.sections[k]!;
      if (this.hits.has(s.route) || bound === undefined || !isBound(bound, s.route) || !inWindow(c.windows[s.route]!, p.time)) continue;
      const prefer = findRec(st.recs, s.route)?.section ?? -1;
      const loc = locateOnRoute(c.sections[s.route]!, p.lng, p.lat, prefer);
      this.hits.set(s.route, loc);
    }
    // The routes the vehicle has a state on (only those can deviate or end a section), then the
    // bound routes near the position it is not known on yet: O(routes near + routes it is on).
    const known = st.recs.length;
    for (let i = 0; i < known; i++) {
      const rec = st.recs[i]!;
      const before = rec.section;
      if (!inWindow(c.windows[rec.ri]!, p.time)) {
        // Outside the route's time window it does not apply: what it held ends, its state goes.
        this.release(st, rec, DEV, p, c.routes[rec.ri]!, null);
        this.release(st, rec, OVER, p, c.routes[rec.ri]!, rec.section >= 0 ? rec.section : null);
        rec.section = -1;
        rec.offSince = NaN;
        continue;
      }
      const loc = this.hits.get(rec.ri);
      let finished = false;
      if (loc !== undefined && loc.section >= 0) this.onRoute(st, rec, loc.section, loc.t, p, NaN);
      else finished = this.offRoute(st, rec, p);
      if (c.keys[rec.ri]!.length > 0) this.keyStep(st, rec.ri, before, rec.section, finished, p);
    }
    for (const [ri, loc] of this.hits) {
      if (loc.section < 0 || findRec(st.recs, ri) !== undefined) continue; // not on the route yet: nothing to deviate from
      const rec: Rec = { ri, section: -1, sectionSince: NaN, lastT: 0, offSince: NaN, offLng: 0, offLat: 0, offSpeed: 0, overSince: NaN, overLng: 0, overLat: 0, overSpeed: 0, held: 0 };
      st.recs.push(rec);
      // Entering at the start of the route times section 0; the first position ever only sets the state.
      this.onRoute(st, rec, loc.section, loc.t, p, first || loc.section !== 0 ? NaN : p.time);
      if (c.keys[ri]!.length > 0) this.keyStep(st, ri, -1, rec.section, false, p);
    }
    if (st.recs.some(idle)) st.recs = st.recs.filter((r) => !idle(r));
    return this.out.length === 0 ? NONE : this.out.slice();
  }

  private onRoute(st: VehicleState, rec: Rec, section: number, t: number, p: RoutePosition, enteredAt: number): void {
    const route = this.c.routes[rec.ri]!;
    rec.offSince = NaN;
    this.release(st, rec, DEV, p, route, null);
    if (section !== rec.section) {
      const forward = rec.section >= 0 && section === rec.section + 1;
      if (forward) this.judge(rec, p);
      this.release(st, rec, OVER, p, route, rec.section >= 0 ? rec.section : null);
      rec.overSince = NaN;
      rec.sectionSince = forward ? p.time : rec.section < 0 ? enteredAt : NaN;
      rec.section = section;
    }
    rec.lastT = t;
    const s = route.sections[section]!;
    const limit = s.nightMaxSpeed != null && s.maxSpeed !== null && inWindow(this.night, p.time) ? s.nightMaxSpeed : s.maxSpeed;
    if (limit !== null && p.speed > limit) {
      if (Number.isNaN(rec.overSince)) {
        rec.overSince = p.time;
        rec.overLng = p.lng;
        rec.overLat = p.lat;
        rec.overSpeed = p.speed;
      }
      if (!(rec.held & (1 << OVER)) && p.time - rec.overSince >= s.overspeedSeconds * 1000) {
        this.hold(st, rec, OVER, { vehicleId: p.vehicleId, time: rec.overSince, lng: rec.overLng, lat: rec.overLat, speed: rec.overSpeed }, route, section);
      }
    } else {
      rec.overSince = NaN;
      this.release(st, rec, OVER, p, route, section);
    }
  }

  /** Off the corridor (or no longer located on it); true when this position finished the route. */
  private offRoute(st: VehicleState, rec: Rec, p: RoutePosition): boolean {
    const route = this.c.routes[rec.ri]!;
    if (rec.section >= 0) {
      const last = route.sections.length - 1;
      this.release(st, rec, OVER, p, route, rec.section);
      rec.overSince = NaN;
      if (rec.section === last && rec.lastT >= END_T) {
        // Past the last turning point: the route is done (its last section is judged), no deviation.
        this.judge(rec, p);
        rec.section = -1;
        rec.sectionSince = NaN;
        return true;
      }
      rec.section = -1;
      rec.sectionSince = NaN;
      rec.offSince = p.time;
      rec.offLng = p.lng;
      rec.offLat = p.lat;
      rec.offSpeed = p.speed;
    }
    if (!Number.isNaN(rec.offSince) && !(rec.held & (1 << DEV)) && p.time - rec.offSince >= route.deviationSeconds * 1000) {
      this.hold(st, rec, DEV, { vehicleId: p.vehicleId, time: rec.offSince, lng: rec.offLng, lat: rec.offLat, speed: rec.offSpeed }, route, null);
    }
    return false;
  }

  /**
   * Key points of route `ri` at this position: a window open while the vehicle is on the route starts
   * following that point; a point followed is reached near it or by passing it (`before` → `after`
   * sections, −1 off the route; `finished`: left past the last point).
   */
  private keyStep(st: VehicleState, ri: number, before: number, after: number, finished: boolean, p: RoutePosition): void {
    const keys = this.c.keys[ri]!;
    const last = this.c.routes[ri]!.points.length - 1;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      if (!inWindow(key.window, p.time)) continue;
      let ks = st.keys.find((x) => x.ri === ri && x.k === k);
      if (ks === undefined) {
        if (after < 0 && !finished) continue;
        st.keys.push((ks = { vehicleId: p.vehicleId, ri, k, deadline: windowClose(key.window, p.time), reached: false, judged: false, done: false }));
        this.closes.push(ks);
      }
      if (ks.reached || ks.judged) continue;
      const pt = this.c.routes[ri]!.points[key.point]!;
      ks.reached = haversineM([p.lng, p.lat], pt) <= key.radius
        || (key.point === 0 && after === 0)
        || (key.point === last && finished)
        || (before >= 0 && after > before && before < key.point && key.point <= after);
    }
  }

  /** 13011 for each followed key point whose window has closed unreached; closed windows are dropped. */
  private judgeKeys(st: VehicleState, p: RoutePosition): void {
    if (!st.keys.some((ks) => p.time >= ks.deadline)) return;
    st.keys = st.keys.filter((ks) => {
      if (p.time < ks.deadline) return true;
      if (!ks.reached && !ks.judged) this.missed(ks, p.lng, p.lat, p.speed);
      ks.done = true;
      return false;
    });
  }

  private missed(ks: KeyState, lng: number, lat: number, speed: number): void {
    const route = this.c.routes[ks.ri]!;
    const kp = this.c.keys[ks.ri]![ks.k]!;
    this.out.push({
      phase: 'occur', code: ROUTE_CODES.keyPointMissed, vehicleId: ks.vehicleId, route, section: null,
      keyPoint: { point: kp.point, arriveFrom: kp.arriveFrom, arriveBy: kp.arriveBy }, time: ks.deadline, lng, lat, speed,
    });
  }

  /**
   * The key point windows closed by `now` (the server's clock) whose vehicle has not reported since:
   * 13011 for each point not reached, dated at the close and placed at the vehicle's last position.
   * Judged windows stay in the vehicle's list until a position after the close drops them, so a late
   * report from inside the window neither follows the point again nor raises a second 13011.
   */
  sweep(now: number): RouteTransition[] {
    this.out.length = 0;
    for (let ks = this.closes.peek(); ks !== undefined && ks.deadline <= now; ks = this.closes.peek()) {
      this.closes.pop();
      if (ks.done || ks.judged) continue;
      ks.judged = true;
      if (ks.reached) continue;
      const st = this.states.get(ks.vehicleId)!;
      this.missed(ks, st.lastLng, st.lastLat, st.lastSpeed);
    }
    return this.out.splice(0);
  }

  /** Key point windows being followed (the sweep's heap, stale entries included). */
  get pendingCloses(): number {
    return this.closes.size;
  }

  /** 13003 for the section being left forwards, when its entry time is known and a limit is broken. */
  private judge(rec: Rec, p: RoutePosition): void {
    if (Number.isNaN(rec.sectionSince)) return;
    const route = this.c.routes[rec.ri]!;
    const s = route.sections[rec.section]!;
    const seconds = Math.round((p.time - rec.sectionSince) / 1000);
    const tooLong = s.maxSeconds !== null && seconds > s.maxSeconds;
    const tooShort = s.minSeconds !== null && seconds < s.minSeconds;
    if (!tooLong && !tooShort) return;
    this.out.push({ phase: 'occur', code: ROUTE_CODES.sectionTime, vehicleId: p.vehicleId, route, section: rec.section, travel: { seconds, tooLong }, time: p.time, lng: p.lng, lat: p.lat, speed: p.speed });
  }

  private hold(st: VehicleState, rec: Rec, slot: number, p: RoutePosition, route: Route, section: number | null): void {
    if (rec.held & (1 << slot)) return;
    rec.held |= 1 << slot;
    if (st.heldBy[slot]!++ === 0) this.out.push({ phase: 'start', code: ROUTE_HELD_CODES[slot]!, vehicleId: p.vehicleId, route, section, time: p.time, lng: p.lng, lat: p.lat, speed: p.speed });
  }

  private release(st: VehicleState, rec: Rec, slot: number, p: RoutePosition, route: Route, section: number | null): void {
    if (!(rec.held & (1 << slot))) return;
    rec.held &= ~(1 << slot);
    if (--st.heldBy[slot]! === 0) this.out.push({ phase: 'end', code: ROUTE_HELD_CODES[slot]!, vehicleId: p.vehicleId, route, section, time: p.time, lng: p.lng, lat: p.lat, speed: p.speed });
  }
}

function compile(list: readonly BoundRoute[]): Compiled {
  const routes = list.map((b) => b.route);
  const sections = routes.map((r, i) => prepareSections(r, i));
  const byId = new Map<number, number>();
  routes.forEach((r, i) => byId.set(r.id, i));
  const signatures = list.map((b) => JSON.stringify([b.route.points, b.route.sections, b.route.deviationSeconds, b.route.startTime ?? null, b.route.endTime ?? null, b.route.keyPoints ?? []]));
  const windows = routes.map((r) => windowMinutes({ startTime: r.startTime ?? null, endTime: r.endTime ?? null }));
  const keys = routes.map((r) => (r.keyPoints ?? []).flatMap((kp): CompiledKey[] => {
    const window = windowMinutes({ startTime: kp.arriveFrom, endTime: kp.arriveBy });
    if (window === null || kp.point < 0 || kp.point >= r.points.length) return [];
    const widths = [r.sections[kp.point - 1]?.width ?? 0, r.sections[kp.point]?.width ?? 0];
    return [{ point: kp.point, arriveFrom: kp.arriveFrom, arriveBy: kp.arriveBy, radius: Math.max(...widths) / 2, window }];
  }));
  const bound = new Map<number, number[]>();
  list.forEach((b, ri) => {
    for (const v of new Set(b.vehicleIds)) {
      let l = bound.get(v);
      if (!l) bound.set(v, (l = []));
      l.push(ri);
    }
  });
  return { routes, sections, byId, signatures, bound, index: new SectionIndex(sections.flat()), windows, keys };
}

/** The close (epoch ms) of the open window holding `time`. */
function windowClose(window: readonly [number, number], time: number): number {
  const [start, end] = window;
  const sinceStart = (chinaTimeOfDayMs(time) - start * 60_000 + DAY_MS) % DAY_MS;
  const length = ((end - start + 1440) % 1440) * 60_000;
  return time - sinceStart + length;
}

/** A state with nothing to follow: off the route with no deviation pending or held. */
function idle(r: Rec): boolean {
  return r.section < 0 && r.held === 0 && Number.isNaN(r.offSince);
}

/** Binary search of a vehicle's bound routes (ascending: compiled in list order). */
function isBound(list: readonly number[], ri: number): boolean {
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]!;
    if (v === ri) return true;
    if (v < ri) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

function findRec(recs: readonly Rec[], ri: number): Rec | undefined {
  for (let i = 0; i < recs.length; i++) if (recs[i]!.ri === ri) return recs[i];
  return undefined;
}

/** A binary min-heap of key point states by window close. */
class DeadlineHeap {
  private readonly a: KeyState[] = [];

  get size(): number {
    return this.a.length;
  }

  peek(): KeyState | undefined {
    return this.a[0];
  }

  push(x: KeyState): void {
    const a = this.a;
    let i = a.push(x) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent]!.deadline <= x.deadline) break;
      a[i] = a[parent]!;
      i = parent;
    }
    a[i] = x;
  }

  pop(): KeyState | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= a.length) break;
      const r = l + 1;
      const c = r < a.length && a[r]!.deadline < a[l]!.deadline ? r : l;
      if (a[c]!.deadline >= last.deadline) break;
      a[i] = a[c]!;
      i = c;
    }
    a[i] = last;
    return top;
  }
}
