import Database from 'better-sqlite3';

export type SqliteDb = Database.Database;

/**
 * Opens the database file with the settings every connection needs. `synchronous` (config
 * SQLITE_SYNCHRONOUS): with WAL, a committed transaction survives the process being killed either
 * way; NORMAL may lose the commits since the last checkpoint on an OS crash or power loss (no
 * corruption), FULL syncs the WAL at every commit and loses none.
 */
export function openSqlite(file: string, options: { synchronous?: 'normal' | 'full' } = {}): SqliteDb {
  const db = new Database(file);
  // WAL lets readers run while a write commits.
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // History reads (playback, reports) touch millions of rows: reading pages through a memory map
  // instead of read() calls roughly halved a cold week-of-fleet report read (services/reports CONTEXT).
  db.pragma('mmap_size = 1073741824');
  // 64 MB of page cache (SQLite's default is 2 MB). Positions and alarms are inserted into per-vehicle
  // indexes at random places; once those indexes outgrow 2 MB every insert missed the cache and the commit
  // wrote more pages. The 5,000 alarms/s storm (issue 16, bench/alarm-storm --storm-seconds=60) fell behind
  // after ~35 s with the default (p99 972 ms, 187 µs of CPU per alarm) and held with this (p99 266 ms, 170 µs).
  db.pragma('cache_size = -65536');
  return db;
}
