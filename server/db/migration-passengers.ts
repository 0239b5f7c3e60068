/**
 * Migration 38 (issue 18: passenger flow and temperature reports, server/services/passenger-reports/).
 *
 * `passenger_upload`: every stored 0x1005 (with the bus-line extension when sent) and the vehicle's line at
 * the time: the raw record a day is recomputed from and the one-vehicle drill-down reads.
 * `passenger_day`: the day row (domain/passengers/flow.ts `PassengerDayRow`, JSON) per (vehicle, China day),
 * folded as each upload is stored. The fold is order-independent, so a late upload only adds to its day.
 * `line_id` is the vehicle's line of its latest upload that day (the line analysis groups by it).
 * `temperature_record`: every 0x0E30 measurement; the report reads at most 7 days of ≤ 500 vehicles,
 * by (vehicle, time).
 */
export const PASSENGERS_MIGRATION = {
  version: 38,
  name: 'passenger flow uploads and day rows, body-temperature measurements',
  sql: `
    CREATE TABLE passenger_upload (
      id INTEGER PRIMARY KEY,
      vehicle_id INTEGER NOT NULL,
      line_id INTEGER,
      start_time INTEGER NOT NULL,
      end_time INTEGER NOT NULL,
      boarding INTEGER NOT NULL,
      alighting INTEGER NOT NULL,
      door INTEGER,
      direction INTEGER,
      station_seq INTEGER,
      onboard INTEGER,
      received_time INTEGER NOT NULL
    );
    CREATE INDEX passenger_upload_vehicle_time ON passenger_upload (vehicle_id, end_time);
    CREATE TABLE passenger_day (
      vehicle_id INTEGER NOT NULL,
      day INTEGER NOT NULL,
      line_id INTEGER,
      row TEXT NOT NULL,
      updated_time INTEGER NOT NULL,
      PRIMARY KEY (vehicle_id, day)
    ) WITHOUT ROWID;
    CREATE TABLE temperature_record (
      id INTEGER PRIMARY KEY,
      vehicle_id INTEGER NOT NULL,
      time INTEGER NOT NULL,
      kind INTEGER NOT NULL,
      mask INTEGER,
      celsius REAL NOT NULL,
      media_id INTEGER,
      received_time INTEGER NOT NULL
    );
    CREATE INDEX temperature_record_vehicle_time ON temperature_record (vehicle_id, time);
  `,
};
