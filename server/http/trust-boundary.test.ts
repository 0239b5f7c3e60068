/**
 * The HTTP trust boundary, enumerated from the router (issue 12 §1): every registered route that is
 * not public is called without a token and with tampered tokens, under every spelling of its URL
 * that an attacker would try to slip past a check on the raw URL (percent-encoded letters, `//`,
 * `/./`, `/../`, absolute-form request lines, trailing slash, upper case, `;` parameters, an encoded
 * slash, double encoding). Each answer must be 401 or 404, never anything a handler produced, and
 * the database must be exactly as before. Websocket upgrades get the same treatment and must never
 * be switched (101).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { changedTables, fingerprint } from '../test/db-fingerprint.ts';
import { rawRequest, type RawAnswer } from '../test/raw-http.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import type { RouteRecord } from './route.ts';

/** The only routes anyone may call without signing in, each with the reason it is public. */
const PUBLIC_ROUTES: Record<string, string> = {
  'POST /service-priv/login': 'signing in',
  'POST /service-priv/mmLogin': 'passwordless sign-in with a one-time ticket',
  'GET /': 'redirect to the console',
  'HEAD /': 'redirect to the console',
  'GET /bcmp-web': 'redirect to the console',
  'HEAD /bcmp-web': 'redirect to the console',
  'GET /bcmp-web/': 'the console shell (the sign-in page lives in it)',
  'HEAD /bcmp-web/': 'the console shell',
  'GET /bcmp-web/*': 'the console\'s static files',
  'HEAD /bcmp-web/*': 'the console\'s static files',
  // Self-hosted street maps: public OpenStreetMap-derived data with nothing of the fleet in it; the
  // browser's range reader sends no session header, and shared caches may keep the tiles.
  'GET /tiles/archives': 'which street-map archives the server holds (names, sizes, zooms)',
  'HEAD /tiles/archives': 'the same, headers only',
  'GET /tiles/:name': 'a street-map archive, read by range',
  'HEAD /tiles/:name': 'a street-map archive\'s size',
  // Issue 20 (server/ops): load balancers probe these without credentials; they answer up/down only.
  'GET /health/live': 'liveness probe (status only)',
  'HEAD /health/live': 'the same, headers only',
  'GET /health/ready': 'readiness probe (up/down per part, nothing else)',
  'HEAD /health/ready': 'the same, headers only',
  // The drivers' app (issue 19, server/services/app-feedback/app-api.ts): no console session; each
  // handler checks the app's own token (X-App-Token) and answers 401 without one (app-feedback.test.ts).
  'POST /service-app/api/login': 'an app user signs in',
  'GET /service-app/api/notice/list': 'app token checked by the handler',
  'POST /service-app/api/notice/read': 'app token checked by the handler',
  'GET /service-app/api/feedback/list': 'app token checked by the handler',
  'HEAD /service-app/api/feedback/list': 'the same, headers only',
  'GET /service-app/api/feedback/info': 'app token checked by the handler',
  'POST /service-app/api/feedback/add': 'app token checked by the handler',
  'POST /service-app/api/feedback/reply': 'app token checked by the handler',
};

/** A request path for a route pattern: parameters and wildcards filled in (auth runs before validation). */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');
}

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Every spelling of `p` that might reach its handler while looking different to a raw-URL check. */
function spellings(p: string, port: number): [string, string][] {
  const first = p.search(/[a-z]/i);
  const last = p.length - 1 - [...p].reverse().findIndex((c) => /[a-z]/i.test(c));
  const lastSlash = p.lastIndexOf('/');
  return [
    ['percent-encoded first letter', p.slice(0, first) + hex(p[first]!) + p.slice(first + 1)],
    ['percent-encoded last letter, upper-case hex', p.slice(0, last) + hex(p[last]!).toUpperCase() + p.slice(last + 1)],
    ['double-encoded letter', `${p.slice(0, first)}%25${hex(p[first]!).slice(1)}${p.slice(first + 1)}`],
    ['leading //', `/${p}`],
    ['inner //', lastSlash > 0 ? `${p.slice(0, lastSlash)}/${p.slice(lastSlash)}` : `${p}/`],
    ['/./', `/.${p}`],
    ['/../', `/x/..${p}`],
    ['encoded /../', `/x/%2e%2e${p}`],
    ['encoded slash', lastSlash > 0 ? `${p.slice(0, lastSlash)}%2F${p.slice(lastSlash + 1)}` : p],
    ['absolute form', `http://127.0.0.1:${port}${p}`],
    ['absolute form, encoded letter', `http://127.0.0.1:${port}${p.slice(0, first)}${hex(p[first]!)}${p.slice(first + 1)}`],
    ['trailing slash', `${p}/`],
    ['upper case', p.toUpperCase()],
    ['; parameter', `${p};jsessionid=1`],
  ];
}

