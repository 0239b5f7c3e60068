/**
 * Online backup of the embedded database (issue 20): `npm run backup -- <target file> [--force]`.
 *
 * Uses SQLite's online backup API (better-sqlite3 `db.backup()`) from a connection of this process
 * while the server keeps writing (WAL: a reader never blocks the writer): the file is one consistent
 * snapshot of a committed state, nothing half written.
 * The source is DATA_DIR/fleet.sqlite (the server's DATA_DIR; the same environment as the service).
 * Restore: README "Deployment notes" → "Backup and restore".
 */
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface BackupResult {
  readonly target: string;
  readonly bytes: number;
  readonly ms: number;
}

export class BackupError extends Error {}

/** Copies the database `source` to `target` while others may write to it. */
export async function backupDatabase(source: string, target: string, options: { force?: boolean } = {}): Promise<BackupResult> {
  if (!existsSync(source)) throw new BackupError(`no database at ${source} (set DATA_DIR to the server's data directory)`);
  const to = path.resolve(target);
  if (to === path.resolve(source)) throw new BackupError('the target is the database itself');
  if (existsSync(to)) {
    if (!options.force) throw new BackupError(`${to} exists; pass --force to overwrite it`);
    if (!statSync(to).isFile()) throw new BackupError(`${to} exists and is not a file`);
  }
  const dir = path.dirname(to);
  if (!existsSync(dir)) throw new BackupError(`the directory ${dir} does not exist`);
  const started = performance.now();
  // A connection of its own (the server's stays untouched); it must not change the source, and a
  // busy writer is waited for rather than failed.
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // Written next to the target, then renamed over it: a failed or interrupted backup leaves no half file under the name.
    const partial = `${to}.partial-${process.pid}`;
    rmSync(partial, { force: true });
    try {
      // All pages in one step, under one read snapshot: with WAL the server's writes go on meanwhile,
      // and the copy is exactly the committed state at that snapshot. Copied in small steps instead,
      // SQLite restarts the copy whenever another connection writes, which a busy server always does.
      await db.backup(partial, { progress: () => 0x7fffffff });
      renameSync(partial, to);
    } catch (err) {
      rmSync(partial, { force: true });
      throw err;
    }
  } finally {
    db.close();
  }
  return { target: to, bytes: statSync(to).size, ms: performance.now() - started };
}

/** `PRAGMA integrity_check` of a backup file: 'ok' or the problems SQLite lists. */
export function checkBackup(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const force = argv.includes('--force');
  const unknown = argv.filter((a) => a.startsWith('-') && a !== '--force');
  const files = argv.filter((a) => !a.startsWith('-'));
  if (unknown.length > 0 || files.length !== 1) {
    process.stderr.write(`usage: npm run backup -- <target file> [--force]\n${unknown.length > 0 ? `unknown option ${unknown.join(' ')}\n` : ''}`);
    return 2;
  }
  const dataDir = path.resolve(process.env.DATA_DIR || path.join(import.meta.dirname, '..', '..', 'data'));
  const source = path.join(dataDir, 'fleet.sqlite');
  try {
    const r = await backupDatabase(source, files[0]!, { force });
    const check = checkBackup(r.target);
    if (check !== 'ok') {
      process.stderr.write(`backup written to ${r.target} but its integrity check failed: ${check}\n`);
      return 1;
    }
    process.stdout.write(`backed up ${source} to ${r.target}: ${(r.bytes / 2 ** 20).toFixed(1)} MiB in ${(r.ms / 1000).toFixed(2)} s (integrity check ok)\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`backup failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  process.exitCode = await main(process.argv.slice(2));
}
