/**
 * Helpers of the multi-node tests (issue 20, `server-pg` project): a node's HTTP API called as a console does,
 * a wait for a condition another node brings about, and a set of nodes on one PostgreSQL database and one NATS.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PgSyncDb } from '../db/pg/sync-db.ts';
import { createTestDatabase, type TestDatabase } from '../db/pg/test-db.ts';
import { startCrashServer, stopClean, type CrashServer } from '../ops/crash-harness.ts';
import { startNats, type TestNats } from './test-nats.ts';

export interface Answer<T> { status: number; code: number; msg: string; data: T }

/** Calls a node's API in English (the envelope's code, or the HTTP status when it has none). */
export async function api<T>(apiUrl: string, method: string, callPath: string, body?: unknown, token?: string): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'x-lang': 'en' };
  if (token) headers['x-jwt'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(new URL(callPath, apiUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = (await r.json()) as { code?: number; msg?: string; data: T };
  return { status: r.status, code: parsed.code ?? r.status, msg: parsed.msg ?? '', data: parsed.data };
}

/** Polls `probe` every 100 ms until it answers something (not undefined or false); throws after `timeoutMs`. */
export async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined && got !== false) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Signs the demo administrator in on a node with the api role; its token. */
export async function adminToken(apiUrl: string): Promise<string> {
  const login = await api<{ token: string }>(apiUrl, 'POST', '/service-priv/login', { username: 'admin', password: 'admin123', loginType: 'default' });
  if (login.code !== 200) throw new Error(`admin login on ${apiUrl}: ${login.code} ${login.msg}`);
  return login.data.token;
}

/** The first seeded vehicle with a terminal, and the administrator's user id, read from the shared database. */
export function seeded(dbUrl: string): { vehicle: { id: number; deviceNo: string }; adminId: number } {
  const db = new PgSyncDb(dbUrl);
  try {
    const vehicle = db.prepare('SELECT id, device_no AS deviceNo FROM vehicle WHERE device_no IS NOT NULL ORDER BY id LIMIT 1').get() as { id: number; deviceNo: string };
    const adminId = (db.prepare("SELECT id FROM \"user\" WHERE username = 'admin'").get() as { id: number }).id;
    return { vehicle, adminId };
  } finally {
    db.close();
  }
}

export interface TestNodes {
  readonly db: TestDatabase;
  readonly nats: TestNats;
  /** In the order of the roles given, each on its own DATA_DIR (`dirs`, same order). */
  readonly nodes: readonly CrashServer[];
  readonly dirs: readonly string[];
  /** Stops the nodes cleanly (SIGKILL for any left), NATS and the database; removes the data dirs. */
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL database and NATS server, and one `server/main.ts` process per entry of `roles`
 * (its ROLES), started one after the other (the later ones find the schema the first made), with `env` added.
 */
export async function startTestNodes(roles: readonly string[], env: Record<string, string> = {}): Promise<TestNodes> {
  const children = new Set<ChildProcess>();
  const nodes: CrashServer[] = [];
  const dirs: string[] = [];
  const db = await createTestDatabase();
  const nats = await startNats().catch(async (err: unknown) => {
    await db.drop();
    throw err;
  });
  const stop = async () => {
    for (const n of nodes) await stopClean(n).catch(() => undefined);
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await nats.stop();
    await db.drop();
  };
  try {
    for (const [i, role] of roles.entries()) {
      const dir = mkdtempSync(path.join(tmpdir(), `fleet-node${i}-`));
      dirs.push(dir);
      // On a loaded machine a node on the PostgreSQL bridge can take minutes to start.
      nodes.push(await startCrashServer(dir, children, { env: { DATABASE_URL: db.url, NATS_URL: nats.url, ...env, ROLES: role }, startTimeoutMs: 300_000 }));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { db, nats, nodes, dirs, stop };
}
