/**
 * Migration 11 (issue 5, alarm statistics and comparison; server/API.md "Alarm statistics"):
 * - the driver an alarm is attributed to, recorded on the alarm when it is raised (no driver
 *   registry exists: see `driverKey` in domain/alarms/stats.ts). '' = not identified. The driver is
 *   the one signed in on the vehicle by its JT/T 808 0x0702 report (`vehicle_driver`); a trigger
 *   copies it onto each new alarm, so every path that raises alarms records it without knowing.
 * - a covering index for the aggregate calls, company first: a subtree is a set of companies, so
 *   SQLite walks each company's `start_time` range and groups without reading alarm rows.
 *   bench/alarm-stats.bench.ts, 200k alarms over 90 days, 30-day period, against migration 5's
 *   indexes: branch subtree by type 2.4×, by day 3.6×, by company 1.9×; whole forest by company 4.9×,
 *   by type 1.35×, by day 1.2×; by vehicle 0.6–1.05× (noisy, 2 shared cores).
 */
export const ALARM_STATS_MIGRATION = {
  version: 11,
  name: 'alarm statistics: driver attribution (vehicle_driver, trigger), covering index for aggregates',
  sql: `
    -- Qualification certificate number and name of the driver at the alarm (JT/T 808 0x0702); '' = unknown.
    ALTER TABLE alarm ADD COLUMN driver_cert TEXT NOT NULL DEFAULT '';
    ALTER TABLE alarm ADD COLUMN driver_name TEXT NOT NULL DEFAULT '';
    CREATE INDEX alarm_stats ON alarm(company_id, start_time, alarm_type, vehicle_id, deal_status, risk_level, count);

    -- The driver signed in on each vehicle now (0x0702 card inserted and read); no row = nobody identified.
    CREATE TABLE vehicle_driver (
      vehicle_id INTEGER PRIMARY KEY REFERENCES vehicle(id) ON DELETE CASCADE,
      driver_cert TEXT NOT NULL,
      driver_name TEXT NOT NULL,
      sign_in_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    -- Every alarm insert, whichever code path raises it, records the vehicle's driver signed in at its start.
    CREATE TRIGGER alarm_driver AFTER INSERT ON alarm
    WHEN EXISTS (SELECT 1 FROM vehicle_driver d WHERE d.vehicle_id = NEW.vehicle_id AND d.sign_in_time <= NEW.start_time)
    BEGIN
      UPDATE alarm SET driver_cert = (SELECT d.driver_cert FROM vehicle_driver d WHERE d.vehicle_id = NEW.vehicle_id),
                       driver_name = (SELECT d.driver_name FROM vehicle_driver d WHERE d.vehicle_id = NEW.vehicle_id)
      WHERE id = NEW.id;
    END;
  `,
} as const;

/**
 * Migration 56 (issue 16, the alarm storm): drops `alarm_company_start (company_id, start_time)`. Migration
 * 11's `alarm_stats` index begins with the same two columns, so every query that used it can seek
 * `alarm_stats` instead, and each alarm insert updates one B-tree fewer (the storm's per-alarm SQLite
 * cost is mostly index maintenance: table + 4 indexes → table + 3).
 */
export const ALARM_INDEX_TRIM_MIGRATION = {
  version: 56,
  name: 'alarm: drop alarm_company_start (alarm_stats leads with the same columns)',
  sql: `DROP INDEX IF EXISTS alarm_company_start;`,
} as const;
