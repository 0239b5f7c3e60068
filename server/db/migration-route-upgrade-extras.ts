/**
 * Migration 40 (issue 17 leftovers: server/services/routes/api.md, server/services/terminal-upgrade/api.md).
 *
 * `route_plan`: `start_time` / `end_time` the route's daily time window ('HH:mm' China time, both null:
 * always; 0x8606 attribute bit 0), `key_points` JSON [{point, arriveFrom, arriveBy}] (13011 key point
 * not reached). A section's night speed limit lives in the `sections` JSON (`nightMaxSpeed`), which
 * needs no column.
 * `upgrade_task_vehicle`: a push still queued can be cancelled, so the state gains 'cancelled'. SQLite
 * cannot change a CHECK in place: the table is rebuilt with its rows in their order (the task view
 * lists vehicles by rowid) and its index.
 */
export const ROUTE_UPGRADE_EXTRAS_MIGRATION = {
  version: 40,
  name: 'routes: time window, key points; upgrade tasks: cancelled',
  sql: `
    ALTER TABLE route_plan ADD COLUMN start_time TEXT;
    ALTER TABLE route_plan ADD COLUMN end_time TEXT;
    ALTER TABLE route_plan ADD COLUMN key_points TEXT NOT NULL DEFAULT '[]';
    CREATE TABLE upgrade_task_vehicle_v40 (
      task_id INTEGER NOT NULL REFERENCES upgrade_task(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      vehiidno TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'ok', 'failed', 'timeout', 'cancelled')),
      result INTEGER,
      record_id INTEGER REFERENCES command_record(id) ON DELETE SET NULL,
      update_time INTEGER NOT NULL,
      PRIMARY KEY (task_id, vehicle_id)
    );
    INSERT INTO upgrade_task_vehicle_v40 (task_id, vehicle_id, vehiidno, state, result, record_id, update_time)
      SELECT task_id, vehicle_id, vehiidno, state, result, record_id, update_time FROM upgrade_task_vehicle ORDER BY rowid;
    DROP TABLE upgrade_task_vehicle;
    ALTER TABLE upgrade_task_vehicle_v40 RENAME TO upgrade_task_vehicle;
    CREATE INDEX upgrade_task_vehicle_queued ON upgrade_task_vehicle(vehicle_id) WHERE state = 'queued';
  `,
} as const;
