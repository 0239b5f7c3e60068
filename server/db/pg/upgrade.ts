/**
 * Upgrading an existing PostgreSQL database in place, when a newer release starts on it (issue 20).
 *
 * The PG schema is derived from the SQLite migrations (schema.ts), so an upgrade is derived the same way:
 * the SQLite schema of the versions the database has is built on `:memory:`, then each missing migration's
 * statements run there one by one. After each schema statement, the PG schema of the new state is compared
 * with the one before (schema.ts `schemaModel`) and the difference becomes PG DDL: tables created or dropped,
 * columns appended (with their defaults), foreign keys of those, indexes created, dropped or redefined,
 * triggers (their hand-written PG versions). Each data statement (INSERT/UPDATE/DELETE backfills, temporary
 * helper tables) is translated (translate.ts) and runs at its place, between the DDL before and after it.
 *
 * Refused, by migration and reason, before anything is changed: what has no safe PG form derived this way:
 * a table rebuild (SQLite's create-copy-drop-rename), a renamed or dropped column, a changed column type,
 * default or NOT NULL, a changed key or UNIQUE constraint, a dropped table another still references, a
 * PRAGMA or other statement without a PG form. Such a migration needs its PG version written by hand
 * (`PG_VERSIONS` below) before it ships.
 *
 * The whole plan is made (and any refusal raised) before the first change; then each migration is one PG
 * transaction (DDL is transactional there) with its `schema_version` row, so a failure leaves the database at
 * the last migration that committed, never half of one.
 */
import Database from 'better-sqlite3';
import { migrate, type Migration } from '../migrations.ts';
import { catalogOf, masterInsert, PG_ONLY_INDEXES, schemaModel, type SchemaModel, type TableModel } from './schema.ts';
import { PgSyncDb, type PgSyncError } from './sync-db.ts';
import { translate } from './translate.ts';

/** A migration this release cannot apply to a PostgreSQL database; the message says which, why, and what to do. */
export class UnsupportedMigrationError extends Error {
  constructor(readonly version: number, readonly migrationName: string, readonly reason: string, at: number[]) {
    super(`migration ${version} (${migrationName}) cannot be applied to an existing PostgreSQL database: it ${reason}. `
      + `Nothing was changed: the database stays at version ${at.length > 0 ? Math.max(...at) : 0}, where the previous release runs on it. `
      + `Keep that release running; this migration needs a PostgreSQL version written by hand (server/db/pg/upgrade.ts PG_VERSIONS) before this release can upgrade it`);
    this.name = 'UnsupportedMigrationError';
  }
}

/**
 * Hand-written PG versions of migrations the derivation refuses, by version: PG statements run in the
 * migration's transaction instead of the derived ones (the SQLite schema after it must be what they make).
 * None so far: every migration after 40 is derived (upgrade.pgtest.ts upgrades across them).
 */
export const PG_VERSIONS: Readonly<Record<number, readonly string[]>> = {};

export interface UpgradeStep {
  readonly version: number;
  readonly name: string;
  /** PG statements in order; the `schema_version` row is added when it runs. */
  readonly statements: readonly string[];
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Leading comments and blanks of a statement (splitStatements keeps them). */
const stripComments = (s: string) => s.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');

/**
 * A migration's statements, each exactly as written (SQLite keeps a CREATE statement's text in sqlite_master,
 * comments inside included), leading comments left out; a trigger's body (`BEGIN …; …; END`) stays one statement.
 */
export function migrationStatements(sql: string): string[] {
  const out: string[] = [];
  let from = 0;
  const cut = (to: number) => {
    const stmt = stripComments(sql.slice(from, to)).trim();
    from = to + 1;
    if (stmt !== '') out.push(stmt);
  };
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      for (i++; i < sql.length && !(sql[i] === close && sql[i + 1] !== close); i++) if (sql[i] === close) i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      i = sql.indexOf('*/', i + 2);
      if (i < 0) i = sql.length;
      else i++;
    } else if (c === ';') {
      const sofar = stripComments(sql.slice(from, i));
      // Inside a trigger until its END.
      if (/^CREATE\s+(?:TEMP(?:ORARY)?\s+)?TRIGGER\b/i.test(sofar) && !/\bEND\s*$/i.test(sofar)) continue;
      cut(i);
    }
  }
  cut(sql.length);
  return out;
}

type Kind = { kind: 'schema' } | { kind: 'data' } | { kind: 'refused'; reason: string };

