import { describe, expect, it } from 'vitest';
import type { DayContext, DayEvent, DayPoint } from './module.ts';
import { MIN_TRIP_KM, operationDay, operationModule, OperationSettings, reduceDay, type OperationCarry } from './operation.ts';
import { chinaDayStartMs, DAY_MS } from '../track/days.ts';
import { haversineKm } from '../track/geo.ts';

const DAY = Date.UTC(2026, 10, 20) / DAY_MS; // 2026-11-20 China day
const D0 = chinaDayStartMs(DAY);
const at = (h: number, m: number, s = 0) => D0 + ((h * 60 + m) * 60 + s) * 1000;
/** 0.0045° of latitude at lng 116.4: the km every moving point here covers. */
const STEP_KM = haversineKm(116.4, 30, 116.4, 30.0045);

interface Seg { n: number; speed: number; dLat: number; acc?: 0 | 1 }
/** One point every 30 s from `t0`; a point first moves by dLat, then is reported. */
function track(t0: number, segs: Seg[], lat0 = 30): DayPoint[] {
  const out: DayPoint[] = [];
  let lat = lat0;
  for (const s of segs) {
    for (let k = 0; k < s.n; k++) {
      lat += s.dLat;
      out.push({ t: t0 + out.length * 30_000, lng: 116.4, lat, speed: s.speed, status: (s.acc ?? 1) | 2, alarm: 0, mileage: null, fuel: null, receivedAt: t0 + out.length * 30_000 });
    }
  }
  return out;
}
const DRIVE = (n: number): Seg => ({ n, speed: 60, dLat: 0.0045 });
const HALT = (n: number, acc: 0 | 1 = 0): Seg => ({ n, speed: 0, dLat: 0, acc });

function ctx(settings: Record<string, number> = {}, previous: DayPoint | null = null): DayContext {
  return { vehicleId: 1, day: DAY, dayStart: D0, dayEnd: D0 + DAY_MS, previous, settings };
}
const kinds = (events: DayEvent[], kind: string) => events.filter((e) => e.kind === kind);

