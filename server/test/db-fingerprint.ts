/**
 * A content fingerprint of every table of a test database: a refused request must leave each one
 * exactly as it was. Tests compare two fingerprints with `changedTables`.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { AUDIT_TABLES } from '../services/audit/migration.ts';

export type Fingerprint = ReadonlyMap<string, string>;

function stringify(value: unknown): string {
  // BigInt and Buffer columns have no JSON form of their own.
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : Buffer.isBuffer(v) ? v.toString('base64') : v));
}

/** table name → hash of all its rows in rowid (or primary key) order. */
export function fingerprint(app: FastifyInstance): Fingerprint {
  const db = (app.storage as SqliteStorage).db;
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string; sql: string }[];
  const out = new Map<string, string>();
  for (const { name, sql } of tables) {
    // The audit trail records every call, a refused one too (services/audit): "nothing written" means outside it.
    if (AUDIT_TABLES.includes(name)) continue;
    // A node's check-in every 10 s on a shared database (ops/presence.ts) is no write of the request.
    if (name === 'node_presence') continue;
    const withoutRowid = /WITHOUT\s+ROWID/i.test(sql);
    const hash = createHash('sha256');
    const rows = db.prepare(`SELECT * FROM "${name}"${withoutRowid ? '' : ' ORDER BY rowid'}`).iterate() as Iterable<unknown>;
    for (const row of rows) hash.update(stringify(row)).update('\n');
    out.set(name, hash.digest('hex'));
  }
  return out;
}

/** Names of the tables whose content differs between two fingerprints (added or dropped tables too). */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}
