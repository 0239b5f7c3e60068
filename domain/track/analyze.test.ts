import { describe, expect, it } from 'vitest';
import { analyzeTrack } from './analyze.ts';
import { allocateColumns, columnsFromPoints, permuteColumns, timeOrder } from './columns.ts';
import { findDrift } from './drift.ts';
import { EARTH_RADIUS_KM } from './geo.ts';
import { findStops } from './stops.ts';

const T0 = Date.UTC(2024, 2, 1, 2, 0);

describe('analyzeTrack', () => {
  it('answers zeros for an empty track', () => {
    const r = analyzeTrack(allocateColumns(0));
    expect(r).toMatchObject({ points: 0, gaps: [], discontinuous: 0, mileageKm: 0, stops: [], days: [], onlineDays: 0 });
    expect(r.drift).toHaveLength(0);
  });

  it('makes one online day of a single point', () => {
    const r = analyzeTrack(columnsFromPoints([{ time: T0, lng: 116.4, lat: 39.9, speed: 0 }]));
    expect(r.mileageKm).toBe(0);
    expect(r.days.map((d) => [d.date, d.online, d.operation])).toEqual([['2024-03-01', true, false]]);
  });

  it('measures a known geodesic: 1° of the equator in 100 steps is 111.195 km', () => {
    const pts = Array.from({ length: 101 }, (_, i) => ({ time: T0 + i * 60_000, lng: i / 100, lat: 0, speed: 66 }));
    const r = analyzeTrack(columnsFromPoints(pts));
    expect(r.mileageKm).toBeCloseTo((EARTH_RADIUS_KM * Math.PI) / 180, 6);
    expect(r.continuousMileageKm).toBeCloseTo(r.mileageKm, 10);
    expect(r.gaps).toEqual([]);
    expect(r.days[0]!.operation).toBe(true);
  });

  it('leaves drift points out of the mileage', () => {
    const r = analyzeTrack(columnsFromPoints([
      { time: T0, lng: 116.4, lat: 30, speed: 30 },
      { time: T0 + 60_000, lng: 116.4, lat: 31, speed: 30 },
      { time: T0 + 120_000, lng: 116.4, lat: 30.001, speed: 30 },
      { time: T0 + 180_000, lng: 116.4, lat: 30.002, speed: 30 },
    ]));
    expect(Array.from(r.drift)).toEqual([1]);
    expect(r.driftFlags[1]).toBe(1);
    expect(r.mileageKm).toBeCloseTo(0.002 * 111.19508, 6);
    expect(r.days[0]!.driftPoints).toBe(1);
    expect(r.days[0]!.points).toBe(4);
  });

  it('refuses columns out of time order, out of range or of unequal length, naming the point', () => {
    const c = columnsFromPoints([
      { time: T0 + 1000, lng: 116.4, lat: 30, speed: 0 },
      { time: T0, lng: 116.4, lat: 30, speed: 0 },
    ]);
    expect(() => analyzeTrack(c)).toThrow(/track point 1: .*sort the track by time/);
    expect(() => analyzeTrack(columnsFromPoints([{ time: T0, lng: 116.4, lat: 91, speed: 0 }]))).toThrow(/lat 91/);
    expect(() => analyzeTrack(columnsFromPoints([{ time: T0, lng: 181, lat: 30, speed: 0 }]))).toThrow(/lng 181/);
    expect(() => analyzeTrack(columnsFromPoints([{ time: T0, lng: 116, lat: 30, speed: -1 }]))).toThrow(/speed -1/);
    expect(() => analyzeTrack(columnsFromPoints([{ time: Number.NaN, lng: 116, lat: 30, speed: 0 }]))).toThrow(/time NaN/);
    expect(() => analyzeTrack({ ...allocateColumns(2), speed: new Float32Array(1) })).toThrow(/differ in length/);
    const decades = columnsFromPoints([0, 8.6e15].map((time) => ({ time, lng: 116, lat: 30, speed: 0 })));
    expect(() => analyzeTrack(decades)).toThrow(/track spans 99537038 days \(1970-01-01 to .*\); at most 36525/);
  });

  it('sorts by time stably, keeping equal times in input order', () => {
    const time = new Float64Array([30, 10, 20, 10]);
    expect(Array.from(timeOrder(time)!)).toEqual([1, 3, 2, 0]);
    expect(timeOrder(new Float64Array([1, 1, 2]))).toBeUndefined();
    const c = columnsFromPoints([30, 10, 20].map((t, i) => ({ time: t, lng: i, lat: 0, speed: 0 })));
    expect(Array.from(permuteColumns(c, timeOrder(c.time)!).lng)).toEqual([1, 2, 0]);
  });

  it('agrees with the single-rule functions on a long random track', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const n = 20_000;
    const c = allocateColumns(n);
    let lat = 30;
    let t = T0;
    for (let i = 0; i < n; i++) {
      const parked = Math.floor(i / 500) % 3 === 0;
      t += rnd() < 0.01 ? 900_000 : 10_000;
      lat += parked ? (rnd() - 0.5) * 0.00005 : 0.0002 + (rnd() < 0.005 ? 0.05 : 0);
      c.time[i] = t;
      c.lng[i] = 116.4;
      c.lat[i] = rnd() < 0.01 ? lat + 0.3 : lat;
      c.speed[i] = parked ? 0 : 60;
    }
    const r = analyzeTrack(c, { stopMinutes: 2 });
    expect(Array.from(r.driftFlags)).toEqual(Array.from(findDrift(c)));
    expect(r.stops).toEqual(findStops(c, r.driftFlags, { stopMinutes: 2 }));
    expect(r.stops.length).toBeGreaterThan(5);
    expect(r.gaps.length).toBeGreaterThan(5);
    expect(r.mileageKm).toBeCloseTo(r.continuousMileageKm + r.lossKm, 6);
    expect(r.days.reduce((s, d) => s + d.mileageKm, 0)).toBeCloseTo(r.mileageKm, 6);
    expect(r.days.reduce((s, d) => s + d.points, 0)).toBe(n);
  });
});
