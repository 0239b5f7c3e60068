import { describe, expect, it } from 'vitest';
import { chinaDayStartMs } from '../track/days.ts';
import { chinaHour, mergePassengerDays, passengerDay, passengerStep, emptyPassengerDay, peakHour, percent, supervise, type PassengerRecord } from './flow.ts';
import { FEVER_CELSIUS, isFever, temperatureFigures } from './temperature.ts';

const D = 20_000; // a China day index
const at = (h: number, m = 0) => chinaDayStartMs(D) + (h * 60 + m) * 60_000;
const rec = (h: number, m: number, boarding: number, alighting: number, extra: Partial<PassengerRecord> = {}): PassengerRecord => ({
  start: at(h, m) - 30_000, end: at(h, m), boarding, alighting, door: 1, direction: 0, stationSeq: 1, onboard: null, lineId: 7, ...extra,
});

// A hand-counted morning trip of line 7 up: 4 stops, front door boards, rear door alights.
const trip: PassengerRecord[] = [
  rec(7, 50, 12, 0, { stationSeq: 1, onboard: 12 }),
  rec(7, 58, 30, 2, { stationSeq: 2, onboard: 40 }),
  rec(8, 6, 50, 5, { stationSeq: 3, onboard: 85 }), // 85 on board > 80 rated: overload
  rec(8, 15, 3, 60, { stationSeq: 4, door: 2, onboard: 28 }),
  rec(8, 20, 9, 0, { stationSeq: 4, door: 2, onboard: 5 }), // 9 boarded but 5 on board after: abnormal
];

describe('passenger day fold', () => {
  it('sums the hand-counted trip per hour, station and door, with overloads and abnormal counts', () => {
    const row = passengerDay(trip, 80);
    expect(row).toMatchObject({ boarding: 104, alighting: 67, uploads: 5, maxOnboard: 85, overloads: 1, abnormal: 1 });
    expect(row.hourlyBoarding[7]).toBe(42);
    expect(row.hourlyBoarding[8]).toBe(62);
    expect(row.hourlyAlighting[8]).toBe(65);
    expect(row.stations).toEqual({ '7:0:1': [12, 0], '7:0:2': [30, 2], '7:0:3': [50, 5], '7:0:4': [12, 60] });
    expect(row.doors).toEqual({ 1: [92, 7], 2: [12, 60] });
    expect(peakHour(row)).toBe(8);
  });

  it('is order-independent: a late (re-uploaded) count gives the same row as the recompute over all uploads', () => {
    const live = emptyPassengerDay();
    for (const r of [trip[3]!, trip[0]!, trip[4]!, trip[2]!, trip[1]!]) passengerStep(live, r, 80);
    expect(live).toEqual(passengerDay(trip, 80));
  });

  it('a plain 0x1005 (no extension) counts for the vehicle and hour, not for a station or door', () => {
    const row = passengerDay([rec(23, 59, 4, 6, { door: null, direction: null, stationSeq: null, lineId: null })], 80);
    expect(row).toMatchObject({ boarding: 4, alighting: 6, maxOnboard: null, stations: {}, doors: {} });
    expect(row.hourlyBoarding[23]).toBe(4);
  });

  it('supervision: overload above the rated load only, abnormal for impossible counts or a counter left counting', () => {
    expect(supervise(rec(9, 0, 10, 0, { onboard: 80 }), 80)).toEqual({ overload: false, abnormal: false });
    expect(supervise(rec(9, 0, 10, 0, { onboard: 81 }), 80)).toEqual({ overload: true, abnormal: false });
    expect(supervise(rec(9, 0, 81, 0), 80).abnormal).toBe(true);
    expect(supervise({ ...rec(9, 0, 1, 1), start: at(8, 29) }, 80).abnormal).toBe(true); // 31 minutes
    expect(supervise({ ...rec(9, 0, 1, 1), start: at(8, 30) }, 80).abnormal).toBe(false);
  });

  it('merges days into a period profile; China hours; percentages', () => {
    const a = passengerDay(trip.slice(0, 2), 80);
    const b = passengerDay(trip.slice(2), 80);
    expect(mergePassengerDays([a, b])).toEqual(passengerDay(trip, 80));
    expect(chinaHour(Date.UTC(2026, 0, 1, 16, 0))).toBe(0); // 16:00 UTC = 00:00 China
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(1, 0)).toBeNull();
  });
});

describe('temperature figures', () => {
  it('suspected fever from 37.3 °C; normal rate over the measurements', () => {
    expect(isFever(FEVER_CELSIUS)).toBe(true);
    expect(isFever(37.29)).toBe(false);
    const f = temperatureFigures([36.5, 36.8, 37.3, 38.1, 36.2, 36.6, 36.9, 37.0].map((celsius, i) => ({ time: i, kind: 0, mask: i % 2 === 0, celsius })));
    expect(f).toEqual({ count: 8, fever: 2, normal: 6, normalRate: 75, masked: 4, maxCelsius: 38.1 });
    expect(temperatureFigures([]).normalRate).toBeNull();
  });
});
