/**
 * Demo history: runs deterministic vehicle programs offline from a past start to now and turns their
 * reports into position rows, exactly as the gateway would have stored them (1e-6°, 0.1 km/h, 0.1 km).
 * main.ts backfills a freshly seeded database with it and then hands the same, advanced programs to the
 * live simulator, so live positions continue the backfilled tracks. The benchmark uses it for realistic
 * 1 Hz weeks.
 */
import type { PositionRow } from '../db/repositories.ts';
import type { Emission } from './vehicle.ts';
import { VehicleProgram, type SimRates } from './vehicle.ts';

/** The live simulator's defaults (simulator.ts): the backfill must report like it to continue its tracks. */
export const LIVE_INTERVAL_MS = 10_000;
export const LIVE_PARKED_INTERVAL_MS = 60_000;
export const LIVE_SEED = 1;

/** A report as the gateway stores it (units of migration 2), or null when nothing would be stored. */
export function emissionRow(vehicleId: number, e: Emission): PositionRow | null {
  const loc = e.location;
  // 'off': powered down, nothing recorded. 'blind' reports are recorded and re-uploaded (0x0704), so they reach history.
  if (!loc || e.link === 'off' || e.link === 'never') return null;
  return {
    vehicleId,
    gpsTime: loc.time,
    lng: Math.round(loc.lng * 1e6) / 1e6,
    lat: Math.round(loc.lat * 1e6) / 1e6,
    speed: Math.round(loc.speed * 10) / 10,
    heading: loc.direction,
    altitude: loc.altitude,
    status: loc.status,
    alarm: loc.alarm,
    mileage: loc.mileage === undefined ? null : Math.round(loc.mileage * 10) / 10,
    // Item 0x02 as the gateway stores it (sim/fuel.ts: only fitted trucks send it).
    fuel: loc.fuel === undefined ? null : Math.round(loc.fuel * 10) / 10,
    receivedAt: loc.time,
  };
}

/** Steps `program` up to (not including) `untilMs`, calling `onRow` for every row history would keep. */
export function runProgram(program: VehicleProgram, vehicleId: number, untilMs: number, onRow: (row: PositionRow) => void): void {
  if (program.link === 'never') return;
  while (program.nextAt < untilMs) {
    const row = emissionRow(vehicleId, program.step());
    if (row) onRow(row);
  }
}

export interface HistoryVehicle {
  readonly deviceNo: string;
  readonly plate?: string;
}

export interface BackfillTier {
  /** How many vehicles (taken in order) get this many days. */
  readonly vehicles: number;
  readonly days: number;
}

/**
 * Extra drift and stop rates for the first backfilled vehicle, so its last days always show a drift
 * point and a stop (the e2e playback test looks for both): 1 drift per day is a Poisson draw and a
 * 2-day window misses it ≈ 14 % of the time; 6 per day e^-12 of the time. It always comes online.
 */
export const SHOWCASE_RATES: Partial<SimRates> = { driftPerDay: 6, offlinePerDay: 0.2, neverOnlineShare: 0 };

/** Programs configured exactly like the live simulator's (same seed and device numbers), started at `startMs`. */
export function historyProgram(v: HistoryVehicle, startMs: number, showcase: boolean): VehicleProgram {
  return new VehicleProgram({
    seed: LIVE_SEED,
    deviceNo: v.deviceNo.padStart(12, '0'),
    plate: v.plate,
    startMs,
    intervalMs: LIVE_INTERVAL_MS,
    parkedIntervalMs: LIVE_PARKED_INTERVAL_MS,
    rates: showcase ? SHOWCASE_RATES : undefined,
    // The same first-report delay as the live simulator: movement does not depend on it, but reporting times do.
    firstReportAfterMs: 5000,
  });
}

/** Parses "20,180" / "7,2" (tiers) or "3" / "2" into tiers; vehicles 0 (or days 0) turns the backfill off. */
export function parseTiers(vehicles: string | undefined, days: string | undefined, defaults: readonly BackfillTier[]): BackfillTier[] {
  if (vehicles === undefined && days === undefined) return [...defaults];
  const v = (vehicles ?? defaults.map((t) => t.vehicles).join(',')).split(',').map((s) => Number(s.trim()));
  const d = (days ?? defaults.map((t) => t.days).join(',')).split(',').map((s) => Number(s.trim()));
  for (const x of [...v, ...d]) {
    if (!Number.isInteger(x) || x < 0) throw new RangeError(`SEED_HISTORY_VEHICLES / SEED_HISTORY_DAYS must be whole numbers ≥ 0 separated by commas, got "${vehicles ?? ''}" / "${days ?? ''}"`);
  }
  const tiers: BackfillTier[] = [];
  for (let i = 0; i < v.length; i++) {
    const dayCount = d[Math.min(i, d.length - 1)]!;
    if (v[i]! > 0 && dayCount > 0) tiers.push({ vehicles: v[i]!, days: Math.min(dayCount, 30) });
  }
  return tiers;
}
