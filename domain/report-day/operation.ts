/**
 * The `operation` day module (issue 18): stops (parking vs idling), trips, night driving, early-morning
 * driving and the online day of one vehicle's China day, as a streaming reducer (module.ts contract).
 *
 * Decisions (the reports and their tests rely on these):
 * - Stops are the stop rule of domain/track/stops.ts, through its streaming `StopDetector` (speed < 1 km/h,
 *   within 50 m of the stop's first point, ≥ 2 points, ≥ N minutes; N is the setting `operation.stopMinutes`,
 *   default 3). A stop's place is its first point (the detector's anchor); its span is first → last point.
 *   Drift points are not removed here (the drift rule needs the next point); a drift spike breaks a stop
 *   the way any far point does.
 * - Parking vs idling: inside a stop each gap between two points counts for the ACC state (status bit 0)
 *   of its earlier point. A stop with more ACC-on time than ACC-off time is idling (engine running, speed 0),
 *   otherwise parking (a tie is parking).
 * - Trips: a point is moving when its speed is ≥ 1 km/h (the complement of the stop rule's stationary). A trip
 *   opens at the first moving point when none is open; it starts at the ignition (the last ACC off → on seen
 *   since the previous trip ended, when there is one), else at the previous point (where the vehicle set off
 *   from; a point of the day before counts from 00:00 at its place), else at the moving point itself. It ends where the next stop starts, once that stop
 *   is confirmed (N minutes reached); its km is the sum of its pairs' great-circle km up to the stop's first
 *   point. A pair whose implied speed is over the drift speed (160 km/h) adds no km (a jump, not a drive).
 *   Trips under 0.1 km are GPS jitter and not kept. max speed = the highest reported speed of its points;
 *   avg speed = km / (end − start).
 * - Time and km of a pair belong to its later point (domain/track/days.ts), so a pair crossing 22:00 or
 *   midnight counts where it ends. Driving time sums pairs whose later point is moving; a pair longer than
 *   the offline threshold (3 minutes) adds its km but no time (the vehicle was not reporting).
 * - Night driving: moving pairs whose later point lies in the night window (settings `operation.nightStartMinute`
 *   and `operation.nightEndMinute`, minutes after 00:00 China time, default 22:00–06:00; start > end means the
 *   window crosses midnight, so a China day holds [00:00, end) and [start, 24:00); start = end is no window).
 *   One 'night' event per trip with night driving: from its first to its last night pair.
 * - Early morning: the same for [02:00, 05:00) China time (§9, `isEarlyMorning`); the day drove in the early
 *   morning when that km is > 0.
 * - Points that fail domain/report-day/valid.ts (no fix, out of range, GPS time past arrival) count for the online
 *   day only. Online day: at least one point that day (§9). Operation day (≥ 1 km) is decided on the `mileage` module's
 *   km (that module owns mileage): `operationDay(km)`.
 * - A stop or trip still open at the day's end is reported up to the day's last point, marked `open: 1`; the
 *   next day starts its own (the engine's days are independent).
 */
import type { DayContext, DayEvent, DayModule, DayPoint } from './module.ts';
import { isValidDayPoint } from './valid.ts';
import { isEarlyMorning, isOnlineDay, isOperationDay, chinaTimeOfDayMs, OFFLINE_AFTER_MS } from '../track/days.ts';
import { DRIFT_SPEED_KMH } from '../track/drift.ts';
import { haversineKm, cosLatitude, impliedSpeedKmh } from '../track/geo.ts';
import { DEFAULT_STOP_MINUTES, StopDetector, STOP_SPEED_KMH } from '../track/stops.ts';

export const OPERATION_MODULE_KEY = 'operation';
export const DEFAULT_NIGHT_START_MINUTE = 22 * 60;
export const DEFAULT_NIGHT_END_MINUTE = 6 * 60;
/** Trips shorter than this (km) are jitter of a standing vehicle, not a trip. */
export const MIN_TRIP_KM = 0.1;

/** The settings this module reads (DayContext.settings), with their defaults. */
export const OperationSettings = {
  nightStartMinute: 'operation.nightStartMinute',
  nightEndMinute: 'operation.nightEndMinute',
  stopMinutes: 'operation.stopMinutes',
} as const;

export const OperationEventKind = { stop: 'stop', trip: 'trip', night: 'night' } as const;

