/** Issue 20: SQLITE_SYNCHRONOUS chooses what a commit survives (config.ts, db/sqlite.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openSqlite } from '../db/sqlite.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'fleet-sync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLITE_SYNCHRONOUS', () => {
  it('opens the database with WAL and synchronous NORMAL by default, FULL when asked', () => {
    for (const [env, level] of [[undefined, 1], ['full', 2], ['FULL', 2], ['normal', 1]] as const) {
      const config = loadConfig({ SQLITE_SYNCHRONOUS: env });
      const db = openSqlite(path.join(dir, `${env ?? 'default'}.sqlite`), { synchronous: config.sqliteSynchronous });
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(level);
      db.close();
    }
  });

  it('refuses any other value with a message naming the setting', () => {
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: 'off' })).toThrow('SQLITE_SYNCHRONOUS must be normal or full, got "off"');
  });
});
