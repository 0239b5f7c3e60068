/**
 * Migration 44 (issue 19: the data dictionary and system parameters; server/services/system-config/).
 *
 * `dictionary`: kinds and their codes in one table. A kind row has `parent_id` NULL and `kind` '' (its
 * code is the kind's code); a code row points at its kind and repeats the kind's code in `kind`, so
 * (kind, code) is unique for both and a page asks for one kind's codes with one index seek. `builtin`
 * rows are the seeded lists the console uses (relabel, reorder, disable; never delete).
 *
 * `sys_param`: the parameter tree. Groups are rows of kind 'group'; a parameter has its kind, bounds
 * (`min`/`max`: of the number, or of a text's length), enum `options` (JSON), `scope`, `default_value`
 * and, for platform parameters, `value` (NULL: the default). Values of `company` parameters are kept
 * per company in the report engine's `report_setting` (migration 37) under the same key, because the
 * engine reads them there when it opens a vehicle-day. Built-in rows are written from the domain
 * catalogue (domain/system-config/params.ts) at every start (names, limits), keeping their values.
 */
export const SYSTEM_CONFIG_MIGRATION = {
  version: 44,
  name: 'system config: data dictionary, system parameter tree',
  sql: `
    CREATE TABLE dictionary (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      parent_id INTEGER REFERENCES dictionary(id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      code TEXT NOT NULL,
      code_cnname TEXT NOT NULL,
      code_enname TEXT NOT NULL DEFAULT '',
      sort INTEGER NOT NULL DEFAULT 0,
      enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
      builtin INTEGER NOT NULL DEFAULT 0,
      remark TEXT NOT NULL DEFAULT '',
      update_time INTEGER NOT NULL,
      UNIQUE (kind, code)
    );
    CREATE INDEX dictionary_parent ON dictionary(parent_id);
    CREATE TABLE sys_param (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      parent_id INTEGER REFERENCES sys_param(id) ON DELETE RESTRICT,
      param_key TEXT NOT NULL UNIQUE,
      param_name TEXT NOT NULL,
      param_name_en TEXT NOT NULL DEFAULT '',
      kind TEXT NOT NULL,
      scope TEXT NOT NULL DEFAULT 'platform' CHECK (scope IN ('platform', 'company')),
      min REAL,
      max REAL,
      unit TEXT NOT NULL DEFAULT '',
      unit_en TEXT NOT NULL DEFAULT '',
      options TEXT NOT NULL DEFAULT '[]',
      default_value TEXT,
      value TEXT,
      sort INTEGER NOT NULL DEFAULT 0,
      builtin INTEGER NOT NULL DEFAULT 0,
      remark TEXT NOT NULL DEFAULT '',
      updated_by TEXT NOT NULL DEFAULT '',
      update_time INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX sys_param_parent ON sys_param(parent_id);
  `,
};
