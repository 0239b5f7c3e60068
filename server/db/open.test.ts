import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PERMISSION_REGISTRY } from '../../domain/permissions/registry.ts';
import { loadConfig } from '../config.ts';
import { schemaVersions } from './migrations.ts';
import { openStorage } from './open.ts';
import { ALL_COMPANIES } from './scope.ts';
import type { SqliteStorage } from './sqlite/storage.ts';

const dirs: string[] = [];
function config() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-db-test-'));
  dirs.push(dataDir);
  return loadConfig({}, { dataDir, seedVehicles: 30, seedFleetsPerBranch: 2, logLevel: 'silent' });
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('opening the database', () => {
  it('creates, migrates and seeds a new database with WAL and foreign keys on', async () => {
    const { storage, created } = await openStorage(config());
    const db = (storage as SqliteStorage).db;
    try {
      expect(created).toBe(true);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect((db.prepare('SELECT count(*) n FROM vehicle').get() as { n: number }).n).toBe(30);
      expect((db.prepare('SELECT count(*) n FROM permission').get() as { n: number }).n).toBe(PERMISSION_REGISTRY.length);
      expect((await storage.companies.get(ALL_COMPANIES, 1))?.name).toBe('星途物流集团');
      const devices = db.prepare('SELECT device_no FROM vehicle').all() as { device_no: string }[];
      for (const d of devices) expect(d.device_no).toMatch(/^\d{12}$/);
    } finally {
      storage.close();
    }
  });

  it('does not seed again on restart and keeps edited permission names', async () => {
    const cfg = config();
    const first = await openStorage(cfg);
    await first.storage.permissions.update(1, { name: '我的首页' });
    first.storage.close();
    const second = await openStorage(cfg);
    try {
      expect(second.created).toBe(false);
      const db = (second.storage as SqliteStorage).db;
      expect((db.prepare('SELECT count(*) n FROM vehicle').get() as { n: number }).n).toBe(30);
      expect((db.prepare('SELECT version FROM schema_version ORDER BY version').all() as { version: number }[]).map((r) => r.version)).toEqual(schemaVersions());
      expect((await second.storage.permissions.get(1))?.name).toBe('我的首页');
    } finally {
      second.storage.close();
    }
  });

  it('gives company alarm rows made before linkage applied the default pop-up and tone (migration 13), and leaves chosen linkage alone', async () => {
    const cfg = config();
    const first = await openStorage(cfg);
    const db1 = (first.storage as SqliteStorage).db;
    // As a database from before migration 13 held them: rows with all linkage off, and one with a choice.
    const row = db1.prepare(`INSERT INTO company_alarm_setting (company_id, alarm_type, enabled, auto_handle, risk_level, popup, voice, tts, update_time)
                             VALUES (1, ?, 1, ?, NULL, ?, ?, ?, 0)`);
    row.run(17001, 1, 0, 0, 0); // emergency (high), auto-handle switched: linkage left all off
    row.run(15001, 1, 0, 0, 0); // GNSS module fault (low): off is its default anyway
    row.run(12001, 0, 0, 0, 1); // overspeed: TTS chosen, pop-up and tone off on purpose
    db1.prepare('DELETE FROM schema_version WHERE version = 13').run();
    first.storage.close();
    const second = await openStorage(cfg);
    try {
      const db = (second.storage as SqliteStorage).db;
      const linkage = (code: number) => db.prepare('SELECT popup, voice, tts FROM company_alarm_setting WHERE company_id = 1 AND alarm_type = ?').get(code);
      expect(linkage(17001)).toEqual({ popup: 1, voice: 1, tts: 0 });
      expect(linkage(15001)).toEqual({ popup: 0, voice: 0, tts: 0 });
      expect(linkage(12001)).toEqual({ popup: 0, voice: 0, tts: 1 });
    } finally {
      second.storage.close();
    }
  });

  it('rolls back a failed transaction completely', async () => {
    const { storage } = await openStorage(config());
    const db = (storage as SqliteStorage).db;
    const before = (db.prepare('SELECT count(*) n FROM company').get() as { n: number }).n;
    try {
      await expect(storage.transaction(async (tx) => {
        await tx.companies.create(1, { name: '半途', contact: '', phone: '', address: '', remark: '' });
        throw new Error('fails after the first write');
      })).rejects.toThrow('fails after the first write');
      expect((db.prepare('SELECT count(*) n FROM company').get() as { n: number }).n).toBe(before);
    } finally {
      storage.close();
    }
  });

  it('rewrites the paths of a whole subtree when a company moves', async () => {
    const { storage } = await openStorage(config());
    try {
      const a = await storage.companies.create(1, { name: 'A', contact: '', phone: '', address: '', remark: '' });
      const b = await storage.companies.create(a.id, { name: 'B', contact: '', phone: '', address: '', remark: '' });
      const c = await storage.companies.create(b.id, { name: 'C', contact: '', phone: '', address: '', remark: '' });
      await storage.companies.move(b.id, 2);
      expect((await storage.companies.get(ALL_COMPANIES, c.id))?.path).toBe(`/1/2/${b.id}/${c.id}/`);
      await expect(storage.companies.move(a.id, a.id)).rejects.toThrow();
    } finally {
      storage.close();
    }
  });
});
