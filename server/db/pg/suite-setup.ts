/**
 * Per-file set-up of the `server-on-pg` project (suite.ts): every `openStorage(config)` of the file, be it
 * from buildApp (the test harnesses) or called directly, opens a PostgreSQL database of the run's cluster
 * instead of DATA_DIR/fleet.sqlite. One database per data dir: a fresh data dir gets a fresh database (as
 * it gets a fresh SQLite file), a restart on the same data dir finds what the first start wrote. The
 * simulator's fleet source (sim/fleet-source.ts), which reads the data dir's database, reads that one.
 * The databases are dropped after the file.
 *
 * DATABASE_URL is set only around the synchronous start of the real call (openStorage reads it before its
 * first await), so two servers of one file started together each get their own, and child processes a
 * test spawns stay on SQLite (they take their environment from the test).
 *
 * Seeding a database costs ~1,200 rows of blocking round trips (tens of seconds on a loaded 2-core machine,
 * against a 4 s copy): a seeded database is made once per seed size and copied (CREATE DATABASE … TEMPLATE).
 * A copy is what that start would have seeded, with the seed's clock up to TEMPLATE_MAX_AGE_MS old; its
 * `created` is false (no test of a seeded start reads it: open.test.ts's one is SQLite-only). Unseeded
 * starts (SEED=0: the first administrator's random password) always begin on an empty database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, vi } from 'vitest';
import type { Config } from '../../config.ts';
import { SQLITE_ONLY_TESTS } from './suite.ts';
import { pgSkipReason } from './test-db.ts';

/** A seeded template is rebuilt after this long, so the seed's "now" stays close to the test's. */
const TEMPLATE_MAX_AGE_MS = 10 * 60_000;

const state = vi.hoisted(() => ({
  /** Databases of this file by data dir. */
  databases: new Map<string, { url: string; drop(): Promise<void> }>(),
}));

/** Runs `fn` with DATABASE_URL naming `url` (synchronous part only), restoring it after. */
function withDatabaseUrl<T>(url: string | undefined, fn: () => T): T {
  if (url === undefined) return fn();
  const before = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
  }
}

const urlOf = (dataDir: string) => state.databases.get(path.resolve(dataDir))?.url;

vi.mock(import('../open.ts'), async (importOriginal) => {
  const original = await importOriginal();
  const { default: pg } = await import('pg');
  const { inject } = await import('vitest');
  const { createTestDatabase } = await import('./test-db.ts');
  const { socketUrl } = await import('./test-cluster.ts');

  /** The name of a seeded database for this seed size, made by the first file of the run that needs it. */
  async function seededTemplate(config: Config): Promise<string> {
    const { dir, port } = inject('pgCluster');
    const name = `tpl_${config.seedVehicles}_${config.seedFleetsPerBranch}_${Math.floor(Date.now() / TEMPLATE_MAX_AGE_MS)}`;
    const admin = new pg.Client({ connectionString: socketUrl(dir, port, 'postgres') });
    await admin.connect();
    try {
      // One builder per template across the run's workers; the others wait, then find it.
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = await createTestDatabase();
        const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-pg-template-'));
        try {
          const opened = await withDatabaseUrl(building.url, () => original.openStorage({ ...config, dataDir }));
          opened.storage.close();
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
        await admin.query(`ALTER DATABASE ${building.name} RENAME TO ${name}`);
      }
    } finally {
      await admin.end();
    }
    return name;
  }

  async function openStorage(config: Config): ReturnType<typeof original.openStorage> {
    const key = path.resolve(config.dataDir);
    let tdb = state.databases.get(key);
    if (!tdb) {
      tdb = await createTestDatabase(config.seedEnabled ? await seededTemplate(config) : undefined);
      state.databases.set(key, tdb);
    }
    return withDatabaseUrl(tdb.url, () => original.openStorage(config));
  }
  return { ...original, openStorage };
});

vi.mock(import('../../sim/fleet-source.ts'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    readProvisionedTerminals: (dataDir: string, limit?: number, offset?: number) =>
      withDatabaseUrl(urlOf(dataDir), () => original.readProvisionedTerminals(dataDir, limit, offset)),
    readChosenTerminals: (dataDir: string, deviceNos: readonly string[]) =>
      withDatabaseUrl(urlOf(dataDir), () => original.readChosenTerminals(dataDir, deviceNos)),
  };
});

const unavailable = pgSkipReason();
// This project exists to run on PostgreSQL: without it every file fails with the reason rather than
// passing on SQLite under a PostgreSQL name.
if (unavailable) throw new Error(`server-on-pg: ${unavailable}`);

beforeEach((ctx) => {
  const file = path.relative(process.cwd(), ctx.task.file.filepath).split(path.sep).join('/');
  const reason = SQLITE_ONLY_TESTS[file]?.[ctx.task.name];
  if (reason) ctx.skip(`SQLite-only on server-on-pg: ${reason}`);
});

afterAll(async () => {
  for (const tdb of state.databases.values()) await tdb.drop();
  state.databases.clear();
});
