/**
 * Who may read /metrics (policy 'metrics', server/ops/access.ts), attacked over raw TCP: the decision
 * comes from the matched route's policy, so odd spellings meet the same check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../test/raw-http.ts';
import { startServer, type TestServer } from '../test/harness.ts';

const TOKEN = 'scrape-token-0123456789abcdef';

describe('/metrics with METRICS_TOKEN configured', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startServer({ metricsToken: TOKEN });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => server?.close());

  it('serves the Prometheus text to the bearer of the token', async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^# TYPE fleet_gateway_terminals_connected gauge$/m);
  });

  it('refuses a scrape without a token with 401 and says what is needed, in the caller\'s language', async () => {
    const en = await rawRequest(port, { method: 'GET', target: '/metrics', headers: { 'x-lang': 'en' } });
    expect(en.status).toBe(401);
    expect(JSON.parse(en.body)).toEqual({ code: 401, msg: 'Metrics need the header Authorization: Bearer <METRICS_TOKEN>', data: null });
    const zh = await rawRequest(port, { method: 'GET', target: '/metrics' });
    expect(JSON.parse(zh.body).msg).toContain('METRICS_TOKEN');
    expect(zh.body).not.toContain('fleet_');
  });

  it('refuses a wrong token, a token of another length, another scheme and a console session', async () => {
    const admin = await server.login('admin', 'admin123');
    const attempts: Record<string, string>[] = [
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      { authorization: `Bearer ${TOKEN}${TOKEN}` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: `Bearer` },
      // A console administrator's session is no scrape credential.
      { 'x-jwt': admin },
    ];
    for (const headers of attempts) {
      const res = await rawRequest(port, { method: 'GET', target: '/metrics', headers: { ...headers, 'x-lang': 'en' } });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).not.toContain('fleet_');
    }
  });

  it('does not take the token from the query string (URLs are logged)', async () => {
    for (const target of [`/metrics?token=${TOKEN}`, `/metrics?access_token=${TOKEN}`, `/metrics?authorization=Bearer%20${TOKEN}`]) {
      const res = await rawRequest(port, { method: 'GET', target });
      expect(res.status, target).toBe(401);
    }
  });

  it('applies the same policy to every spelling that routes to /metrics', async () => {
    const spellings = ['/%6detrics', '/metric%73', '//metrics', '/./metrics', '/x/../metrics', `http://127.0.0.1:${port}/metrics`, `http://127.0.0.1:${port}/%6Detrics`, '/metrics;x=1'];
    for (const target of spellings) {
      const refused = await rawRequest(port, { method: 'GET', target });
      expect([401, 404], target).toContain(refused.status);
      expect(refused.body, target).not.toContain('fleet_');
    }
    // The encoded spelling does reach the route: with the token it answers, so the 401 above is the policy.
    const ok = await rawRequest(port, { method: 'GET', target: '/%6detrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('fleet_gateway_reports_total');
  });
});

describe('/metrics without METRICS_TOKEN: loopback only', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('serves a loopback peer', async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('fleet_http_request_duration_seconds');
  });

  it('refuses a peer that is not loopback with 403 and the reason', async () => {
    for (const remoteAddress of ['10.0.0.7', '192.168.1.20', '::ffff:10.0.0.7', '2001:db8::1', '128.0.0.1']) {
      const res = await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { 'x-lang': 'en' } });
      expect(res.statusCode, remoteAddress).toBe(403);
      expect(res.json().msg).toBe('Without METRICS_TOKEN configured, metrics are served to this machine only (not through a proxy)');
    }
    // The same inject from a loopback address is served: the refusal above is the peer rule.
    expect((await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
  });

  it('refuses a loopback request that came through a proxy (forwarding headers), whatever the header claims', async () => {
    const port = Number(new URL(server.url).port);
    const proxied: Record<string, string>[] = [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }];
    for (const headers of proxied) {
      const res = await rawRequest(port, { method: 'GET', target: '/metrics', headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
  });

  it('keeps the health routes public and bare', async () => {
    const live = await server.app.inject({ method: 'GET', url: '/health/live', remoteAddress: '10.0.0.7' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await server.app.inject({ method: 'GET', url: '/health/ready', remoteAddress: '10.0.0.7' });
    // startServer does not bind the gateway: not ready, and only up/down says so.
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'up', gateway: 'down', push: 'up' }, leader: true });
  });
});
