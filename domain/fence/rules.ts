/**
 * The platform's fence rules: a state machine per (vehicle, fence) fed one live position at a time,
 * answering fence transitions the alarm engine turns into alarms (server/alarms/service.ts).
 *
 * Rules (issue 17):
 * - Only the vehicles bound to a fence are evaluated against it.
 * - Entering (13005 if `alarmIn`) and leaving (13006 if `alarmOut`) are occurrences ('occur').
 * - Forbidden entry (13007, `forbidIn`) is held from the entry while the vehicle stays inside;
 *   forbidden exit (13008, `forbidOut`) is held from the exit until it is back inside. Both also end
 *   when the fence's time window closes. A vehicle already inside when the window opens did not
 *   enter while it was forbidden: no 13007.
 * - Area overspeed (12005): inside, within the window, speed above `maxSpeed` without a break for at
 *   least `overspeedSeconds` starts a held alarm dated from the first report above the limit (as the
 *   engine's 12003); the first report at or below the limit, leaving, or the window closing ends it.
 * - Events are raised only while the fence's time window is open (Asia/Shanghai wall clock).
 *
 * Jitter: a parked vehicle's GNSS fix wanders 5–15 m, so a vehicle near an edge would enter and
 * leave on every report. Entering needs the exact test (inside the drawn shape), leaving needs the
 * position more than `FENCE_HYSTERESIS_M` outside it (a Schmitt trigger): a wander smaller than the
 * margin changes nothing, and no alarm is delayed by waiting for a second report.
 *
 * The first position of a vehicle (after a start) only sets its state, as does its first position
 * after a fence was created, changed or re-bound: the vehicle was not seen crossing, so nothing is
 * raised (a restart must not flood the consoles with "entered" alarms for every vehicle in a fence).
 *
 * Held conditions of one code on one vehicle may come from several fences; the alarm engine keeps
 * one alarm per (vehicle, code), so a second fence's start merges into it and the end is answered
 * only when the last fence holding the code lets go.
 *
 * Cost per position: the fences near it (index.ts) plus the few the vehicle is inside or held by,
 * never every fence. `candidates: 'scan'` answers the same with a scan of every bound fence (the
 * benchmark's baseline, and a check of the index in tests).
 */
import { PLATFORM_RULES } from '../alarms/sources.ts';
import { contains, distanceOutsideM, inWindow, prepareGeometry, windowMinutes, type PreparedGeometry } from './geometry.ts';
import { FenceIndex } from './index.ts';
import type { Fence } from './types.ts';

/** Metres a vehicle inside a fence must be outside the drawn edge before it counts as having left. */
export const FENCE_HYSTERESIS_M = 20;

export const FENCE_CODES = Object.freeze({
  enter: PLATFORM_RULES.enterArea,
  leave: PLATFORM_RULES.leaveArea,
  forbiddenEntry: PLATFORM_RULES.forbiddenAreaEntry,
  forbiddenExit: PLATFORM_RULES.restrictedAreaExit,
  areaOverspeed: PLATFORM_RULES.areaOverspeed,
});

/** The codes a fence holds (start … end); the alarm service ends them itself when a restart lost the state. */
export const FENCE_HELD_CODES: readonly number[] = Object.freeze([FENCE_CODES.forbiddenEntry, FENCE_CODES.forbiddenExit, FENCE_CODES.areaOverspeed]);

export interface BoundFence {
  readonly fence: Fence;
  readonly vehicleIds: readonly number[];
}

export interface FencePosition {
  readonly vehicleId: number;
  /** GPS time, epoch ms. */
  readonly time: number;
  readonly lng: number;
  readonly lat: number;
  /** km/h */
  readonly speed: number;
}

export interface FenceTransition {
  /** occur: a one-off event; start: a held condition began (or another fence joined it); end: no fence holds it any more. */
  readonly phase: 'occur' | 'start' | 'end';
  readonly code: number;
  readonly vehicleId: number;
  readonly fence: Fence;
  readonly time: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
}

export interface FenceEvaluatorOptions {
  /** @default FENCE_HYSTERESIS_M */
  readonly marginM?: number;
  /** 'index' (default): the fences near the position; 'scan': every fence bound to the vehicle. */
  readonly candidates?: 'index' | 'scan';
}

