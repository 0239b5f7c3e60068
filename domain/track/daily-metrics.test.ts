import { describe, expect, it } from 'vitest';
import { columnsFromPoints, type TrackPoint } from './columns.ts';
import { dailyMetrics, invalidReason, splitInvalid, sumMetrics, type WindowTrack } from './daily-metrics.ts';
import { chinaDayStartMs, DAY_MS } from './days.ts';

const DAY = Date.UTC(2026, 10, 20) / DAY_MS; // 2026-11-20 China day index
const START = chinaDayStartMs(DAY);
const MIN = 60_000;
const KM_LAT = 1 / 111.195; // degrees of latitude per km on the 6371.0088 km sphere

function track(points: TrackPoint[], opts: { before?: boolean; after?: boolean; errorTimes?: number[] } = {}): WindowTrack {
  const valid = columnsFromPoints(points);
  return { valid, first: opts.before ? 1 : 0, end: points.length - (opts.after ? 1 : 0), errorTimes: opts.errorTimes ?? [] };
}

/** Points going north `km` per step, `stepMin` minutes apart, from 08:00. */
function line(count: number, km: number, stepMin: number, from = START + 8 * 60 * MIN): TrackPoint[] {
  return Array.from({ length: count }, (_, i) => ({ time: from + i * stepMin * MIN, lng: 121.4, lat: 31 + i * km * KM_LAT, speed: 30 }));
}

describe('daily positioning metrics', () => {
  it('counts a drift spike once and leaves it out of the mileage', () => {
    const points = line(11, 0.5, 1);
    points[5] = { ...points[5]!, lng: 122 }; // ≈ 57 km east for one minute
    const [day] = dailyMetrics(track(points), DAY, DAY);
    expect(day).toMatchObject({ totalGps: 11, drift: 1, undetermined: 2, pass: 8, error: 0, lossTimes: 0 });
    expect(day!.mileageKm).toBeCloseTo(5, 2);
  });

  it('judges the first and last points when a point before and after the day is known', () => {
    const points = line(12, 0.5, 1);
    points[0] = { ...points[0]!, time: START - MIN };
    points[11] = { ...points[11]!, time: START + DAY_MS };
    const [day] = dailyMetrics(track(points, { before: true, after: true }), DAY, DAY);
    expect(day).toMatchObject({ totalGps: 10, undetermined: 0, pass: 10 });
  });

  it('makes the sixth 2–10 km gap in a row discontinuous', () => {
    const [day] = dailyMetrics(track(line(7, 5, 10)), DAY, DAY);
    expect(day!.lossTimes).toBe(1);
    expect(day!.lossKm).toBeCloseTo(5, 2);
    expect(day!.lossHours).toBeCloseTo(10 / 60, 6);
    expect(day!.continuousKm).toBeCloseTo(25, 2);
    expect(day!.mileageKm).toBeCloseTo(30, 2);
  });

  it('shows a 0.9 km day as online but not an operation day', () => {
    const [day] = dailyMetrics(track(line(10, 0.1, 5)), DAY, DAY);
    expect(day!.mileageKm).toBeCloseTo(0.9, 3);
    expect(day).toMatchObject({ online: true, operation: false });
  });

  it('puts a gap across midnight on the new day and only counts that day’s points', () => {
    const before = { time: START - 10 * MIN, lng: 121.4, lat: 31, speed: 30 };
    const after = { time: START + 10 * MIN, lng: 121.4, lat: 31 + 20 * KM_LAT, speed: 30 };
    const next = { time: START + 11 * MIN, lng: 121.4, lat: 31 + 20.5 * KM_LAT, speed: 30 };
    const [day] = dailyMetrics(track([before, after, next], { before: true }), DAY, DAY);
    expect(day).toMatchObject({ totalGps: 2, lossTimes: 1, undetermined: 1, online: true, operation: true });
    expect(day!.lossKm).toBeCloseTo(20, 2);
    expect(day!.lossHours).toBeCloseTo(20 / 60, 6);
    expect(day!.mileageKm).toBeCloseTo(20.5, 2);
  });

  it('answers every day of the period, empty ones offline, and early-morning km by the later point', () => {
    const points = line(4, 1, 30, START + DAY_MS + 2 * 60 * MIN); // 02:00–03:30 of the second day
    const days = dailyMetrics(track(points), DAY, DAY + 2);
    expect(days.map((d) => d.date)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(days[0]).toMatchObject({ totalGps: 0, online: false, operation: false });
    expect(days[1]!.earlyMorningKm).toBeCloseTo(3, 2);
    expect(days[2]).toMatchObject({ totalGps: 0, online: false });
  });

  it('counts error points in the total and makes their day online', () => {
    const days = dailyMetrics(track([], { errorTimes: [START + MIN, START + 2 * MIN] }), DAY, DAY);
    expect(days[0]).toMatchObject({ totalGps: 2, error: 2, pass: 0, online: true, operation: false });
  });

  it('sums a period with rates in percent', () => {
    const days = dailyMetrics(track(line(10, 0.1, 5)), DAY, DAY + 1);
    const sum = sumMetrics(days);
    expect(sum).toMatchObject({ days: 2, totalGps: 10, pass: 8, onlineDays: 1, onlineRate: 50, qualifiedRate: 80 });
  });
});

describe('invalid positions', () => {
  it('names out-of-range, zero, negative-speed and future points', () => {
    const now = START;
    expect(invalidReason(now, 181, 31, 0, now)).toBe('range');
    expect(invalidReason(now, 0, 0, 0, now)).toBe('zero');
    expect(invalidReason(now, 121, 31, -1, now)).toBe('speed');
    expect(invalidReason(now + 11 * MIN, 121, 31, 0, now)).toBe('future');
    expect(invalidReason(now + 10 * MIN, 121, 31, 0, now)).toBeNull();
    expect(invalidReason(now + 99 * MIN, 121, 31, 0, NaN)).toBeNull();
  });

  it('splits them from the points the rules judge', () => {
    const raw = columnsFromPoints([
      { time: 1, lng: 121, lat: 31, speed: 1 },
      { time: 2, lng: 0, lat: 0, speed: 1 },
      { time: 3, lng: 121, lat: 31, speed: 1 },
    ]);
    const s = splitInvalid(raw);
    expect(Array.from(s.valid.time)).toEqual([1, 3]);
    expect(Array.from(s.validIndex)).toEqual([0, 2]);
    expect(Array.from(s.invalid)).toEqual([1]);
    expect(s.reasons).toEqual(['zero']);
  });
});
