/**
 * OBD/CAN history (issue 17; contract: server/services/box-status/api.md "OBD/CAN history"): every
 * decoded 0x0705 upload is a row of `obd_history` (migration 33) with the vehicle's place and odometer
 * from its latest 0x0200. Writes are batched like the latest-reading store (server/obd/index.ts): one
 * transaction every OBD_FLUSH_MS and at shutdown, so 2,000 trucks uploading every 30 s cost one small
 * transaction per flush instead of 67 statements a second. Kept as long as positions
 * (POSITION_RETENTION_DAYS), deleted by time in bounded steps that yield to the event loop.
 *
 * Acknowledged means committed (issue 20): the gateway's 0x0705 handler waits for `committed()`, which
 * asks for a flush within OBD_ACK_FLUSH_MS, so the terminal's 0x8001 goes out only once its rows are in
 * a committed transaction; a process killed before that did not acknowledge them and the terminal
 * sends them again. A failed flush keeps its rows and their acks until a retry commits.
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

/**
 * How soon a flush follows a row someone waits for (the ack of its 0x0705): the position history's
 * default flush interval, so a CAN upload is acknowledged about as late as a report.
 */
export const OBD_ACK_FLUSH_MS = 100;

export class ObdHistory {
  private pending: ObdHistoryRow[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** Resolvers of `committed()` waiting for the rows pending now (they move with the rows). */
  private waiting: (() => void)[] = [];
  private soon: ReturnType<typeof setTimeout> | undefined;
  written = 0;

  constructor(private readonly db: SqliteDb, private readonly log?: { warn(obj: object, msg: string): void }) {}

  add(row: ObdHistoryRow): void {
    this.pending.push(row);
  }

  /** Resolves once every row added so far is committed (at once when none is pending); a flush follows within OBD_ACK_FLUSH_MS. */
  committed(): Promise<void> {
    if (this.pending.length === 0 && this.waiting.length === 0) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.soon ??= setTimeout(() => {
      this.soon = undefined;
      void this.flush();
    }, OBD_ACK_FLUSH_MS);
    this.soon.unref();
    return done;
  }

  /** Rows not yet written (the calls add them, so a reading is visible at once). */
  unsaved(): readonly ObdHistoryRow[] {
    return this.pending;
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.length === 0) return;
      // Not inside a request's transaction on the one connection: the rows would commit (or roll back) with it.
      while (this.db.inTransaction) await new Promise((r) => setImmediate(r));
      if (this.pending.length === 0) return;
      const rows = this.pending;
      const waiting = this.waiting;
      this.pending = [];
      this.waiting = [];
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
        // Kept for the next flush (the interval's, or the next `committed()`'s), and so are their acks.
        this.pending = rows.concat(this.pending);
        this.waiting = waiting.concat(this.waiting);
        this.log?.warn({ err }, 'CAN history not saved');
        return;
      }
      for (const resolve of waiting) resolve();
    });
    return this.flushing;
  }

  retention(keepDays: () => number, clock: () => number): RetentionTask {
    return timeSweep(this.db, { name: 'obd-history', table: 'obd_history', timeColumn: 'time', counter: 'obdHistory', keepDays, clock });
  }
}
