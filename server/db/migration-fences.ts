/**
 * Migration 30 (issue 17, fences: server/services/fences/api.md).
 *
 * `fence`: a company's geofence (domain/fence/types.ts): `shape` circle | rect | polygon, `geometry` and
 * `rule` JSON in the domain's form (WGS-84 [lng, lat]), name unique per company. The fence id is also the
 * area id sent to terminals (JT/T 808 0x8600–0x8605).
 * `fence_vehicle`: the vehicles a fence applies to (platform evaluation) and is sent to, with what the
 * terminal holds: `send_state` none (never sent), queued / sent / ok / failed / timeout (the latest send
 * task's state for it), outdated (the fence changed after it was sent); `task_id` that task.
 * `fence_task` / `fence_task_vehicle`: fence sends and deletes as command tasks (the shared machinery of
 * server/services/command-tasks; same shape as param_task). `payload` JSON {op, fenceId, fenceName,
 * shape, message}: the task keeps the message itself, so a delete still goes out after the fence is gone.
 */
export const FENCES_MIGRATION = {
  version: 30,
  name: 'fences: fence, fence_vehicle, fence send tasks',
  sql: `
    CREATE TABLE fence (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      shape TEXT NOT NULL CHECK (shape IN ('circle', 'rect', 'polygon')),
      geometry TEXT NOT NULL,
      rule TEXT NOT NULL,
      remark TEXT NOT NULL DEFAULT '',
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL,
      UNIQUE (company_id, name)
    );
    CREATE TABLE fence_vehicle (
      fence_id INTEGER NOT NULL REFERENCES fence(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      send_state TEXT NOT NULL DEFAULT 'none' CHECK (send_state IN ('none', 'queued', 'sent', 'ok', 'failed', 'timeout', 'outdated')),
      send_time INTEGER,
      result INTEGER,
      task_id INTEGER,
      PRIMARY KEY (fence_id, vehicle_id)
    );
    CREATE INDEX fence_vehicle_vehicle ON fence_vehicle(vehicle_id);
    CREATE TABLE fence_task (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      payload TEXT NOT NULL,
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      expire_time INTEGER NOT NULL
    );
    CREATE INDEX fence_task_company ON fence_task(company_id, create_time);
    CREATE TABLE fence_task_vehicle (
      task_id INTEGER NOT NULL REFERENCES fence_task(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      vehiidno TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'ok', 'failed', 'timeout')),
      result INTEGER,
      record_id INTEGER REFERENCES command_record(id) ON DELETE SET NULL,
      update_time INTEGER NOT NULL,
      PRIMARY KEY (task_id, vehicle_id)
    );
    CREATE INDEX fence_task_vehicle_queued ON fence_task_vehicle(vehicle_id) WHERE state = 'queued';
  `,
};
