/**
 * ROLES (issue 20): a node answers only the routes of its roles; /health and /metrics answer on every node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPush } from '../push/test-client.ts';
import { startServer, type TestServer } from '../test/harness.ts';

describe('a gateway-only node', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ roles: new Set(['gateway']) });
  });
  afterAll(async () => server?.close());

  it('answers no console route, not even the login, and no push websocket: 404 as for a route that does not exist', async () => {
    const login = await server.call('POST', '/service-priv/login', { body: { username: 'admin', password: 'admin123', loginType: 'login' }, lang: 'en' });
    expect([login.status, login.code]).toEqual([404, 404]);
    expect((await server.call('GET', '/service-monitor/vehicles', { lang: 'en' })).status).toBe(404);
    const page = await fetch(`${server.url}/bcmp-web/monitor`);
    expect(page.status).toBe(404);
    await expect(connectPush(server.url, 'x')).rejects.toMatchObject({ status: 404 });
  });

  it('keeps its health and metrics; readiness counts push as off, not down', async () => {
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    const ready = await fetch(`${server.url}/health/ready`);
    expect(await ready.json()).toMatchObject({ checks: { push: 'off' } });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });
});

describe('an api-only node', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ roles: new Set(['api']) });
  });
  afterAll(async () => server?.close());

  it('serves the console API but not the push websocket', async () => {
    const token = await server.login('admin', 'admin123');
    await expect(connectPush(server.url, token)).rejects.toMatchObject({ status: 404 });
  });
});
