/**
 * Issue 20: `npm run backup` copies the live database while the server writes; the copy is whole
 * (integrity check ok) and holds what was committed before the backup started.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../db/sqlite.ts';
import { backupDatabase, checkBackup } from './backup.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(path.join(tmpdir(), 'fleet-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = promisify(execFile);

/** A database shaped like the server's positions table, written by the server's own connection settings (WAL). */
function liveDatabase(file: string): Database.Database {
  const db = openSqlite(file);
  db.exec('CREATE TABLE positions (vehicle_id INTEGER, gps_time INTEGER, lng REAL, lat REAL, payload BLOB)');
  return db;
}

describe('online backup', () => {
  it('copies a database another process is writing: integrity check ok, every row committed before it started is in the copy', async () => {
    const source = path.join(dir, 'live', 'fleet.sqlite');
    mkdirSync(path.dirname(source));
    const db = liveDatabase(source);
    const insert = db.prepare('INSERT INTO positions VALUES (?, ?, ?, ?, ?)');
    // ~60 MB, so the copy takes a while and the writer commits during it.
    db.transaction(() => {
      for (let i = 0; i < 250_000; i++) insert.run(i % 50, i, 0, 31.2, Buffer.alloc(200, i % 251));
    })();
    db.close();
    const before = 250_000;
    // The server's part: another process commits 500 rows at a time, each row stamped with its commit's wall time (lng).
    const writer = spawn(process.execPath, ['-e', `
      const db = new (require('better-sqlite3'))(process.argv[1]);
      db.pragma('journal_mode = WAL'); db.pragma('busy_timeout = 5000');
      const ins = db.prepare('INSERT INTO positions VALUES (?, ?, ?, ?, NULL)');
      let id = ${before};
      const tx = db.transaction((now) => { for (let i = 0; i < 500; i++) ins.run(1, id++, now, 31.2); });
      process.stdout.write('ready\\n');
      setInterval(() => tx(Date.now()), 2);
    `, source], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => writer.stdout!.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const target = path.join(dir, 'copy.sqlite');
      const result = await backupDatabase(source, target);
      const ended = Date.now();
      await new Promise((r) => setTimeout(r, 200));
      writer.kill('SIGKILL');
      expect(result.bytes).toBeGreaterThan(50 * 2 ** 20);
      expect(checkBackup(target)).toBe('ok');
      const live = new Database(source, { readonly: true });
      const copy = new Database(target, { readonly: true });
      try {
        // The writer did commit while the backup ran.
        const during = live.prepare('SELECT count(*) AS n FROM positions WHERE lng BETWEEN ? AND ?').get(started, ended) as { n: number };
        expect(during.n).toBeGreaterThan(0);
        const n = (copy.prepare('SELECT count(*) AS n FROM positions').get() as { n: number }).n;
        const inSource = (live.prepare('SELECT count(*) AS n FROM positions').get() as { n: number }).n;
        expect(n).toBeGreaterThan(before); // what the writer committed before the backup started
        expect(n).toBeLessThan(inSource);
        expect(n % 500).toBe(0); // whole transactions only
        const committedBefore = live.prepare('SELECT count(*) AS n FROM positions WHERE lng < ?').get(started) as { n: number };
        expect(copy.prepare('SELECT count(*) AS n FROM positions WHERE lng < ?').get(started)).toEqual(committedBefore);
      } finally {
        copy.close();
        live.close();
      }
    } finally {
      writer.kill('SIGKILL');
    }
  }, 120_000);

  it('refuses to overwrite an existing file unless forced, and names a missing database or directory', async () => {
    const source = path.join(dir, 'small.sqlite');
    const db = liveDatabase(source);
    db.close();
    const target = path.join(dir, 'exists.sqlite');
    writeFileSync(target, 'keep me');
    await expect(backupDatabase(source, target)).rejects.toThrow(/exists; pass --force/);
    await expect(backupDatabase(path.join(dir, 'nothing.sqlite'), path.join(dir, 'x.sqlite'))).rejects.toThrow(/no database at/);
    await expect(backupDatabase(source, path.join(dir, 'no-such-dir', 'x.sqlite'))).rejects.toThrow(/directory .* does not exist/);
    const forced = await backupDatabase(source, target, { force: true });
    expect(checkBackup(forced.target)).toBe('ok');
  });

  it('npm run backup: prints size and duration, exits 1 with a clear message when the target exists', async () => {
    const dataDir = path.join(dir, 'data');
    mkdirSync(dataDir);
    const db = liveDatabase(path.join(dataDir, 'fleet.sqlite'));
    db.prepare('INSERT INTO positions VALUES (1, 2, 3, 4, NULL)').run();
    const target = path.join(dir, 'cli.sqlite');
    const env = { ...process.env, DATA_DIR: dataDir };
    const ok = await run(process.execPath, ['--import', 'tsx', 'server/ops/backup.ts', target], { cwd: ROOT, env });
    expect(ok.stdout).toMatch(/backed up .*fleet\.sqlite to .*cli\.sqlite: [\d.]+ MiB in [\d.]+ s \(integrity check ok\)/);
    const again = await run(process.execPath, ['--import', 'tsx', 'server/ops/backup.ts', target], { cwd: ROOT, env }).catch((e: { code: number; stderr: string }) => e);
    expect(again).toMatchObject({ code: 1 });
    expect((again as { stderr: string }).stderr).toMatch(/exists; pass --force to overwrite it/);
    db.close();
  }, 60_000);
});
