import { describe, expect, it } from 'vitest';
import { boxStateOf } from '../../domain/box/status.ts';
import { location } from '../gateway/terminal-client.ts';
import { BOX_RATES, SimBox } from './box.ts';

/** Drives a box through a day of stops and trips: `plan` is [speed, seconds] legs, reported every 10 s. */
function drive(box: SimBox, plan: [speed: number, seconds: number][], start = Date.UTC(2026, 10, 28)) {
  const states = [];
  let t = start;
  for (const [speed, seconds] of plan) {
    for (let s = 0; s < seconds; s += 10, t += 10_000) {
      const loc = box.applyTo(location({ lng: 121.5, lat: 31.2, time: t, speed }));
      states.push({ speed, ...boxStateOf(loc.extras)! });
    }
  }
  return states;
}

describe('simulated slag truck box', () => {
  it('loads at a long stop, drives loaded, lifts only while standing to unload and leaves empty; every report carries the item', () => {
    // Over many trucks: a cycle of 5-minute stops and 20-minute trips.
    const plan: [number, number][] = [];
    for (let i = 0; i < 12; i++) plan.push([0, 300], [40, 1200]);
    let loads = 0, unloads = 0, unsealedTrips = 0, movingLifts = 0, silent = 0, overloads = 0;
    for (let n = 0; n < 100; n++) {
      const states = drive(new SimBox(`0138000${String(n).padStart(5, '0')}`), plan);
      expect(states.every((s) => s.loadT !== undefined)).toBe(true);
      for (let i = 1; i < states.length; i++) {
        const [a, b] = [states[i - 1]!, states[i]!];
        if (!a.loaded && b.loaded && a.loadT !== null) {
          loads++;
          if ((b.loadT ?? 0) > 31 * 1.05) overloads++;
          expect(b.speed).toBe(0); // loading happens at a stop
        }
        // A silent load sensor (0xFF) reads empty: a fault, not an unloading.
        if (b.loadT === null) silent++;
        if (a.loaded && !b.loaded && b.loadT !== null && a.loadT !== null) {
          unloads++;
          expect(a.lifted).toBe(true); // the body was up before the load was gone
        }
        if (b.loaded && !b.sealed && b.speed > 0 && (a.speed === 0)) unsealedTrips++;
        if (b.lifted && b.speed > 0) movingLifts++;
      }
    }
    expect(loads).toBeGreaterThan(100);
    expect(unloads).toBeGreaterThan(75);
    // Violations at their rates: some, far from all.
    expect(unsealedTrips).toBeGreaterThan(0);
    expect(unsealedTrips).toBeLessThan(loads * BOX_RATES.unsealedLoad * 2.5);
    expect(movingLifts).toBeGreaterThan(0);
    // 70009 and 70010 at low rates: a few overloaded loads, a few minutes of silent sensor now and then.
    expect(overloads).toBeGreaterThan(0);
    expect(overloads).toBeLessThan(loads * BOX_RATES.overloadShare * 3);
    expect(silent).toBeGreaterThan(0);
    expect(silent).toBeLessThan(100 * 12 * 150 * BOX_RATES.sensorFault * BOX_RATES.sensorFaultReports * 3);
  });

  it('is deterministic per device number', () => {
    const plan: [number, number][] = [[0, 400], [30, 600], [0, 400], [30, 600]];
    expect(drive(new SimBox('013800000001'), plan)).toEqual(drive(new SimBox('013800000001'), plan));
  });
});