/** Held-condition slots (FENCE_HELD_CODES order). */
const FORBID_IN = 0, FORBID_OUT = 1, OVERSPEED = 2;
const NONE: readonly FenceTransition[] = Object.freeze([]);

/** One vehicle's state against one fence it is inside of, or still held by. */
interface Rec {
  fi: number;
  inside: boolean;
  /** Bit per held slot. */
  held: number;
  /** Start of the current run above the fence's limit (NaN: none). */
  overSince: number;
  overLng: number;
  overLat: number;
  overSpeed: number;
  /** Evaluation stamp of the last position that looked at this fence. */
  visited: number;
}

interface VehicleState {
  /** Its binding row (-1: bound to no fence any more); kept here so a position costs one map lookup. */
  row: number;
  /** A position of it was evaluated. */
  seen: boolean;
  /** The evaluator's generation at this vehicle's last position. */
  generation: number;
  recs: Rec[];
  /** Fences holding each slot. */
  readonly heldBy: [number, number, number];
}

/**
 * The fences by position ("fi"). A full build (`compile`) packs the bindings into rows per vehicle;
 * a change of one fence (`update`) patches the arrays at its position, the index, and `overrides`
 * (its bindings now, which win over the packed rows), so an edit costs that fence and its bindings.
 * A removed fence leaves a hole (`fences[fi]` undefined, no bindings, out of the index).
 */
interface Compiled {
  readonly fences: (Fence | undefined)[];
  readonly geometries: (PreparedGeometry | undefined)[];
  readonly windows: (readonly [number, number] | null)[];
  /** Generation in which each fence (as it is now: shape, rule, bindings) appeared. */
  readonly since: number[];
  readonly byId: Map<number, number>;
  /** Binding rows of the full build: vehicle → its bound fence positions, sorted, in `bound[offsets[row] … offsets[row + 1])`. */
  readonly rows: Map<number, number>;
  readonly offsets: Int32Array;
  readonly bound: Int32Array;
  /** Per fence: its vehicles, sorted (what a change must let go of). */
  readonly members: Int32Array[];
  /** Fences changed since the full build: their vehicles now (sorted), overriding the rows. */
  readonly overrides: Map<number, Int32Array>;
  /** Bindings held in `overrides` (the caller compacts with a full build when they grow). */
  overrideBindings: number;
  /** Live fences. */
  live: number;
  /** Per fence: its definition and bindings, to tell an unchanged fence on reload. */
  readonly signatures: string[];
  readonly index: FenceIndex;
}

export class FenceEvaluator {
  private c: Compiled;
  private generation = 0;
  private stamp = 0;
  private readonly states = new Map<number, VehicleState>();
  private readonly marginM: number;
  private readonly scan: boolean;
  /** Transitions of the call in progress (copied out; the hot path allocates only when something happens). */
  private readonly out: FenceTransition[] = [];
  /** Per held slot, during one call: fences holding it before, and a fence that let go (the lowest id). */
  private readonly before: [number, number, number] = [0, 0, 0];
  private readonly released: (Fence | undefined)[] = [undefined, undefined, undefined];

  constructor(fences: readonly BoundFence[], options: FenceEvaluatorOptions = {}) {
    this.marginM = options.marginM ?? FENCE_HYSTERESIS_M;
    this.scan = options.candidates === 'scan';
    this.c = this.compile(fences, undefined);
    this.attach();
  }

  /** Gives every bound vehicle its state with its row (made before the first position: one lookup per report). */
  private attach(): void {
    for (const st of this.states.values()) st.row = -1;
    for (const [vehicleId, row] of this.c.rows) {
      const st = this.states.get(vehicleId);
      if (st === undefined) this.states.set(vehicleId, { row, seen: false, generation: this.generation, recs: [], heldBy: [0, 0, 0] });
      else st.row = row;
    }
  }

  get fenceCount(): number {
    return this.c.live;
  }

  /** Bindings of fences changed one at a time since the last full build (`replace` folds them in). */
  get changedBindings(): number {
    return this.c.overrideBindings;
  }

  /** Bindings of the last full build. */
  get builtBindings(): number {
    return this.c.bound.length;
  }

