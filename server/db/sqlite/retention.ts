/**
 * SQLite side of the retention sweep (server/retention/data-retention.ts): every method deletes a
 * bounded batch through an index range, so one call holds the connection for milliseconds.
 */
import type { BatchStep, RetentionRepository } from '../retention-types.ts';
import type { SqliteDb } from '../sqlite.ts';

const VEHICLE_TABLES = { positions: 'positions', track_block: 'track_block', report_vehicle_day: 'report_vehicle_day' } as const;

export class SqliteRetentionRepository implements RetentionRepository {
  constructor(private readonly db: SqliteDb) {}

  async nextVehicle(table: keyof typeof VEHICLE_TABLES, after: number): Promise<number | undefined> {
    // Each table's index (or primary key) leads with vehicle_id: one seek, no DISTINCT scan.
    const r = this.db.prepare(`SELECT vehicle_id FROM ${VEHICLE_TABLES[table]} WHERE vehicle_id > ? ORDER BY vehicle_id LIMIT 1`).get(after) as
      { vehicle_id: number } | undefined;
    return r?.vehicle_id;
  }

  async deletePositions(vehicleId: number, from: number, before: number, limit: number): Promise<BatchStep<number>> {
    // The batch ends at the gps_time `limit` rows ahead; rows sharing that time go with the next batch.
    const bound = this.db.prepare('SELECT gps_time FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? ORDER BY gps_time LIMIT 1 OFFSET ?')
      .pluck().get(vehicleId, from, before, limit) as number | undefined;
    // More than `limit` rows at one instant (a terminal repeating a stamp) would never advance: take that instant alone.
    const to = bound === undefined ? before : bound === from ? from + 1 : bound;
    const { changes } = this.db.prepare('DELETE FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? AND received_at < ?')
      .run(vehicleId, from, to, before);
    return { deleted: changes, next: to >= before ? null : to };
  }

  async newestPosition(vehicleId: number): Promise<{ rowid: number; gpsTime: number } | undefined> {
    const r = this.db.prepare('SELECT rowid, gps_time FROM positions WHERE vehicle_id = ? ORDER BY gps_time DESC LIMIT 1').raw(true).get(vehicleId) as
      [number, number] | undefined;
    return r && { rowid: r[0], gpsTime: r[1] };
  }

  async deleteOldestPositions(after: number, before: number, limit: number, keep: ReadonlySet<number>): Promise<BatchStep<number>> {
    const rows = this.db.prepare('SELECT rowid, received_at FROM positions WHERE rowid > ? ORDER BY rowid LIMIT ?').raw(true).all(after, limit) as [number, number][];
    // Up to the first row that arrived at or after the boundary: everything stored after it is newer.
    let end = rows.findIndex((r) => r[1] >= before);
    const done = end >= 0 || rows.length < limit;
    if (end < 0) end = rows.length;
    if (end === 0) return { deleted: 0, next: null };
    const last = rows[end - 1]![0];
    const kept = [...keep].filter((id) => id > after && id <= last);
    const except = kept.length === 0 ? '' : ` AND rowid NOT IN (${kept.map(() => '?').join(',')})`;
    const { changes } = this.db.prepare(`DELETE FROM positions WHERE rowid > ? AND rowid <= ? AND gps_time < ? AND received_at < ?${except}`)
      .run(after, last, before, before, ...kept);
    return { deleted: changes, next: done ? null : last };
  }

  async deleteTrackBlocks(vehicleId: number, beforeDay: number): Promise<number> {
    return this.db.prepare('DELETE FROM track_block WHERE vehicle_id = ? AND day < ?').run(vehicleId, beforeDay).changes;
  }

  async deleteReportDays(vehicleId: number, beforeDate: string): Promise<number> {
    return this.db.prepare('DELETE FROM report_vehicle_day WHERE vehicle_id = ? AND day < ?').run(vehicleId, beforeDate).changes;
  }

  async deleteAlarms(before: number, limit: number, after: { startTime: number; id: number } | null): Promise<BatchStep<{ startTime: number; id: number }>> {
    const c = after ?? { startTime: -Number.MAX_SAFE_INTEGER, id: 0 };
    const rows = this.db.prepare(`SELECT id, start_time, create_time FROM alarm
                                  WHERE start_time < ? AND (start_time > ? OR (start_time = ? AND id > ?))
                                  ORDER BY start_time, id LIMIT ?`).raw(true).all(before, c.startTime, c.startTime, c.id, limit) as [number, number, number][];
    // Server time too: an alarm stamped "2000" by a terminal with a reset clock stays until it is really old.
    const ids = rows.filter((r) => r[2] < before).map((r) => r[0]);
    let deleted = 0;
    if (ids.length > 0) {
      const del = this.db.prepare('DELETE FROM alarm WHERE id = ?');
      this.db.transaction(() => {
        for (const id of ids) deleted += del.run(id).changes;
      })();
    }
    const last = rows.at(-1);
    return { deleted, next: rows.length < limit || !last ? null : { startTime: last[1], id: last[0] } };
  }

  async deleteClosedBoardItems(before: number, limit: number): Promise<number> {
    return this.db.prepare(`DELETE FROM board_item WHERE id IN
                              (SELECT id FROM board_item WHERE close_time < ? AND state IN ('resolved', 'unpushed')
                                 AND (mute_until IS NULL OR mute_until < ?) ORDER BY close_time LIMIT ?)`).run(before, before, limit).changes;
  }

  async deleteStreamLog(before: number, limit: number): Promise<number> {
    return this.db.prepare('DELETE FROM stream_log WHERE id IN (SELECT id FROM stream_log WHERE started_at < ? ORDER BY started_at LIMIT ?)').run(before, limit).changes;
  }

  async deleteSessions(before: number, limit: number): Promise<number> {
    return this.db.prepare('DELETE FROM session WHERE id IN (SELECT id FROM session WHERE last_seen < ? ORDER BY last_seen LIMIT ?)').run(before, limit).changes;
  }
}
