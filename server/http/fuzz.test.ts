/**
 * Schema-driven fuzz of every route with a schema (issue 12 §3): random query strings, bodies and
 * path parameters derived from the route's own schema — valid-ish values, boundaries, wrong types,
 * huge and fractional numbers, unicode, arrays — sent as an administrator. The server must answer
 * 2xx or 4xx, never 5xx (an unhandled input), and a 4xx must write nothing (a request refused half
 * way must not leave half its work behind).
 *
 * Reproduce a failure with the printed seed: `FUZZ_SEED=<seed> npx vitest run --project server
 * server/http/fuzz.test.ts`; `FUZZ_RUNS` sets the requests per route (default 150).
 */
import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { changedTables, fingerprint } from '../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { fuzzValue, objectValue, seededRng, toQueryString, type JsonSchema, type Rng } from '../test/schema-fuzz.ts';
import type { RouteRecord } from './route.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
// 150 requests per route keeps the whole fuzz near half a minute on two shared cores; FUZZ_RUNS=1000 for a long run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

/** Routes not fuzzed, each with the reason. Everything else with a schema is. */
const SKIPPED: Record<string, string> = {
  'POST /service-priv/logout': 'ends the fuzzer\'s own session: every later call would test the 401 path only',
  'POST /service-priv/user/revokeSessions': 'revokes the sessions of the user it names, the fuzzer\'s own among them',
  // The drivers' app API (server/services/app-feedback/app-api.ts) checks its own X-App-Token: every valid
  // request of the fuzzer's console session is 401, which this loop reads as a lost account. Its refusals
  // and scoping are tested in app-feedback.test.ts.
  'GET /service-app/api/notice/list': 'app token, not a console session',
  'POST /service-app/api/notice/read': 'app token, not a console session',
  'GET /service-app/api/feedback/list': 'app token, not a console session',
  'GET /service-app/api/feedback/info': 'app token, not a console session',
  'POST /service-app/api/feedback/add': 'app token, not a console session',
  'POST /service-app/api/feedback/reply': 'app token, not a console session',
};

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
}

