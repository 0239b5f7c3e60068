/** SQLite side of migration 16: latest CAN readings, stored-media search results, export jobs. */
import type { CanProtocol } from '../../../domain/obd/can.ts';
import type {
  ExportFileRepository, ExportFileRow, ExportStatus, MediaSearchRepository, MediaSearchRow, ObdRepository, StoredObdReading,
} from '../retention-types.ts';
import type { SqliteDb } from '../sqlite.ts';

interface ObdRowDb {
  vehicle_id: number; protocol: CanProtocol; time: number; engine_rpm: number | null; coolant_c: number | null; fuel_pct: number | null;
  speed_kmh: number | null; engine_load_pct: number | null; engine_hours: number | null;
}

export class SqliteObdRepository implements ObdRepository {
  private saveAll: ((rows: readonly StoredObdReading[]) => void) | undefined;

  constructor(private readonly db: SqliteDb) {}

  async save(readings: readonly StoredObdReading[]): Promise<void> {
    if (readings.length === 0) return;
    // Prepared on first use: the storage is built before migrations create the table.
    if (!this.saveAll) {
      const upsert = this.db.prepare(`INSERT OR REPLACE INTO obd_reading
        (vehicle_id, protocol, time, engine_rpm, coolant_c, fuel_pct, speed_kmh, engine_load_pct, engine_hours)
        SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM vehicle WHERE id = ?)`);
      this.saveAll = this.db.transaction((rows: readonly StoredObdReading[]) => {
        // A vehicle deleted since the upload is skipped instead of failing the whole batch on its foreign key.
        for (const r of rows) {
          upsert.run(r.vehicleId, r.protocol, r.time, r.engineRpm, r.coolantC, r.fuelPct, r.speedKmh, r.engineLoadPct, r.engineHours, r.vehicleId);
        }
      });
    }
    this.saveAll(readings);
  }

  async all(): Promise<StoredObdReading[]> {
    return (this.db.prepare('SELECT * FROM obd_reading').all() as ObdRowDb[]).map((r) => ({
      vehicleId: r.vehicle_id, protocol: r.protocol, time: r.time, engineRpm: r.engine_rpm, coolantC: r.coolant_c, fuelPct: r.fuel_pct,
      speedKmh: r.speed_kmh, engineLoadPct: r.engine_load_pct, engineHours: r.engine_hours,
    }));
  }
}

interface SearchRowDb { user_id: number; vehicle_id: number; search_time: number; items: string }

export class SqliteMediaSearchRepository implements MediaSearchRepository {
  constructor(private readonly db: SqliteDb) {}

  async save(row: MediaSearchRow): Promise<void> {
    this.db.prepare('INSERT OR REPLACE INTO media_search (user_id, vehicle_id, search_time, items) VALUES (?, ?, ?, ?)')
      .run(row.userId, row.vehicleId, row.searchTime, row.items);
  }

  async get(userId: number, vehicleId: number, notBefore: number): Promise<MediaSearchRow | undefined> {
    const r = this.db.prepare('SELECT * FROM media_search WHERE user_id = ? AND vehicle_id = ? AND search_time >= ?')
      .get(userId, vehicleId, notBefore) as SearchRowDb | undefined;
    return r && { userId: r.user_id, vehicleId: r.vehicle_id, searchTime: r.search_time, items: r.items };
  }

  async deleteBefore(before: number, limit: number): Promise<number> {
    return this.db.prepare('DELETE FROM media_search WHERE rowid IN (SELECT rowid FROM media_search WHERE search_time < ? LIMIT ?)')
      .run(before, limit).changes;
  }
}

interface ExportRowDb {
  id: string; kind: string; user_id: number; status: ExportStatus; total: number; exported: number; size: number;
  file_name_zh: string; file_name_en: string; ascii_name: string; created_at: number; finished_at: number | null;
}

const toExport = (r: ExportRowDb): ExportFileRow => ({
  id: r.id, kind: r.kind, userId: r.user_id, status: r.status, total: r.total, exported: r.exported, size: r.size,
  fileName: [r.file_name_zh, r.file_name_en], asciiName: r.ascii_name, createdAt: r.created_at, finishedAt: r.finished_at,
});

export class SqliteExportFileRepository implements ExportFileRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(r: ExportFileRow): Promise<void> {
    this.db.prepare(`INSERT INTO export_file (id, kind, user_id, status, total, exported, size, file_name_zh, file_name_en, ascii_name, created_at, finished_at)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(r.id, r.kind, r.userId, r.status, r.total, r.exported, r.size, r.fileName[0], r.fileName[1], r.asciiName, r.createdAt, r.finishedAt);
  }

  async finish(id: string, p: { status: 'done' | 'failed'; total: number; exported: number; size: number; finishedAt: number }): Promise<boolean> {
    return this.db.prepare('UPDATE export_file SET status = ?, total = ?, exported = ?, size = ?, finished_at = ? WHERE id = ?')
      .run(p.status, p.total, p.exported, p.size, p.finishedAt, id).changes > 0;
  }

  async get(kind: string, id: string): Promise<ExportFileRow | undefined> {
    const r = this.db.prepare('SELECT * FROM export_file WHERE id = ? AND kind = ?').get(id, kind) as ExportRowDb | undefined;
    return r && toExport(r);
  }

  async failRunning(at: number, createdBefore = Number.MAX_SAFE_INTEGER): Promise<number> {
    return this.db.prepare("UPDATE export_file SET status = 'failed', finished_at = ? WHERE status = 'running' AND created_at < ?").run(at, createdBefore).changes;
  }

  async expired(before: number, limit: number): Promise<string[]> {
    return (this.db.prepare('SELECT id FROM export_file WHERE finished_at < ? ORDER BY finished_at LIMIT ?').all(before, limit) as { id: string }[]).map((r) => r.id);
  }

  async overCap(keep: number, limit: number): Promise<string[]> {
    return (this.db.prepare('SELECT id FROM export_file ORDER BY created_at DESC, id LIMIT ? OFFSET ?').all(limit, keep) as { id: string }[])
      .map((r) => r.id).reverse();
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    this.db.prepare(`DELETE FROM export_file WHERE id IN (${ids.map(() => '?').join(',')})`).run(...ids);
  }
}