const NAME = String.raw`("(?:[^"]|"")+"|\w+)`;
const unquote = (n: string) => n.replace(/^"|"$/g, '').replaceAll('""', '"');

function classify(stmt: string, temps: Set<string>): Kind {
  let m: RegExpExecArray | null;
  if ((m = new RegExp(String.raw`^CREATE\s+TEMP(?:ORARY)?\s+(?:TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?${NAME}`, 'i').exec(stmt))) {
    temps.add(unquote(m[1]!).toLowerCase());
    return { kind: 'data' };
  }
  if ((m = new RegExp(String.raw`^DROP\s+(?:TABLE|VIEW)\s+(?:IF\s+EXISTS\s+)?(?:temp\.)?${NAME}`, 'i').exec(stmt)) && temps.has(unquote(m[1]!).toLowerCase())) return { kind: 'data' };
  if ((m = new RegExp(String.raw`^ALTER\s+TABLE\s+${NAME}\s+RENAME\s+TO\s+${NAME}`, 'i').exec(stmt))) {
    return { kind: 'refused', reason: `renames table ${unquote(m[1]!)} to ${unquote(m[2]!)} (a table rebuild: create, copy, drop, rename)` };
  }
  if ((m = new RegExp(String.raw`^ALTER\s+TABLE\s+${NAME}\s+RENAME\s+(?:COLUMN\s+)?${NAME}\s+TO\s+${NAME}`, 'i').exec(stmt))) {
    return { kind: 'refused', reason: `renames column ${unquote(m[1]!)}.${unquote(m[2]!)} to ${unquote(m[3]!)}` };
  }
  if ((m = new RegExp(String.raw`^ALTER\s+TABLE\s+${NAME}\s+DROP\s+(?:COLUMN\s+)?${NAME}`, 'i').exec(stmt))) {
    return { kind: 'refused', reason: `drops column ${unquote(m[1]!)}.${unquote(m[2]!)}` };
  }
  if ((m = new RegExp(String.raw`^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?${NAME}\s+AS\b`, 'i').exec(stmt))) {
    return { kind: 'refused', reason: `creates table ${unquote(m[1]!)} from a query (CREATE TABLE … AS: its rows would not be carried)` };
  }
  if (/^ALTER\s+TABLE\s+\S+\s+ADD\b/i.test(stmt)) return { kind: 'schema' };
  if (/^(?:CREATE|DROP)\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b/i.test(stmt)) return { kind: 'schema' };
  if (/^(?:INSERT|UPDATE|DELETE|REPLACE|WITH)\b/i.test(stmt)) return { kind: 'data' };
  return { kind: 'refused', reason: `has a statement without a PostgreSQL form: ${stmt.slice(0, 80)}` };
}

/** A schema change the upgrade cannot express on PG; the message is the reason (after "it"). */
class CannotDerive extends Error {}

/** The PG DDL that turns schema `a` into schema `b`; throws CannotDerive for a change it cannot express. */
export function schemaChange(a: SchemaModel, b: SchemaModel): string[] {
  const out: string[] = [];
  const gone = [...a.tables.keys()].filter((n) => !b.tables.has(n));
  for (const name of gone) {
    const user = [...b.tables.values()].find((t) => t.foreignKeys.some((fk) => fk.includes(` REFERENCES ${q(name)}`)));
    if (user) throw new CannotDerive(`drops table ${name}, which table ${user.name} still references (a table rebuild)`);
  }
  // Triggers and indexes that go or change first, while their tables are there (a dropped table takes its own).
  for (const [name, t] of a.triggers) {
    if (b.triggers.get(name)?.sql !== t.sql) out.push(`DROP TRIGGER ${q(name)} ON ${q(t.table)}`, `DROP FUNCTION ${q(name)}()`);
  }
  for (const [name, ix] of a.indexes) {
    if (b.indexes.get(name)?.sql !== ix.sql && !gone.includes(ix.table)) out.push(`DROP INDEX ${q(name)}`);
  }
  for (const name of gone) {
    const t = a.tables.get(name)!;
    out.push(`DROP TABLE ${q(name)}`);
    if (t.partitionKey && t.hasRowid) out.push(`DROP SEQUENCE ${name}_rowid_seq`);
  }
  const foreignKeys: string[] = [];
  for (const [name, t] of b.tables) {
    const before = a.tables.get(name);
    if (!before) {
      out.push(...t.create);
      foreignKeys.push(...t.foreignKeys);
    } else if (before !== t) {
      const added = appendedColumns(before, t);
      for (const c of added) out.push(`ALTER TABLE ${q(name)} ADD COLUMN ${c.def}`);
      const lost = before.foreignKeys.find((fk) => !t.foreignKeys.includes(fk));
      if (lost) throw new CannotDerive(`changes the foreign keys of table ${name} (${lost.replace(/^ALTER TABLE \S+ ADD /, '')} goes)`);
      foreignKeys.push(...t.foreignKeys.filter((fk) => !before.foreignKeys.includes(fk)));
    }
  }
  out.push(...foreignKeys);
  for (const [name, ix] of b.indexes) if (a.indexes.get(name)?.sql !== ix.sql) out.push(ix.sql);
  for (const [name, t] of b.triggers) if (a.triggers.get(name)?.sql !== t.sql) out.push(t.sql);
  return out;
}

