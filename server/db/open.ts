/** Opens the configured database: create the data dir, migrate, sync permissions, seed a new database. */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PERMISSION_REGISTRY } from '../../domain/permissions/registry.ts';
import type { Config } from '../config.ts';
import { seedDemoData } from '../seed/seed.ts';
import { migrate } from './migrations.ts';
import type { Storage } from './repositories.ts';
import { syncPermissionRegistry } from './sqlite/permissions.ts';
import { SqliteStorage } from './sqlite/storage.ts';
import { openSqlite } from './sqlite.ts';

export interface OpenedStorage {
  readonly storage: Storage;
  /** True when this start created the database (and seeded it when seeding is on). */
  readonly created: boolean;
  /** True for a database the demo seed filled (flag kept in `database_flag`, migration 14). */
  readonly demo: boolean;
  readonly file: string;
}

export async function openStorage(config: Config): Promise<OpenedStorage> {
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'fleet.sqlite');
  const db = openSqlite(file);
  const storage = new SqliteStorage(db);
  let created = false;
  try {
    const applied = migrate(db);
    // A database is new when this start created its first schema version.
    created = applied.includes(1);
    syncPermissionRegistry(db, PERMISSION_REGISTRY);
    if (created && config.seedEnabled) {
      await seedDemoData(storage, { vehicles: config.seedVehicles, fleetsPerBranch: config.seedFleetsPerBranch });
      db.prepare("INSERT OR IGNORE INTO database_flag (name, set_time) VALUES ('demo', ?)").run(Date.now());
    }
    const demo = db.prepare("SELECT 1 FROM database_flag WHERE name = 'demo'").get() !== undefined;
    return { storage, created, demo, file };
  } catch (err) {
    storage.close();
    // A database this start created but could not finish is removed, so the next start begins afresh.
    if (created) for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    throw err;
  }
}
