import { describe, expect, it } from 'vitest';
import { chinaDayIndex, chinaDayStartMs, DAY_MS } from '../track/days.ts';
import { fuelModule, type FuelCarry } from './fuel.ts';
import type { DayContext, DayEvent, DayPoint } from './module.ts';

const DAY = chinaDayIndex(Date.UTC(2026, 10, 27, 4));
const START = chinaDayStartMs(DAY);
const MIN = 60_000;
const STATION = { lng: 116.3, lat: 39.95 };
const DEPOT = { lng: 116.5, lat: 39.8 };

function context(settings: Record<string, number> = {}): DayContext {
  return { vehicleId: 7, day: DAY, dayStart: START, dayEnd: START + DAY_MS, previous: null, settings };
}

function point(minute: number, fuel: number | null, at: { lng: number; lat: number }, speed = 0, mileage: number | null = null): DayPoint {
  const t = START + minute * MIN;
  return { t, ...at, speed, status: 3, alarm: 0, mileage, fuel, receivedAt: t + 1000 };
}

/** The engine's recompute path: start → step… → finish. */
function recompute(points: readonly DayPoint[], settings: Record<string, number> = {}) {
  const carry = fuelModule.start(context(settings));
  const events: DayEvent[] = [];
  for (const p of points) fuelModule.step(carry, p, events);
  const row = fuelModule.finish(carry, events);
  return { row, events, carry };
}

/**
 * A truck's morning: parked at the depot at 80 L (08:00–08:07), drives 20 km to the station (odometer
 * 1000 → 1020, burning 0.3 L/km: 80 → 74 L), fills 74 → 204 L there, drives back 20 km (204 → 198 L) and
 * parks, where 40 L are siphoned at 12:00. One reading a minute (08:00 = minute 480).
 */
function morning(): DayPoint[] {
  const pts: DayPoint[] = [];
  let m = 480;
  for (let i = 0; i < 8; i++) pts.push(point(m++, 80, DEPOT, 0, 1000));
  for (let k = 1; k <= 20; k++) pts.push(point(m++, Math.round((80 - 0.3 * k) * 10) / 10, DEPOT, 60, 1000 + k));
  for (let i = 0; i < 5; i++) pts.push(point(m++, 74, STATION, 0, 1020));
  for (let l = 84; l <= 204; l += 10) pts.push(point(m++, l, STATION, 0, 1020));
  for (let i = 0; i < 8; i++) pts.push(point(m++, 204, STATION, 0, 1020));
  for (let k = 1; k <= 20; k++) pts.push(point(m++, Math.round((204 - 0.3 * k) * 10) / 10, STATION, 60, 1020 + k));
  m = 720;
  for (let i = 0; i < 6; i++) pts.push(point(m++, 198, DEPOT, 0, 1040));
  for (const l of [188, 178, 168, 158]) pts.push(point(m++, l, DEPOT, 0, 1040));
  for (let i = 0; i < 10; i++) pts.push(point(m++, 158, DEPOT, 0, 1040));
  return pts;
}

describe('fuel day module', () => {
  it('finds the refuel at the station and the theft at the depot, with consumption net of both', () => {
    const { row, events } = recompute(morning());
    expect(events.map((e) => [e.kind, e.lng, e.lat, e.value])).toEqual([
      ['refuel', STATION.lng, STATION.lat, { before: 74, after: 204, litres: 130 }],
      // Parked from 12:00 after a gap of 2 h 50 min: the median starts afresh at the depot (198 L), not from the
      // last driving readings; the references were dropped because the truck had moved since.
      ['leak', DEPOT.lng, DEPOT.lat, { before: 198, after: 158, litres: 40 }],
    ]);
    // 80 − 158 + 130 − 40 = 12 L over the 40 km of the two legs: 30 L/100 km.
    expect(row).toEqual({
      startLevel: 80, endLevel: 158, refuelled: 130, leaked: 40, consumed: 12, refuels: 1, leaks: 1, km: 40, per100km: 30, samples: 94,
    });
  });

  it('finish does not change the carry: the open day can be read again and continued', () => {
    const pts = morning();
    const carry = fuelModule.start(context());
    const seen: DayEvent[] = [];
    for (const p of pts.slice(0, 60)) fuelModule.step(carry, p, seen);
    const before = JSON.stringify(carry);
    fuelModule.finish(carry, []);
    expect(JSON.stringify(carry)).toBe(before);
  });

  it('a carry persisted as JSON mid-day (restart) resumes to the same row and events as one pass', () => {
    const pts = morning();
    const whole = recompute(pts);
    let carry = fuelModule.start(context());
    const events: DayEvent[] = [];
    pts.forEach((p, i) => {
      fuelModule.step(carry, p, events);
      if (i === 41) carry = JSON.parse(JSON.stringify(carry)) as FuelCarry;
    });
    expect(fuelModule.finish(carry, events)).toEqual(whole.row);
    expect(events).toEqual(whole.events);
  });

  it('reports without the fuel item (a vehicle with no sensor) give an empty fuel day but still count km', () => {
    const pts = morning().map((p) => ({ ...p, fuel: null }));
    const { row, events } = recompute(pts);
    expect(events).toEqual([]);
    expect(row).toMatchObject({ startLevel: null, endLevel: null, samples: 0, consumed: 0, per100km: null, km: 40 });
  });

  it('a sensor dropout (zeros and missing items for 20 minutes while parked) is neither a theft nor a refuel', () => {
    const pts = morning().map((p, i) => (i >= 90 && i < 110 ? { ...p, fuel: i % 2 === 0 ? 0 : null } : p));
    const { events } = recompute(pts);
    expect(events.map((e) => e.kind)).toEqual(['refuel', 'leak']);
    expect(events[1]!.value).toEqual({ before: 198, after: 158, litres: 40 });
  });

  it('the company thresholds apply: a 50 L theft threshold ignores the 40 L theft', () => {
    const { events, row } = recompute(morning(), { 'fuel.leakMinL': 50 });
    expect(events.map((e) => e.kind)).toEqual(['refuel']);
    expect(row.leaked).toBe(0);
  });
});
