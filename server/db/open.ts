/**
 * Opens the configured database: create the data dir, migrate, sync permissions, seed a new database,
 * and give a database without any user its first administrator (SEED=0), so someone can log in.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PERMISSION_REGISTRY } from '../../domain/permissions/registry.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Config } from '../config.ts';
import { seedDemoData } from '../seed/seed.ts';
import { migrate } from './migrations.ts';
import { isPostgresUrl, openPostgres } from './pg/open.ts';
import type { Storage } from './repositories.ts';
import { syncPermissionRegistry } from './sqlite/permissions.ts';
import { SqliteStorage } from './sqlite/storage.ts';
import { openSqlite } from './sqlite.ts';
import type Database from 'better-sqlite3';

/** The account created on a database without users; `password` only when this start generated it. */
export interface FirstAdministrator {
  readonly username: string;
  /** The generated password, to be shown once; undefined when it came from ADMIN_PASSWORD. */
  readonly generatedPassword: string | undefined;
  readonly companyId: number;
  readonly companyName: string;
  /** True when the root company was created with it (the database had no company). */
  readonly companyCreated: boolean;
}

export interface OpenedStorage {
  readonly storage: Storage;
  /** True when this start created the database (and seeded it when seeding is on). */
  readonly created: boolean;
  /** True for a database the demo seed filled (flag kept in `database_flag`, migration 14). */
  readonly demo: boolean;
  readonly file: string;
  /** Set only by the start that created the first administrator (main.ts prints it once). */
  readonly firstAdmin: FirstAdministrator | undefined;
}

export async function openStorage(config: Config): Promise<OpenedStorage> {
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'fleet.sqlite');
  // DATABASE_URL=postgres://… selects PostgreSQL (issue 20); unset keeps the embedded SQLite file. The PG
  // handle answers the better-sqlite3 calls the repositories and services make (server/db/CONTEXT.md).
  const databaseUrl = process.env.DATABASE_URL;
  const pg = isPostgresUrl(databaseUrl) ? openPostgres(databaseUrl) : undefined;
  const db = pg ? (pg.db as unknown as Database.Database) : openSqlite(file, { synchronous: config.sqliteSynchronous });
  const storage = new SqliteStorage(db);
  let created = false;
  try {
    const applied = pg ? pg.applied : migrate(db);
    // A database is new when this start created its first schema version.
    created = applied.includes(1);
    syncPermissionRegistry(db, PERMISSION_REGISTRY);
    if (created && config.seedEnabled) {
      await seedDemoData(storage, { vehicles: config.seedVehicles, fleetsPerBranch: config.seedFleetsPerBranch });
      db.prepare("INSERT OR IGNORE INTO database_flag (name, set_time) VALUES ('demo', ?)").run(Date.now());
    }
    const demo = db.prepare("SELECT 1 FROM database_flag WHERE name = 'demo'").get() !== undefined;
    const firstAdmin = await ensureFirstAdministrator(db, storage, config);
    pg?.started(); // the next node waiting to start goes on (server/db/pg/open.ts)
    return { storage, created, demo, file, firstAdmin };
  } catch (err) {
    try {
      pg?.started();
    } catch {
      // the connection is gone: PostgreSQL released the session's lock with it
    }
    storage.close();
    // A database this start created but could not finish is removed, so the next start begins afresh.
    if (created && !pg) for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    throw err;
  }
}

export const FIRST_ADMIN_USERNAME = 'admin';

/** No look-alike characters (0/O, 1/l/I), so the password printed once can be typed from the terminal. */
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const GENERATED_PASSWORD_LENGTH = 18; // ≈ 104 bits

/** A random password for the first administrator (crypto-strong; never a fixed default). */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

/**
 * A database with no user at all (a new one with SEED=0, or one made that way before this existed) gets
 * user `admin` (userLevel 0) in the first root company, which is created as `config.rootCompanyName` when
 * there is none. Its password is ADMIN_PASSWORD, else generated and handed back once to be printed. Any
 * database with a user is left alone, so a second start creates nothing and prints nothing.
 */
export async function ensureFirstAdministrator(db: Database.Database, storage: Storage, config: Config): Promise<FirstAdministrator | undefined> {
  const hasUser = () => db.prepare('SELECT 1 FROM user LIMIT 1').get() !== undefined;
  if (hasUser()) return undefined;
  const generatedPassword = config.adminPassword === undefined ? generatePassword() : undefined;
  // Hashed before the transaction: scrypt runs on the thread pool and a transaction must not wait on it.
  const passwordHash = await hashPassword(config.adminPassword ?? generatedPassword!);
  return storage.transaction(async (tx) => {
    // Re-checked inside the write: two processes opening one new file create one administrator.
    if (hasUser()) return undefined;
    const root = db.prepare('SELECT id, name FROM company WHERE pid IS NULL ORDER BY id LIMIT 1').get() as { id: number; name: string } | undefined;
    const company = root ?? (await tx.companies.create(null, { name: config.rootCompanyName, contact: '', phone: '', address: '', remark: '' }));
    await tx.users.create({
      username: FIRST_ADMIN_USERNAME, passwordHash, realName: '系统管理员', userLevel: 0, companyId: company.id,
      phone: '', email: '', status: 1, expireTime: null, allowedIps: '', geoInverse: true,
    }, []);
    return { username: FIRST_ADMIN_USERNAME, generatedPassword, companyId: company.id, companyName: company.name, companyCreated: root === undefined };
  });
}
