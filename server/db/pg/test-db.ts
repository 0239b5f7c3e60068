/**
 * Per-test-file databases in the `server-pg` cluster (global-setup.ts): each file gets a database of its
 * own, created from template0 with C collation and dropped at the end, so files run in parallel.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { socketUrl } from './test-cluster.ts';

/** Why the PG tests of this file cannot run ('' when they can). */
export function pgSkipReason(): string {
  const c = inject('pgCluster');
  return c?.dir ? '' : (c?.skipReason || 'not run by the server-pg project (no PostgreSQL test cluster)');
}

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/** `template`: a database of the cluster to copy (no one may be connected to it); template0 (empty) by default. */
export async function createTestDatabase(template = 'template0'): Promise<TestDatabase> {
  const { dir, port } = inject('pgCluster');
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: socketUrl(dir, port, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await admin.end();
  }
  return {
    url: socketUrl(dir, port, name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: socketUrl(dir, port, 'postgres') });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