describe('operation module: stops and trips', () => {
  // 08:00 drive 0–3, ACC-off halt 4–12 (4 min), drive 13–16 (still driving at the day's last point).
  const points = track(at(8, 0), [DRIVE(4), HALT(9, 0), { ...DRIVE(4), acc: 1 }]);
  const { row, events } = reduceDay(operationModule, ctx(), points);

  it('finds the 4-minute ACC-off stop at its first point, as parking', () => {
    const stops = kinds(events, 'stop');
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ start: at(8, 2), end: at(8, 6), lat: points[3]!.lat });
    expect(stops[0]!.value).toEqual({ minutes: 4, parking: 1, accOnMinutes: 0, accOffMinutes: 4, open: 0 });
    expect(row).toMatchObject({ stops: 1, stopMinutes: 4, parkingCount: 1, parkingMinutes: 4, idlingCount: 0, idlingMinutes: 0 });
  });

  it('ends the first trip where the stop starts and keeps the second open at the day end', () => {
    const trips = kinds(events, 'trip');
    expect(trips).toHaveLength(2);
    // 3 pairs of 0.5 km in 2 min (08:00 → 08:02): 45 km/h on average.
    expect(trips[0]).toMatchObject({ start: at(8, 0), end: at(8, 2) });
    expect(trips[0]!.value['km']).toBeCloseTo(3 * STEP_KM, 9);
    expect(trips[0]!.value).toMatchObject({ minutes: 2, maxSpeed: 60, open: 0 });
    expect(trips[0]!.value['avgSpeed']).toBeCloseTo((3 * STEP_KM) / (2 / 60), 6);
    // Sets off from the stop's last point (08:06), four pairs to 08:08.
    expect(trips[1]).toMatchObject({ start: at(8, 6), end: at(8, 8) });
    expect(trips[1]!.value['km']).toBeCloseTo(4 * STEP_KM, 9);
    expect(trips[1]!.value['open']).toBe(1);
    expect(row.trips).toBe(2);
    expect(row.tripKm).toBeCloseTo(7 * STEP_KM, 9);
    expect(row.tripMinutes).toBe(4);
    expect(row.maxSpeed).toBe(60);
    // Driving time: the 3 + 4 pairs whose later point moves.
    expect(row.drivingMinutes).toBe(3.5);
  });

  it('calls a stop with the engine running idling, and starts the next trip at the ignition', () => {
    const idle = reduceDay(operationModule, ctx(), track(at(8, 0), [DRIVE(4), HALT(9, 1), DRIVE(2)]));
    expect(kinds(idle.events, 'stop')[0]!.value).toMatchObject({ parking: 0, accOnMinutes: 4, accOffMinutes: 0 });
    expect(idle.row).toMatchObject({ idlingCount: 1, idlingMinutes: 4, parkingCount: 0 });

    // ACC off 08:02–08:05, on at 08:05:30 (point 11), moving from 08:06:30.
    const pts = track(at(8, 0), [DRIVE(4), HALT(7, 0), HALT(2, 1), DRIVE(2)]);
    const r = reduceDay(operationModule, ctx(), pts);
    expect(kinds(r.events, 'stop')[0]!.value).toMatchObject({ parking: 1, accOffMinutes: 3.5, accOnMinutes: 0.5 });
    const second = kinds(r.events, 'trip')[1]!;
    expect(second.start).toBe(at(8, 5, 30));
    expect(second.value['km']).toBeCloseTo(2 * STEP_KM, 9);
  });

  it('does not end a trip at a halt shorter than the stop minutes (a setting)', () => {
    const pts = track(at(8, 0), [DRIVE(4), HALT(5, 1), DRIVE(4)]); // a 2-minute halt
    const r = reduceDay(operationModule, ctx(), pts);
    expect(kinds(r.events, 'stop')).toEqual([]);
    expect(kinds(r.events, 'trip')).toHaveLength(1);
    expect(kinds(r.events, 'trip')[0]!.value['km']).toBeCloseTo(7 * STEP_KM, 9);
    const oneMinute = reduceDay(operationModule, ctx({ [OperationSettings.stopMinutes]: 1 }), pts);
    expect(kinds(oneMinute.events, 'stop')).toHaveLength(1);
    expect(kinds(oneMinute.events, 'trip')).toHaveLength(2);
  });

  it('keeps no trip for jitter under 0.1 km', () => {
    const pts = track(at(8, 0), [HALT(3), { n: 2, speed: 3, dLat: 0.0002 }, HALT(8)]);
    const r = reduceDay(operationModule, ctx(), pts);
    expect(2 * haversineKm(116.4, 30, 116.4, 30.0002)).toBeLessThan(MIN_TRIP_KM);
    expect(kinds(r.events, 'trip')).toEqual([]);
    expect(r.row.trips).toBe(0);
  });

  it('reports a stop running past midnight up to the last point, marked open', () => {
    const pts = track(at(23, 50), [DRIVE(2), HALT(18, 0)]); // parked 23:51:00 … 23:59:30, the day's last point
    const r = reduceDay(operationModule, ctx(), pts);
    const stop = kinds(r.events, 'stop')[0]!;
    expect(stop).toMatchObject({ start: at(23, 51), end: at(23, 59, 30) });
    expect(stop.value).toMatchObject({ minutes: 8.5, open: 1 });
    expect(r.row).toMatchObject({ stops: 1, parkingMinutes: 8.5 });
  });

  it('gives the same rows and events when the carry goes through JSON mid-day (the engine persists it)', () => {
    const carry = operationModule.start(ctx());
    const events: DayEvent[] = [];
    points.forEach((p, i) => {
      operationModule.step(carry, p, events);
      if (i === 7) Object.assign(carry, JSON.parse(JSON.stringify(carry)) as OperationCarry);
    });
    const again = operationModule.finish(carry, events);
    expect(again).toEqual(row);
    expect(events).toEqual(reduceDay(operationModule, ctx(), points).events);
  });

  it('finish leaves the carry unchanged (today is read while it is still open)', () => {
    const carry = operationModule.start(ctx());
    const events: DayEvent[] = [];
    for (const p of points) operationModule.step(carry, p, events);
    const before = JSON.stringify(carry);
    operationModule.finish(carry, []);
    operationModule.finish(carry, []);
    expect(JSON.stringify(carry)).toBe(before);
  });
});