/** The columns `after` appends to `before`; throws the reason when anything else of the table changed. */
function appendedColumns(before: TableModel, after: TableModel): TableModel['columns'] {
  const table = before.name;
  for (const [i, c] of before.columns.entries()) {
    const now = after.columns.find((x) => x.name === c.name);
    if (!now) throw new CannotDerive(`drops column ${table}.${c.name}`);
    if (now.def !== c.def) throw new CannotDerive(`changes column ${table}.${c.name} (${c.def} → ${now.def})`);
    if (after.columns[i] !== now) throw new CannotDerive(`reorders the columns of table ${table} (a table rebuild)`);
  }
  if (after.shape !== before.shape) throw new CannotDerive(`changes the keys or constraints of table ${table} (${before.shape || 'none'} → ${after.shape || 'none'})`);
  return after.columns.slice(before.columns.length);
}

/**
 * The PG statements of each migration of `migrations` the database (at versions `have`) lacks, in version
 * order. Pure (SQLite on `:memory:`): throws UnsupportedMigrationError before the database is touched.
 */
export function planUpgrade(have: ReadonlySet<number>, migrations: readonly Migration[], handWritten: Readonly<Record<number, readonly string[]>> = PG_VERSIONS): UpgradeStep[] {
  const sorted = [...migrations].sort((x, y) => x.version - y.version);
  const missing = sorted.filter((m) => !have.has(m.version));
  if (missing.length === 0) return [];
  const known = new Set(sorted.map((m) => m.version));
  const unknown = [...have].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new Error(`the PostgreSQL database has migrations this release does not know (${unknown.join(', ')}: a newer release upgraded it) and lacks ${missing.map((m) => m.version).join(', ')}; start the newer release`);
  }
  const lite = new Database(':memory:');
  try {
    migrate(lite, Number.MAX_SAFE_INTEGER, sorted.filter((m) => have.has(m.version)));
    lite.pragma('foreign_keys = OFF'); // no rows here; the order of a migration's statements is its own
    let model = schemaModel(lite);
    const steps: UpgradeStep[] = [];
    for (const m of missing) {
      const statements: string[] = [];
      const refuse = (reason: string) => new UnsupportedMigrationError(m.version, m.name, reason, [...have]);
      const parts = migrationStatements(m.sql);
      const temps = new Set<string>();
      const kinds = parts.map((s) => classify(s, temps));
      const hand = handWritten[m.version];
      const refused = kinds.find((k) => k.kind === 'refused');
      if (refused && !hand) throw refuse(refused.reason);
      for (const [i, stmt] of parts.entries()) {
        try {
          lite.exec(stmt);
        } catch (err) {
          throw refuse(`fails on SQLite itself (${(err as Error).message}) at: ${stmt.slice(0, 80)}`);
        }
        if (hand) continue;
        if (kinds[i]!.kind === 'schema') {
          const next = schemaModel(lite);
          try {
            statements.push(...schemaChange(model, next));
          } catch (err) {
            if (err instanceof CannotDerive) throw refuse(err.message);
            throw err;
          }
          model = next;
          continue;
        }
        let t;
        try {
          t = translate(stmt, catalogOf(model));
        } catch (err) {
          throw refuse(`has a data statement the translator cannot carry (${(err as Error).message})`);
        }
        if (t.params.length > 0) throw refuse(`has a data statement with parameters: ${stmt.slice(0, 80)}`);
        statements.push(t.text);
        // Rows given explicit ids: the identity moves past them, as PgSyncDb does after a seed.
        if (t.explicitId && t.insertTable) {
          statements.push(`SELECT setval(pg_get_serial_sequence('${q(t.insertTable)}', 'id'), greatest((SELECT max(id) FROM ${q(t.insertTable)}), 0) + 1, false)`);
        }
      }
      if (hand) {
        statements.push(...hand);
        model = schemaModel(lite);
      }
      // The copy of SQLite's catalogue follows the schema (schema.ts).
      statements.push('DELETE FROM sqlite_master', masterInsert(model));
      steps.push({ version: m.version, name: m.name, statements });
    }
    return steps;
  } finally {
    lite.close();
  }
}

