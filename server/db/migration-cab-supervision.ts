/**
 * Migration 51 (issue 19, cab supervision: server/services/cab-supervision/CONTEXT.md).
 *
 * `cab_supervision`: one supervision an officer opened (company, reason, the message for the cabs).
 * `cab_supervision_vehicle`: its vehicles (a company target is resolved to that company's vehicles at creation).
 * `cab_supervision_record`: the records on it: an officer's note, or a send of the message (`send_task_id`).
 * `cab_send_task` / `cab_send_task_vehicle`: one send (a 0x8300 text) and its per-vehicle receipt, in the
 * shape server/services/command-tasks expects (payload column `message`); a vehicle still queued at
 * `expire_time` is never sent (shown expired).
 */
export const CAB_SUPERVISION_MIGRATION = {
  version: 51,
  name: 'cab supervision, records, sends',
  sql: `
    CREATE TABLE cab_supervision (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      target TEXT NOT NULL CHECK (target IN ('vehicles', 'company')),
      target_company_id INTEGER REFERENCES company(id) ON DELETE SET NULL,
      reason TEXT NOT NULL,
      message TEXT NOT NULL,
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL
    );
    CREATE INDEX cab_supervision_company ON cab_supervision(company_id, id);
    CREATE TABLE cab_supervision_vehicle (
      supervision_id INTEGER NOT NULL REFERENCES cab_supervision(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      vehiidno TEXT NOT NULL,
      PRIMARY KEY (supervision_id, vehicle_id)
    );
    CREATE TABLE cab_send_task (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      message TEXT NOT NULL,
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      expire_time INTEGER NOT NULL
    );
    CREATE TABLE cab_send_task_vehicle (
      task_id INTEGER NOT NULL REFERENCES cab_send_task(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      vehiidno TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'ok', 'failed', 'timeout')),
      result INTEGER,
      record_id INTEGER REFERENCES command_record(id) ON DELETE SET NULL,
      update_time INTEGER NOT NULL,
      PRIMARY KEY (task_id, vehicle_id)
    );
    CREATE INDEX cab_send_task_vehicle_queued ON cab_send_task_vehicle(vehicle_id) WHERE state = 'queued';
    CREATE TABLE cab_supervision_record (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      supervision_id INTEGER NOT NULL REFERENCES cab_supervision(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('note', 'send')),
      content TEXT NOT NULL,
      send_task_id INTEGER REFERENCES cab_send_task(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL
    );
    CREATE INDEX cab_supervision_record_sup ON cab_supervision_record(supervision_id, id);
  `,
} as const;
