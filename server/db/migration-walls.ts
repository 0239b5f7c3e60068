/**
 * Migration 21 (issue 14, /largeScreen walls): display credentials and stored wall presets.
 *
 * `display_credential`: a wall's own read-only key (server/auth/display.ts). Only a SHA-256 of the
 * 32-byte random secret is kept (the secret has 256 bits of entropy, so a fast hash is enough and
 * lets every wall call verify in microseconds); the plain key is shown once, at creation. Revoking
 * sets `revoked_time`; rows stay for the list (who made it, when it was last used).
 * `wall_preset`: an administrator's layout of one wall (domain/walls/preset.ts); a wall without a
 * row uses the factory preset.
 */
export const WALLS_MIGRATION = {
  version: 21,
  name: 'wall display credentials and presets',
  sql: `
    CREATE TABLE display_credential (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      company_id INTEGER NOT NULL,
      secret_hash BLOB NOT NULL,
      created_by INTEGER,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      last_seen INTEGER,
      last_ip TEXT,
      revoked_time INTEGER,
      revoked_by_name TEXT
    );
    CREATE INDEX display_credential_company ON display_credential(company_id);
    CREATE TABLE wall_preset (
      wall TEXT PRIMARY KEY,
      config TEXT NOT NULL,
      updated_by_name TEXT NOT NULL,
      update_time INTEGER NOT NULL
    );
  `,
};
