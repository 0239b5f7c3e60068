/**
 * A route may accept any of several registry keys (`config.permission: [a, b]`): the start-up check
 * still fails closed (an empty list, or a list with one unknown key, refuses to start), the route table
 * carries the whole list, and the auth hook grants a caller holding any one of them and 403s the rest.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { createUserWithRole, permissionId } from '../test/users.ts';

describe('an any-of route policy at start-up', () => {
  it('refuses an empty list and a list holding one unknown key; keeps a known list in the route table', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-anyof-test-'));
    const app = await buildApp(loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false }));
    try {
      expect(() => app.get('/service-test/none', { config: { permission: [] as unknown as ['/system/user'] } }, () => 'x')).toThrow(/unknown permission "\[\]"/);
      expect(() => app.get('/service-test/typo', { config: { permission: ['/system/user', '/system/usr'] } }, () => 'x')).toThrow(/unknown permission "\[\/system\/user\|\/system\/usr\]"/);
      // 'session' and 'public' are policies of their own, never members of a list.
      expect(() => app.get('/service-test/mixed', { config: { permission: ['/system/user', 'session' as '/x'] } }, () => 'x')).toThrow(/unknown permission/);
      app.get('/service-test/both', { config: { permission: ['/system/user', '/system/role'] } }, () => 'x');
      expect(app.routeTable.find((r) => r.url === '/service-test/both' && r.method === 'GET')?.permission).toEqual(['/system/user', '/system/role']);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an any-of route policy at the door', () => {
  let server: TestServer;
  let hits = 0;
  beforeAll(async () => {
    server = await startServer({ seedVehicles: 0 }, (app) => {
      app.post('/service-test/either', { config: { permission: ['/information/params/baseParam:set', '/information/params/adasParam:set'] } }, () => ({ code: 200, msg: 'ok', data: ++hits }));
    });
  }, 60_000);
  afterAll(() => server.close());

  const groups = [permissionId('/information'), permissionId('/information/params')];

  it('grants a caller holding the first key, a caller holding the second, and 403s one holding neither (the handler never runs)', async () => {
    const base = await createUserWithRole(server, 'anyof_base', 1, [...groups, permissionId('/information/params/baseParam'), permissionId('/information/params/baseParam:set')]);
    const adas = await createUserWithRole(server, 'anyof_adas', 1, [...groups, permissionId('/information/params/adasParam'), permissionId('/information/params/adasParam:set')]);
    // The DSM screen's set bit and the ADAS screen without its set bit: neither key of the list.
    const neither = await createUserWithRole(server, 'anyof_neither', 1, [...groups, permissionId('/information/params/adasParam'), permissionId('/information/params/dsmParam'), permissionId('/information/params/dsmParam:set')]);
    expect((await server.call('POST', '/service-test/either', { token: base, body: {} })).status).toBe(200);
    expect((await server.call('POST', '/service-test/either', { token: adas, body: {} })).status).toBe(200);
    const before = hits;
    const refused = await server.call('POST', '/service-test/either', { token: neither, body: {} });
    expect(refused.status).toBe(403);
    expect((await server.call('POST', '/service-test/either', { body: {} })).status).toBe(401);
    expect(hits).toBe(before);
  });

  it('needs the screen as well as the button: a button bit whose screen is not held grants nothing', async () => {
    const orphan = await createUserWithRole(server, 'anyof_orphan', 1, [...groups, permissionId('/information/params/adasParam:set')]);
    expect((await server.call('POST', '/service-test/either', { token: orphan, body: {} })).status).toBe(403);
  });
});
