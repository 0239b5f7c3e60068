/**
 * The `fuel` day module (issue 18): one vehicle's China day of fuel readings → the day's levels, refuelled,
 * leaked and consumed litres, km and L/100 km, and the day's 'refuel' and 'leak' events. The rules are
 * domain/fuel/rules.ts (smoothing, event detection, consumption); this file only adapts them to the
 * engine's contract (domain/report-day/module.ts). Thresholds come from the company's settings
 * (`fuel.refuelMinL` …, defaults in FUEL_DEFAULTS) as the day starts.
 */
import { fuelFinish, fuelStart, fuelStep, fuelThresholds, type FuelEvent, type FuelState, type FuelThresholds } from '../fuel/rules.ts';
import type { DayEvent, DayModule } from './module.ts';

export interface FuelCarry {
  /** The thresholds in force for the day (read once at start, so a settings change mid-day cannot split the day's rule). */
  readonly th: FuelThresholds;
  readonly s: FuelState;
}

/** One vehicle's day, as the fuel reports read it (litres, km). */
export interface FuelRow {
  startLevel: number | null;
  endLevel: number | null;
  refuelled: number;
  leaked: number;
  consumed: number;
  refuels: number;
  leaks: number;
  km: number;
  per100km: number | null;
  /** Readings with a usable level. */
  samples: number;
}

/** An event of this module: `value` holds before, after and litres (L). */
export type FuelDayEvent = DayEvent & { readonly kind: 'refuel' | 'leak'; readonly value: { before: number; after: number; litres: number } };

function toDayEvent(e: FuelEvent): FuelDayEvent {
  return { kind: e.kind, start: e.start, end: e.end, lng: e.lng, lat: e.lat, value: { before: e.before, after: e.after, litres: e.litres } };
}

function pushAll(found: FuelEvent[], events: DayEvent[]): void {
  for (const e of found) events.push(toDayEvent(e));
}

export const fuelModule: DayModule<FuelCarry, FuelRow> = {
  key: 'fuel',
  start(context) {
    return { th: fuelThresholds(context.settings), s: fuelStart() };
  },
  step(carry, point, events) {
    const found: FuelEvent[] = [];
    fuelStep(carry.s, carry.th, point, found);
    pushAll(found, events);
  },
  finish(carry, events) {
    const found: FuelEvent[] = [];
    const f = fuelFinish(carry.s, carry.th, found);
    pushAll(found, events);
    return {
      startLevel: f.startLevel, endLevel: f.endLevel, refuelled: f.refuelled, leaked: f.leaked, consumed: f.consumed,
      refuels: f.refuels, leaks: f.leaks, km: f.km, per100km: f.per100km, samples: f.samples,
    };
  },
};
