import { describe, expect, it } from 'vitest';
import { analyzeFuel, FUEL_DEFAULTS, type FuelSample } from '../../domain/fuel/rules.ts';
import { chinaDayIndex } from '../../domain/track/days.ts';
import { FUEL_SIM, type SimFuelSensor } from './fuel.ts';
import { generatedDeviceNo } from './simulator.ts';
import { VehicleProgram } from './vehicle.ts';

/** 2026-11-20 08:00 China time. */
const START = Date.UTC(2026, 10, 20, 0, 0, 0);
const DAY = 86_400_000;
const HOUR = 3_600_000;

function program(i: number): VehicleProgram {
  return new VehicleProgram({ seed: 42, deviceNo: generatedDeviceNo(i), startMs: START, intervalMs: 10_000, parkedIntervalMs: 60_000, rates: { neverOnlineShare: 0 } });
}

/** The sensor a program holds (private: the test reads its truth log). */
const sensorOf = (p: VehicleProgram) => (p as unknown as { fuelSensor: SimFuelSensor }).fuelSensor;

describe('simulated fuel sensors', () => {
  it('only heavy trucks (tank ≥ 300 L) send item 0x02', () => {
    let fitted = 0;
    let bare = 0;
    for (let i = 0; i < 12; i++) {
      const p = program(i);
      const readings: number[] = [];
      while (p.nextAt < START + 6 * HOUR) {
        const loc = p.step().location;
        if (loc?.fuel !== undefined) readings.push(loc.fuel);
      }
      if (p.tankLitres >= FUEL_SIM.sensorMinTankL) {
        fitted++;
        expect(readings.length).toBeGreaterThan(100);
      } else {
        bare++;
        expect(readings).toEqual([]);
      }
    }
    expect(fitted).toBeGreaterThan(0);
    expect(bare).toBeGreaterThan(0);
  });

  it('the same seed gives the same readings', () => {
    const run = () => {
      const p = program(3);
      const out: (number | undefined)[] = [];
      while (p.nextAt < START + 12 * HOUR) out.push(p.step().location?.fuel);
      return out;
    };
    expect(run()).toEqual(run());
  });

  it('a week of 16 vehicles: the fuel rules find the thefts and refills the simulator made, and almost nothing else', () => {
    let thefts = 0;
    let refills = 0;
    let leaksFound = 0;
    let refuelsFound = 0;
    let unexplained = 0;
    for (let i = 0; i < 16; i++) {
      const p = program(i);
      const days = new Map<number, FuelSample[]>();
      while (p.nextAt < START + 7 * DAY) {
        const loc = p.step().location;
        if (!loc) continue;
        const day = chinaDayIndex(loc.time);
        if (!days.has(day)) days.set(day, []);
        days.get(day)!.push({ t: loc.time, lng: loc.lng, lat: loc.lat, speed: loc.speed, mileage: loc.mileage ?? null, fuel: loc.fuel ?? null });
      }
      const sensor = sensorOf(p);
      if (!sensor.fitted) continue;
      thefts += sensor.thefts.length;
      refills += sensor.refills.length;
      for (const samples of days.values()) {
        for (const e of analyzeFuel(samples, FUEL_DEFAULTS).events) {
          const truth = e.kind === 'leak' ? sensor.thefts : sensor.refills;
          if (truth.some((t) => Math.abs(t - e.start) < HOUR)) {
            if (e.kind === 'leak') leaksFound++;
            else refuelsFound++;
          } else unexplained++;
        }
      }
    }
    expect(thefts).toBeGreaterThan(10);
    expect(refills).toBeGreaterThan(10);
    // Measured at seed 42: every refill and all but a theft or two are found (a theft split by midnight or one
    // ended by a dropout can read as two or none); sloshing makes at most a stray event.
    expect(refuelsFound).toBeGreaterThanOrEqual(refills * 0.9);
    expect(leaksFound).toBeGreaterThanOrEqual(thefts * 0.9);
    expect(unexplained).toBeLessThanOrEqual(2);
  }, 90_000);
});