  /** True once a position of the vehicle was evaluated (its state is known). */
  seen(vehicleId: number): boolean {
    return this.states.get(vehicleId)?.seen === true;
  }

  /** True while some fence holds the code on the vehicle. */
  holds(vehicleId: number, code: number): boolean {
    const slot = FENCE_HELD_CODES.indexOf(code);
    return slot >= 0 && (this.states.get(vehicleId)?.heldBy[slot] ?? 0) > 0;
  }

  /** The fences the vehicle is inside of now (by the hysteresis rule). */
  insideOf(vehicleId: number): Fence[] {
    return (this.states.get(vehicleId)?.recs ?? []).filter((r) => r.inside).map((r) => this.c.fences[r.fi]!);
  }

  /**
   * Replaces the fences (after any change). A fence whose shape, rule and bindings are unchanged
   * keeps every vehicle's state; a fence removed, changed or no longer bound lets go of what it held
   * (answered as 'end' at `time`) and a changed one is seen afresh.
   */
  replace(fences: readonly BoundFence[], time: number): FenceTransition[] {
    const old = this.c;
    this.generation++;
    const next = this.compile(fences, old);
    this.out.length = 0;
    for (const [vehicleId, st] of this.states) {
      const row = next.rows.get(vehicleId);
      const kept: Rec[] = [];
      this.begin(st);
      for (const rec of st.recs) {
        const fence = old.fences[rec.fi]!;
        const fi = next.byId.get(fence.id);
        if (fi !== undefined && next.signatures[fi] === old.signatures[rec.fi] && row !== undefined && isBound(next, row, fi)) {
          rec.fi = fi;
          kept.push(rec);
          continue;
        }
        for (let slot = 0; slot < 3; slot++) this.release(st, rec, slot, fence);
      }
      this.finish(st, { vehicleId, time, lng: NaN, lat: NaN, speed: 0 });
      st.recs = kept;
      if (kept.length === 0 && row === undefined) this.states.delete(vehicleId);
    }
    this.c = next;
    this.attach();
    return this.out.splice(0);
  }

  /**
   * One fence created, changed (shape, rule, bindings, or only its name) or removed (`next` null):
   * the same answer and the same state afterwards as `replace` with the whole list so changed, at the
   * cost of that fence and its bindings (old and new) instead of every fence and binding. A fence
   * whose shape, rule and bindings are unchanged keeps every vehicle's state (a rename); otherwise
   * its vehicles let go of what it held ('end' at `time`) and see it afresh.
   */
  update(fenceId: number, next: BoundFence | null, time: number): FenceTransition[] {
    const c = this.c;
    this.generation++;
    this.out.length = 0;
    let fi = c.byId.get(fenceId);
    const sig = next === null ? '' : signature(next);
    if (fi !== undefined && next !== null && c.signatures[fi] === sig) {
      c.fences[fi] = next.fence; // the same shape, rule and bindings: only its name (or remark) changed
      return [];
    }
    if (fi !== undefined) {
      // Its vehicles let go of what it held.
      const fence = c.fences[fi]!;
      for (const vehicleId of c.members[fi]!) {
        const st = this.states.get(vehicleId);
        if (st === undefined) continue;
        const rec = findRec(st.recs, fi);
        if (rec === undefined) continue;
        this.begin(st);
        for (let slot = 0; slot < 3; slot++) this.release(st, rec, slot, fence);
        this.finish(st, { vehicleId, time, lng: NaN, lat: NaN, speed: 0 });
        st.recs.splice(st.recs.indexOf(rec), 1);
      }
      c.overrideBindings -= c.overrides.get(fi)?.length ?? 0;
    }
    if (next === null) {
      if (fi === undefined) return this.out.splice(0);
      c.byId.delete(fenceId);
      c.fences[fi] = undefined;
      c.geometries[fi] = undefined;
      c.windows[fi] = null;
      c.signatures[fi] = '';
      c.members[fi] = EMPTY_IDS;
      c.overrides.set(fi, EMPTY_IDS);
      c.index.set(fi, undefined);
      c.live--;
      return this.out.splice(0);
    }
    if (fi === undefined) {
      fi = c.fences.length;
      c.byId.set(fenceId, fi);
      c.live++;
    }
    const geometry = prepareGeometry(next.fence.geometry);
    const members = sortedIds(next.vehicleIds);
    c.fences[fi] = next.fence;
    c.geometries[fi] = geometry;
    c.windows[fi] = windowMinutes(next.fence.rule);
    c.signatures[fi] = sig;
    c.since[fi] = this.generation;
    c.members[fi] = members;
    c.overrides.set(fi, members);
    c.overrideBindings += members.length;
    c.index.set(fi, geometry);
    for (const vehicleId of members) {
      if (!this.states.has(vehicleId)) {
        this.states.set(vehicleId, { row: c.rows.get(vehicleId) ?? -1, seen: false, generation: this.generation, recs: [], heldBy: [0, 0, 0] });
      }
    }
    return this.out.splice(0);
  }