describe('operation module: night and early-morning driving', () => {
  it('counts the pairs ending inside 22:00–06:00 by default, on both sides of midnight', () => {
    // Morning: moving 05:58:00 … 06:02:00; pairs ending 05:58:30, 05:59:00, 05:59:30 are night (06:00 is not).
    const morning = reduceDay(operationModule, ctx(), track(at(5, 58), [DRIVE(9)]));
    expect(morning.row.nightKm).toBeCloseTo(3 * STEP_KM, 9);
    expect(morning.row.nightMinutes).toBe(1.5);
    // Evening: moving 21:59:00 … 22:01:00; pairs ending 22:00:00, 22:00:30, 22:01:00 are night.
    const evening = reduceDay(operationModule, ctx(), track(at(21, 59), [DRIVE(5)]));
    expect(evening.row.nightKm).toBeCloseTo(3 * STEP_KM, 9);
    const night = kinds(evening.events, 'night');
    expect(night).toHaveLength(1);
    expect(night[0]).toMatchObject({ start: at(21, 59, 30), end: at(22, 1) });
    expect(night[0]!.value).toMatchObject({ minutes: 1.5, open: 1 });
    expect(night[0]!.value['km']).toBeCloseTo(3 * STEP_KM, 9);
  });

  it('counts a pair crossing midnight for the new day (previous day point in the context)', () => {
    const prev = track(at(23, 59, 30) - DAY_MS, [DRIVE(1)])[0]!;
    const pts = track(at(0, 0), [DRIVE(2)], prev.lat);
    const r = reduceDay(operationModule, ctx({}, prev), pts);
    expect(r.row.nightKm).toBeCloseTo(2 * STEP_KM, 9);
    expect(r.row.nightMinutes).toBe(1);
    const trip = kinds(r.events, 'trip')[0]!;
    expect(trip.start).toBe(D0); // the day's part of a trip that began yesterday
    expect(trip.value['km']).toBeCloseTo(2 * STEP_KM, 9);
  });

  it('reads the window from the settings: 12:00–13:00, and none when start = end', () => {
    const pts = track(at(11, 59), [DRIVE(5)]); // pairs ending 12:00:00, 12:00:30, 12:01:00
    const lunch = { [OperationSettings.nightStartMinute]: 12 * 60, [OperationSettings.nightEndMinute]: 13 * 60 };
    expect(reduceDay(operationModule, ctx(lunch), pts).row.nightMinutes).toBe(1.5);
    expect(reduceDay(operationModule, ctx(), pts).row.nightMinutes).toBe(0);
    const none = { [OperationSettings.nightStartMinute]: 600, [OperationSettings.nightEndMinute]: 600 };
    expect(reduceDay(operationModule, ctx(none), track(at(23, 0), [DRIVE(5)])).row.nightKm).toBe(0);
  });

  it('early morning is [02:00, 05:00) China time', () => {
    const start = reduceDay(operationModule, ctx(), track(at(1, 59), [DRIVE(5)])); // pairs ending 02:00:00 … 02:01:00 count
    expect(start.row.morningKm).toBeCloseTo(3 * STEP_KM, 9);
    expect(start.row.morningMinutes).toBe(1.5);
    expect(start.row.morning).toBe(1);
    const end = reduceDay(operationModule, ctx(), track(at(4, 59), [DRIVE(3)])); // 04:59:30 counts, 05:00:00 not
    expect(end.row.morningKm).toBeCloseTo(STEP_KM, 9);
    const standing = reduceDay(operationModule, ctx(), track(at(3, 0), [HALT(10, 1)]));
    expect(standing.row).toMatchObject({ morning: 0, morningKm: 0 });
  });
});

describe('operation module: online and operation day', () => {
  it('a day without points is not an online day; one point is', () => {
    expect(reduceDay(operationModule, ctx(), []).row).toMatchObject({ points: 0, online: 0, firstTime: null, lastTime: null, trips: 0 });
    expect(reduceDay(operationModule, ctx(), track(at(9, 0), [HALT(1)])).row).toMatchObject({ points: 1, online: 1, firstTime: at(9, 0) });
  });

  it('an invalid point (zero coordinates) makes the day online but is neither a stop, a trip nor a place', () => {
    const pts = track(at(8, 0), [DRIVE(4)]);
    const zero: DayPoint = { ...pts[1]!, lng: 0, lat: 0 };
    const r = reduceDay(operationModule, ctx(), [pts[0]!, zero, pts[2]!, pts[3]!]);
    expect(r.row).toMatchObject({ points: 4, online: 1, trips: 1 });
    expect(r.row.tripKm).toBeCloseTo(3 * STEP_KM, 9); // 0 → 2 (skipping the zero point) and 2 → 3
    expect(reduceDay(operationModule, ctx(), [zero]).row).toMatchObject({ points: 1, online: 1, trips: 0, stops: 0 });
  });

  it('an operation day needs 1 km of the mileage module: 0.99 is not, 1.0 is', () => {
    expect(operationDay(0.99)).toBe(false);
    expect(operationDay(1.0)).toBe(true);
    expect(operationDay(0)).toBe(false);
  });
});
