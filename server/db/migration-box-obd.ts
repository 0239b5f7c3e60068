/**
 * Migration 33 (issue 17: cargo box status and OBD/CAN history; server/services/box-status/api.md).
 *
 * `obd_history`: every decoded 0x0705 upload per vehicle and protocol (server/obd/history.ts), written
 * in batches; the position and odometer beside it come from the vehicle's latest 0x0200. Kept as long
 * as positions (POSITION_RETENTION_DAYS), deleted by time in bounded steps.
 * `box_state_change`: a slag truck's box state (lifted / sealed / loaded, load) each time it changed,
 * with the report's time, speed and place: the state now is its newest row, a day's history its rows.
 * `box_site`: approved disposal sites (circles) of a company; they apply to the company's subtree.
 */
export const BOX_OBD_MIGRATION = {
  version: 33,
  name: 'cargo box state changes, disposal sites, OBD/CAN history',
  sql: `
    CREATE TABLE obd_history (
      vehicle_id INTEGER NOT NULL,
      time INTEGER NOT NULL,
      protocol TEXT NOT NULL CHECK (protocol IN ('j1939', 'obd2')),
      engine_rpm REAL,
      coolant_c REAL,
      fuel_pct REAL,
      speed_kmh REAL,
      engine_load_pct REAL,
      engine_hours REAL,
      mileage_km REAL,
      lng REAL,
      lat REAL
    );
    CREATE INDEX obd_history_vehicle_time ON obd_history(vehicle_id, time);
    CREATE INDEX obd_history_time ON obd_history(time);
    CREATE TABLE box_state_change (
      vehicle_id INTEGER NOT NULL,
      time INTEGER NOT NULL,
      lifted INTEGER NOT NULL,
      sealed INTEGER NOT NULL,
      loaded INTEGER NOT NULL,
      load_t INTEGER,
      speed REAL NOT NULL,
      lng REAL NOT NULL,
      lat REAL NOT NULL
    );
    CREATE INDEX box_state_change_vehicle_time ON box_state_change(vehicle_id, time);
    CREATE INDEX box_state_change_time ON box_state_change(time);
    CREATE TABLE box_site (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      lng REAL NOT NULL,
      lat REAL NOT NULL,
      radius_m INTEGER NOT NULL,
      create_time INTEGER NOT NULL
    );
    CREATE INDEX box_site_company ON box_site(company_id);
  `,
};
