/**
 * The platform's fence evaluation on the server: loads every fence with the vehicles bound to it
 * from a `FenceSource` (the database, wired in server/app.ts), keeps a `FenceEvaluator`
 * (domain/fence/rules.ts) over them and turns each live position into fence transitions that
 * AlarmService feeds to the alarm engine (group 13 in/out/forbidden, 12005 area overspeed).
 *
 * A report without a GNSS fix (status bit 1 clear) is not evaluated: its coordinates are the last
 * known ones or zero, and a vehicle "at 0, 0" would leave every fence it is in.
 */
import { FENCE_HELD_CODES, FenceEvaluator, type FenceTransition } from '../../domain/fence/rules.ts';
import type { Fence } from '../../domain/fence/types.ts';
import type { LocationReport } from '../gateway/jt808/index.ts';

/** Where the fences come from: every fence and the ids of the vehicles it applies to. */
export interface FenceSource {
  load(): { fence: Fence; vehicleIds: readonly number[] }[];
  /** One fence as stored now (undefined: deleted); without it every change re-reads every fence. */
  loadOne?(id: number): { fence: Fence; vehicleIds: readonly number[] } | undefined;
}

/**
 * Fences changed one at a time are patched into the evaluator (their bindings kept beside the packed
 * ones); once those exceed half the packed bindings (and this floor), the next change re-reads every
 * fence and packs them again, so a run of edits costs O(what changed) amortised.
 */
const COMPACT_FLOOR = 200_000;

/** Status bit 1 (JT/T 808 table 24): 1 = positioned. */
const POSITIONED = 0b10;
const NONE: readonly FenceTransition[] = Object.freeze([]);

export class FenceWatch {
  readonly evaluator: FenceEvaluator;

  constructor(private readonly source: FenceSource) {
    this.evaluator = new FenceEvaluator(source.load());
  }

  /** Re-reads the source; answers the ends of conditions held by fences removed, changed or unbound. */
  reload(now: number): readonly FenceTransition[] {
    return this.evaluator.replace(this.source.load(), now);
  }

  /**
   * These fences were created, changed, rebound or deleted: re-reads only them (the gateway's event
   * loop must not stall for a full rebuild at 14 M bindings, seconds under load); answers the ends of
   * conditions they held. The same answer as `reload`.
   */
  changed(ids: readonly number[], now: number): readonly FenceTransition[] {
    const ev = this.evaluator;
    if (this.source.loadOne === undefined || ev.changedBindings > Math.max(COMPACT_FLOOR, ev.builtBindings / 2)) return this.reload(now);
    const out: FenceTransition[] = [];
    for (const id of ids) out.push(...ev.update(id, this.source.loadOne(id) ?? null, now));
    return out;
  }

  /**
   * One live report. `stale` lists the fence codes the engine may hold from before a restart that no
   * fence holds now (the vehicle's first evaluated position): the caller ends them.
   */
  report(vehicleId: number, loc: Pick<LocationReport, 'time' | 'lng' | 'lat' | 'speed' | 'status'>): { transitions: readonly FenceTransition[]; stale: readonly number[] } {
    if ((loc.status & POSITIONED) === 0) return { transitions: NONE, stale: [] };
    const first = !this.evaluator.seen(vehicleId);
    const transitions = this.evaluator.evaluate({ vehicleId, time: loc.time, lng: loc.lng, lat: loc.lat, speed: loc.speed });
    if (!first || !this.evaluator.seen(vehicleId)) return { transitions, stale: [] };
    return { transitions, stale: FENCE_HELD_CODES.filter((code) => !this.evaluator.holds(vehicleId, code)) };
  }
}

/** The text a fence alarm carries (its log entry and its push): the fence by name. */
export function fenceNote(t: Pick<FenceTransition, 'fence'>): string {
  return `围栏：${t.fence.name}`;
}
