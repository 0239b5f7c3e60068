/**
 * Opens the PostgreSQL database named by DATABASE_URL: connect (PgSyncDb), check the collation, create the
 * schema when the database is empty (derived from the SQLite migrations, schema.ts) or upgrade it in place
 * when it lacks migrations of this release (upgrade.ts), and read the catalogue the translator needs. Nodes starting together: the whole start-up write section (schema, then in
 * db/open.ts the permission registry, the demo seed and the first administrator) runs under one advisory
 * lock, one node after the other. Before, only the schema was: a node starting while another seeded timed
 * out on its writes (lock_timeout 5 s) or, seeing no user yet, made a second `admin`.
 */
import { registeredMigrations, type Migration } from '../migrations.ts';
import { pgSchema } from './schema.ts';
import { PgSyncDb, readCatalog } from './sync-db.ts';
import { applyUpgrade, ensurePgOnlyIndexes, planUpgrade } from './upgrade.ts';

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
  /** Schema versions this start applied (all of them when it created the schema, those it upgraded with, else none). */
  readonly applied: number[];
  /** Ends the start-up section: releases the start-up lock (db/open.ts calls it once its start-up writes are done). */
  readonly started: () => void;
}

/** How long a node waits for another node's start-up section (a first start seeds the demo fleet: minutes on a slow disk). */
export const STARTUP_LOCK_WAIT_MS = 15 * 60_000;
const STARTUP_LOCK_POLL_MS = 250;

/** Blocks this thread for `ms` (start-up only: the facade is synchronous, nothing else runs yet). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Takes the start-up lock, waiting for another node's start-up section as long as STARTUP_LOCK_WAIT_MS. Polled
 * with pg_try_advisory_lock: a blocking pg_advisory_lock would hit lock_timeout (5 s) and the facade's own
 * statement timeout long before a seed ends.
 */
function takeStartupLock(db: PgSyncDb, waitMs = STARTUP_LOCK_WAIT_MS): void {
  const until = Date.now() + waitMs;
  for (;;) {
    const got = (db.query(`SELECT pg_try_advisory_lock(${MIGRATION_LOCK_KEY}) AS ok`).rows[0] as { ok: boolean | number }).ok;
    if (got === true || got === 1) return;
    if (Date.now() > until) throw new Error(`another node has held the start-up lock for over ${Math.round(waitMs / 60_000)} min (its start-up writes: schema, seed); is one stuck?`);
    sleepSync(STARTUP_LOCK_POLL_MS);
  }
}

export interface OpenPostgresOptions {
  /** The migrations this release has (the registry; tests: an older release's list, or one a migration added to). */
  readonly migrations?: readonly Migration[];
  /** Where an upgrade says what it does (default: stderr; a start that upgrades may take minutes). */
  readonly log?: (line: string) => void;
}

export function openPostgres(url: string, options: OpenPostgresOptions = {}): OpenedPostgres {
  const migrations = options.migrations ?? registeredMigrations();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
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
    takeStartupLock(db);
    let applied: number[] = [];
    let released = false;
    const started = () => {
      if (released) return;
      released = true;
      db.execPg(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    };
    try {
      const exists = (db.query("SELECT to_regclass('public.schema_version') IS NOT NULL AS ok").rows[0] as { ok: boolean }).ok;
      if (!exists) {
        const now = Date.now();
        const schema = pgSchema(migrations);
        const rows = schema.versions.map((v) => `(${v.version}, '${v.name.replaceAll("'", "''")}', ${now})`).join(', ');
        // One transaction: a start that dies half-way leaves an empty database, not half a schema.
        db.execPg(`BEGIN;\n${schema.statements.join(';\n')};\nINSERT INTO schema_version (version, name, applied_time) VALUES ${rows};\nCOMMIT`);
        applied = schema.versions.map((v) => v.version);
      } else {
        // A database an older release made: its missing migrations, planned whole first (a migration without a
        // PG form stops the start before any change), then one transaction each (upgrade.ts). Under the start-up
        // lock: a node starting meanwhile waits, then finds nothing missing.
        const have = new Set((db.query('SELECT version FROM schema_version').rows as { version: number }[]).map((r) => r.version));
        applied = applyUpgrade(url, planUpgrade(have, migrations), log);
        ensurePgOnlyIndexes(db, url, log);
      }
    } catch (err) {
      started();
      throw err;
    }
    db.setCatalog(readCatalog(db));
    return { db, applied, started };
  } catch (err) {
    db.close();
    throw err;
  }
}
