/**
 * Live-monitoring integration harness: a real server (HTTP + the JT/T 808 gateway on free ports)
 * on a temporary DATA_DIR, with a test clock driving the store and the gateway, so "offline after
 * three minutes" is a clock step, not a sleep.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';

export interface TestClock {
  now(): number;
  advance(ms: number): number;
}

export function testClock(start = Date.now()): TestClock {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

export interface LiveAnswer<T> {
  readonly status: number;
  readonly code: number;
  readonly msg: string;
  readonly data: T;
}

export interface LiveTestServer {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly clock: TestClock;
  readonly gatewayPort: number;
  call<T = unknown>(method: string, p: string, opts?: { token?: string; body?: unknown; lang?: 'zh' | 'en' }): Promise<LiveAnswer<T>>;
  login(username: string, password: string): Promise<string>;
  /** Closes the app (gateway stop + history flush); removes the data dir unless `keepData`. */
  close(keepData?: boolean): Promise<void>;
}

export async function startLiveServer(overrides: Partial<Config> = {}): Promise<LiveTestServer> {
  const dataDir = overrides.dataDir ?? mkdtempSync(path.join(tmpdir(), 'fleet-live-test-'));
  const config = loadConfig({}, {
    port: 0, host: '127.0.0.1', gatewayPort: 0, gatewayHost: '127.0.0.1', logLevel: (process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent', seedVehicles: 50, seedFleetsPerBranch: 2,
    // Acks wait for the history commit (group commit): tests that report one by one should not wait 100 ms each.
    historyFlushMs: 10,
    consoleDir: path.join(dataDir, 'no-console'), ...overrides, dataDir,
  });
  const clock = testClock();
  const app = await buildApp(config, { clock: clock.now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const gatewayPort = await app.live.gateway.listen(0, '127.0.0.1');
  await app.media.listen(0, '127.0.0.1');
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;

  async function call<T>(method: string, p: string, opts: { token?: string; body?: unknown; lang?: 'zh' | 'en' } = {}): Promise<LiveAnswer<T>> {
    const headers: Record<string, string> = {};
    if (opts.token) headers['x-jwt'] = opts.token;
    if (opts.lang) headers['x-lang'] = opts.lang;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + p, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const json = (await res.json()) as { code: number; msg: string; data: T };
    return { status: res.status, ...json };
  }

  return {
    app, config, clock, gatewayPort, call,
    async login(username, password) {
      const r = await call<{ token: string }>('POST', '/service-priv/login', { body: { username, password, loginType: 'login' } });
      if (r.code !== 200) throw new Error(`login of ${username} failed: ${r.code} ${r.msg}`);
      return r.data.token;
    },
    async close(keepData = false) {
      await app.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