/** A per-route seed, so one route's failure reproduces without replaying the others. */
function routeSeed(route: RouteRecord): number {
  let h = SEED >>> 0;
  for (const c of `${route.method} ${route.url}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

function part(schema: FastifySchema | undefined, key: 'body' | 'querystring' | 'params'): JsonSchema | undefined {
  return (schema as Record<string, JsonSchema> | undefined)?.[key];
}

function randomRequest(rng: Rng, route: RouteRecord): Sent {
  const params = part(route.schema, 'params');
  const query = part(route.schema, 'querystring');
  const body = part(route.schema, 'body');
  let path = route.url;
  if (params) {
    for (const [name, s] of Object.entries(params.properties ?? {})) {
      const v = fuzzValue(rng, s);
      const text = v === null || typeof v !== 'object' ? String(v) : JSON.stringify(v);
      let encoded: string;
      try {
        encoded = encodeURIComponent(text);
      } catch {
        encoded = '%ED%A0%80';
      }
      path = path.replace(`:${name}`, encoded === '' ? '%20' : encoded);
    }
  }
  if (query) path += toQueryString(objectValue(rng, query));
  let text: string | undefined;
  if (body) {
    const r = rng();
    if (r < 0.04) text = JSON.stringify(fuzzValue(rng, { type: 'string' }));
    else if (r < 0.06) text = '{"unterminated": ';
    else text = JSON.stringify(objectValue(rng, body));
  }
  return { method: route.method, path, body: text };
}

/** Paths of numeric schema nodes that lack a lower or an upper limit (constants and enums bound themselves). */
function unboundedNumbers(node: unknown, path: string, out: string[]): string[] {
  if (!node || typeof node !== 'object') return out;
  const s = node as JsonSchema & Record<string, unknown>;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (s.const === undefined && !s.enum && types.some((t) => t === 'integer' || t === 'number')) {
    if ((s.minimum ?? s.exclusiveMinimum) === undefined || (s.maximum ?? s.exclusiveMaximum) === undefined) out.push(path);
  }
  for (const [k, v] of Object.entries(s)) if (v && typeof v === 'object') unboundedNumbers(v, `${path}.${k}`, out);
  return out;
}

describe('numbers through schemas', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ seedVehicles: 2, seedFleetsPerBranch: 1 });
  });
  afterAll(() => server.close());

  it('gives every numeric query, body and path field of every route both limits', () => {
    const unbounded = server.app.routeTable.flatMap((r) => unboundedNumbers(r.schema, `${r.method} ${r.url}`, []));
    expect(unbounded).toEqual([]);
  });

  it('answers a page number past the limit, negative, fractional or not a number with 400 naming the field', async () => {
    // 1e20 pages became a float OFFSET that SQLite refused: a 500 on every paged list.
    const token = await server.login('admin', 'admin123');
    for (const current of ['1e20', '100001', '-1', '1.5', 'x', 'Infinity']) {
      const en = await server.call('GET', `/service-priv/user/page?current=${current}`, { token, lang: 'en' });
      expect(en.status, current).toBe(400);
      expect(en.msg, current).toMatch(/^Field current is invalid/);
      const zh = await server.call('GET', `/service-priv/role/page?current=${current}`, { token });
      expect(zh.status, current).toBe(400);
      expect(zh.msg, current).toMatch(/^字段 current/);
    }
    const body = await server.call('POST', '/service-report/media/alarmMedia', { token, lang: 'en', body: { current: 1e20, size: 20, startTime: 0, endTime: 1 } });
    expect(body.status).toBe(400);
    expect(body.msg).toBe('Field current is invalid: must be at most 100000');
    const last = await server.call<{ records: unknown[] }>('GET', '/service-priv/user/page?current=100000&size=500', { token });
    expect(last.status).toBe(200);
    expect(last.data.records).toEqual([]);
  });
});

describe('schema fuzz: every route answers 2xx/4xx, and a 4xx writes nothing', () => {
  let server: TestServer;
  let token: string;
  let admins = 0;
  const db = () => (server.app.storage as SqliteStorage).db;
  const totalChanges = () => (db().prepare('SELECT total_changes() AS n').get() as { n: number }).n;

  /** A fresh administrator of its own: a fuzzed call that disables or demotes it only costs a new one. */
  async function newAdmin(): Promise<string> {
    admins += 1;
    const username = `fuzz-admin-${admins}`;
    await server.app.storage.users.create({
      username, passwordHash: await hashPassword('fuzz1234'), realName: username, userLevel: 0, companyId: 1,
      phone: '', email: '', status: 1, expireTime: null, allowedIps: '', geoInverse: false,
    }, []);
    return server.login(username, 'fuzz1234');
  }

  /**
   * Waits until no export job started by an earlier request is still running: a job writes its
   * `export_file` row when it finishes, which would otherwise be blamed on whatever request is in flight.
   */
  async function settle(): Promise<void> {
    const running = db().prepare("SELECT count(*) AS n FROM export_file WHERE status = 'running'");
    for (let waited = 0; (running.get() as { n: number }).n > 0 && waited < 10_000; waited += 20) {
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function send(req: Sent, lang: 'zh' | 'en') {
    const headers: Record<string, string> = { 'x-jwt': token, 'x-lang': lang };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    // inject: the whole request lifecycle (routing, hooks, validation, handler) without a socket per call,
    // which keeps a few hundred requests per route within CI time. Raw-socket spellings are trust-boundary.test.ts's.
    const res = await server.app.inject({ method: req.method as 'GET', url: req.path, headers, payload: req.body });
    return { status: res.statusCode, text: res.body };
  }

  beforeAll(async () => {
    server = await startServer({ seedVehicles: 6, seedFleetsPerBranch: 1 });
    token = await newAdmin();
  });
  afterAll(() => server.close());

  it('fuzzes every route with a schema', async () => {
    const routes = server.app.routeTable.filter((r) => r.method !== 'HEAD' && r.schema && (r.schema.body || r.schema.querystring || r.schema.params));
    expect(routes.length).toBeGreaterThan(100);
    for (const name of Object.keys(SKIPPED)) expect(routes.some((r) => `${r.method} ${r.url}` === name), `skipped route ${name} exists`).toBe(true);
    const failures: string[] = [];
    const tally = { requests: 0, ok: 0, clientError: 0, recovered: 0 };

    // The database as it was before the current request: refreshed only after something wrote, since
    // hashing every table per request would cost more than the requests.
    let snapshot = fingerprint(server.app);
    let snapshotChanges = totalChanges();
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      if (SKIPPED[name]) continue;
      const seed = routeSeed(route);
      const rng = seededRng(seed);
      let routeFailures = 0;
      for (let i = 0; i < RUNS && routeFailures < 3; i++) {
        const req = randomRequest(rng, route);
        const lang = rng() < 0.5 ? 'zh' : 'en';
        await settle();
        if (totalChanges() !== snapshotChanges) {
          snapshot = fingerprint(server.app);
          snapshotChanges = totalChanges();
        }
        let answer = await send(req, lang);
        if (answer.status === 401) {
          // An earlier 2xx took the fuzzer's account away (disabled, expired, demoted): a new one, same request.
          tally.recovered += 1;
          token = await newAdmin();
          answer = await send(req, lang);
        }
        tally.requests += 1;
        const where = `FUZZ_SEED=${SEED} route ${name} (route seed ${seed}) request #${i}: ${req.method} ${req.path}${req.body === undefined ? '' : ` body ${req.body.slice(0, 300)}`}`;
        if (answer.status >= 500) {
          routeFailures += 1;
          failures.push(`${where} → ${answer.status} ${answer.text.slice(0, 200)}`);
        } else if (answer.status >= 400) {
          tally.clientError += 1;
          if (totalChanges() !== snapshotChanges) {
            const changed = changedTables(snapshot, fingerprint(server.app));
            if (changed.length > 0) {
              routeFailures += 1;
              failures.push(`${where} → ${answer.status} but wrote ${changed.join(', ')}`);
            }
          }
        } else {
          tally.ok += 1;
        }
      }
    }
    console.info(`schema fuzz, seed ${SEED}: ${tally.requests} requests over ${routes.length - Object.keys(SKIPPED).length} routes, ${tally.ok} 2xx, ${tally.clientError} 4xx, ${tally.recovered} fuzz accounts replaced`);
    expect(failures).toEqual([]);
    // The fuzz must reach handlers, not only the validator: a good share of requests is accepted.
    expect(tally.ok).toBeGreaterThan(tally.requests * 0.1);
  }, 600_000);
});
