/**
 * Positioning-quality metrics per vehicle per China day (catalogue §3 "Positioning metrics"), derived
 * from `analyzeTrack` so the reports apply the same rules as track playback. Server reports use it.
 *
 * Definitions (server/API.md "Positioning-quality reports" repeats them for users):
 * - Error (invalid) point: a position outside WGS-84 ranges, a zero longitude or latitude (a terminal
 *   without a fix reports zeros), a non-finite or negative speed, or a GPS time more than
 *   FUTURE_TOLERANCE_MS after the server received it (a terminal clock running ahead). Error points
 *   are left out of every rule; they still count in total GPS and make a day online.
 * - Undetermined point: a valid point whose drift the rule cannot judge because it has no valid
 *   neighbour on one side: the vehicle's first point ever, or its newest point so far.
 * - Pass: valid points that are neither drift nor undetermined. So total = pass + undetermined +
 *   error + drift, and the qualified rate is pass ÷ total.
 * - A gap, its km and its hours belong to the day of the gap's later point (as mileage does).
 */
import { analyzeTrack, type TrackAnalysis } from './analyze.ts';
import type { TrackColumns } from './columns.ts';
import { chinaDateOfDay, chinaDayIndex, isOnlineDay } from './days.ts';

/** A GPS time this far past its arrival is a terminal clock running ahead (the gateway's own margin). */
export const FUTURE_TOLERANCE_MS = 10 * 60_000;

export type InvalidReason = 'range' | 'zero' | 'speed' | 'future';
export const INVALID_REASONS: readonly InvalidReason[] = ['range', 'zero', 'speed', 'future'];

/** Why a stored point is invalid, or null when the rules can use it. `receivedAt` NaN skips the time check. */
export function invalidReason(time: number, lng: number, lat: number, speed: number, receivedAt: number): InvalidReason | null {
  if (!Number.isFinite(time) || !(lng >= -180 && lng <= 180) || !(lat >= -90 && lat <= 90)) return 'range';
  if (lng === 0 || lat === 0) return 'zero';
  if (!(speed >= 0 && speed < Infinity)) return 'speed';
  if (time > receivedAt + FUTURE_TOLERANCE_MS) return 'future';
  return null;
}

/** Stored rows as columns; `receivedAt` may be absent (then no future check). */
export interface RawTrack extends TrackColumns {
  readonly receivedAt?: Float64Array | undefined;
}

export interface SplitTrack {
  /** The valid points, in input (time) order. */
  readonly valid: TrackColumns;
  /** Input index of each valid point. */
  readonly validIndex: Int32Array;
  /** Input indices of the invalid points and their reasons. */
  readonly invalid: Int32Array;
  readonly reasons: InvalidReason[];
}

/** Separates invalid points (see `invalidReason`) from the ones the rules judge; one pass, no copy when all are valid. */
export function splitInvalid(raw: RawTrack): SplitTrack {
  const n = raw.time.length;
  const bad: number[] = [];
  const reasons: InvalidReason[] = [];
  for (let i = 0; i < n; i++) {
    const r = invalidReason(raw.time[i]!, raw.lng[i]!, raw.lat[i]!, raw.speed[i]!, raw.receivedAt ? raw.receivedAt[i]! : NaN);
    if (r !== null) {
      bad.push(i);
      reasons.push(r);
    }
  }
  if (bad.length === 0) {
    const validIndex = new Int32Array(n);
    for (let i = 0; i < n; i++) validIndex[i] = i;
    return { valid: { time: raw.time, lng: raw.lng, lat: raw.lat, speed: raw.speed }, validIndex, invalid: new Int32Array(0), reasons };
  }
  const m = n - bad.length;
  const valid = { time: new Float64Array(m), lng: new Float64Array(m), lat: new Float64Array(m), speed: new Float32Array(m) };
  const validIndex = new Int32Array(m);
  for (let i = 0, j = 0, b = 0; i < n; i++) {
    if (b < bad.length && bad[b] === i) {
      b++;
      continue;
    }
    valid.time[j] = raw.time[i]!;
    valid.lng[j] = raw.lng[i]!;
    valid.lat[j] = raw.lat[i]!;
    valid.speed[j] = raw.speed[i]!;
    validIndex[j++] = i;
  }
  return { valid, validIndex, invalid: Int32Array.from(bad), reasons };
}

/** The counts and distances a day and a period share. */
export interface MetricSums {
  readonly totalGps: number;
  readonly pass: number;
  readonly undetermined: number;
  readonly error: number;
  readonly drift: number;
  /** Discontinuous gaps (a day's: those whose later point falls that day). */
  readonly lossTimes: number;
  readonly lossHours: number;
  readonly lossKm: number;
  readonly continuousKm: number;
  readonly mileageKm: number;
  readonly earlyMorningKm: number;
}

export interface DayMetrics extends MetricSums {
  /** China date `YYYY-MM-DD`. */
  readonly date: string;
  readonly online: boolean;
  readonly operation: boolean;
}

/**
 * A vehicle's valid points around a window of China days: some of its last valid points before the
 * window (context), the window's points, optionally its first valid point after the window (context).
 * Context points let the window's first and last points be judged for drift and the gap across the
 * window's first midnight be measured; they are not counted.
 */