async function pool<T>(items: readonly T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await run(items[next++]!);
  }));
}

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('the trust boundary, every route under every spelling', () => {
  let server: TestServer;
  let port: number;
  let consoleDir: string;
  let adminToken: string;
  /** label → token: each must be refused exactly like no token at all. */
  let tampered: [string, string][];

  beforeAll(async () => {
    consoleDir = mkdtempSync(path.join(tmpdir(), 'fleet-boundary-console-'));
    mkdirSync(path.join(consoleDir, 'assets'));
    writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console shell</title>');
    // With a METRICS_TOKEN, /metrics needs its bearer token; without one this test's loopback peer could scrape (server/ops/access.ts).
    server = await startServer({ seedVehicles: 3, consoleDir, metricsToken: 'trust-boundary-metrics-token' });
    port = Number(new URL(server.url).port);
    adminToken = await server.login('admin', 'admin123');
    const operatorToken = await server.login('operator', 'operator123');
    const [header, payload, signature] = adminToken.split('.') as [string, string, string];
    const adminClaims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string; sid: string; iat: number; exp: number };
    const [, opPayload, opSignature] = operatorToken.split('.') as [string, string, string];
    const opClaims = JSON.parse(Buffer.from(opPayload, 'base64url').toString()) as Record<string, unknown>;
    const flipped = signature.slice(0, -2) + (signature.endsWith('A') ? 'B' : 'A') + signature.slice(-1);
    tampered = [
      ['signature altered', `${header}.${payload}.${flipped}`],
      ['operator token claiming the admin user', `${header}.${b64url({ ...opClaims, sub: adminClaims.sub })}.${opSignature}`],
      ['alg none', `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`],
      ['signed with another key', await new SignJWT({ sid: adminClaims.sid }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(adminClaims.sub)
        .setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode('not-the-server-secret-but-long-enough-0123456789'))],
      ['garbage', 'x'.repeat(40)],
    ];
  });
  afterAll(async () => {
    await server.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  const routes = () => server.app.routeTable;
  const guarded = () => routes().filter((r) => r.permission !== 'public');

  it('knows every route from the router, and only the listed ones are public', () => {
    expect(routes().length).toBeGreaterThan(200);
    for (const r of routes()) expect(server.app.hasRoute({ method: r.method as 'GET', url: r.url }), `${r.method} ${r.url}`).toBe(true);
    const publicRoutes = routes().filter((r) => r.permission === 'public').map((r) => `${r.method} ${r.url}`).sort();
    expect(publicRoutes).toEqual(Object.keys(PUBLIC_ROUTES).sort());
    // Each of the four media and push sockets is in the table as a websocket route with a policy.
    expect(routes().filter((r) => r.websocket && r.method === 'GET').map((r) => r.url).sort())
      .toEqual(['/ws-service/playback', '/ws-service/talk', '/ws-service/video', '/ws-service/websocket']);
  });

  it('routes the odd spellings to the handler (so their refusal below is the policy at work, not a miss)', async () => {
    // With a valid token the percent-encoded and absolute-form spellings reach GET /service-priv/permissions:
    // exactly the two that a check on the raw URL let through without one.
    for (const target of ['/%73ervice-priv/permissions', `http://127.0.0.1:${port}/service-priv/permissions`]) {
      const ok = await rawRequest(port, { method: 'GET', target, headers: { 'x-jwt': adminToken } });
      expect(ok.status, target).toBe(200);
      const refused = await rawRequest(port, { method: 'GET', target });
      expect(refused.status, target).toBe(401);
    }
  });

  it('refuses every non-public route without a token or with a tampered one, however its URL is spelled, and writes nothing', async () => {
    const before = fingerprint(server.app);
    const calls: { route: RouteRecord; label: string; target: string; token: [string, string] | undefined }[] = [];
    for (const route of guarded()) {
      const p = concrete(route.url);
      // The plain spelling with every kind of token; the odd spellings with none and with one tampered kind in turn.
      calls.push({ route, label: 'plain', target: p, token: undefined });
      for (const t of tampered) calls.push({ route, label: 'plain', target: p, token: t });
      spellings(p, port).forEach(([label, target], i) => {
        calls.push({ route, label, target, token: undefined });
        calls.push({ route, label, target, token: tampered[i % tampered.length] });
      });
    }
    const failures: string[] = [];
    await pool(calls, 12, async ({ route, label, target, token }) => {
      const headers: Record<string, string> = { 'x-lang': 'en' };
      if (token) headers['x-jwt'] = token[1];
      let body: string | undefined;
      if (route.method !== 'GET' && route.method !== 'HEAD') {
        headers['content-type'] = 'application/json';
        body = '{}';
      }
      const answer: RawAnswer = await rawRequest(port, { method: route.method, target, headers, body });
      if (answer.status !== 401 && answer.status !== 404) {
        failures.push(`${route.method} ${route.url} [${label}${token ? `, ${token[0]}` : ', no token'}] ${target} → ${answer.status} ${answer.body.slice(0, 120)}`);
      }
    });
    expect(failures).toEqual([]);
    expect(calls.length).toBeGreaterThan(3000);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  }, 180_000);

  it('never switches a websocket upgrade without a valid token, under any spelling or token place', async () => {
    const before = fingerprint(server.app);
    const failures: string[] = [];
    for (const route of routes().filter((r) => r.websocket && r.method === 'GET')) {
      const query = '?vehicleId=1&channel=1&startTime=0&endTime=1000';
      const targets: [string, string][] = [['plain', route.url], ...spellings(route.url, port)];
      for (const [label, target] of targets) {
        for (const [tokenLabel, token] of [['no token', undefined], ...tampered] as [string, string | undefined][]) {
          for (const place of token ? ['query', 'header'] : ['none']) {
            const url = `${target}${query}${place === 'query' ? `&token=${encodeURIComponent(token!)}` : ''}`;
            const answer = await rawRequest(port, { method: 'GET', target: url, upgrade: true, headers: place === 'header' ? { 'x-jwt': token! } : {} });
            if (answer.status !== 401 && answer.status !== 404) failures.push(`${route.url} [${label}, ${tokenLabel} in ${place}] → ${answer.status}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  }, 120_000);

  it('accepts a websocket upgrade with a valid query token (the refusals above are not a broken socket)', async () => {
    const answer = await rawRequest(port, { method: 'GET', target: `/ws-service/websocket?token=${adminToken}`, upgrade: true });
    expect(answer.status).toBe(101);
    const encoded = await rawRequest(port, { method: 'GET', target: `/ws-servic%65/websocket?token=${adminToken}`, upgrade: true });
    expect(encoded.status).toBe(101);
  });

  it('refuses an upgrade on every plain route, even for an administrator', async () => {
    const failures: string[] = [];
    await pool(routes().filter((r) => !r.websocket && r.method === 'GET'), 8, async (route) => {
      const answer = await rawRequest(port, { method: 'GET', target: concrete(route.url), upgrade: true, headers: { 'x-jwt': adminToken } });
      if (answer.status === 101) failures.push(`${route.url} switched protocols`);
    });
    expect(failures).toEqual([]);
  });

  it('does not take a query token on a plain HTTP route (only websocket routes read ?token=)', async () => {
    const answer = await rawRequest(port, { method: 'GET', target: `/service-priv/permissions?token=${adminToken}` });
    expect(answer.status).toBe(401);
  });

  it('answers an unmatched path with the plain 404 envelope and nothing else', async () => {
    for (const target of ['/service-priv/nothing-here', '/%2e%2e/%2e%2e/etc/passwd', `http://127.0.0.1:${port}/nope`, '/bcmp-web/assets/missing.js']) {
      const answer = await rawRequest(port, { method: 'GET', target, headers: { 'x-lang': 'en' } });
      expect(answer.status, target).toBe(404);
      expect(JSON.parse(answer.body), target).toEqual({ code: 404, msg: expect.any(String), data: null });
    }
    // Traversal out of the console directory is refused, not served.
    for (const target of ['/bcmp-web/../secret.key', '/bcmp-web/%2e%2e/secret.key', '/bcmp-web/assets/..%2f..%2fsecret.key']) {
      const answer = await rawRequest(port, { method: 'GET', target });
      expect([403, 404], target).toContain(answer.status);
      expect(answer.body, target).not.toMatch(/[A-Za-z0-9+/]{40,}/);
    }
  });
});

describe('a route without an access policy', () => {
  it('fails at start-up, wherever it is registered', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-policy-test-'));
    const app = await buildApp(loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false }));
    try {
      // Not only API paths: a console page or a redirect without a policy is refused too.
      expect(() => app.get('/bcmp-web/extra', () => 'x')).toThrow(/declares no permission/);
      expect(() => app.get('/anything', { config: {} }, () => 'x')).toThrow(/declares no permission/);
      expect(() => app.route({ method: 'POST', url: '/service-priv/typo', config: { permission: '/system/usr' }, handler: () => 'x' })).toThrow(/unknown permission/);
      // A route added by a plugin fails the app's start.
      const start = async () => {
        await app.register(async (child) => {
          child.get('/service-priv/in-a-plugin', () => 'x');
        });
        await app.ready();
      };
      await expect(start()).rejects.toThrow(/declares no permission/);
    } finally {
      await app.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
