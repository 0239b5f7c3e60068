/**
 * Opens the PostgreSQL database named by DATABASE_URL: connect (PgSyncDb), check the collation, create the
 * schema when the database is empty (derived from the SQLite migrations, schema.ts), and read the catalogue
 * the translator needs. Two nodes starting together: the schema is made under an advisory lock, once.
 */
import { schemaVersions } from '../migrations.ts';
import { pgSchema } from './schema.ts';
import { PgSyncDb, readCatalog } from './sync-db.ts';

/** Advisory-lock key held while the schema is created or checked ('fmig'). */
const MIGRATION_LOCK_KEY = 0x666d6967;

/** True for a DATABASE_URL that selects PostgreSQL; any other non-empty value is refused with the reason. */
export function isPostgresUrl(url: string | undefined): url is string {
  if (url === undefined || url.trim() === '') return false;
  if (/^postgres(?:ql)?:\/\//i.test(url.trim())) return true;
  throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL (unset it to use the embedded SQLite database); got "${url.replace(/\/\/[^@/]*@/, '//…@')}"`);
}

export interface OpenedPostgres {
  readonly db: PgSyncDb;
  /** Schema versions this start applied (all of them when it created the schema, else none). */
  readonly applied: number[];
}

export function openPostgres(url: string): OpenedPostgres {
  const db = new PgSyncDb(url);
  try {
    const collate = db.query('SHOW lc_collate').rows[0] as { lc_collate: string };
    // Company scopes compare paths as byte ranges (db/scope.ts): any other collation orders them differently.
    if (collate.lc_collate !== 'C' && collate.lc_collate !== 'POSIX') {
      throw new Error(`DATABASE_URL: the database must use C collation, it uses "${collate.lc_collate}". `
        + "Create it with: CREATE DATABASE fleet TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
    }
    // The analogue of SQLite's busy_timeout: a statement waits for a lock at most 5 s, then fails (SQLITE_BUSY).
    db.execPg("SET lock_timeout = '5s'");
    db.execPg(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    let applied: number[] = [];
    try {
      const exists = (db.query("SELECT to_regclass('public.schema_version') IS NOT NULL AS ok").rows[0] as { ok: boolean }).ok;
      const versions = schemaVersions();
      if (!exists) {
        const now = Date.now();
        const schema = pgSchema();
        const rows = schema.versions.map((v) => `(${v.version}, '${v.name.replaceAll("'", "''")}', ${now})`).join(', ');
        // One transaction: a start that dies half-way leaves an empty database, not half a schema.
        db.execPg(`BEGIN;\n${schema.statements.join(';\n')};\nINSERT INTO schema_version (version, name, applied_time) VALUES ${rows};\nCOMMIT`);
        applied = schema.versions.map((v) => v.version);
      } else {
        const have = new Set((db.query('SELECT version FROM schema_version').rows as { version: number }[]).map((r) => r.version));
        const missing = versions.filter((v) => !have.has(v));
        if (missing.length > 0) {
          throw new Error(`the PostgreSQL schema lacks migrations ${missing.join(', ')}: migrating an existing PostgreSQL database is not supported yet (server/db/CONTEXT.md); recreate it or wait for that step`);
        }
      }
    } finally {
      db.execPg(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
    db.setCatalog(readCatalog(db));
    return { db, applied };
  } catch (err) {
    db.close();
    throw err;
  }
}
