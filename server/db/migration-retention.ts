/**
 * Migrations 16 and 17 (issue 12 §5, nothing lost at restart and retention). Self-contained so they
 * sit in `migrations.ts` whatever order parallel work appends in.
 *
 * 16: what a user may come back for after a restart, which lived only in memory before:
 * - `obd_reading`: the latest decoded CAN values per vehicle and protocol (server/obd/). The alarm
 *   pop-up's OBD panel shows only the engine now (the latest reading and when it came), so one row per
 *   vehicle and protocol is all the screen needs; it is replaced by every upload and goes with the vehicle.
 * - `media_search`: a user's last 0x8802 → 0x0802 answer per vehicle (`searchDeviceMediaResult`), the
 *   list of photos on the terminal the user pages through and picks uploads from; `items` is JSON.
 * - `export_file`: asynchronous .xlsx export jobs (services/export-jobs.ts); the finished file lives in
 *   DATA_DIR/exports/<id>.xlsx. A job still `running` when the server stopped is failed at the next start.
 *
 * 17: indexes the retention sweep (server/retention/) deletes by, so a sweep walks an index range instead
 * of scanning a table: video connection log by start, login sessions by last use.
 */
export const PERSISTENCE_MIGRATION = {
  version: 16,
  name: 'kept across restarts: latest CAN readings, stored-media search results, export files',
  sql: `
    CREATE TABLE obd_reading (
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      protocol TEXT NOT NULL CHECK (protocol IN ('j1939', 'obd2')),
      -- When the platform received it (epoch ms); values NULL when not reported.
      time INTEGER NOT NULL,
      engine_rpm REAL,
      coolant_c REAL,
      fuel_pct REAL,
      speed_kmh REAL,
      engine_load_pct REAL,
      engine_hours REAL,
      PRIMARY KEY (vehicle_id, protocol)
    ) WITHOUT ROWID;

    CREATE TABLE media_search (
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      search_time INTEGER NOT NULL,
      items TEXT NOT NULL,
      PRIMARY KEY (user_id, vehicle_id)
    );
    CREATE INDEX media_search_time ON media_search(search_time);

    -- No foreign key to user: a deleted user's files are removed by the expiry sweep, not orphaned by a cascade.
    CREATE TABLE export_file (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      user_id INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
      total INTEGER NOT NULL DEFAULT 0,
      exported INTEGER NOT NULL DEFAULT 0,
      size INTEGER NOT NULL DEFAULT 0,
      file_name_zh TEXT NOT NULL,
      file_name_en TEXT NOT NULL,
      ascii_name TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      finished_at INTEGER
    );
    CREATE INDEX export_file_created ON export_file(created_at);
  `,
} as const;

export const RETENTION_MIGRATION = {
  version: 17,
  name: 'retention: indexes the sweep deletes by (stream log, sessions)',
  sql: `
    CREATE INDEX stream_log_started ON stream_log(started_at);
    CREATE INDEX session_last_seen ON session(last_seen);
  `,
} as const;
