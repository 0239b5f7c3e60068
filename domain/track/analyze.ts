/**
 * All track rules in one walk over the columns: drift, continuity gaps, mileage, stops and China-day
 * statistics. Shared by the track worker, the server's reports and `npm run track -- analyze`.
 *
 * Mileage decisions:
 * - `mileageKm` sums great-circle distances between consecutive non-drift points, discontinuous gaps
 *   included: the vehicle did cover at least that distance, and leaving gaps out would under-report
 *   every day with a data loss. `continuousMileageKm` (the catalogue's "continuous mileage") sums the
 *   continuous pairs only; `lossKm` and `lossHours` sum the discontinuous ones, so
 *   mileageKm = continuousMileageKm + lossKm.
 * - Gaps and pairs join consecutive non-drift points, so a gap's `from` and `to` may have drift
 *   points between them.
 */
import { validateTrackColumns } from './columns.ts';
import type { TrackColumns } from './columns.ts';
import { isDriftTriple } from './drift.ts';
import { ContinuityRun, SHORT_GAP_KM } from './continuity.ts';
import { cosLatitude, haversineKmCos, impliedSpeedKmh } from './geo.ts';
import { StopDetector } from './stops.ts';
import type { StopOptions, TrackStop } from './stops.ts';
import {
  chinaDate, chinaDateOfDay, chinaDayIndex, chinaDayStartMs, DAY_MS, EARLY_MORNING_END_MS, EARLY_MORNING_START_MS, isOnlineDay, isOperationDay,
} from './days.ts';

export interface TrackGap {
  /** Index of the earlier point of the pair. */
  readonly from: number;
  /** Index of the later point (the next non-drift point). */
  readonly to: number;
  readonly km: number;
  readonly continuous: boolean;
}

export interface TrackDay {
  /** China calendar date, `YYYY-MM-DD`. */
  readonly date: string;
  /** Epoch ms of 00:00 China time. */
  readonly startMs: number;
  /** Data items that day, drift included. */
  readonly points: number;
  readonly driftPoints: number;
  /** Non-drift pairs whose later point falls that day. */
  readonly mileageKm: number;
  /** Part of `mileageKm` whose later point falls in 02:00–05:00. */
  readonly earlyMorningKm: number;
  readonly online: boolean;
  readonly operation: boolean;
}

export interface TrackAnalysis {
  readonly points: number;
  /** 1 = drift, one per point: a column the map can draw from directly. */
  readonly driftFlags: Uint8Array;
  /** Indices of drift points, ascending. */
  readonly drift: Int32Array;
  /** Every pair of consecutive non-drift points at least 2 km apart, in time order. */
  readonly gaps: TrackGap[];
  readonly discontinuous: number;
  readonly mileageKm: number;
  readonly continuousMileageKm: number;
  readonly lossKm: number;
  readonly lossHours: number;
  readonly stops: TrackStop[];
  /** Every China day from the first point's to the last point's, empty days included. */
  readonly days: TrackDay[];
  readonly onlineDays: number;
  readonly operationDays: number;
}

export type AnalyzeOptions = StopOptions;

/**
 * Per-day sums are dense arrays over the track's span, so a stray timestamp decades away would
 * allocate a slot per day in between: 100 years is far beyond any real track and still small.
 */
export const MAX_TRACK_DAYS = 36_525;

/**
 * Runs every rule over a time-sorted track (see `timeOrder` to sort). Throws a RangeError on invalid
 * columns (see `validateTrackColumns`) or a track spanning more than MAX_TRACK_DAYS. One cosine and
 * one haversine per point, plus one haversine per drift point; the gap and stop lists are bounded (a
 * gap is ≥ 2 km) so they are plain objects.
 */
