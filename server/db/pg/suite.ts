/**
 * The `server-on-pg` vitest project (issue 20: "the server test suite runs against both stores"): the
 * `server` project's own `*.test.ts` files, unchanged, with every storage they open on PostgreSQL
 * (suite-setup.ts gives each data dir a fresh database of the run's throwaway cluster).
 *
 * Which files run is decided here, in one place, when vitest loads its config:
 * - a file that never opens the product's storage (codecs, simulator, pure services: no import of a
 *   server harness, `openStorage` or `buildApp`) tests nothing store-dependent and is left to `server`;
 * - a file that is SQLite-specific by nature is listed in SQLITE_ONLY with the reason, and skipped;
 * - single tests that are SQLite-specific inside an otherwise store-neutral file are in SQLITE_ONLY_TESTS
 *   (skipped at run time with the reason, suite-setup.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Whole files that test SQLite itself: they stay in the `server` project only. */
export const SQLITE_ONLY: Readonly<Record<string, string>> = {
  'server/ops/crash.test.ts': 'kills the server and opens DATA_DIR/fleet.sqlite to count what survived (SQLite WAL durability); on PostgreSQL a commit is PostgreSQL\'s to keep',
  'server/ops/crash-acked.test.ts': 'kills the server and reads the acknowledged positions back from DATA_DIR/fleet.sqlite',
  'server/ops/backup.test.ts': 'the online backup command of the embedded SQLite file (PostgreSQL uses pg_dump / its own backups)',
  'server/ops/durability.test.ts': 'SQLite journal_mode/synchronous pragmas',
  'server/db/read-pool.test.ts': 'the track read pool is extra read-only SQLite connections to the file (off on PostgreSQL)',
  'server/db/migration-machine-affairs.test.ts': 'steps SQLite migrations one by one on a file (the PG schema is derived from all of them, schema.ts)',
  'server/db/migration-position-dedupe.test.ts': 'steps SQLite migrations one by one on a file',
  'server/services/priv/tree-scale.test.ts': 'a scale test: its set-up writes 20,000 vehicles, which through the synchronous PostgreSQL facade (a round trip per row) outlasts the 5-minute hook; the tree\'s SQL is the same as in priv/management.test.ts, which runs on PostgreSQL',
};

/** Single tests (file → test names) that are SQLite-specific in a file that otherwise runs on PostgreSQL. */
export const SQLITE_ONLY_TESTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'server/db/open.test.ts': {
    'creates, migrates and seeds a new database with WAL and foreign keys on': 'checks the SQLite pragmas journal_mode=wal and foreign_keys',
    'gives company alarm rows made before linkage applied the default pop-up and tone (migration 13), and leaves chosen linkage alone':
      're-runs SQLite migration 13 on an existing file (an existing PostgreSQL database is not migrated: CONTEXT.md)',
  },
  'server/db/first-admin.test.ts': {
    'prints the generated password once, at the start that created the administrator':
      'spawns server/main.ts, whose storage follows its own environment (SQLite here); main.ts on PostgreSQL is two-node.pgtest.ts\'s',
  },
  'server/resources/import-jobs.test.ts': {
    'never answer 5xx, and a refusal writes nothing': 'counts writes with SQLite\'s total_changes() (a per-connection counter PostgreSQL has no equivalent of)',
  },
  'server/services/priv/login-backoff.test.ts': {
    'reads an address\'s failures through an index (migration 19), not by scanning every failure of the window':
      'reads SQLite\'s EXPLAIN QUERY PLAN (the PG schema has the same index, derived from migration 19; its planner is PostgreSQL\'s)',
  },
  'server/http/fuzz.test.ts': {
    'fuzzes every route with a schema': 'counts writes with SQLite\'s total_changes() (a per-connection counter PostgreSQL has no equivalent of)',
  },
  'server/ops/ops.test.ts': {
    'the embedded database\'s single node is always the leader: every job runs here (issue 20)':
      'asserts the embedded database\'s SoleLeader; on PostgreSQL leadership is the advisory-lock election of leader.pgtest.ts',
  },
  'server/retention/retention.test.ts': {
    'fails a job the last process left running instead of leaving the user polling forever':
      'on a shared database a start fails only export jobs older than EXPORT_STALE_MS (other nodes may be running them; server/cluster-jobs.md, export-jobs.test.ts covers it)',
  },
  'server/services/safe/safe.test.ts': {
    'raises the platform offline alarm 3 minutes after the last contact and ends it on the next contact':
      'on a shared database without a bus no node sees every terminal, so none raises offline alarms (server/cluster-jobs.md, the offline sweep\'s election)',
  },
  'server/gateway/server.test.ts': {
    'writes every acknowledged position to the database before closing': 'opens DATA_DIR/fleet.sqlite after the shutdown to count the positions',
  },
};

/** A test file opens the product's storage when it uses one of these (directly or through a harness). */
const OPENS_STORAGE = /\b(startServer|startLiveServer|startSimFleet|startCrashServer|openStorage|buildApp)\b|test\/(harness|sim-fleet|scripted-fleet)\.ts|live\/test-harness\.ts/;

function testFiles(dir: string, root: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) testFiles(full, root, out);
    else if (e.name.endsWith('.test.ts')) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out;
}

export interface PgSuitePlan {
  /** Files run on PostgreSQL. */
  readonly include: string[];
  /** SQLite-only files with the reason (skipped). */
  readonly sqliteOnly: readonly { file: string; reason: string }[];
  /** Files that open no storage (not run again on PostgreSQL). */
  readonly storeIndependent: string[];
}

/** The plan for the repository at `root` (the `server` project's files, sorted). */
export function pgSuitePlan(root: string): PgSuitePlan {
  const all = testFiles(path.join(root, 'server'), root, []).sort();
  const include: string[] = [];
  const storeIndependent: string[] = [];
  const sqliteOnly: { file: string; reason: string }[] = [];
  for (const file of all) {
    const reason = SQLITE_ONLY[file];
    if (reason) sqliteOnly.push({ file, reason });
    else if (OPENS_STORAGE.test(readFileSync(path.join(root, file), 'utf8'))) include.push(file);
    else storeIndependent.push(file);
  }
  return { include, sqliteOnly, storeIndependent };
}