  /** One live position (in time order per vehicle): the transitions it causes, often none. */
  evaluate(p: FencePosition): readonly FenceTransition[] {
    const c = this.c;
    const st = this.states.get(p.vehicleId);
    if (st === undefined) return NONE; // bound to no fence
    const row = st.row;
    const first = !st.seen;
    st.seen = true;
    const stamp = ++this.stamp;
    this.out.length = 0;
    this.begin(st);
    const candidates = this.scan ? null : c.index.near(p.lng, p.lat);
    const from = row < 0 ? 0 : c.offsets[row]!, to = row < 0 ? 0 : c.offsets[row + 1]!;
    const n = candidates === null ? to - from : candidates.length;
    const overrides = c.overrides.size === 0 ? null : c.overrides;
    let changed = false;
    for (let k = 0; k < n; k++) {
      let fi: number;
      if (candidates === null) {
        fi = c.bound[from + k]!;
        if (overrides !== null && overrides.has(fi)) continue; // its bindings now are in `overrides`
      } else {
        fi = candidates[k]!;
        const ids = overrides === null ? undefined : overrides.get(fi);
        if (ids === undefined ? !isBoundIn(c.bound, from, to, fi) : !hasId(ids, p.vehicleId)) continue;
      }
      if (this.visit(st, fi, first, stamp, p)) changed = true;
    }
    if (candidates === null && overrides !== null) {
      // Scan mode with fences changed since the full build: those bound to the vehicle now.
      for (const [fi, ids] of overrides) if (hasId(ids, p.vehicleId) && this.visit(st, fi, first, stamp, p)) changed = true;
    }
    // A fence the vehicle was inside of (or held by) whose grown box no longer holds the position:
    // more than the margin outside (index mode only: a scan visits every bound fence).
    for (let i = 0; i < st.recs.length; i++) {
      const rec = st.recs[i]!;
      if (rec.visited !== stamp) {
        rec.visited = stamp;
        this.step(st, rec, false, false, true, p);
        changed = true;
      }
    }
    if (changed) dropIdle(st);
    this.finish(st, p);
    st.generation = this.generation;
    return this.out.length === 0 ? NONE : this.out.slice();
  }

  /** One bound fence near the position: its exact test and step; true when it was looked at. */
  private visit(st: VehicleState, fi: number, first: boolean, stamp: number, p: FencePosition): boolean {
    const c = this.c;
    const inside = contains(c.geometries[fi]!, p.lng, p.lat);
    const rec = findRec(st.recs, fi);
    if (rec === undefined) {
      if (!inside) return false;
      const silent = first || st.generation < c.since[fi]!;
      const fresh: Rec = { fi, inside: false, held: 0, overSince: NaN, overLng: 0, overLat: 0, overSpeed: 0, visited: stamp };
      st.recs.push(fresh);
      this.step(st, fresh, true, silent, false, p);
    } else {
      rec.visited = stamp;
      this.step(st, rec, inside, false, false, p);
    }
    return true;
  }

