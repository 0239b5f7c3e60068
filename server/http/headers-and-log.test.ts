/**
 * Security headers on every answer, and no secret in the log (issue 12 §3).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { rawRequest } from '../test/raw-http.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { REDACTED, redactHeaders, redactUrl } from './log.ts';

const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options'];

describe('security headers', () => {
  let server: TestServer;
  let consoleDir: string;
  let port: number;
  beforeAll(async () => {
    consoleDir = mkdtempSync(path.join(tmpdir(), 'fleet-headers-console-'));
    mkdirSync(path.join(consoleDir, 'assets'));
    writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console shell</title>');
    writeFileSync(path.join(consoleDir, 'assets', 'app-1.js'), 'export {};');
    server = await startServer({ seedVehicles: 0, consoleDir });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('are on every kind of answer: console, asset, API success and failures, redirect, 404, refused upgrade', async () => {
    const token = await server.login('admin', 'admin123');
    const answers = {
      shell: await rawRequest(port, { method: 'GET', target: '/bcmp-web/system/user' }),
      asset: await rawRequest(port, { method: 'GET', target: '/bcmp-web/assets/app-1.js' }),
      ok: await rawRequest(port, { method: 'GET', target: '/service-priv/user/current', headers: { 'x-jwt': token } }),
      unauthorized: await rawRequest(port, { method: 'GET', target: '/service-priv/user/current' }),
      badRequest: await rawRequest(port, { method: 'GET', target: '/service-priv/user/page?size=x', headers: { 'x-jwt': token } }),
      redirect: await rawRequest(port, { method: 'GET', target: '/' }),
      notFound: await rawRequest(port, { method: 'GET', target: '/nothing' }),
      refusedUpgrade: await rawRequest(port, { method: 'GET', target: '/ws-service/websocket', upgrade: true }),
    };
    expect(answers.ok.status).toBe(200);
    expect(answers.refusedUpgrade.status).toBe(401);
    for (const [kind, answer] of Object.entries(answers)) {
      for (const header of SECURITY_HEADERS) expect(answer.headers[header], `${kind}: ${header}`).toBeTruthy();
      expect(answer.headers['x-content-type-options'], kind).toBe('nosniff');
      expect(answer.headers['referrer-policy'], kind).toBe('same-origin');
    }
  });

  it('lets no inline or foreign script run, and no other site frame the console', async () => {
    const csp = (await rawRequest(port, { method: 'GET', target: '/bcmp-web/' })).headers['content-security-policy']!;
    const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';
    // An injected <script> or event handler attribute needs 'unsafe-inline'; eval needs 'unsafe-eval'.
    expect(directive('script-src')).toBe("script-src 'self' blob: 'wasm-unsafe-eval'");
    expect(directive('worker-src')).toBe("worker-src 'self' blob:");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'self'");
    expect(directive('base-uri')).toBe("base-uri 'self'");
    // The push, video and intercom sockets of the same host, and (no MAP_SOURCE_ORIGINS) user map sources.
    expect(directive('connect-src')).toBe(`connect-src 'self' data: blob: ws://127.0.0.1:${port} wss://127.0.0.1:${port} http: https:`);
    expect(directive('img-src')).toBe("img-src 'self' blob: data: http: https:");
  });

  it('does not copy a hostile Host header into the policy', async () => {
    const answer = await rawRequest(port, { method: 'GET', target: '/bcmp-web/', headers: { host: "evil.example; script-src 'unsafe-inline'" } });
    const csp = answer.headers['content-security-policy']!;
    expect(csp).not.toContain('evil');
    // No second script-src smuggled in, and no websocket source built from that Host.
    expect(csp.split('; ').filter((d) => d.startsWith('script-src'))).toEqual(["script-src 'self' blob: 'wasm-unsafe-eval'"]);
    expect(csp).toContain("connect-src 'self' data: blob: http: https:;");
  });
});

describe('map sources in the policy', () => {
  it('allows exactly the configured origins when MAP_SOURCE_ORIGINS is set', async () => {
    const config = loadConfig({ MAP_SOURCE_ORIGINS: 'https://tiles.example.com, https://*.tianditu.gov.cn:8443' });
    expect(config.mapSourceOrigins).toEqual(['https://tiles.example.com', 'https://*.tianditu.gov.cn:8443']);
    const server = await startServer({ seedVehicles: 0, mapSourceOrigins: config.mapSourceOrigins });
    try {
      const res = await fetch(`${server.url}/service-priv/user/current`);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("img-src 'self' blob: data: https://tiles.example.com https://*.tianditu.gov.cn:8443;");
      expect(csp).toMatch(/connect-src 'self' data: blob: ws:\/\/\S+ wss:\/\/\S+ https:\/\/tiles\.example\.com https:\/\/\*\.tianditu\.gov\.cn:8443;/);
      expect(csp).not.toMatch(/ https:( |;|$)/);
    } finally {
      await server.close();
    }
  });

  it('refuses a value that is not an http(s) origin at start-up', () => {
    for (const bad of ['javascript:alert(1)', "https://x.example 'unsafe-inline'", 'https://x.example/path', '*', 'data:']) {
      expect(() => loadConfig({ MAP_SOURCE_ORIGINS: bad }), bad).toThrow(/MAP_SOURCE_ORIGINS must be/);
    }
  });
});

describe('redaction rules', () => {
  it('replaces secret-looking query values and keeps the rest of the URL', () => {
    expect(redactUrl('/ws-service/websocket?token=abc.def.ghi&format=json')).toBe(`/ws-service/websocket?token=${REDACTED}&format=json`);
    expect(redactUrl('/x?keyword=a&JWT=1&user_password=2&access_token=3&ticket=4&size=5'))
      .toBe(`/x?keyword=a&JWT=${REDACTED}&user_password=${REDACTED}&access_token=${REDACTED}&ticket=${REDACTED}&size=5`);
    // An encoded parameter name is recognised too.
    expect(redactUrl('/x?%74oken=abc')).toBe(`/x?%74oken=${REDACTED}`);
    expect(redactUrl('/service-priv/user/page?current=1')).toBe('/service-priv/user/page?current=1');
    expect(redactHeaders({ 'x-jwt': 'a', Authorization: 'b', cookie: 'c', accept: 'd' })).toEqual({ 'x-jwt': REDACTED, Authorization: REDACTED, cookie: REDACTED, accept: 'd' });
  });
});

describe('the log', () => {
  let lines: string[];
  let app: Awaited<ReturnType<typeof buildApp>>;
  let url: string;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-log-test-'));
    lines = [];
    const capture = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    // Default level (info): the level at which Fastify logs every request's URL.
    const config = loadConfig({}, { dataDir, port: 0, logLevel: 'info', seedVehicles: 0, seedFleetsPerBranch: 1, consoleDir: path.join(dataDir, 'none') });
    app = await buildApp(config, { logStream: capture });
    app.get('/service-test/log-headers', { config: { permission: 'session' } }, (request) => {
      // A handler that logs its request's headers (as one might while debugging) still leaks nothing.
      request.log.info({ headers: request.headers }, 'headers seen');
      request.log.info({ req: { headers: request.headers } }, 'request seen');
      return { code: 200 };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('never holds a session token used on a websocket URL, in a header or in a query', async () => {
    const login = await fetch(`${url}/service-priv/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123', loginType: 'login' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const signature = token.split('.')[2]!;

    // The push socket: the token travels in the URL.
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ws-service/websocket?token=${token}&format=json`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.close();
    // HTTP calls: in the header, in a query (refused, still logged), and to a handler that logs its headers.
    expect((await fetch(`${url}/service-priv/user/current`, { headers: { 'x-jwt': token } })).status).toBe(200);
    expect((await fetch(`${url}/service-priv/user/current?token=${token}&jwt=${token}`)).status).toBe(401);
    expect((await fetch(`${url}/service-test/log-headers`, { headers: { 'x-jwt': token, authorization: `Bearer ${token}`, cookie: `jwt=${token}` } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));

    const log = lines.join('');
    // The log did record those requests (so the absence below is redaction, not silence) ...
    expect(log).toContain(`/ws-service/websocket?token=${REDACTED}&format=json`);
    expect(log).toContain(`/service-priv/user/current?token=${REDACTED}&jwt=${REDACTED}`);
    expect(log).toContain('headers seen');
    // ... and holds no part of the token that would let a log reader sign in.
    expect(log).not.toContain(token);
    expect(log).not.toContain(signature);
    expect(log).not.toContain('admin123');
  });
});
