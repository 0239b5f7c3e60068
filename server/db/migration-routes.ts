/**
 * Migration 34 (issue 17, routes: server/services/routes/api.md).
 *
 * `route_plan`: a company's planned route (domain/route/types.ts): `points` JSON [[lng, lat], …]
 * (WGS-84), `sections` JSON (one per section: width, time limits, speed limit), `deviation_seconds`
 * (the platform's 13010 delay); name unique per company. The id is also the route id sent to
 * terminals (JT/T 808 0x8606 / 0x8607).
 * `route_plan_vehicle`: the vehicles a route applies to (platform evaluation) and is sent to, with what
 * the terminal holds: `send_state` none / queued / sent / ok / failed / timeout / outdated (as
 * fence_vehicle); `task_id` the latest send task.
 * `route_task` / `route_task_vehicle`: route sends and deletes as command tasks (the shared machinery
 * of server/services/command-tasks; same shape as fence_task). `payload` JSON {op, routeId, routeName, message}.
 */
export const ROUTES_MIGRATION = {
  version: 34,
  name: 'routes: route_plan, route_plan_vehicle, route send tasks',
  sql: `
    CREATE TABLE route_plan (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      points TEXT NOT NULL,
      sections TEXT NOT NULL,
      deviation_seconds INTEGER NOT NULL,
      remark TEXT NOT NULL DEFAULT '',
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL,
      UNIQUE (company_id, name)
    );
    CREATE TABLE route_plan_vehicle (
      route_id INTEGER NOT NULL REFERENCES route_plan(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      send_state TEXT NOT NULL DEFAULT 'none' CHECK (send_state IN ('none', 'queued', 'sent', 'ok', 'failed', 'timeout', 'outdated')),
      send_time INTEGER,
      result INTEGER,
      task_id INTEGER,
      PRIMARY KEY (route_id, vehicle_id)
    );
    CREATE INDEX route_plan_vehicle_vehicle ON route_plan_vehicle(vehicle_id);
    CREATE TABLE route_task (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      payload TEXT NOT NULL,
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      expire_time INTEGER NOT NULL
    );
    CREATE INDEX route_task_company ON route_task(company_id, create_time);
    CREATE TABLE route_task_vehicle (
      task_id INTEGER NOT NULL REFERENCES route_task(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      vehiidno TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'ok', 'failed', 'timeout')),
      result INTEGER,
      record_id INTEGER REFERENCES command_record(id) ON DELETE SET NULL,
      update_time INTEGER NOT NULL,
      PRIMARY KEY (task_id, vehicle_id)
    );
    CREATE INDEX route_task_vehicle_queued ON route_task_vehicle(vehicle_id) WHERE state = 'queued';
  `,
};
