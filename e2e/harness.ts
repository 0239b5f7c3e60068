/**
 * The e2e harness: a real server (child process, temp data dir, free port) and a real Chromium.
 * Each test file calls `useE2E()` once: one server and one browser for the file, a fresh browser
 * context (own storage) per page, a screenshot in test-results/ for every page of a failed test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { CHROMIUM_MISSING, findChromium } from './chromium.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BASE_PATH = '/bcmp-web';
const RESULTS_DIR = path.join(ROOT, 'test-results');

/** Demo accounts the server seeds on first start (README lists the same). */
export const ACCOUNTS = {
  admin: { username: 'admin', password: 'admin123' },
  operator: { username: 'operator', password: 'operator123' },
  safety: { username: 'safety', password: 'safety123' },
  branch: { username: 'branch', password: 'branch123' },
} as const;

/** A console path (`/system/user`) as a path under the base (`/bcmp-web/system/user`). */
export function consolePath(routePath: string): string {
  return `${BASE_PATH}${routePath}`;
}

/** The path of a console URL relative to the base, e.g. `/system/user`. */
export function routeOf(url: string): string {
  const { pathname } = new URL(url);
  return pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) || '/' : pathname;
}

// ---------------------------------------------------------------------------------------------
// Server

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | readonly (string | number)[]>;
  lang?: 'zh' | 'en';
}

export interface ApiAnswer<T = unknown> {
  status: number;
  code: number;
  msg: string;
  data: T;
}

export interface ServerHandle {
  /** The console: `http://127.0.0.1:<port>/bcmp-web/`. */
  url: string;
  /** Where the API lives (`/service-priv/...` hangs off it): `http://127.0.0.1:<port>`. */
  apiUrl: string;
  port: number;
  dataDir: string;
  /** Calls the API directly (test setup, e.g. revoking a session). */
  api<T = unknown>(callPath: string, options?: ApiOptions): Promise<ApiAnswer<T>>;
  /** Logs in through the API and answers the token. */
  token(account: { username: string; password: string }): Promise<string>;
  /** Recent server output, for failure reports. */
  logs(): string;
  /** Restarts the process on the same port and data dir (data survives). */
  restart(): Promise<void>;
  /** Stops the process and removes the data dir. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Vehicles to seed; small by default so a fresh data dir starts fast. */
  seedVehicles?: number;
  /**
   * Demo track history backfilled on first start (server/seed/history.ts), e.g. `{vehicles: 3, days: 2}`:
   * the first simulated vehicles' last days. Off by default, so servers start as fast as before.
   */
  history?: { vehicles: number; days: number };
  env?: Record<string, string>;
}

const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  // A crashed test worker must not leave servers behind.
  for (const child of liveChildren) child.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function apiCall<T = unknown>(apiUrl: string, callPath: string, options: ApiOptions = {}): Promise<ApiAnswer<T>> {
  const url = new URL(callPath, apiUrl);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
  }
  const headers: Record<string, string> = { 'x-lang': options.lang ?? 'en' };
  if (options.token) headers['x-jwt'] = options.token;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(url, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: { code?: number; msg?: string; data?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new Error(`${options.method ?? 'GET'} ${callPath}: not JSON (HTTP ${response.status}): ${text.slice(0, 200)}`);
  }
  return { status: response.status, code: parsed.code ?? response.status, msg: parsed.msg ?? '', data: parsed.data as T };
}

