/**
 * Integration-test harness: a real server (buildApp + listen on a free port) on a fresh temporary
 * DATA_DIR with a small seed, and a fetch-based client that speaks the envelope.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { ALL_COMPANIES } from '../db/scope.ts';

export interface Answer<T = unknown> {
  readonly status: number;
  readonly code: number;
  readonly msg: string;
  readonly data: T;
  readonly headers: Headers;
}

export interface CallOptions {
  readonly token?: string;
  /** A JSON-serialisable body, or a raw string sent as is with a JSON content type. */
  readonly body?: unknown;
  readonly raw?: string;
  readonly lang?: 'zh' | 'en';
  readonly headers?: Record<string, string>;
}

export interface TestServer {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly config: Config;
  call<T = unknown>(method: string, path: string, opts?: CallOptions): Promise<Answer<T>>;
  /** Signs in and answers the token; fails the test when the login does not succeed. */
  login(username: string, password: string): Promise<string>;
  /** Row count of a table, read straight from the database. */
  count(table: string): number;
  close(): Promise<void>;
}

export async function startServer(overrides: Partial<Config> = {}, beforeListen?: (app: FastifyInstance) => void): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-server-test-'));
  const config = loadConfig({}, {
    dataDir, port: 0, host: '127.0.0.1', logLevel: (process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent', seedVehicles: 50, seedFleetsPerBranch: 2,
    consoleDir: path.join(dataDir, 'no-console'), ...overrides,
  });
  const app = await buildApp(config);
  beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // The dashboard computes the 7 days before today in the background 10 s after start. Done here first,
  // its later run finds nothing to do, so a test that holds "this request wrote nothing" (fuzz, trust
  // boundary) never sees the dashboard's own rows land in the middle of it.
  await app.dashboard.ensureDays();
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  const db = (app.storage as SqliteStorage).db;

  async function call<T>(method: string, p: string, opts: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers['x-jwt'] = opts.token;
    if (opts.lang) headers['x-lang'] = opts.lang;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + p, { method, headers, body });
    const json = (await res.json()) as { code: number; msg: string; data: T };
    return { status: res.status, code: json.code, msg: json.msg, data: json.data, headers: res.headers };
  }

  return {
    url, app, config, call,
    async login(username, password) {
      const r = await call<{ token: string }>('POST', '/service-priv/login', { body: { username, password, loginType: 'login' } });
      if (r.code !== 200) throw new Error(`login of ${username} failed: ${r.code} ${r.msg}`);
      return r.data.token;
    },
    count: (table) => (db.prepare(`SELECT count(*) n FROM "${table}"`).get() as { n: number }).n,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in the seeded administrator and the sub-tree administrator `branch`; `branchPath` is the latter's company path. */
export async function seededSignIns(server: TestServer): Promise<{ admin: string; branch: string; branchPath: string }> {
  const admin = await server.login('admin', 'admin123');
  const branch = await server.login('branch', 'branch123');
  const user = await server.app.storage.users.findByUsername('branch');
  const branchPath = (await server.app.storage.companies.get(ALL_COMPANIES, user!.companyId))!.path;
  return { admin, branch, branchPath };
}
