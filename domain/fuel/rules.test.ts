import { describe, expect, it } from 'vitest';
import { analyzeFuel, FUEL_DEFAULTS, fuelThresholds, type FuelSample } from './rules.ts';

const T0 = Date.UTC(2026, 10, 27, 2, 0); // 10:00 China time
const MIN = 60_000;
const HERE = { lng: 116.4, lat: 39.9 };

/** One reading a minute from minute 0, at `speed`, odometer `mileage(i)` (or none). */
function readings(levels: readonly (number | null)[], speed = 0, mileage: (i: number) => number | null = () => null): FuelSample[] {
  return levels.map((fuel, i) => ({ t: T0 + i * MIN, ...HERE, speed, mileage: mileage(i), fuel }));
}
const repeat = (level: number, n: number) => Array.from({ length: n }, () => level);

describe('smoothing', () => {
  it('a trailing median of 5 ignores sloshing spikes both ways on a moving truck', () => {
    const r = analyzeFuel(readings([100, 100, 130, 100, 100, 72, 100, 100, 100, 127, 126, 100, 100], 60), FUEL_DEFAULTS);
    expect(r.smooth).toEqual(repeat(100, 13));
    expect(r.raw[2]).toBe(130);
    expect(r.events).toEqual([]);
  });
});

describe('refuel', () => {
  // 50 L for 7 min, then the pump adds 10 L a minute up to 100 L. Median of 5 (hand-computed):
  // minute 6 → 50 (the low), 7 → 60 (rise of 10: opens), 8 → 70, 9 → 80, 10 → 90, 11 → 100, then flat.
  const levels = [...repeat(50, 5), 60, 70, 80, 90, 100, ...repeat(100, 10)];

  it('a rise ≥ 10 L while stopped is one refuel, from the lowest level to the highest, closed after 5 flat minutes', () => {
    const r = analyzeFuel(readings(levels, 0), FUEL_DEFAULTS);
    expect(r.events).toEqual([{ kind: 'refuel', start: T0 + 6 * MIN, end: T0 + 11 * MIN, ...HERE, before: 50, after: 100, litres: 50 }]);
    expect(r.figures).toMatchObject({ startLevel: 50, endLevel: 100, refuelled: 50, leaked: 0, refuels: 1, consumed: 0, samples: 20 });
  });

  it('the same rise while driving is sloshing on a slope, not a refuel', () => {
    const r = analyzeFuel(readings(levels, 40), FUEL_DEFAULTS);
    expect(r.events).toEqual([]);
    expect(r.figures.refuelled).toBe(0);
  });

  it('a rise below the analyst threshold is no refuel', () => {
    const r = analyzeFuel(readings(levels, 0), fuelThresholds({ 'fuel.refuelMinL': 60 }));
    expect(r.events).toEqual([]);
  });

  it('a refuel still rising at the end of the day is reported up to its last level', () => {
    const r = analyzeFuel(readings([...repeat(50, 5), 60, 70, 80, 90], 0), FUEL_DEFAULTS);
    // Minute 8's median is [50, 60, 70, 80, 90] → 70: the event runs from 50 (minute 6) to 70.
    expect(r.events).toEqual([{ kind: 'refuel', start: T0 + 6 * MIN, end: T0 + 8 * MIN, ...HERE, before: 50, after: 70, litres: 20 }]);
  });
});

describe('leak', () => {
  // Parked at 200 L; 30 L siphoned over 3 minutes. Medians: minute 6 → 200 (the high), 7 → 190 (drop 10 −
  // idle allowance 4 L/h × 1 min = 9.93 ≥ 8: opens), 8 → 180, 9 → 170, then flat.
  const levels = [...repeat(200, 5), 190, 180, 170, ...repeat(170, 8)];

  it('a drop while parked is a leak of the whole drop', () => {
    const r = analyzeFuel(readings(levels, 0), FUEL_DEFAULTS);
    expect(r.events).toEqual([{ kind: 'leak', start: T0 + 6 * MIN, end: T0 + 9 * MIN, ...HERE, before: 200, after: 170, litres: 30 }]);
    expect(r.figures).toMatchObject({ leaked: 30, leaks: 1, consumed: 0 });
  });

  it('steady driving burn is consumption, not a leak; L/100 km over the odometer km', () => {
    // 60 km/h, 1 km a minute on the odometer, 0.3 L a minute (30 L/100 km) for an hour.
    const levels60 = Array.from({ length: 60 }, (_, i) => Math.round((300 - 0.3 * i) * 10) / 10);
    const r = analyzeFuel(readings(levels60, 60, (i) => 1000 + i), FUEL_DEFAULTS);
    expect(r.events).toEqual([]);
    // Levels are medians of 5 full readings: the first is reading 2's (299.4), the last reading 57's (282.9), so
    // 16.5 L against the odometer's 59 km: 27.97 → 28 L/100 km (the median's lag at both ends of a driving day).
    expect(r.figures).toMatchObject({ startLevel: 299.4, endLevel: 282.9, consumed: 16.5, km: 59, per100km: 28 });
  });

  it('a drop while driving faster than the heaviest burn can explain is a leak', () => {
    // 1 km a minute (allowance 0.6 L/min + idle): 20 L gone between minute 5 and 8 is far past 2 L.
    const levels = [...repeat(300, 6), 290, 280, 280, ...repeat(280, 8)];
    const r = analyzeFuel(readings(levels, 60, (i) => 1000 + i), FUEL_DEFAULTS);
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({ kind: 'leak', before: 300, after: 280, litres: 20 });
  });
});

describe('dropouts', () => {
  it('missing and zero readings are a dropout: no leak, no refuel, not counted as samples', () => {
    const r = analyzeFuel(readings([120, 120, null, 0, 0, 0, 0, 120, 120, null, 120], 0), FUEL_DEFAULTS);
    expect(r.events).toEqual([]);
    expect(r.figures).toMatchObject({ startLevel: 120, endLevel: 120, samples: 5, consumed: 0 });
  });

  it('a day without any fuel reading has no levels and no L/100 km', () => {
    const r = analyzeFuel(readings([null, null], 50, (i) => 10 + i * 2), FUEL_DEFAULTS);
    expect(r.figures).toMatchObject({ startLevel: null, endLevel: null, samples: 0, km: 2, per100km: null, consumed: 0 });
  });
});

describe('thresholds', () => {
  it('missing settings take the defaults; set ones are clamped to their limits and the median count made odd', () => {
    expect(fuelThresholds({})).toEqual(FUEL_DEFAULTS);
    expect(fuelThresholds({ 'fuel.refuelMinL': 9999, 'fuel.smoothSamples': 4, 'fuel.leakMinL': 12, other: 3 })).toEqual({
      ...FUEL_DEFAULTS, refuelMinL: 500, smoothSamples: 5, leakMinL: 12,
    });
  });
});
