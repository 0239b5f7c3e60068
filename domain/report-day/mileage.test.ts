import { describe, expect, it } from 'vitest';
import { chinaDayStartMs, DAY_MS } from '../track/days.ts';
import { EARTH_RADIUS_KM } from '../track/geo.ts';
import { mileageModule, type MileageRow } from './mileage.ts';
import type { DayContext, DayEvent, DayPoint } from './module.ts';

const DAY = 20_400;
const T0 = chinaDayStartMs(DAY) + 8 * 3_600_000; // 08:00 China time
/** km of 0.01° of latitude along a meridian: haversine there is exactly R × Δφ. */
const KM_001 = (EARTH_RADIUS_KM * 0.01 * Math.PI) / 180;

function pt(t: number, lat: number, o: Partial<DayPoint> = {}): DayPoint {
  return { t, lng: 116, lat, speed: 30, status: 3, alarm: 0, mileage: null, fuel: null, receivedAt: t + 1000, ...o };
}

function context(previous: DayPoint | null = null): DayContext {
  const dayStart = chinaDayStartMs(DAY);
  return { vehicleId: 1, day: DAY, dayStart, dayEnd: dayStart + DAY_MS, previous, settings: {} };
}

function run(points: DayPoint[], previous: DayPoint | null = null): MileageRow {
  const carry = mileageModule.start(context(previous));
  const events: DayEvent[] = [];
  for (const p of points) mileageModule.step(carry, p, events);
  return mileageModule.finish(carry, events);
}

describe('mileage module', () => {
  it('counts track km from the previous point, odometer km from its reading, driving while speed > 0', () => {
    const previous = pt(T0 - 60_000, 39.99, { mileage: 1000 });
    const row = run([
      pt(T0, 40.0, { mileage: 1001.1 }),
      pt(T0 + 60_000, 40.01, { mileage: 1002.2 }),
      pt(T0 + 120_000, 40.02, { mileage: 1003.3, speed: 0, status: 2 }), // stopped, ACC off
      pt(T0 + 180_000, 40.02, { mileage: 1003.3, speed: 0, status: 2 }),
    ], previous);
    // Three pairs of 0.01° (previous→first included: the pair belongs to the later point's day).
    expect(row.trackKm).toBeCloseTo(3 * KM_001, 9);
    expect(row.odometerKm).toBeCloseTo(3.3, 9);
    expect(row.differenceKm).toBeCloseTo(3.3 - 3 * KM_001, 9);
    // The three moving minutes; the stopped pair with ACC off adds nothing.
    expect(row.driveSeconds).toBe(180);
    expect(row).toMatchObject({ points: 4, validPoints: 4, lossCount: 0, odometerResets: 0, firstTime: T0, firstLat: 40, firstOdometer: 1001.1, lastTime: T0 + 180_000, lastLat: 40.02, lastOdometer: 1003.3 });
  });

  it('leaves a jump the continuity rule calls loss out of track km and driving time', () => {
    const row = run([pt(T0, 40.0), pt(T0 + 60_000, 40.01), pt(T0 + 120_000, 40.19), pt(T0 + 180_000, 40.2)]);
    // 0.18° ≈ 20 km is over 10 km: discontinuous.
    expect(row.trackKm).toBeCloseTo(2 * KM_001, 9);
    expect(row.lossCount).toBe(1);
    expect(row.lossKm).toBeCloseTo(18 * KM_001, 9);
    expect(row.driveSeconds).toBe(120);
    expect(row.odometerKm).toBeNull();
    expect(row.differenceKm).toBeNull();
  });

  it('adds nothing for an odometer rollback or an impossible increase, and counts on from the new reading', () => {
    const h = 3_600_000;
    const row = run([
      pt(T0, 40, { mileage: 500, speed: 0 }),
      pt(T0 + h, 40, { mileage: 510, speed: 0 }), // +10 in an hour
      pt(T0 + 2 * h, 40, { mileage: 400, speed: 0 }), // rollback: a reset
      pt(T0 + 3 * h, 40, { mileage: 401, speed: 0 }), // +1
      pt(T0 + 3 * h + 60_000, 40, { mileage: 450, speed: 0 }), // +49 in a minute: over 200 km/h + 1 km
      pt(T0 + 3 * h + 120_000, 40, { mileage: 452, speed: 0 }), // +2 in a minute ≤ 200/60 + 1
    ]);
    expect(row.odometerKm).toBe(13);
    expect(row.odometerResets).toBe(2);
    expect(row.trackKm).toBe(0);
    expect(row.driveSeconds).toBe(0);
  });

  it('reads the odometer of a point without a fix but leaves it out of track, places and driving', () => {
    const row = run([pt(T0, 40, { mileage: 10 }), pt(T0 + 60_000, 0, { lng: 0, mileage: 11 }), pt(T0 + 120_000, 40.01, { mileage: 12 })]);
    expect(row.odometerKm).toBe(2);
    expect(row.validPoints).toBe(2);
    expect(row.points).toBe(3);
    expect(row.trackKm).toBeCloseTo(KM_001, 9);
    expect(row.driveSeconds).toBe(120);
  });

  it('counts ACC-on movement at speed 0, not ACC-on standing, nor a gap over 5 minutes', () => {
    const row = run([
      pt(T0, 40, { speed: 0, status: 3 }),
      pt(T0 + 60_000, 40.001, { speed: 0, status: 3 }), // moved 111 m with ACC on: 60 s
      pt(T0 + 120_000, 40.001, { speed: 0, status: 3 }), // ACC on, not moving: 0
      pt(T0 + 120_000 + 6 * 60_000, 40.002, { speed: 50 }), // 6 minutes: a gap, 0
      pt(T0 + 120_000 + 7 * 60_000, 40.003, { speed: 50 }), // earlier point at 50 km/h: 60 s
    ]);
    expect(row.driveSeconds).toBe(120);
  });

  it('finish leaves the carry unchanged and the carry survives JSON (the engine persists it)', () => {
    const points = [pt(T0, 40, { mileage: 1 }), pt(T0 + 60_000, 40.01, { mileage: 2 }), pt(T0 + 120_000, 40.02, { mileage: 3 })];
    const whole = run(points);
    let carry = mileageModule.start(context());
    mileageModule.step(carry, points[0]!, []);
    const before = JSON.stringify(carry);
    mileageModule.finish(carry, []);
    expect(JSON.stringify(carry)).toBe(before);
    carry = JSON.parse(before);
    mileageModule.step(carry, points[1]!, []);
    mileageModule.step(carry, points[2]!, []);
    expect(mileageModule.finish(carry, [])).toEqual(whole);
  });
});
