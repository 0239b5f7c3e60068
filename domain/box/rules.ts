/**
 * The group 70 rules beyond the box posture of status.ts `boxViolations` (70001/70002/70004/70005):
 * the ones that need the previous report, the clock or the load's size. Pure; the box service
 * (server/services/box-status) runs them per live report with the item, the tests by hand.
 * Design notes and the codes not raised: domain/box/CONTEXT.md.
 *
 *   70003 illegal dumping (违规倾倒): the load actually left the truck — the loaded bit went off, or the
 *         load fell by ≥ DUMP_DROP_T between two reports that both carry it — with the truck outside
 *         every registered site of its company. 70004 is the posture (body up while loaded, at rest,
 *         outside a disposal site: a warning while it happens); 70003 is the act, found from the load,
 *         so it also catches tipping without a body-lift signal (a tailgate opened while crawling).
 *         An event: it holds for the one report that shows the drop.
 *   70007 off the approved route (未按核准路线行驶): loaded and moving while the platform holds the vehicle
 *         off a route it is bound to (13010, domain/route). The routes bound to a slag truck on
 *         /monitor/route_map are its approved routes (核准路线); an empty truck may go where it likes.
 *   70008 transport outside permitted hours (非准运时段运输): loaded and moving (> MOVING_KMH) inside a
 *         forbidden window, China time. City rules keep loaded slag trucks off the roads in the rush
 *         hours; FORBIDDEN_HOURS are 07:00–09:00 and 17:00–19:00.
 *   70009 overload (渣土车超载): the reported load above RATED_LOAD_T plus OVERLOAD_TOLERANCE (weighing
 *         sensors read a few per cent off; enforcement tolerates that much).
 *   70010 load sensor abnormal (载重传感器异常): a truck whose load sensor has reported a load before now
 *         reports none (0xFF), or the loaded bit contradicts the tonnes (loaded below LOADED_MIN_T, empty
 *         at or above EMPTY_MAX_T). A truck that never reported a load has no sensor fitted: no alarm.
 */
import { CHINA_OFFSET_MS } from '../track/days.ts';
import { MOVING_KMH, type BoxState } from './status.ts';

export const BOX_EXTRA_ALARM = { illegalDump: 70003, offRoute: 70007, outsideHours: 70008, overload: 70009, loadSensor: 70010 } as const;
export const BOX_EXTRA_ALARM_CODES: readonly number[] = Object.values(BOX_EXTRA_ALARM);

/** A fall of the load this large (t) between two reports is unloading, not sensor noise (±1 t on a moving truck). */
export const DUMP_DROP_T = 3;
/** Forbidden transport windows, China local time, minutes of the day [from, to) (a window may wrap midnight). */
export const FORBIDDEN_HOURS: readonly { fromMin: number; toMin: number }[] = [{ fromMin: 7 * 60, toMin: 9 * 60 }, { fromMin: 17 * 60, toMin: 19 * 60 }];
/** Rated load of the fleet's slag trucks (t): an 8×4 tipper's 核定载质量 with the sealed-body kit. */
export const RATED_LOAD_T = 31;
/** Share above the rated load tolerated before 70009 (weighing error). */
export const OVERLOAD_TOLERANCE = 0.05;
/** A loaded bit with less than this (t) contradicts the load. */
export const LOADED_MIN_T = 1;
/** An empty bit with at least this (t) contradicts the load. */
export const EMPTY_MAX_T = 5;

/** Minutes since China midnight of an instant. */
export function chinaMinuteOfDay(timeMs: number): number {
  const day = 86_400_000;
  return Math.floor((((timeMs + CHINA_OFFSET_MS) % day) + day) % day / 60_000);
}

/** Whether a China minute of the day lies in a window [from, to) that may wrap midnight. */
export function inWindow(minute: number, window: { fromMin: number; toMin: number }): boolean {
  return window.fromMin <= window.toMin ? minute >= window.fromMin && minute < window.toMin : minute >= window.fromMin || minute < window.toMin;
}

/** Whether an instant lies in a forbidden transport window. */
export function inForbiddenHours(timeMs: number, windows: readonly { fromMin: number; toMin: number }[] = FORBIDDEN_HOURS): boolean {
  const minute = chinaMinuteOfDay(timeMs);
  return windows.some((w) => inWindow(minute, w));
}

/**
 * True when the load left the truck between `before` and `now` (70003's act, place not considered).
 * A fitted sensor that now gives no load proves nothing (the controller then reports empty): that is
 * 70010, not a dump.
 */
export function loadDropped(before: BoxState | undefined, now: BoxState, sensorFitted = false): boolean {
  if (!before || (sensorFitted && now.loadT === null)) return false;
  if (before.loaded && !now.loaded) return true;
  return before.loadT !== null && now.loadT !== null && before.loadT - now.loadT >= DUMP_DROP_T;
}

/** 70010's condition: no load from a fitted sensor, or a loaded bit that the tonnes contradict. */
export function loadSensorAbnormal(s: BoxState, sensorFitted: boolean): boolean {
  if (s.loadT === null) return sensorFitted;
  return s.loaded ? s.loadT < LOADED_MIN_T : s.loadT >= EMPTY_MAX_T;
}

export interface BoxReport {
  readonly time: number;
  readonly speedKmh: number;
  /** Inside some registered site of the vehicle's company or above (or none is registered: nothing to be outside of). */
  readonly atSite: boolean;
  /** The truck has reported a load (not 0xFF) before: it has a load sensor. */
  readonly sensorFitted: boolean;
  /** The platform holds the vehicle off a route it is bound to (13010 active). */
  readonly offRoute?: boolean;
}

/** The codes of BOX_EXTRA_ALARM whose condition holds for this report, given the state of the previous one. */
export function boxExtraViolations(before: BoxState | undefined, now: BoxState, r: BoxReport, ratedLoadT = RATED_LOAD_T): Set<number> {
  const out = new Set<number>();
  if (!r.atSite && loadDropped(before, now, r.sensorFitted)) out.add(BOX_EXTRA_ALARM.illegalDump);
  if (now.loaded && r.speedKmh > MOVING_KMH && r.offRoute === true) out.add(BOX_EXTRA_ALARM.offRoute);
  if (now.loaded && r.speedKmh > MOVING_KMH && inForbiddenHours(r.time)) out.add(BOX_EXTRA_ALARM.outsideHours);
  if (now.loadT !== null && now.loadT > ratedLoadT * (1 + OVERLOAD_TOLERANCE)) out.add(BOX_EXTRA_ALARM.overload);
  if (loadSensorAbnormal(now, r.sensorFitted)) out.add(BOX_EXTRA_ALARM.loadSensor);
  return out;
}
