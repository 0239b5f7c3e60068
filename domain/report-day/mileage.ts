/**
 * The `mileage` day module (issue 18): a vehicle's km of one China day two ways, their difference, its
 * driving time and first/last point. The mileage screens (statistics, daily) read its rows.
 *
 * Rules (each a decision; tests in mileage.test.ts are computed by hand):
 * - Valid points only (valid.ts) for track km, places and driving time. The odometer is read from every
 *   point that carries one (a report without a fix still reads the odometer right).
 * - A pair of consecutive valid points belongs to the day of its later point (domain/track/days.ts), so
 *   the first pair of a day starts at `previous`, the last valid point before the day.
 * - Track km: great-circle km between consecutive valid points, leaving out pairs the continuity rule
 *   (domain/track/continuity.ts) calls discontinuous (a jump: data loss, not driving); those count as
 *   `lossKm` / `lossCount`. The continuity run starts at 0 each day.
 * - Odometer km: the sum of increases between consecutive odometer readings, starting from `previous`'s
 *   reading when it has one (the same pair rule as track km, so the two are comparable). A reading lower
 *   than the one before (a reset or rollback) adds nothing and the next increases count from it; an
 *   increase faster than ODOMETER_MAX_KMH over the time between the two readings (plus 1 km of
 *   rounding) is a corrupt reading or a replaced terminal and adds nothing either. Both count in
 *   `odometerResets`. With no reading in the day, odometer km is null.
 * - Difference: odometer km − track km (null without odometer).
 * - Driving time: a pair of consecutive valid points at most MAX_DRIVE_GAP_MS apart counts its whole
 *   interval when the earlier point's speed is above 0, or when its ACC is on (status bit 0) and the pair
 *   moved at least MOVE_KM (a terminal that reports speed 0 while moving). A longer gap is data loss
 *   and counts nothing.
 * No drift rule here: drift needs the point after, and a spike far enough to matter (> 10 km) is
 * discontinuous anyway.
 */
import { ContinuityRun } from '../track/continuity.ts';
import { haversineKm } from '../track/geo.ts';
import type { DayContext, DayEvent, DayModule, DayPoint } from './module.ts';
import { isValidDayPoint } from './valid.ts';

export const ODOMETER_MAX_KMH = 200;
export const MAX_DRIVE_GAP_MS = 5 * 60_000;
export const MOVE_KM = 0.05;
const ACC_ON = 1;
const scratch = new ContinuityRun();

interface LastPoint {
  t: number;
  lng: number;
  lat: number;
  speed: number;
  status: number;
}

export interface MileageCarry {
  /** Last valid point (starts as the context's previous). */
  last: LastPoint | null;
  /** Last odometer reading and its time. */
  odo: number | null;
  odoT: number;
  run: number;
  trackKm: number;
  lossKm: number;
  lossCount: number;
  odoKm: number;
  odoReadings: number;
  odoResets: number;
  driveMs: number;
  points: number;
  validPoints: number;
  first: { t: number; lng: number; lat: number; odometer: number | null } | null;
  lastOdometer: number | null;
}

export interface MileageRow {
  /** km along the track (continuous pairs only). */
  readonly trackKm: number;
  /** km by odometer; null when no point of the day carried a reading. */
  readonly odometerKm: number | null;
  /** odometerKm − trackKm; null without odometer. */
  readonly differenceKm: number | null;
  readonly lossKm: number;
  readonly lossCount: number;
  readonly odometerResets: number;
  readonly driveSeconds: number;
  readonly points: number;
  readonly validPoints: number;
  readonly firstTime: number | null;
  readonly firstLng: number | null;
  readonly firstLat: number | null;
  readonly firstOdometer: number | null;
  readonly lastTime: number | null;
  readonly lastLng: number | null;
  readonly lastLat: number | null;
  readonly lastOdometer: number | null;
}

function lastOf(p: DayPoint): LastPoint {
  return { t: p.t, lng: p.lng, lat: p.lat, speed: p.speed, status: p.status };
}

export const mileageModule: DayModule<MileageCarry, MileageRow> = {
  key: 'mileage',

  start(context: DayContext): MileageCarry {
    const prev = context.previous;
    const prevOdo = prev && prev.mileage !== null && Number.isFinite(prev.mileage) && prev.mileage >= 0 ? prev.mileage : null;
    return {
      last: prev ? lastOf(prev) : null,
      odo: prevOdo, odoT: prevOdo === null ? 0 : prev!.t,
      run: 0, trackKm: 0, lossKm: 0, lossCount: 0, odoKm: 0, odoReadings: 0, odoResets: 0, driveMs: 0,
      points: 0, validPoints: 0, first: null, lastOdometer: null,
    };
  },

  step(c: MileageCarry, p: DayPoint, _events: DayEvent[]): void {
    c.points++;
    if (p.mileage !== null && Number.isFinite(p.mileage) && p.mileage >= 0) {
      c.odoReadings++;
      if (c.odo !== null) {
        const delta = p.mileage - c.odo;
        const hours = Math.max(0, p.t - c.odoT) / 3_600_000;
        if (delta < 0 || delta > ODOMETER_MAX_KMH * hours + 1) c.odoResets++;
        else c.odoKm += delta;
      }
      c.odo = p.mileage;
      c.odoT = p.t;
      c.lastOdometer = p.mileage;
    }
    if (!isValidDayPoint(p)) return;
    c.validPoints++;
    if (c.first === null) c.first = { t: p.t, lng: p.lng, lat: p.lat, odometer: p.mileage };
    const prev = c.last;
    if (prev !== null) {
      const km = haversineKm(prev.lng, prev.lat, p.lng, p.lat);
      // The shared rule on a scratch walker (the carry keeps only its count: plain JSON, no allocation per point).
      scratch.run = c.run;
      const continuous = scratch.step(km);
      c.run = scratch.run;
      if (continuous) {
        c.trackKm += km;
        const dt = p.t - prev.t;
        if (dt > 0 && dt <= MAX_DRIVE_GAP_MS && (prev.speed > 0 || ((prev.status & ACC_ON) !== 0 && km >= MOVE_KM))) c.driveMs += dt;
      } else {
        c.lossKm += km;
        c.lossCount++;
      }
    }
    c.last = lastOf(p);
  },

  finish(c: MileageCarry, _events: DayEvent[]): MileageRow {
    const odometerKm = c.odoReadings > 0 ? c.odoKm : null;
    const lastValid = c.validPoints > 0 ? c.last : null;
    return {
      trackKm: c.trackKm,
      odometerKm,
      differenceKm: odometerKm === null ? null : odometerKm - c.trackKm,
      lossKm: c.lossKm, lossCount: c.lossCount, odometerResets: c.odoResets,
      driveSeconds: c.driveMs / 1000,
      points: c.points, validPoints: c.validPoints,
      firstTime: c.first?.t ?? null, firstLng: c.first?.lng ?? null, firstLat: c.first?.lat ?? null, firstOdometer: c.first?.odometer ?? null,
      lastTime: lastValid?.t ?? null, lastLng: lastValid?.lng ?? null, lastLat: lastValid?.lat ?? null, lastOdometer: c.lastOdometer,
    };
  },
};
