import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startServer, type TestServer } from '../../test/harness.ts';

/**
 * The login back-off per account and per address (domain/session/backoff.ts). The server trusts
 * X-Forwarded-For here so one test can speak from several addresses.
 */
let server: TestServer;
let admin: string;
let seq = 0;

interface Throttled { retryAfterSeconds: number }

async function createUser(): Promise<string> {
  const username = `bo${Date.now() % 100000}_${++seq}`;
  const r = await server.call('POST', '/service-priv/user', { token: admin, body: { username, password: 'secret123', userLevel: 2, realName: 'Test' } });
  expect(r.code).toBe(200);
  return username;
}

function login(username: string, password: string, from: string, lang: 'zh' | 'en' = 'zh') {
  return server.call<Throttled | { token: string }>('POST', '/service-priv/login', {
    body: { username, password, loginType: 'login' }, lang, headers: { 'x-forwarded-for': from },
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  // 1.5 s first wait so the doubling and the end of a wait are seen within a test's time.
  server = await startServer({ trustProxy: true, throttleBaseMs: 1500, throttleMaxFailures: 3, throttleAddressMaxFailures: 6 });
  admin = await server.login('admin', 'admin123');
});
afterAll(() => server.close());

describe('login back-off', () => {
  it('per account: failures from one address make the account wait at every address, and the wait doubles', async () => {
    const u = await createUser();
    for (let i = 0; i < 3; i++) expect((await login(u, 'wrong', '198.51.100.1')).code).toBe(1001);
    const other = await login(u, 'secret123', '198.51.100.2', 'en');
    expect(other.code).toBe(1005);
    expect(other.data).toEqual({ retryAfterSeconds: 2 });
    expect(other.msg).toBe('Too many failed sign-ins. Try again in 2 s.');
    // A refused attempt is no failure: asking does not prolong the wait.
    expect((await login(u, 'wrong', '198.51.100.1')).data).toEqual({ retryAfterSeconds: 2 });
    await sleep(1600);
    expect((await login(u, 'wrong', '198.51.100.1')).code).toBe(1001);
    const doubled = await login(u, 'secret123', '198.51.100.1', 'zh');
    expect(doubled.code).toBe(1005);
    expect(doubled.data).toEqual({ retryAfterSeconds: 3 });
    expect(doubled.msg).toBe('登录失败次数过多，请 3 秒后再试');
    // Another account is untouched.
    expect((await login('operator', 'operator123', '198.51.100.1')).code).toBe(200);
  });

  it('per address: spraying many user names from one address makes that address wait, not others', async () => {
    const victim = await createUser();
    for (let i = 0; i < 6; i++) expect((await login(`spray-${seq}-${i}`, 'guess', '203.0.113.50')).code).toBe(1001);
    const blocked = await login(victim, 'secret123', '203.0.113.50', 'en');
    expect(blocked.code).toBe(1005);
    expect((blocked.data as Throttled).retryAfterSeconds).toBe(2);
    expect(blocked.msg).toBe('Too many failed sign-ins. Try again in 2 s.');
    expect((await login(victim, 'secret123', '203.0.113.50', 'zh')).msg).toBe('登录失败次数过多，请 2 秒后再试');
    expect((await login(victim, 'secret123', '203.0.113.51')).code).toBe(200);
  });

  it('a success after the wait clears the failures of that account and address', async () => {
    const u = await createUser();
    for (let i = 0; i < 3; i++) await login(u, 'wrong', '192.0.2.77');
    expect((await login(u, 'secret123', '192.0.2.77')).code).toBe(1005);
    await sleep(1600);
    expect((await login(u, 'secret123', '192.0.2.77')).code).toBe(200);
    // The streak starts afresh: three more failures are free again.
    for (let i = 0; i < 2; i++) expect((await login(u, 'wrong', '192.0.2.77')).code).toBe(1001);
    expect((await login(u, 'secret123', '192.0.2.77')).code).toBe(200);
  });

  it('reads an address\'s failures through an index (migration 19), not by scanning every failure of the window', () => {
    const db = (server.app.storage as SqliteStorage).db;
    const plan = (db.prepare('EXPLAIN QUERY PLAN SELECT at FROM login_failure WHERE ip = ? AND at >= ?').all('203.0.113.50', 0) as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan).toMatch(/USING (COVERING )?INDEX login_failure_ip/);
    expect(plan).not.toMatch(/^SCAN/);
  });
});
