/**
 * The history writer's batch on PostgreSQL (issue 20): multi-row INSERTs instead of one statement per row.
 *
 * On SQLite a prepared INSERT per row costs microseconds; through the synchronous PG facade (sync-db.ts)
 * every statement is a round trip that blocks the event loop, so a 5,000-row flush was 5,000 round
 * trips (the bus bench of 2026-11-28: 0.018× single-node throughput). Here a flush is ⌈rows / 4,000⌉
 * statements: 4,000 rows × 12 columns = 48,000 parameters, under PG's 65,535 per statement.
 * Same semantics as the SQLite path: a resent (vehicle, gps_time) is skipped (ON CONFLICT DO NOTHING on
 * migration 53's unique key), and the caller learns which rows were stored.
 */
import { chinaDayIndex } from '../../../domain/track/days.ts';
import type { PositionRow } from '../repositories.ts';
import { partitionDdl } from './partitions.ts';
import type { PgSyncDb } from './sync-db.ts';

const COLUMNS = ['vehicle_id', 'gps_time', 'lng', 'lat', 'speed', 'heading', 'altitude', 'status', 'alarm', 'mileage', 'fuel', 'received_at'] as const;
/** Rows per statement: COLUMNS × this stays under PostgreSQL's 65,535 bind parameters. */
export const PG_INSERT_CHUNK_ROWS = 4000;

/** The statement text per row count (a flush's chunks are mostly full, so this holds two or three texts). */
const statements = new Map<number, string>();

function insertSql(rows: number): string {
  let sql = statements.get(rows);
  if (sql !== undefined) return sql;
  const tuples: string[] = new Array(rows);
  for (let r = 0; r < rows; r++) {
    const base = r * COLUMNS.length;
    const ps: string[] = new Array(COLUMNS.length);
    for (let c = 0; c < COLUMNS.length; c++) ps[c] = `$${base + c + 1}`;
    tuples[r] = `(${ps.join(',')})`;
  }
  sql = `INSERT INTO positions (${COLUMNS.join(', ')}) VALUES ${tuples.join(',')} ON CONFLICT DO NOTHING RETURNING vehicle_id, gps_time`;
  if (statements.size > 16) statements.clear(); // odd sizes (the last chunk of a flush) must not pile up
  statements.set(rows, sql);
  return sql;
}

/**
 * Inserts `rows` (inside the caller's transaction) and answers, per row, whether it was stored; `undefined`
 * when every row was (the common case: no resend in the batch).
 */
export function insertPositionsPg(db: PgSyncDb, rows: readonly PositionRow[]): boolean[] | undefined {
  let stored: boolean[] | undefined;
  const days = new Set<number>();
  const today = chinaDayIndex(Date.now());
  for (let start = 0; start < rows.length; start += PG_INSERT_CHUNK_ROWS) {
    const end = Math.min(rows.length, start + PG_INSERT_CHUNK_ROWS);
    const params: unknown[] = new Array((end - start) * COLUMNS.length);
    let p = 0;
    for (let i = start; i < end; i++) {
      const r = rows[i]!;
      const gpsTime = Math.round(r.gpsTime);
      const day = chinaDayIndex(gpsTime);
      // No DEFAULT partition (CONTEXT.md): each China day's partition exists before its first row. A day older
      // than yesterday may have been dropped by the retention leader since this process made it
      // (server/retention/pg-partitions.ts): asked each batch (IF NOT EXISTS), not trusted to the process's memory.
      if (!days.has(day)) {
        days.add(day);
        if (day < today - 1) db.execPg(partitionDdl('positions', gpsTime).sql);
        else db.ensurePartition('positions', gpsTime);
      }
      params[p++] = r.vehicleId; params[p++] = gpsTime; params[p++] = r.lng; params[p++] = r.lat; params[p++] = r.speed;
      params[p++] = r.heading; params[p++] = r.altitude; params[p++] = r.status; params[p++] = r.alarm; params[p++] = r.mileage;
      params[p++] = r.fuel ?? null; params[p++] = r.receivedAt;
    }
    const { rows: returned, rowCount } = db.query(insertSql(end - start), params, true, db.inTransaction);
    if (rowCount === end - start && stored === undefined) continue;
    stored ??= new Array(rows.length).fill(true);
    if (rowCount === end - start) continue;
    // Some rows were resends: mark the ones PostgreSQL did not hand back (RETURNING gives no order to rely on).
    const kept = new Set((returned as [number, number][]).map(([v, t]) => `${v}:${t}`));
    // A key twice in one batch is stored once: the first occurrence takes it, as SQLite's row-by-row path does.
    for (let i = start; i < end; i++) stored[i] = kept.delete(`${rows[i]!.vehicleId}:${Math.round(rows[i]!.gpsTime)}`);
  }
  return stored;
}