  /**
   * One fence's step for one position. `inside` is the exact test; `far` says the position is known
   * to be beyond the margin (so a vehicle inside leaves without measuring the distance); `silent`:
   * the vehicle was not seen crossing (an entry sets the state and raises nothing).
   */
  private step(st: VehicleState, rec: Rec, inside: boolean, silent: boolean, far: boolean, p: FencePosition): void {
    const c = this.c;
    const fence = c.fences[rec.fi]!;
    const rule = fence.rule;
    const open = inWindow(c.windows[rec.fi]!, p.time);
    if (!rec.inside && inside) {
      rec.inside = true;
      this.release(st, rec, FORBID_OUT, fence); // back inside: a forbidden exit is over, whatever the window
      if (open) {
        if (rule.alarmIn && !silent) this.emit('occur', FENCE_CODES.enter, p, fence);
        if (rule.forbidIn) this.hold(st, rec, FORBID_IN, silent, p, fence);
      }
    } else if (rec.inside && !inside && (far || distanceOutsideM(c.geometries[rec.fi]!, p.lng, p.lat) > this.marginM)) {
      rec.inside = false;
      this.release(st, rec, FORBID_IN, fence);
      if (open) {
        if (rule.alarmOut) this.emit('occur', FENCE_CODES.leave, p, fence);
        if (rule.forbidOut) this.hold(st, rec, FORBID_OUT, false, p, fence);
      }
    }
    if (!open) {
      this.release(st, rec, FORBID_IN, fence);
      this.release(st, rec, FORBID_OUT, fence);
    }
    // Area overspeed: inside and open, above the limit for long enough (a time rule, never silent).
    if (rec.inside && open && rule.maxSpeed !== null && p.speed > rule.maxSpeed) {
      if (Number.isNaN(rec.overSince)) {
        rec.overSince = p.time;
        rec.overLng = p.lng;
        rec.overLat = p.lat;
        rec.overSpeed = p.speed;
      }
      if (!(rec.held & (1 << OVERSPEED)) && p.time - rec.overSince >= rule.overspeedSeconds * 1000) {
        this.hold(st, rec, OVERSPEED, false, { vehicleId: p.vehicleId, time: rec.overSince, lng: rec.overLng, lat: rec.overLat, speed: rec.overSpeed }, fence);
      }
    } else {
      rec.overSince = NaN;
      this.release(st, rec, OVERSPEED, fence);
    }
  }

  private emit(phase: FenceTransition['phase'], code: number, p: FencePosition, fence: Fence): void {
    this.out.push({ phase, code, vehicleId: p.vehicleId, fence, time: p.time, lng: p.lng, lat: p.lat, speed: p.speed });
  }

  private hold(st: VehicleState, rec: Rec, slot: number, silent: boolean, p: FencePosition, fence: Fence): void {
    rec.held |= 1 << slot;
    st.heldBy[slot]!++;
    if (!silent) this.emit('start', FENCE_HELD_CODES[slot]!, p, fence);
  }

  /** Lets go of a held slot (nothing when not held); `finish` answers the end. */
  private release(st: VehicleState, rec: Rec, slot: number, fence: Fence): void {
    if (!(rec.held & (1 << slot))) return;
    rec.held &= ~(1 << slot);
    st.heldBy[slot]!--;
    const was = this.released[slot];
    if (was === undefined || fence.id < was.id) this.released[slot] = fence; // the same fence whatever the visiting order
  }

  private begin(st: VehicleState): void {
    for (let slot = 0; slot < 3; slot++) {
      this.before[slot] = st.heldBy[slot]!;
      this.released[slot] = undefined;
    }
  }

  /**
   * 'end' for a code held before this call and by no fence after it. Decided once per call, not per
   * fence: leaving one forbidden fence while entering another in one report is a repeat of the held
   * alarm, not an end and a new start, whatever order the fences were looked at in.
   */
  private finish(st: VehicleState, p: FencePosition): void {
    for (let slot = 0; slot < 3; slot++) {
      const fence = this.released[slot];
      if (fence !== undefined && this.before[slot]! > 0 && st.heldBy[slot] === 0) this.emit('end', FENCE_HELD_CODES[slot]!, p, fence);
    }
  }

