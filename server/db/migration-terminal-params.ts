/**
 * Migration 29 (issue 17, terminal parameters over JT/T 808: server/services/terminal-params/api.md).
 *
 * `command_record`: every command the platform sent a terminal for an operator and what came back
 * (who, when, what, result). `company_id` is the VEHICLE's company at the time (lists are scoped by it).
 * `state`: queued (terminal offline, waiting for it), sent, ok, failed (answered with a result other
 * than 0), timeout, offline (a one-off command to an offline terminal). `content` / `answer` are JSON.
 * `param_task`: one "set parameters on these vehicles" request; `param_task_vehicle` its per-vehicle
 * state (the same states) and the command record of the latest attempt. A queued row is sent when the
 * terminal authenticates again, until the task's `expire_time`.
 * `param_template`: named parameter sets (paramconfig), company-scoped, names unique per company.
 */
export const TERMINAL_PARAMS_MIGRATION = {
  version: 29,
  name: 'terminal parameters: command records, parameter tasks, parameter templates',
  sql: `
    CREATE TABLE command_record (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      vehicle_id INTEGER REFERENCES vehicle(id) ON DELETE SET NULL,
      vehiidno TEXT NOT NULL,
      device_no TEXT NOT NULL,
      msg_id INTEGER NOT NULL,
      fun TEXT NOT NULL,
      content TEXT NOT NULL,
      task_id INTEGER,
      user_id INTEGER REFERENCES user(id) ON DELETE SET NULL,
      user_name TEXT NOT NULL,
      send_time INTEGER NOT NULL,
      answer_time INTEGER,
      state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'ok', 'failed', 'timeout', 'offline')),
      result INTEGER,
      answer TEXT
    );
    CREATE INDEX command_record_company_time ON command_record(company_id, send_time);
    CREATE INDEX command_record_vehicle_time ON command_record(vehicle_id, send_time);
    CREATE TABLE param_task (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      params TEXT NOT NULL,
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      expire_time INTEGER NOT NULL
    );
    CREATE INDEX param_task_company ON param_task(company_id, create_time);
    CREATE TABLE param_task_vehicle (
      task_id INTEGER NOT NULL REFERENCES param_task(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      vehiidno TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'ok', 'failed', 'timeout')),
      result INTEGER,
      record_id INTEGER REFERENCES command_record(id) ON DELETE SET NULL,
      update_time INTEGER NOT NULL,
      PRIMARY KEY (task_id, vehicle_id)
    );
    CREATE INDEX param_task_vehicle_queued ON param_task_vehicle(vehicle_id) WHERE state = 'queued';
    CREATE TABLE param_template (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      params TEXT NOT NULL,
      remark TEXT NOT NULL DEFAULT '',
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL,
      UNIQUE (company_id, name)
    );
  `,
};
