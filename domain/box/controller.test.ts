import { describe, expect, it } from 'vitest';
import { blockDefaults, blockLength } from '../terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../terminal-params/hjws.ts';
import { boxLimitsOf, controllerState, DEFAULT_BOX_LIMITS, liftAllowed, truckLimitsOf } from './controller.ts';
import { boxExtraViolations, BOX_EXTRA_ALARM } from './rules.ts';
import { BOX_ALARM, boxViolations } from './status.ts';

const factory = blockDefaults(HJWS_PARAMS);

describe('slag-truck controller parameters (0xF3A0)', () => {
  it('is a 24-byte block whose factory values give the platform rules their default limits', () => {
    expect(blockLength(HJWS_PARAMS)).toBe(24);
    expect(boxLimitsOf(factory)).toEqual(DEFAULT_BOX_LIMITS);
  });

  it('reports loaded from the load threshold, raised above the lift angle, and ignores the cover with the check off', () => {
    const sensors = { liftAngle: 12, coverClosed: false, loadT: 18 };
    expect(controllerState(sensors, factory)).toEqual({ lifted: true, sealed: false, loaded: true, loadT: 18 });
    expect(controllerState(sensors, { ...factory, loadedThreshold: 20, liftAngle: 15, sealCheck: 0 })).toEqual({ lifted: false, sealed: true, loaded: false, loadT: 18 });
    expect(controllerState({ ...sensors, loadT: null }, factory).loaded).toBe(false);
  });

  it('refuses a lift above the lift speed limit only with the lock on', () => {
    expect(liftAllowed(30, factory)).toBe(true); // factory: lock off
    expect(liftAllowed(30, { ...factory, liftLock: 1 })).toBe(false);
    expect(liftAllowed(5, { ...factory, liftLock: 1 })).toBe(true);
    expect(liftAllowed(8, { ...factory, liftLock: 1, liftSpeedLimit: 10 })).toBe(true);
  });

  it('moves the group 70 limits: a loaded truck at 50 km/h is over a 40 km/h limit, not over the default 60', () => {
    const loaded = { lifted: false, sealed: true, loaded: true, loadT: 20 };
    expect([...boxViolations(loaded, 50, true)]).toEqual([]);
    expect([...boxViolations(loaded, 50, true, boxLimitsOf({ ...factory, loadedSpeedLimit: 40 }))]).toEqual([BOX_ALARM.loadedOverspeed]);
    // Open cover at 8 km/h: unsealed transport above the default 5, not above a 10 km/h threshold.
    const open = { ...loaded, sealed: false };
    expect([...boxViolations(open, 8, true)]).toEqual([BOX_ALARM.unsealed]);
    expect([...boxViolations(open, 8, true, boxLimitsOf({ ...factory, unsealedSpeed: 10 }))]).toEqual([]);
  });

  it("a truck's limits: its acknowledged block's speeds and rated load, else the platform defaults (31 t)", () => {
    expect(truckLimitsOf(undefined, 31)).toEqual({ movingKmh: 5, liftSpeedKmh: 5, loadedLimitKmh: 60, ratedLoadT: 31 });
    const set = truckLimitsOf({ ...factory, ratedLoad: 20, loadedSpeedLimit: 45, unsealedSpeed: 8 }, 31);
    expect(set).toEqual({ movingKmh: 8, liftSpeedKmh: 5, loadedLimitKmh: 45, ratedLoadT: 20 });
    // 70009 at 20 t × 1.05 = 21 t: 22 t is over, 21 t is not; the default truck (32.55 t) takes 25 t.
    const report = { time: Date.UTC(2026, 10, 28, 4), speedKmh: 0, atSite: true, sensorFitted: true };
    const load = (t: number) => ({ lifted: false, sealed: true, loaded: true, loadT: t });
    expect([...boxExtraViolations(load(20), load(22), report, set.ratedLoadT)]).toEqual([BOX_EXTRA_ALARM.overload]);
    expect([...boxExtraViolations(load(20), load(21), report, set.ratedLoadT)]).toEqual([]);
    expect([...boxExtraViolations(load(20), load(25), report, truckLimitsOf(undefined, 31).ratedLoadT)]).toEqual([]);
  });
});
