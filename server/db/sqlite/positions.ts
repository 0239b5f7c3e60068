import { chinaDayIndex } from '../../../domain/track/days.ts';
import type { PositionRepository, PositionRow } from '../repositories.ts';
import { insertPositionsPg } from '../pg/positions-batch.ts';
import { PgSyncDb } from '../pg/sync-db.ts';
import type { SqliteDb } from '../sqlite.ts';

interface PositionRowDb {
  vehicle_id: number; gps_time: number; lng: number; lat: number; speed: number; heading: number; altitude: number;
  status: number; alarm: number; mileage: number | null; fuel?: number | null; received_at: number;
}

function toPosition(r: PositionRowDb): PositionRow {
  return {
    vehicleId: r.vehicle_id, gpsTime: r.gps_time, lng: r.lng, lat: r.lat, speed: r.speed, heading: r.heading, altitude: r.altitude,
    status: r.status, alarm: r.alarm, mileage: r.mileage, fuel: r.fuel ?? null, receivedAt: r.received_at,
  };
}

/** Vehicle ids per statement of `latestOf`. */
const LATEST_IDS_PER_STATEMENT = 500;

export class SqlitePositionRepository implements PositionRepository {
  /** Prepared on first use: the storage is built before migrations create the table. */
  private appendAll: ((rows: readonly PositionRow[]) => PositionRow[] | undefined) | undefined;

  constructor(private readonly db: SqliteDb) {}

  /** vehicle id → writes of rows into days already over (since this process started). */
  private readonly late = new Map<number, number>();

  lateWrites(vehicleId: number): number {
    return this.late.get(vehicleId) ?? 0;
  }

  async append(rows: readonly PositionRow[]): Promise<readonly PositionRow[] | void> {
    if (rows.length === 0) return;
    if (!this.appendAll) {
      // OR IGNORE on the unique (vehicle_id, gps_time) of migration 53: a resent report is stored once.
      const insert = this.db.prepare(`INSERT OR IGNORE INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, fuel, received_at)
                                      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      const dropBlock = this.db.prepare('DELETE FROM track_block WHERE vehicle_id = ? AND day = ?');
      // On PostgreSQL a statement is a blocking round trip: the batch goes as multi-row INSERTs (pg/positions-batch.ts).
      const pg = (this.db as unknown) instanceof PgSyncDb ? (this.db as unknown as PgSyncDb) : undefined;
      this.appendAll = this.db.transaction((batch: readonly PositionRow[]) => {
        // A row of a day that is already over may have a track block (a cache, see tracks.ts): drop it.
        const today = chinaDayIndex(Date.now());
        let late: Set<number> | undefined;
        // The rows stored, built only once a row was skipped (rare: a resend).
        let stored: PositionRow[] | undefined;
        const pgStored = pg ? insertPositionsPg(pg, batch) : undefined;
        for (let i = 0; i < batch.length; i++) {
          const r = batch[i]!;
          const changes = pg ? (pgStored === undefined || pgStored[i] ? 1 : 0)
            : insert.run(r.vehicleId, Math.round(r.gpsTime), r.lng, r.lat, r.speed, r.heading, r.altitude, r.status, r.alarm, r.mileage, r.fuel ?? null, r.receivedAt).changes;
          if (changes === 0) {
            stored ??= batch.slice(0, i);
            continue;
          }
          stored?.push(r);
          const day = chinaDayIndex(r.gpsTime);
          // Key vehicle × 2^20 + day: ids stay far below 2^32, China day indices below 2^20 until year 4840.
          if (day < today) (late ??= new Set()).add(r.vehicleId * 1_048_576 + day);
        }
        if (late) {
          for (const key of late) {
            const vehicleId = Math.floor(key / 1_048_576);
            dropBlock.run(vehicleId, key % 1_048_576);
            this.late.set(vehicleId, (this.late.get(vehicleId) ?? 0) + 1);
          }
        }
        return stored;
      });
    }
    return this.appendAll(rows);
  }

  async latestPerVehicle(): Promise<PositionRow[]> {
    // One index probe per vehicle on (vehicle_id, gps_time): no scan of the history.
    return (this.db.prepare(`SELECT p.* FROM vehicle v JOIN positions p ON p.rowid =
                               (SELECT rowid FROM positions WHERE vehicle_id = v.id ORDER BY gps_time DESC LIMIT 1)`)
      .all() as PositionRowDb[]).map(toPosition);
  }

  async latestOf(vehicleIds: readonly number[]): Promise<PositionRow[]> {
    const rows: PositionRowDb[] = [];
    // One index probe per vehicle, like latestPerVehicle; 500 ids a statement stay far under either store's parameter limit.
    for (let i = 0; i < vehicleIds.length; i += LATEST_IDS_PER_STATEMENT) {
      const ids = vehicleIds.slice(i, i + LATEST_IDS_PER_STATEMENT);
      rows.push(...(this.db.prepare(`SELECT p.* FROM vehicle v JOIN positions p ON p.rowid =
                                      (SELECT rowid FROM positions WHERE vehicle_id = v.id ORDER BY gps_time DESC LIMIT 1)
                                    WHERE v.id IN (${ids.map(() => '?').join(',')})`).all(...ids) as PositionRowDb[]));
    }
    return rows.map(toPosition);
  }

  async range(vehicleId: number, from: number, to: number, limit: number): Promise<PositionRow[]> {
    return (this.db.prepare('SELECT * FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? ORDER BY gps_time LIMIT ?')
      .all(vehicleId, from, to, limit) as PositionRowDb[]).map(toPosition);
  }
}
