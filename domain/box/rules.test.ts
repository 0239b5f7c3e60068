import { describe, expect, it } from 'vitest';
import { BOX_EXTRA_ALARM, boxExtraViolations, chinaMinuteOfDay, inForbiddenHours, inWindow, loadDropped, loadSensorAbnormal } from './rules.ts';

const loaded = (loadT: number | null) => ({ lifted: false, sealed: true, loaded: true, loadT });
const empty = (loadT: number | null = 0) => ({ lifted: false, sealed: true, loaded: false, loadT });
// 2026-11-28 12:00 China time (04:00 UTC): outside both rush hours.
const NOON = Date.UTC(2026, 10, 28, 4, 0);
// 2026-11-28 07:30 China time (23:30 UTC the day before).
const MORNING_PEAK = Date.UTC(2026, 10, 27, 23, 30);
const at = (time: number, speedKmh: number, atSite: boolean, sensorFitted = true) => ({ time, speedKmh, atSite, sensorFitted });
const codes = (s: Set<number>) => [...s].sort();

describe('group 70: the rules on load, clock and size', () => {
  it('China minute of the day and the rush-hour windows (07:00–09:00, 17:00–19:00; ends excluded)', () => {
    expect(chinaMinuteOfDay(NOON)).toBe(720);
    expect(chinaMinuteOfDay(MORNING_PEAK)).toBe(450);
    expect(chinaMinuteOfDay(Date.UTC(2026, 10, 27, 16, 0))).toBe(0); // 16:00 UTC = China midnight
    expect(inForbiddenHours(MORNING_PEAK)).toBe(true);
    expect(inForbiddenHours(NOON)).toBe(false);
    expect(inForbiddenHours(Date.UTC(2026, 10, 28, 1, 0))).toBe(false); // 09:00 China: the window has ended
    expect(inForbiddenHours(Date.UTC(2026, 10, 28, 10, 59))).toBe(true); // 18:59 China
    expect(inWindow(30, { fromMin: 22 * 60, toMin: 6 * 60 })).toBe(true); // a window over midnight
    expect(inWindow(12 * 60, { fromMin: 22 * 60, toMin: 6 * 60 })).toBe(false);
  });

  it('70003: the load leaves the truck outside every site — the loaded bit going off, or a fall of 3 t or more', () => {
    expect(loadDropped(loaded(20), empty())).toBe(true);
    expect(loadDropped(loaded(20), loaded(17))).toBe(true); // 3 t: part of the load tipped
    expect(loadDropped(loaded(20), loaded(18))).toBe(false); // 2 t: sensor noise on a moving truck
    expect(loadDropped(loaded(null), loaded(5))).toBe(false); // no load known before: nothing to compare
    expect(loadDropped(undefined, empty())).toBe(false);
    expect(loadDropped(loaded(20), empty(null), true)).toBe(false); // a fitted sensor went silent: 70010, not a dump
    expect(loadDropped(loaded(null), empty(null), false)).toBe(true); // no sensor: the loaded bit is all there is
    expect(codes(boxExtraViolations(loaded(20), empty(), at(NOON, 2, false)))).toEqual([BOX_EXTRA_ALARM.illegalDump]);
    // At a registered site the same unloading is lawful.
    expect(codes(boxExtraViolations(loaded(20), empty(), at(NOON, 2, true)))).toEqual([]);
    // Loading (the load rises) is never dumping.
    expect(codes(boxExtraViolations(empty(), loaded(20), at(NOON, 0, false)))).toEqual([]);
  });

  it('70008: loaded and moving above 5 km/h in a rush hour; empty, standing or at noon is not', () => {
    expect(codes(boxExtraViolations(loaded(20), loaded(20), at(MORNING_PEAK, 30, true)))).toEqual([BOX_EXTRA_ALARM.outsideHours]);
    expect(codes(boxExtraViolations(loaded(20), loaded(20), at(MORNING_PEAK, 5, true)))).toEqual([]);
    expect(codes(boxExtraViolations(empty(), empty(), at(MORNING_PEAK, 40, true)))).toEqual([]);
    expect(codes(boxExtraViolations(loaded(20), loaded(20), at(NOON, 40, true)))).toEqual([]);
  });

  it('70007: loaded and moving while held off a bound route; empty or standing is not', () => {
    const off = (time: number, speedKmh: number) => ({ ...at(time, speedKmh, true), offRoute: true });
    expect(codes(boxExtraViolations(loaded(20), loaded(20), off(NOON, 30)))).toEqual([BOX_EXTRA_ALARM.offRoute]);
    expect(codes(boxExtraViolations(empty(), empty(), off(NOON, 30)))).toEqual([]);
    expect(codes(boxExtraViolations(loaded(20), loaded(20), off(NOON, 3)))).toEqual([]);
    expect(codes(boxExtraViolations(loaded(20), loaded(20), at(NOON, 30, true)))).toEqual([]);
  });

  it('70009: above the rated 31 t by more than 5 % (32.55 t): 33 t is, 32 t is not', () => {
    expect(codes(boxExtraViolations(loaded(33), loaded(33), at(NOON, 0, true)))).toEqual([BOX_EXTRA_ALARM.overload]);
    expect(codes(boxExtraViolations(loaded(32), loaded(32), at(NOON, 0, true)))).toEqual([]);
    // A vehicle with another rated load: 20 t × 1.05 = 21 t.
    expect(codes(boxExtraViolations(loaded(22), loaded(22), at(NOON, 0, true), 20))).toEqual([BOX_EXTRA_ALARM.overload]);
  });

  it('70010: a fitted sensor that gives no load, loaded below 1 t, or empty at 5 t or more; no sensor fitted, no alarm', () => {
    expect(loadSensorAbnormal(loaded(null), true)).toBe(true);
    expect(loadSensorAbnormal(empty(null), true)).toBe(true);
    expect(loadSensorAbnormal(empty(null), false)).toBe(false); // never reported a load: no sensor
    expect(loadSensorAbnormal(loaded(0), false)).toBe(true);
    expect(loadSensorAbnormal(loaded(1), true)).toBe(false);
    expect(loadSensorAbnormal(empty(5), true)).toBe(true);
    expect(loadSensorAbnormal(empty(4), true)).toBe(false);
    expect(codes(boxExtraViolations(empty(0), empty(null), at(NOON, 30, true)))).toEqual([BOX_EXTRA_ALARM.loadSensor]);
    expect(codes(boxExtraViolations(empty(null), empty(null), at(NOON, 30, true, false)))).toEqual([]);
  });
});