/** Longest one statement of an upgrade may run (a backfill or an index over all positions takes long). */
export const UPGRADE_STATEMENT_TIMEOUT_MS = 6 * 3_600_000;
/** A migration that cannot get a table lock within 5 s (a long reader elsewhere) is retried this often. */
const LOCK_ATTEMPTS = 10;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Applies `steps` on a connection of its own (no statement timeout of the facade's 60 s), one transaction per
 * migration with its `schema_version` row. The caller holds the start-up lock. Answers the versions applied.
 */
export function applyUpgrade(url: string, steps: readonly UpgradeStep[], log: (line: string) => void): number[] {
  if (steps.length === 0) return [];
  const conn = new PgSyncDb(url, { timeoutMs: UPGRADE_STATEMENT_TIMEOUT_MS });
  const applied: number[] = [];
  try {
    const from = (conn.query('SELECT coalesce(max(version), 0) AS v FROM schema_version').rows[0] as { v: number }).v;
    log(`PostgreSQL: upgrading the schema from version ${from}: migrations ${steps.map((s) => s.version).join(', ')}`);
    for (const step of steps) {
      const started = Date.now();
      for (let attempt = 1; ; attempt++) {
        let current = '';
        try {
          // lock_timeout: waiting for a table lock queues every other session's statements on that table behind it.
          conn.execPg("BEGIN; SET LOCAL lock_timeout = '5s'; SET LOCAL statement_timeout = 0");
          for (const sql of step.statements) {
            current = sql;
            conn.execPg(sql);
          }
          current = 'INSERT INTO schema_version';
          conn.query('INSERT INTO schema_version (version, name, applied_time) VALUES ($1, $2, $3)', [step.version, step.name, Date.now()]);
          conn.execPg('COMMIT');
          break;
        } catch (err) {
          if (conn.open && conn.inTransaction) conn.execPg('ROLLBACK');
          if ((err as PgSyncError).sqlState === '55P03' && attempt < LOCK_ATTEMPTS) {
            sleepSync(1000);
            continue;
          }
          throw new Error(`migration ${step.version} (${step.name}) failed on PostgreSQL and was rolled back: ${(err as Error).message}; `
            + `at: ${current.slice(0, 200)}. The database stays at version ${Math.max(from, ...applied)}${applied.length > 0 ? ` (this start applied ${applied.join(', ')})` : ''}`, { cause: err });
        }
      }
      applied.push(step.version);
      log(`PostgreSQL: migration ${step.version} (${step.name}) applied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    return applied;
  } finally {
    conn.close();
  }
}

/**
 * The PostgreSQL-only indexes (schema.ts PG_ONLY_INDEXES) of tables the database has: made when missing (a
 * database created before one was added), on a connection of its own (building one over all positions takes
 * longer than the facade's 60 s). Runs under the start-up lock; one check per index when they exist.
 */
export function ensurePgOnlyIndexes(db: PgSyncDb, url: string, log: (line: string) => void): void {
  const missing = PG_ONLY_INDEXES.filter((ix) => {
    const r = db.query('SELECT to_regclass($1) IS NOT NULL AS t, to_regclass($2) IS NOT NULL AS i', [`public.${q(ix.table)}`, `public.${q(ix.name)}`]).rows[0] as { t: boolean; i: boolean };
    return r.t && !r.i;
  });
  if (missing.length === 0) return;
  const conn = new PgSyncDb(url, { timeoutMs: UPGRADE_STATEMENT_TIMEOUT_MS });
  try {
    for (const ix of missing) {
      log(`PostgreSQL: creating index ${ix.name} (PostgreSQL-only, missing from this database)`);
      conn.execPg(ix.sql);
    }
  } finally {
    conn.close();
  }
}