/** The day's figures (minutes and km unrounded; the reports round). */
export interface OperationRow {
  readonly points: number;
  /** 1 when the day is an online day (≥ 1 point). */
  readonly online: 0 | 1;
  readonly firstTime: number | null;
  readonly lastTime: number | null;
  readonly stops: number;
  readonly stopMinutes: number;
  readonly parkingCount: number;
  readonly parkingMinutes: number;
  readonly idlingCount: number;
  readonly idlingMinutes: number;
  readonly trips: number;
  readonly tripKm: number;
  readonly tripMinutes: number;
  readonly maxSpeed: number;
  readonly drivingMinutes: number;
  readonly nightKm: number;
  readonly nightMinutes: number;
  readonly morningKm: number;
  readonly morningMinutes: number;
  /** 1 when the vehicle drove in the early morning 02:00–05:00. */
  readonly morning: 0 | 1;
}

/** Values of a 'stop' event. */
export interface StopValue { minutes: number; parking: 0 | 1; accOnMinutes: number; accOffMinutes: number; open: 0 | 1 }
/** Values of a 'trip' event (place of its end: endLng, endLat; the event's lng/lat is its start). */
export interface TripValue { km: number; minutes: number; maxSpeed: number; avgSpeed: number; endLng: number; endLat: number; nightKm: number; open: 0 | 1 }
/** Values of a 'night' event. */
export interface NightValue { km: number; minutes: number; open: 0 | 1 }

interface Pt { t: number; lng: number; lat: number; acc: number }
interface Run { from: number; lng: number; lat: number; accOn: number; accOff: number; tripKm: number; confirmed: boolean }
interface Trip {
  t: number; lng: number; lat: number; km: number; max: number;
  lastT: number; lastLng: number; lastLat: number;
  nightKm: number; nightMs: number; nightFrom: number; nightTo: number;
}
interface Sums {
  stops: number; stopMs: number; parking: number; parkingMs: number; idling: number; idlingMs: number;
  trips: number; tripKm: number; tripMs: number; maxSpeed: number; drivingMs: number;
  nightKm: number; nightMs: number; morningKm: number; morningMs: number;
}

export interface OperationCarry {
  readonly dayStart: number;
  readonly stopMs: number;
  readonly nightFrom: number;
  readonly nightTo: number;
  /** The shared stop rule. After `JSON.parse` it is a plain object; `detector()` gives it its class back. */
  det: StopDetector;
  n: number;
  last: Pt | null;
  run: Run | null;
  trip: Trip | null;
  ignition: Pt | null;
  points: number;
  firstTime: number | null;
  sums: Sums;
}

function setting(settings: Readonly<Record<string, number>>, key: string, fallback: number, max: number): number {
  const v = settings[key];
  return v !== undefined && Number.isFinite(v) && v >= 0 && v <= max ? v : fallback;
}

/** The carry's detector with its prototype (a carry restored from JSON has lost it). */
function detector(c: OperationCarry): StopDetector {
  if (!(c.det instanceof StopDetector)) Object.setPrototypeOf(c.det, StopDetector.prototype);
  return c.det;
}

function inWindow(c: Pick<OperationCarry, 'nightFrom' | 'nightTo'>, t: number): boolean {
  const tod = chinaTimeOfDayMs(t);
  if (c.nightFrom === c.nightTo) return false;
  return c.nightFrom > c.nightTo ? tod >= c.nightFrom || tod < c.nightTo : tod >= c.nightFrom && tod < c.nightTo;
}

/** Operation day (§9): the `mileage` module's km of the day ≥ 1 km. */
export function operationDay(mileageKm: number): boolean {
  return isOperationDay(mileageKm);
}

const minutes = (ms: number) => ms / 60_000;

function stopEvent(run: Run, toTime: number, open: 0 | 1): DayEvent {
  const parking: 0 | 1 = run.accOn > run.accOff ? 0 : 1;
  const value: StopValue = { minutes: minutes(toTime - run.from), parking, accOnMinutes: minutes(run.accOn), accOffMinutes: minutes(run.accOff), open };
  return { kind: OperationEventKind.stop, start: run.from, end: toTime, lng: run.lng, lat: run.lat, value: { ...value } };
}

function addStop(s: Sums, e: DayEvent): void {
  const ms = e.end - e.start;
  s.stops++;
  s.stopMs += ms;
  if (e.value['parking'] === 1) {
    s.parking++;
    s.parkingMs += ms;
  } else {
    s.idling++;
    s.idlingMs += ms;
  }
}

