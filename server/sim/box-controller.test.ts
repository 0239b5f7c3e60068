/**
 * A simulated slag truck reports its box through the controller parameters it holds (0xF3A0, sim/box.ts):
 * the same trips under the factory values and under parameters the platform set.
 */
import { describe, expect, it } from 'vitest';
import { boxStateOf } from '../../domain/box/status.ts';
import { blockDefaults } from '../../domain/terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../../domain/terminal-params/hjws.ts';
import { location } from '../gateway/terminal-client.ts';
import { SimBox } from './box.ts';
import { activeSafetyOf, simDefaultParameters, simParameterCommand, type ParameterLink } from './parameters.ts';

function drive(box: SimBox, block: Record<string, number>, plan: [number, number][]) {
  const out = [];
  let t = Date.UTC(2026, 10, 28);
  for (const [speed, seconds] of plan) {
    for (let s = 0; s < seconds; s += 10, t += 10_000) out.push({ speed, ...boxStateOf(box.applyTo(location({ lng: 121.5, lat: 31.2, time: t, speed }), block).extras)! });
  }
  return out;
}

const plan: [number, number][] = [];
for (let i = 0; i < 12; i++) plan.push([0, 300], [40, 1200]);
const factory = blockDefaults(HJWS_PARAMS);

describe('simulated slag-truck controller', () => {
  it('ships the factory block and stores what 0x8103 sets, which the box then follows', () => {
    expect(simDefaultParameters({ plate: '苏A12345', heartbeatMs: 30_000 }).get(0xf3a0)).toEqual(factory);
    const parameters = new Map();
    const link = { parameters, reply: () => undefined } as unknown as ParameterLink;
    simParameterCommand(link, { serial: 1 } as never, { msgId: 0x8103, params: [{ id: 0xf3a0, value: { ...factory, loadedThreshold: 100 } }] });
    expect(activeSafetyOf(parameters, HJWS_PARAMS).loadedThreshold).toBe(100);
  });

  it('reports no load under a threshold above every load, and no lift while driving with the lift lock on', () => {
    let loadedBefore = 0, movingLiftsBefore = 0, loadedAfter = 0, movingLiftsAfter = 0;
    for (let n = 0; n < 60; n++) {
      const device = `0138000${String(n).padStart(5, '0')}`;
      for (const s of drive(new SimBox(device), factory, plan)) {
        if (s.loaded) loadedBefore++;
        if (s.lifted && s.speed > 5) movingLiftsBefore++;
      }
      // The same trucks on the same trips: loads of 12–30 t under a 100 t threshold, lifting locked above 5 km/h.
      for (const s of drive(new SimBox(device), { ...factory, loadedThreshold: 100, liftLock: 1 }, plan)) {
        if (s.loaded) loadedAfter++;
        if (s.lifted && s.speed > 5) movingLiftsAfter++;
      }
    }
    expect(loadedBefore).toBeGreaterThan(100);
    expect(movingLiftsBefore).toBeGreaterThan(0);
    expect(loadedAfter).toBe(0);
    expect(movingLiftsAfter).toBe(0);
  });
});