export async function startServer(options: ServerOptions = {}): Promise<ServerHandle> {
  let port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-data-'));
  let origin = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  let child: ChildProcess | undefined;

  /** The last lines of output, for an error message (the full log goes to test-results/). */
  const tail = (lines = 30): string => output.join('').trimEnd().split('\n').slice(-lines).join('\n');
  /** The lines announcing listening addresses (ports), kept apart: the recent output rolls over. */
  const announced: string[] = [];
  const remember = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    output.push(text);
    if (output.length > 400) output.splice(0, output.length - 400);
    if (text.includes('://')) for (const line of text.split('\n')) if (line.includes('://')) announced.push(line + '\n');
  };

  async function launch(): Promise<void> {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_VEHICLES: String(options.seedVehicles ?? 40),
        SEED_HISTORY_VEHICLES: String(options.history?.vehicles ?? 0),
        SEED_HISTORY_DAYS: String(options.history?.days ?? 0),
        // The demo's duty operator handles 华东分公司's alarms every two minutes (issue 19 ops check): scenes that
        // raise and handle their own alarms turn it off; one that wants it passes SIM_DUTY_OPERATOR: '1'.
        SIM_DUTY_OPERATOR: '0',
        // Likewise the demo's accident officer (files a collision alarm as an accident); the app users stay on
        // (the app push e2e needs them; they touch only their own feedback and pushes).
        SIM_ACCIDENT_OFFICER: '0',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    liveChildren.add(proc);
    proc.stdout?.on('data', remember);
    proc.stderr?.on('data', remember);
    let exited: string | undefined;
    proc.once('exit', (code, signal) => {
      liveChildren.delete(proc);
      exited = `exited with ${signal ?? `code ${String(code)}`}`;
    });

    const deadline = Date.now() + 90_000;
    let lastStatus = 'no answer';
    for (;;) {
      if (exited) throw new Error(`e2e: the server ${exited} before answering:\n${tail()}`);
      try {
        const response = await fetch(`${origin}${BASE_PATH}/`, { signal: AbortSignal.timeout(2_000) });
        if (response.ok) return;
        lastStatus = `HTTP ${response.status}`;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        await halt();
        throw new Error(`e2e: the server did not answer ${origin}${BASE_PATH}/ within 90 s (last status ${lastStatus}):\n${tail()}`);
      }
      await sleep(150);
    }
  }

  async function halt(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  }

  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      // Another process may take the free port between the probe and the server's listen.
      if (attempt < 3 && tail().includes('EADDRINUSE')) {
        output.length = 0;
        port = await freePort();
        origin = `http://127.0.0.1:${port}`;
        continue;
      }
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  const handle: ServerHandle = {
    url: `${origin}${BASE_PATH}/`,
    apiUrl: origin,
    port,
    dataDir,
    api: (callPath, apiOptions) => apiCall(origin, callPath, apiOptions),
    async token(account) {
      const answer = await apiCall<{ token: string }>(origin, '/service-priv/login', {
        body: { ...account, loginType: 'default' },
      });
      if (answer.code !== 200) throw new Error(`e2e: API login of ${account.username} failed: ${answer.code} ${answer.msg}`);
      return answer.data.token;
    },
    logs: () => announced.join('') + output.join(''),
    async restart() {
      await halt();
      await launch();
    },
    async stop() {
      await halt();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

// ---------------------------------------------------------------------------------------------
// Browser

/**
 * Headless Chromium with a fresh profile: Playwright refuses `--user-data-dir` in `args` for
 * `launch()` and creates (and removes) a new temporary profile itself on every launch.
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}

/** Fills the login form (the same on every login route, spec §2) and submits it, without waiting for the outcome. */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Opens a login route, signs in and waits until the console has left the login page. */
export async function login(page: Page, username: string, password: string, loginPath = '/login'): Promise<void> {
  await page.goto(consolePath(loginPath));
  await submitLogin(page, username, password);
  await page.waitForURL((url) => routeOf(url.href) !== loginPath);
}

/**
 * Signs in on the login page with `?redirect=<route>` and waits until the console shows that route: one page
 * load, where `login()` then `page.goto(route)` loads the console twice (the landing page's calls and map included).
 * `route` may carry a query (`/monitor/trackPlaybackPage?vehicleId=3`); the user must be allowed to see it.
 */
export async function loginTo(page: Page, account: { username: string; password: string }, route: string): Promise<void> {
  const pathOnly = route.split(/[?#]/)[0] ?? route;
  await page.goto(consolePath(`/login?redirect=${encodeURIComponent(route)}`));
  await submitLogin(page, account.username, account.password);
  await page.waitForURL((url) => routeOf(url.href) === pathOnly);
}

/** `data-testid` values present on the page that start with a prefix (e.g. every `nav-group-`). */
export async function testIds(page: Page, prefix: string): Promise<string[]> {
  return page
    .locator(`[data-testid^="${prefix}"]`)
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid') ?? ''));
}

// ---------------------------------------------------------------------------------------------
// Per-file fixture

export interface E2E {
  readonly server: ServerHandle;
  readonly browser: Browser;
  /** A page in a new browser context (fresh storage), closed after the test. */
  newPage(): Promise<Page>;
}

function slug(text: string): string {
  return text.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 100);
}

/** `browserArgs`: extra Chromium flags for this file only (e.g. a fake microphone for the intercom). */
export function useE2E(options: ServerOptions = {}, browserArgs: readonly string[] = []): E2E {
  let server: ServerHandle | undefined;
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  /** Content-Security-Policy violations seen by this test's pages: any fails the test (the server's policy must fit the console). */
  let cspViolations: string[] = [];

  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([startServer(options), launchBrowser(browserArgs)]);
    // Keep whichever came up, so afterAll closes it even when the other failed.
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  });

  afterEach(async (context) => {
    const open = contexts;
    contexts = [];
    const violations = cspViolations;
    cspViolations = [];
    if (context.task.result?.state === 'fail') {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const name = slug(`${path.basename(context.task.file.name)}-${context.task.name}`);
      let index = 0;
      for (const ctx of open) {
        for (const page of ctx.pages()) {
          index += 1;
          const file = path.join(RESULTS_DIR, `${name}-${index}.png`);
          await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
          process.stderr.write(`e2e: screenshot of ${page.url()} saved to ${path.relative(ROOT, file)}\n`);
        }
      }
      if (server) writeFileSync(path.join(RESULTS_DIR, `${name}.server.log`), server.logs());
    }
    await Promise.all(open.map((ctx) => ctx.close().catch(() => undefined)));
    if (violations.length > 0) throw new Error(`e2e: Content-Security-Policy violations:\n${violations.join('\n')}`);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), server?.stop()]);
  });

  return {
    get server() {
      if (!server) throw new Error('e2e: the server is not started yet (use it inside a test)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('e2e: the browser is not launched yet (use it inside a test)');
      return browser;
    },
    async newPage() {
      if (!browser || !server) throw new Error('e2e: newPage() before the file fixture started');
      const ctx = await browser.newContext({ baseURL: server.apiUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
      contexts.push(ctx);
      // The page reports each violation of the server's Content-Security-Policy; Chromium also logs
      // the ones raised in workers as console errors.
      await ctx.exposeBinding('__e2eCspViolation', (_source, text: string) => {
        cspViolations.push(text);
      });
      await ctx.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          void (window as unknown as { __e2eCspViolation(t: string): Promise<void> }).__e2eCspViolation(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
        });
      });
      const page = await ctx.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      return page;
    },
  };
}