export interface WindowTrack {
  readonly valid: TrackColumns;
  /** Valid points in the window are indices [first, end); `first` context points come before, end is n or n − 1. */
  readonly first: number;
  readonly end: number;
  /** Times of the window's invalid points (counted as error points of their day). */
  readonly errorTimes: ArrayLike<number>;
}

/**
 * Per-day metrics for China days [firstDay, lastDay] (day indices, see `chinaDayIndex`), which must
 * lie inside the window. Pass the analysis when the caller already ran `analyzeTrack` on `valid`.
 */
export function dailyMetrics(track: WindowTrack, firstDay: number, lastDay: number, analysis: TrackAnalysis = analyzeTrack(track.valid)): DayMetrics[] {
  const count = lastDay - firstDay + 1;
  if (count <= 0) return [];
  const { valid, first, end } = track;
  const n = valid.time.length;
  const time = valid.time;
  const slot = (t: number) => chinaDayIndex(t) - firstDay;
  const inRange = (d: number) => d >= 0 && d < count;

  const errors = new Int32Array(count);
  for (let i = 0; i < track.errorTimes.length; i++) {
    const d = slot(track.errorTimes[i]!);
    if (inRange(d)) errors[d]!++;
  }
  // Only the window's own end points can lack a neighbour; a context point is a neighbour.
  const undetermined = new Int32Array(count);
  if (end > first) {
    if (first === 0) {
      const d = slot(time[0]!);
      if (inRange(d)) undetermined[d]!++;
    }
    if (end === n && !(first === 0 && n === 1)) {
      const d = slot(time[n - 1]!);
      if (inRange(d)) undetermined[d]!++;
    }
  }
  const lossTimes = new Int32Array(count);
  const lossKm = new Float64Array(count);
  const lossMs = new Float64Array(count);
  for (const g of analysis.gaps) {
    if (g.continuous || g.to < first || g.to >= end) continue;
    const d = slot(time[g.to]!);
    if (!inRange(d)) continue;
    lossTimes[d]!++;
    lossKm[d]! += g.km;
    lossMs[d]! += time[g.to]! - time[g.from]!;
  }

  const byDay = new Map(analysis.days.map((day) => [chinaDayIndex(day.startMs), day]));
  const out: DayMetrics[] = [];
  for (let d = 0; d < count; d++) {
    const day = byDay.get(firstDay + d);
    const points = day?.points ?? 0;
    const drift = day?.driftPoints ?? 0;
    const mileageKm = day?.mileageKm ?? 0;
    const totalGps = points + errors[d]!;
    out.push({
      date: chinaDateOfDay(firstDay + d),
      totalGps,
      pass: points - drift - undetermined[d]!,
      undetermined: undetermined[d]!,
      error: errors[d]!,
      drift,
      lossTimes: lossTimes[d]!,
      lossHours: lossMs[d]! / 3_600_000,
      lossKm: lossKm[d]!,
      continuousKm: Math.max(0, mileageKm - lossKm[d]!),
      mileageKm,
      earlyMorningKm: day?.earlyMorningKm ?? 0,
      online: isOnlineDay(totalGps),
      operation: day?.operation ?? false,
    });
  }
  return out;
}

/** Sums of day metrics over a period (online and operation become day counts). */
export interface PeriodMetrics extends MetricSums {
  readonly days: number;
  readonly onlineDays: number;
  readonly operationDays: number;
  /** pass ÷ total GPS in percent, two decimals (0 without points). */
  readonly qualifiedRate: number;
  /** drift ÷ total GPS in percent, two decimals. */
  readonly driftRate: number;
  /** online days ÷ days in percent, two decimals. */
  readonly onlineRate: number;
}

export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;
}

type Summable = Omit<PeriodMetrics, 'qualifiedRate' | 'driftRate' | 'onlineRate'>;

/** Adds day metrics (or other period sums) into one period's sums with its rates. */
export function sumMetrics(items: readonly (DayMetrics | PeriodMetrics)[]): PeriodMetrics {
  const s: { -readonly [K in keyof Summable]: number } = {
    days: 0, totalGps: 0, pass: 0, undetermined: 0, error: 0, drift: 0, lossTimes: 0, lossHours: 0, lossKm: 0,
    continuousKm: 0, mileageKm: 0, earlyMorningKm: 0, onlineDays: 0, operationDays: 0,
  };
  for (const m of items) {
    const isDay = 'date' in m;
    s.days += isDay ? 1 : m.days;
    s.totalGps += m.totalGps;
    s.pass += m.pass;
    s.undetermined += m.undetermined;
    s.error += m.error;
    s.drift += m.drift;
    s.lossTimes += m.lossTimes;
    s.lossHours += m.lossHours;
    s.lossKm += m.lossKm;
    s.continuousKm += m.continuousKm;
    s.mileageKm += m.mileageKm;
    s.earlyMorningKm += m.earlyMorningKm;
    s.onlineDays += isDay ? (m.online ? 1 : 0) : m.onlineDays;
    s.operationDays += isDay ? (m.operation ? 1 : 0) : m.operationDays;
  }
  return { ...s, qualifiedRate: percent(s.pass, s.totalGps), driftRate: percent(s.drift, s.totalGps), onlineRate: percent(s.onlineDays, s.days) };
}
