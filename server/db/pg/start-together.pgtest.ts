/**
 * Nodes started together on one new PostgreSQL database (issue 20; systemd starts a cluster's units at once).
 * Before, only the schema was made under the start-up lock: the node that made it went on to sync permissions,
 * seed the demo fleet and make the first administrator while the other node ran its own start-up writes against
 * it, and one of them failed (a 5 s lock timeout on the seed's rows) or, seeing no user yet, made a second
 * administrator. Now the whole start-up section is one node after the other (server/db/pg/open.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCrashServer, stopClean, type CrashServer } from '../../ops/crash-harness.ts';
import { PgSyncDb } from './sync-db.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from './test-db.ts';

const skip = pgSkipReason();
if (skip) console.warn(`start-together.pgtest: skipped: ${skip}`);

describe.skipIf(skip !== '')('two nodes started at the same instant on a new PostgreSQL database', () => {
  let tdb: TestDatabase | undefined;
  const dirs: string[] = [];
  const children = new Set<ChildProcess>();
  const nodes: CrashServer[] = [];

  afterAll(async () => {
    for (const n of nodes) await stopClean(n).catch(() => undefined);
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await tdb?.drop();
  });

  it('both start; the schema, the seed and the first administrator are made once', { timeout: 1_300_000 }, async () => {
    tdb = await createTestDatabase();
    const env = { DATABASE_URL: tdb.url, SEED_VEHICLES: '30' };
    for (const name of ['a', 'b']) dirs.push(mkdtempSync(path.join(tmpdir(), `fleet-start-${name}-`)));
    const started = await Promise.allSettled(dirs.map((d) => startCrashServer(d, children, { env, startTimeoutMs: 600_000 })));
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason).slice(0, 600) : 'started'))).toEqual(['started', 'started']);
    const db = new PgSyncDb(tdb.url);
    try {
      expect(db.prepare('SELECT count(*) FROM vehicle').pluck().get()).toBe(30);
      expect(db.prepare("SELECT count(*) FROM user WHERE username = 'admin'").pluck().get()).toBe(1);
      expect(db.prepare("SELECT count(*) FROM database_flag WHERE name = 'demo'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
    // Both answer: each signs a login of the one administrator.
    for (const n of nodes) {
      const r = await fetch(new URL('/service-priv/login', n.apiUrl), {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123', loginType: 'default' }),
      });
      expect(r.status).toBe(200);
    }
  });
});
