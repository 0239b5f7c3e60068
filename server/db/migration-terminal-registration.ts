/**
 * Migration 14 (issue 12 §2): re-registration of a registered terminal is refused (0x8100 result 3),
 * and the refusals are visible on the terminal row: count, last time and remote address. A terminal
 * leaves the registered state by its own 0x0003 (terminal unregistration) or an operator's reset;
 * `unregister_time` / `unregister_by` ('terminal' | 'operator') / `reset_user_id` say which.
 *
 * `auth_code` is NOT NULL since migration 2; relaxing that needs a table rebuild, which would race
 * with parallel migrations that add columns to `terminal`. So an empty auth code means "no valid code"
 * (unregistered or reset); the repository reads it as null (NULLIF).
 *
 * `database_flag`: facts about the database itself. 'demo' is set when the demo seed filled a new
 * database, so the gateway's autoRegister default (on for a demo database only) survives restarts.
 */
export const TERMINAL_REGISTRATION_MIGRATION = {
  version: 14,
  name: 'terminal registration: refused re-registrations, unregistration and operator reset; database flags',
  sql: `
    ALTER TABLE terminal ADD COLUMN refused_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE terminal ADD COLUMN refused_time INTEGER;
    ALTER TABLE terminal ADD COLUMN refused_address TEXT;
    ALTER TABLE terminal ADD COLUMN unregister_time INTEGER;
    ALTER TABLE terminal ADD COLUMN unregister_by TEXT CHECK (unregister_by IN ('terminal', 'operator'));
    ALTER TABLE terminal ADD COLUMN reset_user_id INTEGER;

    CREATE TABLE database_flag (
      name TEXT PRIMARY KEY,
      set_time INTEGER NOT NULL
    );
  `,
} as const;