/** The trip's events (trip, and night when it drove at night), or none for jitter. */
function tripEvents(trip: Trip, end: number, endLng: number, endLat: number, km: number, open: 0 | 1): DayEvent[] {
  if (km < MIN_TRIP_KM) return [];
  const ms = end - trip.t;
  const value: TripValue = {
    km, minutes: minutes(ms), maxSpeed: trip.max, avgSpeed: ms > 0 ? impliedSpeedKmh(km, ms) : 0, endLng, endLat, nightKm: trip.nightKm, open,
  };
  const out: DayEvent[] = [{ kind: OperationEventKind.trip, start: trip.t, end, lng: trip.lng, lat: trip.lat, value: { ...value } }];
  if (trip.nightKm > 0 || trip.nightMs > 0) {
    const night: NightValue = { km: trip.nightKm, minutes: minutes(trip.nightMs), open };
    out.push({ kind: OperationEventKind.night, start: trip.nightFrom, end: trip.nightTo, lng: trip.lng, lat: trip.lat, value: { ...night } });
  }
  return out;
}

function addTrip(s: Sums, e: DayEvent): void {
  if (e.kind !== OperationEventKind.trip) return;
  s.trips++;
  s.tripKm += e.value['km'] ?? 0;
  s.tripMs += e.end - e.start;
}

