/**
 * The fuel-level sensor of a simulated vehicle (issue 18): what 0x0200 item 0x02 says, as against what is in
 * the tank (VehicleProgram's `fuelL`, which falls with distance and idling and is refilled at a stop when low).
 *
 * - Which vehicles: heavy trucks, i.e. tanks of 300 L or more (the program draws 150–600 L), carry an
 *   aftermarket level sensor; the others send no item 0x02 (their fuel reports stay empty, as on real fleets
 *   where only some vehicles are fitted).
 * - Noise: ±0.3 L (1 σ) parked; driving, the fuel sloshes: ±2 L, and one reading in 25 jumps 8–20 L either way
 *   (braking, a slope). The report rules must smooth this away (domain/fuel/rules.ts).
 * - Dropouts: about 0.5 a day, 5–30 minutes: the sensor reads 0 (half of them) or the item is missing.
 * - Thefts: while parked with the engine off, about 0.015 per parked hour (a few a month per truck); 20–80 L
 *   siphoned at ≈ 8 L a minute, so a theft spans several parked reports. The litres really leave the tank.
 * Everything is drawn from the vehicle's own 'fuel' stream (sim/rng.ts), so movement and events draw the
 * same numbers as before this sensor existed, and a run is deterministic from (seed, device number, start).
 */
import { Rng } from './rng.ts';

/** The rates (exported for tests and the CONTEXT table). */
export const FUEL_SIM = {
  sensorMinTankL: 300,
  parkedNoiseL: 0.3,
  drivingNoiseL: 2,
  spikeShare: 0.04,
  spikeL: [8, 20] as readonly [number, number],
  dropoutsPerDay: 0.5,
  dropoutMin: [5, 30] as readonly [number, number],
  theftsPerParkedHour: 0.015,
  theftL: [20, 80] as readonly [number, number],
  theftLPerMinute: 8,
} as const;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface FuelTruth {
  /** Report time, ms. */
  readonly t: number;
  /** ACC on. */
  readonly acc: boolean;
  readonly moving: boolean;
  /** Litres in the tank now. */
  readonly litres: number;
  readonly tankL: number;
}

export class SimFuelSensor {
  readonly fitted: boolean;
  private readonly rng: Rng;
  private lastAt = Number.NaN;
  private dropoutUntil = 0;
  private dropoutZero = false;
  private theftLeft = 0;
  /** Start times of the thefts so far, and reports after which the tank was found refilled (tests compare the reports' events with them). */
  readonly thefts: number[] = [];
  readonly refills: number[] = [];
  private lastLitres = Number.NaN;

  constructor(key: string, tankL: number) {
    this.rng = Rng.of(key, 'fuel');
    this.fitted = tankL >= FUEL_SIM.sensorMinTankL;
  }

  /**
   * One report: litres siphoned since the last one (the program takes them out of the tank) and the reading to
   * send (undefined: no item 0x02). Call once per report, in time order.
   */
  report(truth: FuelTruth): { stolen: number; reading: number | undefined } {
    if (!this.fitted) return { stolen: 0, reading: undefined };
    const r = this.rng;
    const dt = Number.isNaN(this.lastAt) ? 0 : Math.max(0, truth.t - this.lastAt);
    this.lastAt = truth.t;

    let stolen = 0;
    const parkedOff = !truth.acc && !truth.moving;
    if (parkedOff) {
      if (this.theftLeft === 0 && r.chance((FUEL_SIM.theftsPerParkedHour * dt) / HOUR_MS)) {
        this.theftLeft = Math.max(0, Math.min(r.range(FUEL_SIM.theftL[0], FUEL_SIM.theftL[1]), truth.litres - 15));
        if (this.theftLeft > 0) this.thefts.push(truth.t);
      }
      if (this.theftLeft > 0) {
        stolen = Math.min(this.theftLeft, Math.max(FUEL_SIM.theftLPerMinute, (FUEL_SIM.theftLPerMinute * dt) / 60_000));
        this.theftLeft -= stolen;
      }
    } else {
      // The thief leaves when the driver comes back.
      this.theftLeft = 0;
    }
    const litres = Math.max(0, truth.litres - stolen);
    if (litres > this.lastLitres + 20) this.refills.push(truth.t);
    this.lastLitres = litres;

    if (truth.t >= this.dropoutUntil && r.chance((FUEL_SIM.dropoutsPerDay * dt) / DAY_MS)) {
      this.dropoutUntil = truth.t + Math.round(r.range(FUEL_SIM.dropoutMin[0], FUEL_SIM.dropoutMin[1]) * 60_000);
      this.dropoutZero = r.chance(0.5);
    }
    if (truth.t < this.dropoutUntil) return { stolen, reading: this.dropoutZero ? 0 : undefined };

    let noise = r.normal() * (truth.moving ? FUEL_SIM.drivingNoiseL : FUEL_SIM.parkedNoiseL);
    if (truth.moving && r.chance(FUEL_SIM.spikeShare)) noise += (r.chance(0.5) ? 1 : -1) * r.range(FUEL_SIM.spikeL[0], FUEL_SIM.spikeL[1]);
    const reading = Math.min(truth.tankL, Math.max(0.1, litres + noise));
    return { stolen, reading: Math.round(reading * 10) / 10 };
  }
}
