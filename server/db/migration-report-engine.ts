/**
 * Migrations 36–37 (issue 18: the report engine, server/services/report-engine/CONTEXT.md).
 *
 * 36: positions carry the fuel level (litres, 0x0200 item 0x02), nullable: older rows and terminals
 * without a fuel sensor have none.
 *
 * 37: the engine's tables.
 * `report_day`: one row per (module, vehicle, China day). `row` is the module's figures as JSON, `carry`
 * its streaming state as JSON while the day is open (NULL once closed), `last_t` the GPS time of the
 * last point stepped. JSON rather than typed columns because the engine is generic over modules that
 * other folders own and extend (mileage, operation, fuel…): a report reads a row whole, per vehicle and
 * day, and sums in code (≤ 1,000 vehicles × 31 days), so no SQL ever aggregates a figure. The primary
 * key (module, vehicle_id, day) serves every read: a month of N vehicles is N range seeks, a day of
 * 100,000 vehicles 100,000 point seeks, and retention deletes per (module, vehicle) below a day.
 * `stale` = 1 marks a day queued for recompute (late data) until the recompute wrote it: a crash in
 * between leaves the mark, and the next start recomputes the day (the partial index holds only those;
 * `report_day_open` likewise finds the open days' carries at start without scanning every row).
 * `report_event`: a module's detail entries (stops, trips, refuels…); `open` marks events a module
 * pushed from `finish` for a day still open (rewritten on every save), the others are final.
 * `report_setting`: analyst thresholds per company, by the modules' own keys.
 */
export const POSITION_FUEL_MIGRATION = {
  version: 36,
  name: 'positions: fuel level (litres)',
  sql: `ALTER TABLE positions ADD COLUMN fuel REAL;`,
};

export const REPORT_ENGINE_MIGRATION = {
  version: 37,
  name: 'report engine: module rows per vehicle-day, carries, events, company settings',
  sql: `
    CREATE TABLE report_day (
      module TEXT NOT NULL,
      vehicle_id INTEGER NOT NULL,
      day INTEGER NOT NULL,
      row TEXT NOT NULL,
      carry TEXT,
      last_t INTEGER,
      updated_time INTEGER NOT NULL,
      stale INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (module, vehicle_id, day)
    ) WITHOUT ROWID;
    CREATE INDEX report_day_stale ON report_day(vehicle_id, day) WHERE stale = 1;
    CREATE INDEX report_day_open ON report_day(vehicle_id, day) WHERE carry IS NOT NULL;
    CREATE TABLE report_event (
      module TEXT NOT NULL,
      vehicle_id INTEGER NOT NULL,
      day INTEGER NOT NULL,
      kind TEXT NOT NULL,
      start_time INTEGER NOT NULL,
      end_time INTEGER NOT NULL,
      lng REAL NOT NULL,
      lat REAL NOT NULL,
      value TEXT NOT NULL,
      open INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX report_event_key ON report_event(module, vehicle_id, day, start_time);
    CREATE TABLE report_setting (
      company_id INTEGER NOT NULL,
      key TEXT NOT NULL,
      value REAL NOT NULL,
      PRIMARY KEY (company_id, key)
    ) WITHOUT ROWID;
  `,
};