// Fleet helpers

/** A row of the realtime list (`selectreal`): what a test needs to find a vehicle and connect its terminal. */
export interface RealtimeVehicle {
  vehicleId: number;
  vehiidno: string;
  deviceNo: string;
  online: boolean;
}

/** The JT/T 808 gateway's port: the server prints it on start (GATEWAY_PORT 0 picks a free one). */
export function gatewayPort(server: ServerHandle): number {
  // the last announcement: a restart (GATEWAY_PORT 0) listens on a new port
  const m = [...server.logs().matchAll(/JT\/T 808 gateway: tcp:\/\/[^:\s]+:(\d+)/g)].at(-1);
  if (!m) throw new Error(`no gateway port in the server log:\n${server.logs().slice(-2000)}`);
  return Number(m[1]);
}

/**
 * The admin's realtime list (first 100; only online vehicles with `online`), waiting up to 30 s until it
 * holds at least `atLeast` (simulated terminals connect over a few seconds).
 */
export async function realtimeVehicles(server: ServerHandle, options: { online?: boolean; atLeast?: number } = {}): Promise<RealtimeVehicle[]> {
  const atLeast = options.atLeast ?? 1;
  const token = await server.token(ACCOUNTS.admin);
  for (let i = 0; i < 100; i++) {
    const body = { current: 1, size: 100, ...(options.online ? { state: 'online' } : {}) };
    const r = await server.api<{ records: RealtimeVehicle[] }>('/service-monitor/monitor/v3/selectreal', { method: 'POST', token, body });
    const found = r.data?.records ?? [];
    if (found.length >= atLeast) return found;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`fewer than ${atLeast} ${options.online ? 'online ' : ''}vehicles in the realtime list`);
}

/** The seeded vehicles in id order: rank n is the same vehicle on every call. */
export async function vehiclesById(server: ServerHandle): Promise<RealtimeVehicle[]> {
  return (await realtimeVehicles(server)).sort((a, b) => a.vehicleId - b.vehicleId);
}

/** Creates, as admin through the API, a role holding `permissionIds` and a level-2 user of company 1 with it. */
export async function createUserWithRole(
  server: ServerHandle,
  role: { name: string; permissionIds: readonly number[] },
  user: { username: string; password: string; realName: string },
): Promise<void> {
  const admin = await server.token(ACCOUNTS.admin);
  const created = await server.api<{ id: number }>('/service-priv/role', { token: admin, body: role });
  if (created.code !== 200) throw new Error(`role ${role.name}: ${created.code} ${created.msg}`);
  const answer = await server.api('/service-priv/user', {
    token: admin,
    body: {
      ...user, userLevel: 2, companyId: 1, roleIds: [created.data.id],
      phone: '', email: '', status: 1, expireTime: null, allowedIps: '', geoInverse: false,
    },
  });
  if (answer.code !== 200) throw new Error(`user ${user.username}: ${answer.code} ${answer.msg}`);
}
