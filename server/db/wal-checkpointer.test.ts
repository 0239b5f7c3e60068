import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDb } from './sqlite.ts';
import { attachWalCheckpointer, BACKSTOP_PAGES, type WalCheckpointer } from './wal-checkpointer.ts';

let dir: string;
let db: SqliteDb;
let checkpointer: WalCheckpointer | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'fleet-wal-checkpoint-'));
  db = openSqlite(path.join(dir, 'fleet.sqlite'));
  db.exec('CREATE TABLE blob_row (id INTEGER PRIMARY KEY, data BLOB)');
});

afterEach(async () => {
  await checkpointer?.close();
  checkpointer = undefined;
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `pages` 4 KiB pages of new rows, in commits of ~40 pages (as the history writer's batches). */
function write(pages: number): void {
  const insert = db.prepare('INSERT INTO blob_row (data) VALUES (?)');
  const commit = db.transaction((n: number) => {
    for (let i = 0; i < n; i++) insert.run(Buffer.alloc(4000, i));
  });
  for (let done = 0; done < pages; done += 40) commit(40);
}

/** What the log holds, asked of a separate connection (a PASSIVE checkpoint that copies what it can). */
function logFrames(): { log: number; checkpointed: number } {
  const probe = new Database(db.name);
  try {
    const [r] = probe.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    return r!;
  } finally {
    probe.close();
  }
}

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('WAL checkpoints off the event loop (an alarm storm must not wait for fsync inside a commit)', () => {
  it('without it a commit past 1,000 pages checkpoints on the writer itself (the stall this removes)', () => {
    write(1_400);
    // SQLite checkpointed inside a commit and started the log over: far fewer frames than written.
    expect(logFrames().log).toBeLessThan(1_000);
  });

  it('with it, commits never checkpoint (the log keeps every frame until the worker copies it)', () => {
    checkpointer = attachWalCheckpointer(db, { intervalMs: 3_600_000 });
    expect(checkpointer).toBeDefined();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
    write(1_400);
    expect(logFrames().log).toBeGreaterThanOrEqual(1_400);
  });

  it('the worker copies the log into the database file, and the writer reuses the log afterwards', async () => {
    checkpointer = attachWalCheckpointer(db, { intervalMs: 20 });
    write(600);
    await until(() => checkpointer!.stats.checkpoints > 0 && checkpointer!.stats.lastLogFrames >= 600);
    await until(() => {
      const r = logFrames();
      return r.log > 0 && r.checkpointed === r.log;
    });
    const r = logFrames();
    expect(r.checkpointed).toBe(r.log);
    expect(checkpointer!.stats.checkpoints).toBeGreaterThan(0);
    // The next commits start the log over instead of growing it.
    write(80);
    expect(logFrames().log).toBeLessThan(600);
    expect(db.prepare('SELECT COUNT(*) FROM blob_row').pluck().get()).toBe(680);
  });

  it('if the worker is gone, the writer still checkpoints at the backstop: the log cannot grow without bound', async () => {
    checkpointer = attachWalCheckpointer(db, { intervalMs: 3_600_000, backstopPages: 300 });
    await checkpointer!.close();
    checkpointer = undefined;
    write(1_400);
    expect(logFrames().log).toBeLessThan(700);
  });

  it('stays off for an in-memory database', () => {
    const mem = openSqlite(':memory:');
    expect(attachWalCheckpointer(mem)).toBeUndefined();
    mem.close();
  });
});
