/**
 * Simulated slag trucks as a fleet runs them (issue 17 leftover): the vehicle program drives each load to
 * a disposal site (SimBox.tripTarget), the box unloads there, and loads are kept off the road in the rush
 * hours, but for a few deliberate violations. Three days of ten trucks, the program and the box together
 * as the simulator wires them (simulator.ts).
 */
import { describe, expect, it } from 'vitest';
import { inForbiddenHours } from '../../domain/box/rules.ts';
import { boxStateOf, distanceM } from '../../domain/box/status.ts';
import { SimBox } from './box.ts';
import { generatedDeviceNo } from './simulator.ts';
import { VehicleProgram } from './vehicle.ts';

/** 2026-11-20 08:00 China time. */
const START = Date.UTC(2026, 10, 20, 0, 0, 0);
const HOUR = 3_600_000;

describe('simulated slag truck trips', () => {
  it('unload at the disposal site, rarely elsewhere; loaded driving stays out of the rush hours but for a few', () => {
    let unloads = 0, atSite = 0, loadedMoving = 0, loadedMovingRush = 0;
    for (let i = 0; i < 10; i++) {
      const program = new VehicleProgram({
        seed: 7, deviceNo: generatedDeviceNo(900 + i), startMs: START, intervalMs: 10_000, parkedIntervalMs: 60_000, rates: { neverOnlineShare: 0 },
      });
      // One site 5 km east of the truck's home city centre.
      const site = { lng: program.home.lng + 0.05, lat: program.home.lat, radiusM: 1000 };
      const box = new SimBox(program.deviceNo, 'box', [site]);
      program.tripTarget = (lng, lat, time) => box.tripTarget(lng, lat, time);
      let before: ReturnType<typeof boxStateOf>;
      while (program.nextAt < START + 72 * HOUR) {
        const e = program.step();
        if (!e.location) continue;
        const loc = box.applyTo(e.location);
        const s = boxStateOf(loc.extras)!;
        if (s.loadT !== null && before?.loaded && !s.loaded && before.loadT !== null) {
          unloads++;
          if (distanceM(loc.lng, loc.lat, site.lng, site.lat) <= site.radiusM) atSite++;
        }
        if (s.loaded && loc.speed > 5) {
          loadedMoving++;
          if (inForbiddenHours(loc.time)) loadedMovingRush++;
        }
        before = s;
      }
    }
    expect(unloads).toBeGreaterThan(10);
    expect(atSite).toBeGreaterThanOrEqual(unloads * 0.8);
    expect(loadedMoving).toBeGreaterThan(100);
    // 4 of 24 hours are forbidden: driving loaded at random would put ~1/6 of it there.
    expect(loadedMovingRush).toBeLessThan(loadedMoving * 0.08);
  }, 180_000);
});
