import Database from 'better-sqlite3';

export type SqliteDb = Database.Database;

/** Opens the database file with the settings every connection needs. */
export function openSqlite(file: string): SqliteDb {
  const db = new Database(file);
  // WAL lets readers run while a write commits; NORMAL sync is safe with WAL (no corruption, may lose the last commit on power loss).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // History reads (playback, reports) touch millions of rows: reading pages through a memory map
  // instead of read() calls roughly halved a cold week-of-fleet report read (services/reports CONTEXT).
  db.pragma('mmap_size = 1073741824');
  return db;
}
