/**
 * `openStorage` with DATABASE_URL=postgres://…: the schema is created from the SQLite migrations, the
 * database seeded, and the repositories answer over PostgreSQL; positions land in day partitions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_REGISTRY } from '../../../domain/permissions/registry.ts';
import { loadConfig } from '../../config.ts';
import { schemaVersions } from '../migrations.ts';
import { openStorage } from '../open.ts';
import { ALL_COMPANIES } from '../scope.ts';
import type { SqliteStorage } from '../sqlite/storage.ts';
import { isPostgresUrl } from './open.ts';
import type { PgSyncDb } from './sync-db.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from './test-db.ts';

const skip = pgSkipReason();
if (skip) console.warn(`open.pgtest: skipped: ${skip}`);

it('refuses a DATABASE_URL that is not PostgreSQL, and treats unset as SQLite', () => {
  expect(isPostgresUrl(undefined)).toBe(false);
  expect(isPostgresUrl('')).toBe(false);
  expect(isPostgresUrl('postgresql://fleet@localhost/fleet')).toBe(true);
  expect(() => isPostgresUrl('mysql://root:secret@db/fleet')).toThrow(/postgres:\/\/ or postgresql:\/\/.*unset it.*mysql:\/\/…@db/);
});

describe.skipIf(skip !== '')('openStorage on PostgreSQL', () => {
  let tdb: TestDatabase;
  let dataDir: string;
  const saved = process.env.DATABASE_URL;
  const config = () => loadConfig({}, { dataDir, seedVehicles: 6, seedFleetsPerBranch: 1, logLevel: 'silent' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-pg-open-'));
    process.env.DATABASE_URL = tdb.url;
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    rmSync(dataDir, { recursive: true, force: true });
    await tdb?.drop();
  });

  it('creates the schema, seeds, and answers through the repositories; a second start keeps it', { timeout: 300_000 }, async () => {
    const first = await openStorage(config());
    const db = (first.storage as SqliteStorage).db as unknown as PgSyncDb;
    try {
      expect(first.created).toBe(true);
      expect(db.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all()).toEqual(schemaVersions());
      expect(db.prepare('SELECT count(*) FROM vehicle').pluck().get()).toBe(6);
      expect(db.prepare('SELECT count(*) FROM permission').pluck().get()).toBe(PERMISSION_REGISTRY.length);
      expect((await first.storage.companies.get(ALL_COMPANIES, 1))?.name).toBe('星途物流集团');
      // No file was made: the data is in PostgreSQL.
      expect(db.name).toBe('');
    } finally {
      first.storage.close();
    }
    const second = await openStorage(config());
    try {
      expect(second.created).toBe(false);
      expect(second.firstAdmin).toBeUndefined();
      const db2 = (second.storage as SqliteStorage).db as unknown as PgSyncDb;
      expect(db2.prepare('SELECT count(*) FROM vehicle').pluck().get()).toBe(6);
    } finally {
      second.storage.close();
    }
  });

  it('stores positions in China-day partitions made on demand, and reads them back by range', { timeout: 120_000 }, async () => {
    const { storage } = await openStorage(config());
    const db = (storage as SqliteStorage).db as unknown as PgSyncDb;
    try {
      const vehicleId = db.prepare('SELECT min(id) FROM vehicle').pluck().get() as number;
      // 2026-11-28 23:30 and 2026-11-29 00:30 China time: two China days, so two partitions.
      const t1 = Date.UTC(2026, 10, 28, 15, 30);
      const t2 = Date.UTC(2026, 10, 28, 16, 30);
      const row = (gpsTime: number) => ({ vehicleId, gpsTime, lng: 116.4, lat: 39.9, speed: 40, heading: 90, altitude: 50, status: 0xffff_fff0, alarm: 0x8000_0001, mileage: 12.5, fuel: null, receivedAt: gpsTime + 500 });
      await storage.positions.append([row(t1), row(t2)]);
      // A resend of a stored report is kept once (OR IGNORE on the unique vehicle/time).
      await storage.positions.append([row(t1)]);
      const parts = db.prepare(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                                JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'positions' ORDER BY 1`).pluck().all();
      expect(parts).toEqual(['positions_p20261128', 'positions_p20261129']);
      const got = await storage.positions.range(vehicleId, t1, t2 + 1, 10);
      expect(got.map((r) => [r.gpsTime, r.status, r.alarm])).toEqual([[t1, 0xffff_fff0, 0x8000_0001], [t2, 0xffff_fff0, 0x8000_0001]]);
    } finally {
      storage.close();
    }
  });

  it('stores a history flush larger than one statement as multi-row INSERTs, and tells a resend and a twice-sent key from the stored rows', { timeout: 120_000 }, async () => {
    const { storage } = await openStorage(config());
    const db = (storage as SqliteStorage).db as unknown as PgSyncDb;
    try {
      const vehicleId = db.prepare('SELECT max(id) FROM vehicle').pluck().get() as number;
      // 9,000 rows, 10 s apart from 2026-11-20 23:00 China time: three statements (4,000 rows each at most), two China days.
      const t0 = Date.UTC(2026, 10, 20, 15, 0);
      const row = (i: number) => ({ vehicleId, gpsTime: t0 + i * 10_000, lng: 116 + i / 1e5, lat: 39.9, speed: i % 90, heading: i % 360, altitude: 50, status: 3, alarm: 0, mileage: i / 10, fuel: i % 7 === 0 ? null : 40, receivedAt: t0 + i * 10_000 + 700 });
      expect(await storage.positions.append([row(5000)])).toBeUndefined(); // all stored: nothing to report back
      const batch = Array.from({ length: 9000 }, (_, i) => row(i));
      batch.splice(6000, 0, row(7000)); // the same report twice in one flush
      const stored = await storage.positions.append(batch) as readonly { gpsTime: number }[];
      // Row 5000 was already in the database and 7000's second copy is not stored: 9,001 sent, 8,999 stored, in order.
      expect(stored.length).toBe(8999);
      expect(stored.some((r) => r.gpsTime === row(5000).gpsTime)).toBe(false);
      expect(stored.filter((r) => r.gpsTime === row(7000).gpsTime).length).toBe(1);
      expect(stored[5000]!.gpsTime).toBe(row(5001).gpsTime);
      const count = db.prepare('SELECT count(*) FROM positions WHERE vehicle_id = ?').pluck().get(vehicleId);
      expect(count).toBe(9000);
      const got = await storage.positions.range(vehicleId, row(8999).gpsTime, row(8999).gpsTime + 1, 1);
      expect(got[0]).toMatchObject({ lng: row(8999).lng, speed: 8999 % 90, mileage: 899.9, fuel: 40, receivedAt: row(8999).receivedAt });
      expect((await storage.positions.range(vehicleId, row(7).gpsTime, row(7).gpsTime + 1, 1))[0]?.fuel).toBeNull();
    } finally {
      storage.close();
    }
  });
});
