/**
 * Issue 20 scale-out, leadership on a shared PostgreSQL database (server/ops/leader.ts, server/cluster-jobs.md):
 * - two `PgLeadership`s on one database: exactly one leads; when the leader's session ends the other takes over
 *   within its retry interval;
 * - two `server/main.ts` processes on one database: exactly one answers `leader: true` (and `fleet_leader 1`);
 *   a once-only job (the retention round, here its export-files sweep) does not run on the follower; `kill -9`
 *   of the leader makes the follower leader within a bound, and it runs the job then.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgSyncDb } from '../db/pg/sync-db.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from '../db/pg/test-db.ts';
import { killHard, startCrashServer, stopClean, type CrashServer } from './crash-harness.ts';
import { LEADER_RETRY_MS, PgLeadership } from './leader.ts';

const skip = pgSkipReason();
if (skip) console.warn(`leader.pgtest: skipped: ${skip}`);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await wait(100);
  }
}

async function ready(node: CrashServer): Promise<{ status: string; leader: boolean }> {
  const r = await fetch(new URL('/health/ready', node.apiUrl));
  return (await r.json()) as { status: string; leader: boolean };
}

/** `fleet_leader`'s value (the metrics route answers loopback scrapes without a token). */
async function leaderGauge(node: CrashServer): Promise<number | undefined> {
  const text = await (await fetch(new URL('/metrics', node.apiUrl))).text();
  const line = text.split('\n').find((l) => l.startsWith('fleet_leader '));
  return line === undefined ? undefined : Number(line.slice('fleet_leader '.length));
}

describe.skipIf(skip !== '')('leadership on a shared PostgreSQL database', () => {
  let tdb: TestDatabase;

  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it('two candidates: exactly one leads; when its session ends the other takes over within its retry interval', { timeout: 30_000 }, async () => {
    const a = new PgLeadership(tdb.url, { retryMs: 200 });
    const b = new PgLeadership(tdb.url, { retryMs: 200 });
    const changes: string[] = [];
    a.onChange((l) => changes.push(`a:${l}`));
    b.onChange((l) => changes.push(`b:${l}`));
    try {
      await a.start();
      await b.start();
      expect([a.isLeader, b.isLeader]).toEqual([true, false]);
      await wait(600); // b retried ~3 times meanwhile: the lock stays a's
      expect([a.isLeader, b.isLeader]).toEqual([true, false]);
      const lost = Date.now();
      await a.stop();
      await until(async () => b.isLeader, (v) => v, 3000);
      expect(b.isLeader).toBe(true);
      expect(Date.now() - lost).toBeLessThan(2500);
      expect(changes).toEqual(['a:true', 'a:false', 'b:true']);
      // a comes back: a follower now.
      await a.start();
      await wait(500);
      expect([a.isLeader, b.isLeader]).toEqual([false, true]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  describe('two server processes', () => {
    const dirs: string[] = [];
    const children = new Set<ChildProcess>();
    let node1: CrashServer;
    let node2: CrashServer | undefined;

    beforeAll(async () => {
      dirs.push(mkdtempSync(path.join(tmpdir(), 'fleet-lead1-')), mkdtempSync(path.join(tmpdir(), 'fleet-lead2-')));
      // Node 1 alone makes the schema and becomes the leader.
      // The loaded 2-core machine: a node on the synchronous PostgreSQL bridge can take minutes to start.
      node1 = await startCrashServer(dirs[0]!, children, { env: { DATABASE_URL: tdb.url, SEED_VEHICLES: '5' }, startTimeoutMs: 600_000 });
    }, 660_000);

    afterAll(async () => {
      for (const n of [node1, node2]) if (n && n.proc.exitCode === null && n.proc.signalCode === null) await stopClean(n).catch(() => undefined);
      for (const c of children) c.kill('SIGKILL');
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    it('one leader; the follower skips the once-only sweep; kill -9 of the leader hands it over within a bound', { timeout: 900_000 }, async () => {
      expect(await ready(node1)).toMatchObject({ status: 'ok', leader: true });
      // Node 1's retention round at start has run (it deleted nothing: no exports yet). An export finished two
      // hours ago (EXPORT_RETENTION_MINUTES 30) is due for deletion from now on, by the leader's next round.
      await wait(2000);
      const db = new PgSyncDb(tdb.url);
      const exportRows = () => db.prepare("SELECT count(*) AS n FROM export_file WHERE id = 'expired-probe'").pluck().get() as number;
      try {
        const twoHoursAgo = Date.now() - 2 * 3_600_000;
        db.prepare(`INSERT INTO export_file (id, kind, user_id, status, total, exported, size, file_name_zh, file_name_en, ascii_name, created_at, finished_at)
          VALUES ('expired-probe', 'track', 1, 'done', 1, 1, 1, 'x', 'x', 'x', ?, ?)`).run(twoHoursAgo, twoHoursAgo);

        // Node 2 starts now: a leader would sweep at once (the round runs at start); a follower leaves the row.
        node2 = await startCrashServer(dirs[1]!, children, { env: { DATABASE_URL: tdb.url, SEED_VEHICLES: '5' }, startTimeoutMs: 600_000 });
        expect(await ready(node2)).toMatchObject({ status: 'ok', leader: false });
        expect(await leaderGauge(node2)).toBe(0);
        expect(await leaderGauge(node1)).toBe(1);
        await wait(3000);
        expect(exportRows()).toBe(1);
        expect((await ready(node1)).leader).toBe(true);
        expect((await ready(node2)).leader).toBe(false);

        // The leader dies without a word: its session ends with its socket, the lock with it.
        const killed = Date.now();
        await killHard(node1);
        const after = await until(() => ready(node2!), (r) => r.leader, 15_000);
        const tookOver = Date.now() - killed;
        expect(after.leader).toBe(true);
        // One retry interval, plus the loaded machine's slack.
        expect(tookOver).toBeLessThan(LEADER_RETRY_MS + 5000);
        // The new leader runs the round at once: the expired export is gone.
        const gone = await until(async () => exportRows(), (n) => n === 0, 15_000);
        expect(gone).toBe(0);
        console.log(`leader.pgtest: follower became leader ${tookOver} ms after kill -9 of the leader`);
      } finally {
        db.close();
      }
    });
  });
});
