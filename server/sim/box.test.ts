import { describe, expect, it } from 'vitest';
import { boxStateOf } from '../../domain/box/status.ts';
import { location } from '../gateway/terminal-client.ts';
import { BOX_RATES, nearRushHour, SimBox } from './box.ts';

// 2026-11-28 10:00 China time: five hours of driving end before the evening's lead window (16:00).
const TEN_AM = Date.UTC(2026, 10, 28, 2);
/** A disposal site around the place the trucks below drive (121.5, 31.2). */
const HERE = [{ lng: 121.5, lat: 31.2, radiusM: 1000 }];

/** Drives a box through a day of stops and trips: `plan` is [speed, seconds] legs, reported every 10 s. */
function drive(box: SimBox, plan: [speed: number, seconds: number][], start = TEN_AM, at: (i: number) => { lng: number; lat: number } = () => ({ lng: 121.5, lat: 31.2 })) {
  const states = [];
  let t = start;
  let leg = 0;
  for (const [speed, seconds] of plan) {
    const place = at(leg++);
    for (let s = 0; s < seconds; s += 10, t += 10_000) {
      const loc = box.applyTo(location({ ...place, time: t, speed }));
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
      const states = drive(new SimBox(`0138000${String(n).padStart(5, '0')}`, 'box', HERE), plan);
      expect(states.every((s) => s.loadT !== undefined)).toBe(true);
      for (let i = 1; i < states.length; i++) {
        const [a, b] = [states[i - 1]!, states[i]!];
        if (!a.loaded && b.loaded && a.loadT !== null) {
          loads++;
          if ((b.loadT ?? 0) > 31 * 1.05) overloads++;
          expect(a.speed).toBe(0); // loaded at a stop, as the truck leaves it
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
  }, 180_000);

  it('is deterministic per device number', () => {
    const plan: [number, number][] = [[0, 400], [30, 600], [0, 400], [30, 600]];
    expect(drive(new SimBox('013800000001'), plan)).toEqual(drive(new SimBox('013800000001'), plan));
  });

  it('drives loads to a disposal site and unloads there: off-site long stops keep the load but for a few deliberate dumps; a truck with no site within reach hauls rarely', () => {
    const site = { lng: 121.6, lat: 31.3, radiusM: 1000 }; // ~14 km from the stops below
    // Stops alternate: a construction site (121.5, 31.2), then the disposal site.
    const plan: [number, number][] = [];
    for (let i = 0; i < 12; i++) plan.push([0, 300], [40, 600]);
    let loads = 0, atSite = 0, offSite = 0;
    for (let n = 0; n < 100; n++) {
      const box = new SimBox(`0139000${String(n).padStart(5, '0')}`, 'box', [site]);
      expect(box.tripTarget(121.5, 31.2, TEN_AM)).toBeNull(); // empty: goes where it likes
      const states = drive(box, plan, TEN_AM, (leg) => (leg % 4 === 2 ? { lng: site.lng, lat: site.lat } : { lng: 121.5, lat: 31.2 }));
      for (let i = 1; i < states.length; i++) {
        const [a, b] = [states[i - 1]!, states[i]!];
        if (!a.loaded && b.loaded && b.loadT !== null) loads++;
        if (a.loaded && !b.loaded && a.loadT !== null && b.loadT !== null) {
          // Stop legs are 0, 2, 4, …; leg 2 mod 4 is at the site. 30 reports per stop+trip pair (300 + 600 s / 10).
          const leg = 2 * Math.floor(i / 90);
          if (leg % 4 === 2) atSite++;
          else offSite++;
        }
      }
    }
    expect(loads).toBeGreaterThan(100);
    expect(atSite).toBeGreaterThan(50);
    expect(offSite).toBeLessThan(atSite * 0.15);
    // Loaded: the next trip goes to the site within reach (80 km), none beyond it.
    let loaded: SimBox | undefined;
    for (let n = 0; n < 30 && !loaded; n++) {
      const box = new SimBox(`0139010${String(n).padStart(5, '0')}`, 'box', [site]);
      drive(box, [[0, 400], [30, 10]]);
      if (box.now.loaded) loaded = box;
    }
    expect(loaded).toBeDefined();
    expect(loaded!.tripTarget(121.5, 31.2, TEN_AM)).toEqual([site.lng, site.lat]);
    expect(loaded!.tripTarget(116.4, 39.9, TEN_AM)).toBeNull(); // from Beijing the Shanghai site is out of reach
    // No site within reach: only a few loads (each dumped wherever the truck stops).
    let rare = 0;
    for (let n = 0; n < 100; n++) {
      const states = drive(new SimBox(`0139100${String(n).padStart(5, '0')}`, 'box', []), plan);
      for (let i = 1; i < states.length; i++) if (!states[i - 1]!.loaded && states[i]!.loaded && states[i]!.loadT !== null) rare++;
    }
    expect(rare).toBeLessThan(loads * 0.15);
  }, 180_000);

  it('keeps loads out of the rush hours: no loading from 06:00 to 09:00 and 16:00 to 19:00 China time but for a few', () => {
    expect(nearRushHour(Date.UTC(2026, 10, 27, 22, 30))).toBe(true); // 06:30
    expect(nearRushHour(Date.UTC(2026, 10, 27, 21, 59))).toBe(false); // 05:59
    expect(nearRushHour(Date.UTC(2026, 10, 28, 1, 0))).toBe(false); // 09:00
    expect(nearRushHour(Date.UTC(2026, 10, 28, 8, 0))).toBe(true); // 16:00
    // 06:00–09:00: every stop a long one at the site; over 100 trucks only the deliberate few load.
    const plan: [number, number][] = [];
    for (let i = 0; i < 6; i++) plan.push([0, 300], [40, 600]);
    let loads = 0, stops = 0;
    for (let n = 0; n < 100; n++) {
      const states = drive(new SimBox(`0139200${String(n).padStart(5, '0')}`, 'box', HERE), plan, Date.UTC(2026, 10, 27, 22));
      stops += 6;
      for (let i = 1; i < states.length; i++) if (!states[i - 1]!.loaded && states[i]!.loaded && states[i]!.loadT !== null) loads++;
    }
    expect(loads).toBeGreaterThan(0);
    expect(loads).toBeLessThan(stops * BOX_RATES.loadAtStop * BOX_RATES.rushHourLoad * 3);
  }, 120_000);
});
