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
import type { PgSyncDb, PgSyncError } from './sync-db.ts';

const COLUMNS = ['vehicle_id', 'gps_time', 'lng', 'lat', 'speed', 'heading', 'altitude', 'status', 'alarm', 'mileage', 'fuel', 'received_at'] as const;
/** Rows per statement: COLUMNS × this stays under PostgreSQL's 65,535 bind parameters. */
export const PG_INSERT_CHUNK_ROWS = 4000;
/** Tries of an old day's INSERT whose day table the retention dropped between its CREATE and the INSERT. */
const OLD_DAY_TRIES = 3;

/** The statement text per table and row count (a flush's chunks are mostly full, so this holds a few texts). */
const statements = new Map<string, string>();

function insertSql(table: string, rows: number): string {
  const key = `${table}:${rows}`;
  let sql = statements.get(key);
  if (sql !== undefined) return sql;
  const tuples: string[] = new Array(rows);
  for (let r = 0; r < rows; r++) {
    const base = r * COLUMNS.length;
    const ps: string[] = new Array(COLUMNS.length);
    for (let c = 0; c < COLUMNS.length; c++) ps[c] = `$${base + c + 1}`;
    tuples[r] = `(${ps.join(',')})`;
  }
  sql = `INSERT INTO "${table}" (${COLUMNS.join(', ')}) VALUES ${tuples.join(',')} ON CONFLICT DO NOTHING RETURNING vehicle_id, gps_time`;
  if (statements.size > 16) statements.clear(); // odd sizes (the last chunk of a flush) must not pile up
  statements.set(key, sql);
  return sql;
}

/**
 * Inserts `rows` (inside the caller's transaction) and answers, per row, whether it was stored; `undefined`
 * when every row was (the common case: no resend in the batch).
 *
 * No DEFAULT partition (CONTEXT.md): each China day's partition exists before its first row. Today's and
 * yesterday's rows go through `positions` (their partitions made once per process: `ensurePartition`; the
 * retention never takes a day that recent, POSITION_RETENTION_DAYS ≥ 1). A row of an older day (a buffered or
 * late report, a reset clock) goes straight into its day table, created first when missing (IF NOT EXISTS, asked
 * each batch: the retention leader may have dropped a partition this process made). Straight, because the
 * retention detaches such a day (server/retention/pg-partitions.ts) seconds before it drops it: through
 * `positions` a row of the detached day finds no partition and the whole batch failed, today's rows with it.
 * Written into the detached table, it is a late arrival (received after the retention boundary) that the
 * retention's last step, which locks that table first, copies into the day's fresh partition with the other rows
 * that stay. A table dropped between this CREATE and the INSERT (42P01) is made again and the INSERT retried.
 * Old days go first, before `positions` is touched: the retention's last step locks the day table, then
 * creates the fresh partition on `positions`; a writer holding `positions` while waiting for that day table
 * could deadlock with it.
 */
export function insertPositionsPg(db: PgSyncDb, rows: readonly PositionRow[]): boolean[] | undefined {
  const today = chinaDayIndex(Date.now());
  /** Row indexes per target table: old day tables first, `positions` last. */
  const old = new Map<string, { at: number; indexes: number[] }>();
  const recent: number[] = [];
  const recentDays = new Set<number>();
  for (let i = 0; i < rows.length; i++) {
    const gpsTime = Math.round(rows[i]!.gpsTime);
    const day = chinaDayIndex(gpsTime);
    if (day >= today - 1) {
      if (!recentDays.has(day)) {
        recentDays.add(day);
        db.ensurePartition('positions', gpsTime);
      }
      recent.push(i);
      continue;
    }
    const name = partitionDdl('positions', gpsTime).name;
    let group = old.get(name);
    if (!group) old.set(name, (group = { at: gpsTime, indexes: [] }));
    group.indexes.push(i);
  }
  let stored: boolean[] | undefined;
  const mark = (indexes: readonly number[], returned: unknown[], rowCount: number) => {
    if (rowCount === indexes.length && stored === undefined) return;
    stored ??= new Array(rows.length).fill(true);
    if (rowCount === indexes.length) return;
    // Some rows were resends: mark the ones PostgreSQL did not hand back (RETURNING gives no order to rely on).
    const kept = new Set((returned as [number, number][]).map(([v, t]) => `${v}:${t}`));
    // A key twice in one batch is stored once: the first occurrence takes it, as SQLite's row-by-row path does.
    for (const i of indexes) stored[i] = kept.delete(`${rows[i]!.vehicleId}:${Math.round(rows[i]!.gpsTime)}`);
  };
  const insert = (table: string, chunk: readonly number[]) => {
    const params: unknown[] = new Array(chunk.length * COLUMNS.length);
    let p = 0;
    for (const i of chunk) {
      const r = rows[i]!;
      params[p++] = r.vehicleId; params[p++] = Math.round(r.gpsTime); params[p++] = r.lng; params[p++] = r.lat; params[p++] = r.speed;
      params[p++] = r.heading; params[p++] = r.altitude; params[p++] = r.status; params[p++] = r.alarm; params[p++] = r.mileage;
      params[p++] = r.fuel ?? null; params[p++] = r.receivedAt;
    }
    // Atomic inside a transaction (a savepoint): a failed INSERT leaves the caller's transaction usable.
    const { rows: returned, rowCount } = db.query(insertSql(table, chunk.length), params, true, db.inTransaction);
    mark(chunk, returned, rowCount);
  };
  const chunks = (indexes: readonly number[]) => Array.from({ length: Math.ceil(indexes.length / PG_INSERT_CHUNK_ROWS) }, (_, k) => indexes.slice(k * PG_INSERT_CHUNK_ROWS, (k + 1) * PG_INSERT_CHUNK_ROWS));
  for (const [table, { at, indexes }] of old) {
    db.execPg(partitionDdl('positions', at).sql);
    for (const chunk of chunks(indexes)) {
      for (let attempt = 1; ; attempt++) {
        try {
          insert(table, chunk);
          break;
        } catch (err) {
          // Dropped by the retention between the CREATE and the INSERT: made again (a fresh, attached partition).
          if ((err as PgSyncError).sqlState !== '42P01' || attempt >= OLD_DAY_TRIES) throw err;
          db.execPg(partitionDdl('positions', at).sql);
        }
      }
    }
  }
  for (const chunk of chunks(recent)) insert('positions', chunk);
  return stored;
}
