/**
 * The audit writer against a store that keeps failing (review finding: failed batches were requeued without
 * a cap, so a broken database grew the server's memory with every call): the queue stays under its cap, the
 * oldest rows go first and are counted, retries back off instead of spinning, and once the store answers
 * again the newest rows are written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrations.ts';
import { openSqlite, type SqliteDb } from '../../db/sqlite.ts';
import { AuditWriter, type AuditRow } from './writer.ts';

let dir: string;
let db: SqliteDb;

const row = (i: number): AuditRow => ({
  time: i, userId: null, userName: '', companyId: null, sessionId: null, ip: '127.0.0.1', method: 'POST',
  route: '/service-priv/vehicle', permission: 'public', page: '', button: '', result: 'ok', status: 200, code: 200, targets: [['record', i + 1]],
});
const breakStore = () => db.exec("CREATE TRIGGER audit_broken BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END");
const mendStore = () => db.exec('DROP TRIGGER audit_broken');

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'audit-writer-'));
  db = openSqlite(path.join(dir, 'a.db'));
  migrate(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the audit writer while its store fails', () => {
  it('failure: a store that refuses every batch cannot grow the queue past its cap; the oldest rows are dropped and counted', async () => {
    const drops: number[] = [];
    const writer = new AuditWriter(db, { flushMs: 60_000, maxRows: 1_000_000, maxQueued: 1_000, onDrop: (n) => drops.push(n) });
    breakStore();
    let highest = 0;
    for (let i = 0; i < 20_000; i++) {
      writer.add(row(i));
      highest = Math.max(highest, writer.pending);
      // Every 500 calls a flush fails and requeues its batch, as the timer's would.
      if (i % 500 === 499) await expect(writer.flush()).rejects.toThrow(/disk I\/O error/);
    }
    expect(highest).toBeLessThanOrEqual(1_000);
    expect(writer.stats.failedFlushes).toBe(40);
    expect(writer.stats.dropped).toBe(20_000 - writer.pending);
    expect(drops.reduce((a, b) => a + b, 0)).toBe(writer.stats.dropped);
    // Dropped in chunks (one log line per chunk, not per call).
    expect(drops.length).toBeLessThan(250);
    // The store answers again: what is kept is the newest, and it is written.
    mendStore();
    const kept = writer.pending;
    await writer.flush();
    const times = db.prepare('SELECT min(time) AS lo, max(time) AS hi, count(*) AS n FROM audit_log').get() as { lo: number; hi: number; n: number };
    expect(times).toEqual({ lo: 20_000 - kept, hi: 19_999, n: kept });
    await writer.close();
  });

  it('failure: a full queue on a failing store retries with a growing wait, not in a busy loop', async () => {
    const writer = new AuditWriter(db, { flushMs: 20, maxRows: 10, maxQueued: 1_000, onError: () => undefined });
    breakStore();
    for (let i = 0; i < 50; i++) writer.add(row(i));
    await new Promise((r) => setTimeout(r, 400));
    // 20, 40, 80, 160 ms apart: about four tries in 400 ms (an immediate retry would make hundreds).
    expect(writer.stats.failedFlushes).toBeGreaterThanOrEqual(2);
    expect(writer.stats.failedFlushes).toBeLessThanOrEqual(6);
    expect(writer.pending).toBe(50);
    mendStore();
    await writer.close();
    expect((db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n).toBe(50);
  });
});