export function analyzeTrack(c: TrackColumns, options: AnalyzeOptions = {}): TrackAnalysis {
  validateTrackColumns(c);
  const { time, lng, lat, speed } = c;
  const n = time.length;
  const stops = new StopDetector(options);
  const driftFlags = new Uint8Array(n);
  if (n === 0) {
    return {
      points: 0, driftFlags, drift: new Int32Array(0), gaps: [], discontinuous: 0, mileageKm: 0, continuousMileageKm: 0,
      lossKm: 0, lossHours: 0, stops: stops.finish(), days: [], onlineDays: 0, operationDays: 0,
    };
  }

  const firstDay = chinaDayIndex(time[0]!);
  const dayCount = chinaDayIndex(time[n - 1]!) - firstDay + 1;
  if (dayCount > MAX_TRACK_DAYS) {
    throw new RangeError(`track spans ${dayCount} days (${chinaDateOfDay(firstDay)} to ${chinaDate(time[n - 1]!)}); at most ${MAX_TRACK_DAYS}`);
  }
  const dayPoints = new Int32Array(dayCount);
  const dayDrift = new Int32Array(dayCount);
  const dayKm = new Float64Array(dayCount);
  const dayEarlyKm = new Float64Array(dayCount);
  // Points are in time order, so the day only changes when a point passes the next midnight.
  let day = 0;
  let nextMidnight = chinaDayStartMs(firstDay + 1);
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    if (t >= nextMidnight) {
      day = chinaDayIndex(t) - firstDay;
      nextMidnight = chinaDayStartMs(firstDay + day + 1);
    }
    dayPoints[day]!++;
  }

  const gaps: TrackGap[] = [];
  const continuity = new ContinuityRun();
  let driftCount = 0;
  let discontinuous = 0;
  let mileageKm = 0;
  let continuousKm = 0;
  let lossKm = 0;
  let lossMs = 0;

  // Kept points come in time order too: track their day by its bounds instead of dividing per point.
  let keptDay = 0;
  let keptDayStart = chinaDayStartMs(firstDay);
  let keptDayEnd = keptDayStart + DAY_MS;

  let a = 0;
  let cosA = cosLatitude(lat[0]!);
  stops.push(0, time[0]!, lng[0]!, lat[0]!, cosA, speed[0]!);
  if (n >= 2) {
    let b = 1;
    let cosB = cosLatitude(lat[1]!);
    let kmAB = haversineKmCos(lng[0]!, lat[0]!, cosA, lng[1]!, lat[1]!, cosB);
    let vAB = impliedSpeedKmh(kmAB, time[1]! - time[0]!);
    // Candidate b is settled when point k shows whether it is drift; k = n settles the last pair.
    // The settling code is inline rather than in a closure: a closure updating the running sums would
    // make V8 keep them in a heap context instead of registers, on a loop run 10 M times.
    for (let k = 2; ; k++) {
      let cosK = 0;
      let kmBK = 0;
      let vBK = 0;
      if (k < n) {
        cosK = cosLatitude(lat[k]!);
        kmBK = haversineKmCos(lng[b]!, lat[b]!, cosB, lng[k]!, lat[k]!, cosK);
        vBK = impliedSpeedKmh(kmBK, time[k]! - time[b]!);
        if (isDriftTriple(vAB, vBK)) {
          // b is drift: drop it and judge the next triple from a (see drift.ts).
          driftFlags[b] = 1;
          driftCount++;
          dayDrift[chinaDayIndex(time[b]!) - firstDay]!++;
          kmAB = haversineKmCos(lng[a]!, lat[a]!, cosA, lng[k]!, lat[k]!, cosK);
          vAB = impliedSpeedKmh(kmAB, time[k]! - time[a]!);
          b = k;
          cosB = cosK;
          continue;
        }
      }
      // Settle the pair (a, b) of kept points.
      const tb = time[b]!;
      mileageKm += kmAB;
      if (tb >= keptDayEnd) {
        keptDay = chinaDayIndex(tb) - firstDay;
        keptDayStart = chinaDayStartMs(firstDay + keptDay);
        keptDayEnd = keptDayStart + DAY_MS;
      }
      dayKm[keptDay]! += kmAB;
      const sinceMidnight = tb - keptDayStart;
      if (sinceMidnight >= EARLY_MORNING_START_MS && sinceMidnight < EARLY_MORNING_END_MS) dayEarlyKm[keptDay]! += kmAB;
      const continuous = continuity.step(kmAB);
      if (kmAB >= SHORT_GAP_KM) gaps.push({ from: a, to: b, km: kmAB, continuous });
      if (continuous) {
        continuousKm += kmAB;
      } else {
        discontinuous++;
        lossKm += kmAB;
        lossMs += tb - time[a]!;
      }
      stops.push(b, tb, lng[b]!, lat[b]!, cosB, speed[b]!);
      if (k >= n) break;
      a = b;
      cosA = cosB;
      kmAB = kmBK;
      vAB = vBK;
      b = k;
      cosB = cosK;
    }
  }

  const drift = new Int32Array(driftCount);
  for (let i = 0, j = 0; i < n && j < driftCount; i++) if (driftFlags[i] === 1) drift[j++] = i;

  const days: TrackDay[] = [];
  let onlineDays = 0;
  let operationDays = 0;
  for (let d = 0; d < dayCount; d++) {
    const online = isOnlineDay(dayPoints[d]!);
    const operation = isOperationDay(dayKm[d]!);
    if (online) onlineDays++;
    if (operation) operationDays++;
    days.push({
      date: chinaDateOfDay(firstDay + d),
      startMs: chinaDayStartMs(firstDay + d),
      points: dayPoints[d]!,
      driftPoints: dayDrift[d]!,
      mileageKm: dayKm[d]!,
      earlyMorningKm: dayEarlyKm[d]!,
      online,
      operation,
    });
  }

  return {
    points: n, driftFlags, drift, gaps, discontinuous, mileageKm, continuousMileageKm: continuousKm, lossKm,
    lossHours: lossMs / 3_600_000, stops: stops.finish(), days, onlineDays, operationDays,
  };
}