export const operationModule: DayModule<OperationCarry, OperationRow> = {
  key: OPERATION_MODULE_KEY,

  start(context: DayContext): OperationCarry {
    const st = context.settings;
    const stopMinutes = setting(st, OperationSettings.stopMinutes, DEFAULT_STOP_MINUTES, 24 * 60);
    const p = context.previous;
    return {
      dayStart: context.dayStart,
      stopMs: stopMinutes * 60_000,
      nightFrom: setting(st, OperationSettings.nightStartMinute, DEFAULT_NIGHT_START_MINUTE, 24 * 60) * 60_000,
      nightTo: setting(st, OperationSettings.nightEndMinute, DEFAULT_NIGHT_END_MINUTE, 24 * 60) * 60_000,
      det: new StopDetector({ stopMinutes }),
      n: 0,
      last: p ? { t: p.t, lng: p.lng, lat: p.lat, acc: p.status & 1 } : null,
      run: null,
      trip: null,
      ignition: null,
      points: 0,
      firstTime: null,
      sums: {
        stops: 0, stopMs: 0, parking: 0, parkingMs: 0, idling: 0, idlingMs: 0, trips: 0, tripKm: 0, tripMs: 0, maxSpeed: 0, drivingMs: 0,
        nightKm: 0, nightMs: 0, morningKm: 0, morningMs: 0,
      },
    };
  },

  step(c: OperationCarry, p: DayPoint, events: DayEvent[]): void {
    const det = detector(c);
    const s = c.sums;
    const acc = p.status & 1;
    const moving = p.speed >= STOP_SPEED_KMH;
    c.points++;
    c.firstTime ??= p.t;
    // An invalid point (no fix, out of range, time past its arrival) makes the day online, nothing else.
    if (!isValidDayPoint(p)) return;

    // The pair (previous point → this one) belongs to this point.
    const last = c.last;
    let km = 0;
    let dt = 0;
    if (last) {
      dt = Math.max(0, p.t - last.t);
      const d = haversineKm(last.lng, last.lat, p.lng, p.lat);
      km = impliedSpeedKmh(d, dt) > DRIFT_SPEED_KMH ? 0 : d;
    }
    const drivingMs = moving && dt <= OFFLINE_AFTER_MS ? dt : 0;
    if (moving && p.speed > s.maxSpeed) s.maxSpeed = p.speed;
    s.drivingMs += drivingMs;

    let countPair = c.trip !== null;
    if (moving && !c.trip) {
      // From the ignition, else from the previous point (a previous day's point: from 00:00 at its place).
      const from = c.ignition ?? last ?? { t: p.t, lng: p.lng, lat: p.lat, acc };
      countPair = last !== null; // the pair into this point is part of the trip unless it starts here
      const t = Math.max(from.t, c.dayStart);
      c.trip = { t, lng: from.lng, lat: from.lat, km: 0, max: 0, lastT: p.t, lastLng: p.lng, lastLat: p.lat, nightKm: 0, nightMs: 0, nightFrom: 0, nightTo: 0 };
      c.ignition = null;
    }
    const trip = c.trip;
    if (trip) {
      if (countPair) trip.km += km;
      if (moving && p.speed > trip.max) trip.max = p.speed;
      trip.lastT = p.t;
      trip.lastLng = p.lng;
      trip.lastLat = p.lat;
    }
    if (moving && last) {
      if (inWindow(c, p.t)) {
        s.nightKm += km;
        s.nightMs += drivingMs;
        if (trip) {
          if (trip.nightKm === 0 && trip.nightMs === 0) trip.nightFrom = Math.max(last.t, trip.t);
          trip.nightKm += km;
          trip.nightMs += drivingMs;
          trip.nightTo = p.t;
        }
      }
      if (isEarlyMorning(p.t)) {
        s.morningKm += km;
        s.morningMs += drivingMs;
      }
    }

    // The stop rule: the run open before this point, and what this point made of it.
    const before = det.openRun();
    const closedBefore = det.stops.length;
    det.push(c.n++, p.t, p.lng, p.lat, cosLatitude(p.lat), p.speed);
    if (det.stops.length > closedBefore && c.run && before) {
      const e = stopEvent(c.run, before.toTime, 0);
      events.push(e);
      addStop(s, e);
    }
    det.stops.length = 0; // the carry stays small: stops are emitted as events
    const after = det.openRun();
    if (!after) c.run = null;
    else if (!c.run || after.fromTime !== c.run.from || !before) {
      c.run = { from: after.fromTime, lng: after.lng, lat: after.lat, accOn: 0, accOff: 0, tripKm: trip?.km ?? 0, confirmed: false };
    } else if (last) {
      if (last.acc) c.run.accOn += dt;
      else c.run.accOff += dt;
    }
    const run = c.run;
    if (run && after && !run.confirmed && after.toTime > run.from && after.toTime - run.from >= c.stopMs) {
      run.confirmed = true; // a stop: the trip before it ends where it started
      if (c.trip) {
        for (const e of tripEvents(c.trip, run.from, run.lng, run.lat, run.tripKm, 0)) {
          events.push(e);
          addTrip(s, e);
        }
        c.trip = null;
      }
      c.ignition = null;
    }

    // Ignition: ACC off → on while no trip is open (the next trip starts there).
    if (!c.trip) {
      if (acc && last && !last.acc) c.ignition = { t: p.t, lng: p.lng, lat: p.lat, acc };
      else if (!acc) c.ignition = null;
    }
    c.last = { t: p.t, lng: p.lng, lat: p.lat, acc };
  },

  finish(c: OperationCarry, events: DayEvent[]): OperationRow {
    const det = detector(c);
    const s: Sums = { ...c.sums };
    const open = det.openRun();
    if (c.run && open && open.toTime > c.run.from && open.toTime - c.run.from >= c.stopMs) {
      const e = stopEvent(c.run, open.toTime, 1);
      events.push(e);
      addStop(s, e);
    } else if (c.trip) {
      for (const e of tripEvents(c.trip, c.trip.lastT, c.trip.lastLng, c.trip.lastLat, c.trip.km, 1)) {
        events.push(e);
        addTrip(s, e);
      }
    }
    return {
      points: c.points,
      online: isOnlineDay(c.points) ? 1 : 0,
      firstTime: c.firstTime,
      lastTime: c.last && c.points > 0 ? c.last.t : null,
      stops: s.stops,
      stopMinutes: minutes(s.stopMs),
      parkingCount: s.parking,
      parkingMinutes: minutes(s.parkingMs),
      idlingCount: s.idling,
      idlingMinutes: minutes(s.idlingMs),
      trips: s.trips,
      tripKm: s.tripKm,
      tripMinutes: minutes(s.tripMs),
      maxSpeed: s.maxSpeed,
      drivingMinutes: minutes(s.drivingMs),
      nightKm: s.nightKm,
      nightMinutes: minutes(s.nightMs),
      morningKm: s.morningKm,
      morningMinutes: minutes(s.morningMs),
      morning: s.morningKm > 0 ? 1 : 0,
    };
  },
};

/** Feed one day's points through the module (the engine's recompute path; tests and one-vehicle drill-downs). */
export function reduceDay<C, R>(module: DayModule<C, R>, context: DayContext, points: readonly DayPoint[]): { row: R; events: DayEvent[] } {
  const carry = module.start(context);
  const events: DayEvent[] = [];
  for (const p of points) module.step(carry, p, events);
  const row = module.finish(carry, events);
  return { row, events };
}
