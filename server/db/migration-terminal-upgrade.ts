/**
 * Migration 35 (issue 17, terminal upgrades over JT/T 808 0x8108 / 0x0108:
 * server/services/terminal-upgrade/api.md).
 *
 * `upgrade_package`: an uploaded package file, stored under the data dir by its SHA-256 (`sha256`; two
 * uploads of the same bytes share one file), with its name, version, upgrade type (0 terminal, 12 IC
 * card reader, 52 GNSS module), manufacturer id (BYTE[5] in 0x8108), size, uploader and time;
 * company-scoped like every list.
 * `upgrade_task` / `upgrade_task_vehicle`: one "push this package to these vehicles" request and its
 * per-vehicle state, in the shape server/services/command-tasks expects (payload column `package`);
 * `result` is the terminal's 0x0108 result (0 ok, 1 failed, 2 cancelled) or its 0x0001 refusal.
 */
export const TERMINAL_UPGRADE_MIGRATION = {
  version: 35,
  name: 'terminal upgrades: packages, upgrade tasks',
  sql: `
    CREATE TABLE upgrade_package (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      version TEXT NOT NULL,
      upgrade_type INTEGER NOT NULL CHECK (upgrade_type IN (0, 12, 52)),
      maker_id TEXT NOT NULL,
      file_name TEXT NOT NULL,
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      remark TEXT NOT NULL DEFAULT '',
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL
    );
    CREATE INDEX upgrade_package_company ON upgrade_package(company_id, create_time);
    CREATE INDEX upgrade_package_sha ON upgrade_package(sha256);
    CREATE TABLE upgrade_task (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      package TEXT NOT NULL,
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      expire_time INTEGER NOT NULL
    );
    CREATE INDEX upgrade_task_company ON upgrade_task(company_id, create_time);
    CREATE TABLE upgrade_task_vehicle (
      task_id INTEGER NOT NULL REFERENCES upgrade_task(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      vehiidno TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'ok', 'failed', 'timeout')),
      result INTEGER,
      record_id INTEGER REFERENCES command_record(id) ON DELETE SET NULL,
      update_time INTEGER NOT NULL,
      PRIMARY KEY (task_id, vehicle_id)
    );
    CREATE INDEX upgrade_task_vehicle_queued ON upgrade_task_vehicle(vehicle_id) WHERE state = 'queued';
  `,
} as const;
