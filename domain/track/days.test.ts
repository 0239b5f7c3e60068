import { describe, expect, it } from 'vitest';
import { analyzeTrack } from './analyze.ts';
import { columnsFromPoints } from './columns.ts';
import {
  chinaDate, chinaDayStartMs, chinaDayIndex, isEarlyMorning, isOffline, isOnlineDay, isOperationDay, OFFLINE_AFTER_MS,
} from './days.ts';

/** Epoch ms of a China-time (GMT+8) wall clock. */
function china(y: number, mo: number, d: number, h: number, mi: number, s = 0, ms = 0): number {
  return Date.UTC(y, mo - 1, d, h - 8, mi, s, ms);
}

const KM_PER_0_001_DEG = 0.11119508; // km per 0.001° of latitude

describe('China days (GMT+8, no DST)', () => {
  it('puts 23:59 and 00:01 China time on different days even though both are the same UTC day', () => {
    const before = china(2024, 3, 1, 23, 59);
    const after = china(2024, 3, 2, 0, 1);
    expect(new Date(before).toISOString().slice(0, 10)).toBe(new Date(after).toISOString().slice(0, 10));
    expect(chinaDate(before)).toBe('2024-03-01');
    expect(chinaDate(after)).toBe('2024-03-02');
    expect(chinaDayIndex(after) - chinaDayIndex(before)).toBe(1);
  });

  it('starts a day at 16:00 UTC of the day before', () => {
    expect(new Date(chinaDayStartMs(chinaDayIndex(china(2024, 3, 2, 12, 0)))).toISOString()).toBe('2024-03-01T16:00:00.000Z');
    expect(chinaDate(china(2024, 3, 2, 0, 0))).toBe('2024-03-02');
    expect(chinaDate(china(2024, 3, 2, 0, 0) - 1)).toBe('2024-03-01');
  });

  it('handles instants before 1970 the same way', () => {
    expect(chinaDate(china(1969, 12, 31, 23, 59))).toBe('1969-12-31');
    expect(isEarlyMorning(china(1969, 12, 31, 3, 0))).toBe(true);
  });
});

describe('early-morning period 02:00–05:00 China time', () => {
  it.each([
    [1, 59, 59, 999, false],
    [2, 0, 0, 0, true],
    [3, 30, 0, 0, true],
    [4, 59, 59, 999, true],
    [5, 0, 0, 0, false],
    [14, 0, 0, 0, false],
  ])('%i:%i:%i.%i is early morning: %s', (h, mi, s, ms, expected) => {
    expect(isEarlyMorning(china(2024, 3, 1, h, mi, s, ms))).toBe(expected);
  });
});

describe('online and operation days', () => {
  it('needs one data item for an online day and 1 km for an operation day', () => {
    expect(isOnlineDay(0)).toBe(false);
    expect(isOnlineDay(1)).toBe(true);
    expect(isOperationDay(0.999)).toBe(false);
    expect(isOperationDay(1)).toBe(true);
  });

  it('splits a drive across midnight: 0.89 km before is not an operation day, 1.33 km after is', () => {
    const pts = [
      { at: china(2024, 3, 1, 23, 50), lat: 30 },
      { at: china(2024, 3, 1, 23, 59), lat: 30.008 }, // +0.890 km, day 1
      { at: china(2024, 3, 2, 0, 1), lat: 30.009 }, // +0.111 km, crosses midnight: day 2
      { at: china(2024, 3, 2, 0, 10), lat: 30.02 }, // +1.223 km, day 2
    ];
    const r = analyzeTrack(columnsFromPoints(pts.map((p) => ({ time: p.at, lng: 116.4, lat: p.lat, speed: 10 }))));
    expect(r.days.map((d) => [d.date, d.points, d.online, d.operation])).toEqual([
      ['2024-03-01', 2, true, false],
      ['2024-03-02', 2, true, true],
    ]);
    expect(r.days[0]!.mileageKm).toBeCloseTo(8 * KM_PER_0_001_DEG, 5);
    expect(r.days[1]!.mileageKm).toBeCloseTo(12 * KM_PER_0_001_DEG, 5);
    expect(r.onlineDays).toBe(2);
    expect(r.operationDays).toBe(1);
  });

  it('lists a day without data between two days with data as neither online nor operating', () => {
    const r = analyzeTrack(columnsFromPoints([
      { time: china(2024, 3, 1, 12, 0), lng: 116.4, lat: 30, speed: 0 },
      { time: china(2024, 3, 3, 12, 0), lng: 116.4, lat: 30.02, speed: 0 },
    ]));
    expect(r.days.map((d) => [d.date, d.points, d.online, d.operation])).toEqual([
      ['2024-03-01', 1, true, false],
      ['2024-03-02', 0, false, false],
      ['2024-03-03', 1, true, true],
    ]);
    expect(r.onlineDays).toBe(2);
  });

  it('counts early-morning mileage by the later point of each pair', () => {
    const r = analyzeTrack(columnsFromPoints([
      { time: china(2024, 3, 1, 1, 55), lng: 116.4, lat: 30, speed: 30 },
      { time: china(2024, 3, 1, 2, 0), lng: 116.4, lat: 30.01, speed: 30 }, // +10: ends at 02:00, in
      { time: china(2024, 3, 1, 3, 0), lng: 116.4, lat: 30.03, speed: 30 }, // +20: in
      { time: china(2024, 3, 1, 5, 0), lng: 116.4, lat: 30.07, speed: 30 }, // +40: ends at 05:00, out
    ]));
    expect(r.days[0]!.earlyMorningKm).toBeCloseTo(30 * KM_PER_0_001_DEG, 5);
    expect(r.days[0]!.mileageKm).toBeCloseTo(70 * KM_PER_0_001_DEG, 5);
  });
});

describe('offline (spec §4: no contact for over 3 minutes)', () => {
  const now = china(2024, 3, 1, 12, 0);

  it('is online at exactly 3 minutes and offline 1 ms later', () => {
    expect(isOffline(now - OFFLINE_AFTER_MS, now)).toBe(false);
    expect(isOffline(now - OFFLINE_AFTER_MS - 1, now)).toBe(true);
  });

  it('is offline without any contact and online with a contact time slightly ahead of the clock', () => {
    expect(isOffline(undefined, now)).toBe(true);
    expect(isOffline(null, now)).toBe(true);
    expect(isOffline(Number.NaN, now)).toBe(true);
    expect(isOffline(now + 5_000, now)).toBe(false);
  });
});
