/**
 * Demo history backfill: on the first start of a seeded demo database, main.ts runs the first
 * simulated vehicles' programs offline from (now − N days) to now and stores what they reported, so
 * a user can replay their last days at once; the live simulator then takes over the same programs.
 */
import type { PositionRow, Storage } from '../db/repositories.ts';
import { historyProgram, runProgram, type BackfillTier } from '../sim/history.ts';
import type { TerminalSpec } from '../sim/simulator.ts';
import type { VehicleProgram } from '../sim/vehicle.ts';

const DAY_MS = 86_400_000;
/** Rows per append transaction: big enough to amortise the commit, small enough to stay near 10 MB. */
const BATCH_ROWS = 50_000;

/** Defaults: a week for the first 20 vehicles, two days for the next 180 (about 8 s on first start, see README). */
export const DEFAULT_HISTORY_TIERS: readonly BackfillTier[] = [{ vehicles: 20, days: 7 }, { vehicles: 180, days: 2 }];

export interface BackfillResult {
  /** Programs advanced to now, by terminal number as the simulator pads it (12 digits). */
  readonly programs: Map<string, VehicleProgram>;
  readonly vehicles: number;
  readonly rows: number;
  readonly ms: number;
  readonly summary: string;
}

/**
 * Backfills `terminals` (in order, as the simulator gets them) tier by tier up to `now`. The first
 * vehicle runs with SHOWCASE_RATES (it always shows a drift point and stops).
 */
export async function backfillHistory(storage: Storage, terminals: readonly TerminalSpec[], tiers: readonly BackfillTier[], now: number): Promise<BackfillResult> {
  const started = Date.now();
  const ids = new Map((await storage.terminals.allVehicles()).map((v) => [v.deviceNo.padStart(12, '0'), v.vehicleId]));
  const programs = new Map<string, VehicleProgram>();
  let batch: PositionRow[] = [];
  let rows = 0;
  let k = 0;
  const parts: string[] = [];
  for (const tier of tiers) {
    const first = k;
    for (let i = 0; i < tier.vehicles && k < terminals.length; i++, k++) {
      const spec = terminals[k]!;
      const deviceNo = spec.deviceNo.padStart(12, '0');
      const vehicleId = ids.get(deviceNo);
      if (vehicleId === undefined) continue;
      const program = historyProgram(spec, now - tier.days * DAY_MS, k === 0);
      runProgram(program, vehicleId, now, (row) => batch.push(row));
      programs.set(deviceNo, program);
      if (batch.length >= BATCH_ROWS) {
        rows += batch.length;
        await storage.positions.append(batch);
        batch = [];
      }
    }
    if (k > first) parts.push(`${k - first} × ${tier.days} days`);
  }
  rows += batch.length;
  await storage.positions.append(batch);
  const ms = Date.now() - started;
  const summary = parts.length === 0 ? 'none' : `${parts.join(' + ')}: ${rows.toLocaleString('en-US')} positions in ${(ms / 1000).toFixed(1)} s`;
  return { programs, vehicles: programs.size, rows, ms, summary };
}
