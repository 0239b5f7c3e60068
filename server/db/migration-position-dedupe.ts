/**
 * Migration 53 (issue 20): one position per vehicle and GPS time. A terminal that missed the 0x8001 of
 * a committed report (the connection or the process died between the commit and the send) sends it
 * again; with the unique index the writer's `INSERT OR IGNORE` (server/db/sqlite/positions.ts) stores
 * it once. JT/T 808 times are whole seconds, so two different reports of one vehicle in one second
 * keep the first one stored (the live store and alarm generation still see both).
 *
 * Existing databases may hold such duplicates: the first stored row of each (vehicle, time) is kept,
 * the others deleted, and the track blocks of the days that held them (a cache of `positions`, built
 * from the duplicated rows) dropped so the next read rebuilds them. The duplicate keys are found by
 * one pass over the old (vehicle_id, gps_time) index in order (covering, no sort, no table read),
 * then the unique index replaces it under the same name.
 */
export const POSITION_DEDUPE_MIGRATION = {
  version: 53,
  name: 'positions: unique (vehicle_id, gps_time), duplicates from resends removed',
  sql: `
    CREATE TEMP TABLE position_dup AS
      SELECT vehicle_id, gps_time, min(rowid) AS keep FROM positions GROUP BY vehicle_id, gps_time HAVING count(*) > 1;
    DELETE FROM positions WHERE rowid IN (
      SELECT p.rowid FROM position_dup d JOIN positions p ON p.vehicle_id = d.vehicle_id AND p.gps_time = d.gps_time AND p.rowid <> d.keep);
    -- China day index, as domain/track/days.ts chinaDayIndex (GMT+8; times are positive, integer division floors).
    DELETE FROM track_block WHERE (vehicle_id, day) IN (
      SELECT DISTINCT vehicle_id, (gps_time + 28800000) / 86400000 FROM position_dup);
    DROP TABLE position_dup;
    DROP INDEX positions_vehicle_time;
    CREATE UNIQUE INDEX positions_vehicle_time ON positions(vehicle_id, gps_time);
  `,
} as const;
