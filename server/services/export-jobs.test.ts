/**
 * Export jobs left `running` (issue 20 scale-out): one process fails them all at its start (they died with the last
 * process); nodes sharing the table fail only those past EXPORT_STALE_MS, since another node may still be running the
 * newer ones. A stale one reads as failed at once on every node, and the (leader's) sweep writes it so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openStorage } from '../db/open.ts';
import type { ExportFileRow } from '../db/retention-types.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { EXPORT_STALE_MS, ExportFiles } from './export-jobs.ts';

const NOW = Date.UTC(2026, 10, 29, 6, 0);

let dataDir: string;
let storage: SqliteStorage;

function job(id: string, createdAt: number): ExportFileRow {
  return { id, kind: 'track', userId: 1, status: 'running', total: 0, exported: 0, size: 0, fileName: ['x', 'x'], asciiName: 'x', createdAt, finishedAt: null };
}

const status = async (id: string) => (await storage.exportFiles.get('track', id))?.status;

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'export-jobs-test-'));
  storage = (await openStorage(loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false }))).storage as SqliteStorage;
  await storage.exportFiles.create(job('old', NOW - EXPORT_STALE_MS - 60_000));
  await storage.exportFiles.create(job('new', NOW - 60_000));
});

afterEach(() => {
  storage.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('export jobs left running', () => {
  it('one process (SQLite): its start fails every running job', async () => {
    const files = new ExportFiles({ storage, dir: path.join(dataDir, 'exports'), keepMs: 30 * 60_000, clock: () => NOW });
    await files.start();
    expect([await status('old'), await status('new')]).toEqual(['failed', 'failed']);
  });

  it('a cluster node: its start leaves the jobs another node may be running; a stale one reads failed and the sweep writes it', async () => {
    const files = new ExportFiles({ storage, dir: path.join(dataDir, 'exports'), keepMs: 30 * 60_000, clock: () => NOW, shared: true });
    await files.start();
    expect(await status('new')).toBe('running');
    // Stale already at this start: failed with it.
    expect(await status('old')).toBe('failed');

    await storage.exportFiles.create(job('dies', NOW - 60_000));
    const later = new ExportFiles({ storage, dir: path.join(dataDir, 'exports'), keepMs: 30 * 60_000, clock: () => NOW + EXPORT_STALE_MS, shared: true });
    // Its node died: once stale, a status read answers failed before any sweep wrote it.
    expect(later.live(await storage.exportFiles.get('track', 'dies'))?.status).toBe('failed');
    expect(await status('dies')).toBe('running');
    await later.sweep();
    expect(await status('dies')).toBe('failed');
  });
});