  private compile(list: readonly BoundFence[], old: Compiled | undefined): Compiled {
    const fences = list.map((b) => b.fence);
    const geometries = fences.map((f) => prepareGeometry(f.geometry));
    const windows = fences.map((f) => windowMinutes(f.rule));
    const byId = new Map<number, number>();
    fences.forEach((f, i) => byId.set(f.id, i));
    const signatures = list.map((b) => signature(b));
    const since: number[] = new Array<number>(fences.length);
    fences.forEach((f, i) => {
      const was = old?.byId.get(f.id);
      since[i] = was !== undefined && old!.signatures[was] === signatures[i] ? old!.since[was]! : this.generation;
    });
    // Bindings as compressed rows: two passes over the lists, no per-vehicle arrays (10^7 bindings fit in 40 MB).
    const members = list.map((b) => sortedIds(b.vehicleIds));
    const lists = members;
    const rows = new Map<number, number>();
    const counts: number[] = [];
    let total = 0;
    for (const ids of lists) total += ids.length;
    // Each binding's row, found once: the fill pass below needs no second map lookup per binding.
    const bindRow = new Int32Array(total);
    let k = 0;
    for (const ids of lists) {
      for (const v of ids) {
        let r = rows.get(v);
        if (r === undefined) {
          rows.set(v, (r = counts.length));
          counts.push(0);
        }
        counts[r]!++;
        bindRow[k++] = r;
      }
    }
    const offsets = new Int32Array(counts.length + 1);
    for (let r = 0; r < counts.length; r++) offsets[r + 1] = offsets[r]! + counts[r]!;
    const bound = new Int32Array(total);
    const fill = offsets.slice(0, counts.length);
    // Fences in list order: each row comes out sorted by fence position (binary search below).
    k = 0;
    for (let fi = 0; fi < lists.length; fi++) {
      for (let j = lists[fi]!.length; j > 0; j--) bound[fill[bindRow[k++]!]!++] = fi;
    }
    return {
      fences, geometries, windows, since, byId, rows, offsets, bound, members, overrides: new Map(), overrideBindings: 0, live: fences.length, signatures,
      index: new FenceIndex(geometries, this.marginM),
    };
  }
}

/**
 * What makes a fence "the same" across a reload: its shape and rule as written, and its bindings by
 * count and two order-free hashes (a fence bound to 5,000 vehicles is not sorted and printed on
 * every reload; a collision only costs a newly bound vehicle its silent first look).
 */
function signature(b: BoundFence): string {
  let sum = 0, xor = 0;
  for (const v of b.vehicleIds) {
    const h = Math.imul(v ^ (v >>> 16), 0x45d9f3b);
    sum = (sum + h) | 0;
    xor ^= Math.imul(h ^ (h >>> 13), 0x27d4eb2d);
  }
  return `${JSON.stringify(b.fence.geometry)}|${JSON.stringify(b.fence.rule)}|${b.vehicleIds.length}:${sum}:${xor}`;
}

/** Forgets the fences the vehicle is outside of and held by nothing (in place: no allocation per report). */
function dropIdle(st: VehicleState): void {
  const recs = st.recs;
  let w = 0;
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i]!;
    if (r.inside || r.held !== 0) recs[w++] = r;
  }
  recs.length = w;
}

function findRec(recs: readonly Rec[], fi: number): Rec | undefined {
  for (let i = 0; i < recs.length; i++) if (recs[i]!.fi === fi) return recs[i];
  return undefined;
}

function isBound(c: Compiled, row: number, fi: number): boolean {
  return isBoundIn(c.bound, c.offsets[row]!, c.offsets[row + 1]!, fi);
}

/** Binary search of a sorted row `bound[from … to)`. */
function isBoundIn(bound: Int32Array, from: number, to: number, fi: number): boolean {
  let lo = from, hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = bound[mid]!;
    if (v === fi) return true;
    if (v < fi) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

const EMPTY_IDS = new Int32Array(0);

/** The ids once each, ascending (a vehicle listed twice for one fence is bound once). */
function sortedIds(ids: readonly number[]): Int32Array {
  for (let i = 1; i < ids.length; i++) {
    if (ids[i]! <= ids[i - 1]!) return Int32Array.from(new Set(ids)).sort();
  }
  return Int32Array.from(ids); // strictly ascending: already unique
}

/** Binary search of a sorted id list. */
function hasId(ids: Int32Array, id: number): boolean {
  let lo = 0, hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = ids[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid;
  }
  return false;
}
