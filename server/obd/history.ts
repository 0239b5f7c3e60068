/**
 * OBD/CAN history (issue 17; contract: server/services/box-status/api.md "OBD/CAN history"): every
 * decoded 0x0705 upload is a row of `obd_history` (migration 33) with the vehicle's place and odometer
 * from its latest 0x0200. Writes are batched like the latest-reading store (server/obd/index.ts): one
 * transaction every OBD_FLUSH_MS and at shutdown, so 2,000 trucks uploading every 30 s cost one small
 * transaction per flush instead of 67 statements a second. Kept as long as positions
 * (POSITION_RETENTION_DAYS), deleted by time in bounded steps that yield to the event loop.
 */
import type { CanProtocol, ObdValues } from '../../domain/obd/can.ts';
import type { SqliteDb } from '../db/sqlite.ts';
import type { RetentionTask } from '../retention/scheduler.ts';
import { timeSweep } from '../retention/time-sweep.ts';

export interface ObdHistoryRow extends ObdValues {
  vehicleId: number;
  time: number;
  protocol: CanProtocol;
  mileageKm: number | null;
  lng: number | null;
  lat: number | null;
}

/** The columns of a stored row as the calls answer them. */
export const OBD_HISTORY_COLUMNS = `vehicle_id AS vehicleId, time, protocol, engine_rpm AS engineRpm, coolant_c AS coolantC, fuel_pct AS fuelPct,
  speed_kmh AS speedKmh, engine_load_pct AS engineLoadPct, engine_hours AS engineHours, mileage_km AS mileageKm, lng, lat`;

export class ObdHistory {
  private pending: ObdHistoryRow[] = [];
  private flushing: Promise<void> = Promise.resolve();
  written = 0;

  constructor(private readonly db: SqliteDb, private readonly log?: { warn(obj: object, msg: string): void }) {}

  add(row: ObdHistoryRow): void {
    this.pending.push(row);
  }

  /** Rows not yet written (the calls add them, so a reading is visible at once). */
  unsaved(): readonly ObdHistoryRow[] {
    return this.pending;
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => {
      if (this.pending.length === 0) return;
      const rows = this.pending;
      this.pending = [];
      try {
        const put = this.db.prepare(`INSERT INTO obd_history (vehicle_id, time, protocol, engine_rpm, coolant_c, fuel_pct, speed_kmh, engine_load_pct, engine_hours, mileage_km, lng, lat)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
        this.db.transaction(() => {
          for (const r of rows) {
            put.run(r.vehicleId, r.time, r.protocol, r.engineRpm, r.coolantC, r.fuelPct, r.speedKmh, r.engineLoadPct, r.engineHours, r.mileageKm, r.lng, r.lat);
          }
        })();
        this.written += rows.length;
      } catch (err) {
        // Kept for the next flush.
        this.pending = rows.concat(this.pending);
        this.log?.warn({ err }, 'CAN history not saved');
      }
    });
    return this.flushing;
  }

  retention(keepDays: () => number, clock: () => number): RetentionTask {
    return timeSweep(this.db, { name: 'obd-history', table: 'obd_history', timeColumn: 'time', counter: 'obdHistory', keepDays, clock });
  }
}
