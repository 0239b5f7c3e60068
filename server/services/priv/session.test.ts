import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageFor } from '../../../domain/errors/catalogue.ts';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import { hashTicket } from '../../auth/tickets.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { permissionId } from '../../test/users.ts';

const idOf = permissionId;

interface LoginData {
  token: string;
  user: { id: number; username: string; userLevel: number; companyId: number; geoInverse: boolean; permissions: { offset: number; permissions: number }[] };
}

let server: TestServer;
let admin: string;
let seq = 0;

/** Creates a user through the API (as admin) and answers its id. */
async function createUser(fields: Record<string, unknown>): Promise<{ id: number; username: string }> {
  const username = `u${Date.now() % 100000}_${++seq}`;
  const r = await server.call<{ id: number }>('POST', '/service-priv/user', {
    token: admin, body: { username, password: 'secret123', userLevel: 2, realName: 'Test', ...fields },
  });
  expect(r.code).toBe(200);
  return { id: r.data.id, username };
}

async function login(username: string, password: string, lang: 'zh' | 'en' = 'zh') {
  return server.call<LoginData>('POST', '/service-priv/login', { body: { username, password, loginType: 'login' }, lang });
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
});
afterAll(() => server.close());

describe('signing in', () => {
  it('answers a token and the user with the role permissions merged per offset', async () => {
    const r = await login('operator', 'operator123');
    expect(r.status).toBe(200);
    expect(r.code).toBe(200);
    expect(r.data.token.split('.')).toHaveLength(3);
    // Addresses are on for the demo accounts, as for every new user.
    expect(r.data.user).toMatchObject({ username: 'operator', userLevel: 2, companyId: 1, geoInverse: true });
    const expected = masksFromIds(['/home', '/home/index', '/monitor', '/monitor/index', '/monitor/trackPlaybackPage', '/monitor/videoMonitor'].map(idOf));
    expect(r.data.user.permissions).toEqual(expected);
    expect(r.data.user).not.toHaveProperty('passwordHash');
  });

  it('merges the masks of several roles by OR', async () => {
    const roles = await server.call<{ id: number; name: string }[]>('GET', '/service-priv/role/list', { token: admin });
    const monitor = roles.data.find((r) => r.name === '监控员');
    const safety = roles.data.find((r) => r.name === '安全员');
    const both = await createUser({ roleIds: [monitor?.id, safety?.id] });
    const r = await login(both.username, 'secret123');
    const ids = new Set<number>();
    for (const roleId of [monitor?.id, safety?.id]) {
      const rp = await server.call<{ permissionIds: number[] }>('GET', `/service-priv/role/role_permissions?roleId=${roleId}`, { token: admin });
      for (const id of rp.data.permissionIds) ids.add(id);
    }
    expect(r.data.user.permissions).toEqual(masksFromIds(ids));
  });

  it.each([
    ['zh', '用户名或密码错误'],
    ['en', 'Wrong user name or password'],
  ] as const)('refuses a wrong password with code 1001 in %s', async (lang, msg) => {
    const r = await login('admin', 'wrong-password', lang);
    expect(r.status).toBe(200);
    expect(r.code).toBe(1001);
    expect(r.msg).toBe(msg);
    expect(r.data).toBeNull();
  });

  it('refuses an unknown user name with the same 1001 answer', async () => {
    const r = await login('nobody-here', 'whatever');
    expect(r.code).toBe(1001);
  });

  it('refuses an expired account with code 1002 in both languages', async () => {
    const u = await createUser({ expireTime: Date.now() - 60_000 });
    const zh = await login(u.username, 'secret123', 'zh');
    expect(zh.code).toBe(1002);
    expect(zh.msg).toBe('账号已过期，请联系管理员');
    const en = await login(u.username, 'secret123', 'en');
    expect(en.msg).toBe('Account expired. Contact your administrator.');
  });

  it('refuses a disabled account with code 1003 in both languages', async () => {
    const u = await createUser({ status: 0 });
    const zh = await login(u.username, 'secret123', 'zh');
    expect(zh.code).toBe(1003);
    expect(zh.msg).toBe('账号无效，请重新登录');
    expect((await login(u.username, 'secret123', 'en')).msg).toBe('This account is disabled. Contact your administrator.');
  });

  it('refuses a caller outside the allowed address ranges with code 1004 and admits one inside', async () => {
    const outside = await createUser({ allowedIps: '10.1.0.0/16, 192.168.3.4' });
    const zh = await login(outside.username, 'secret123', 'zh');
    expect(zh.code).toBe(1004);
    expect(zh.msg).toBe('登录地点受限，请联系管理员');
    expect((await login(outside.username, 'secret123', 'en')).msg).toBe('Sign-in is not allowed from this location. Contact your administrator.');
    const inside = await createUser({ allowedIps: '10.0.0.1,127.0.0.0/8' });
    expect((await login(inside.username, 'secret123')).code).toBe(200);
  });

  it('makes a user name wait 30 s after five failures, even with the right password, and says so (1005)', async () => {
    const u = await createUser({});
    for (let i = 0; i < 5; i++) expect((await login(u.username, 'nope-nope')).code).toBe(1001);
    const zh = await login(u.username, 'secret123', 'zh');
    expect(zh.code).toBe(1005);
    const seconds = (zh.data as unknown as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(seconds).toBeGreaterThan(25);
    expect(seconds).toBeLessThanOrEqual(30);
    expect(zh.msg).toBe(`登录失败次数过多，请 ${seconds} 秒后再试`);
    expect((await login(u.username, 'secret123', 'en')).msg).toMatch(/^Too many failed sign-ins\. Try again in (2\d|30) s\.$/);
    // Other accounts are not affected.
    expect((await login('operator', 'operator123')).code).toBe(200);
  });

  it('answers 400 naming the field when the login body lacks the password', async () => {
    const r = await server.call('POST', '/service-priv/login', { body: { username: 'admin' }, lang: 'en' });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('Field password is required');
  });
});

describe('the session token', () => {
  it('is required: without x-jwt a call answers 401', async () => {
    const r = await server.call('GET', '/service-priv/user/current');
    expect(r.status).toBe(401);
    expect(r.code).toBe(401);
    expect(r.msg).toBe(messageFor(401, 'zh'));
  });

  it('is refused when tampered with', async () => {
    const token = await server.login('operator', 'operator123');
    const tampered = `${token.slice(0, -3)}${token.endsWith('A') ? 'B' : 'A'}xx`;
    expect((await server.call('GET', '/service-priv/user/current', { token: tampered })).status).toBe(401);
  });

  it('stops working right after logout', async () => {
    const token = await server.login('operator', 'operator123');
    expect((await server.call('GET', '/service-priv/user/current', { token })).code).toBe(200);
    expect((await server.call('POST', '/service-priv/logout', { token })).code).toBe(200);
    expect((await server.call('GET', '/service-priv/user/current', { token })).status).toBe(401);
  });

  it('stops working for every session of a user after revokeSessions', async () => {
    const u = await createUser({});
    const t1 = (await login(u.username, 'secret123')).data.token;
    const t2 = (await login(u.username, 'secret123')).data.token;
    const r = await server.call<{ revoked: number }>('POST', '/service-priv/user/revokeSessions', { token: admin, body: { id: u.id } });
    expect(r.data.revoked).toBe(2);
    expect((await server.call('GET', '/service-priv/user/current', { token: t1 })).status).toBe(401);
    expect((await server.call('GET', '/service-priv/user/current', { token: t2 })).status).toBe(401);
  });

  it('stops working when the account is disabled', async () => {
    const u = await createUser({});
    const token = (await login(u.username, 'secret123')).data.token;
    await server.call('PUT', '/service-priv/user', { token: admin, body: { id: u.id, status: 0 } });
    expect((await server.call('GET', '/service-priv/user/current', { token })).status).toBe(401);
  });

  it('exposes the jwt header to the console', async () => {
    const r = await server.call('GET', '/service-priv/user/current', { token: admin });
    expect(r.headers.get('access-control-expose-headers')).toContain('jwt');
    // A fresh token is not replaced.
    expect(r.headers.get('jwt')).toBeNull();
  });
});

describe('sliding expiry', () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startServer({ tokenTtlSeconds: 4, seedVehicles: 0 });
  });
  afterAll(() => short.close());

  it('answers a fresh token in the jwt header once the token is past half of its life', async () => {
    const token = await short.login('admin', 'admin123');
    const early = await short.call('GET', '/service-priv/user/current', { token });
    expect(early.headers.get('jwt')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2300));
    const late = await short.call('GET', '/service-priv/user/current', { token });
    const fresh = late.headers.get('jwt');
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(token);
    const withFresh = await short.call('GET', '/service-priv/user/current', { token: fresh ?? '' });
    expect(withFresh.code).toBe(200);
    expect(withFresh.headers.get('jwt')).toBeNull();
  });
});

describe('passwordless login', () => {
  it('signs in once with an issued ticket and refuses the same ticket again (1006)', async () => {
    const issued = await server.call<{ ticket: string; expireTime: number; path: string }>('POST', '/service-priv/loginTicket', {
      token: admin, body: { userId: 2, minutes: 5 },
    });
    expect(issued.code).toBe(200);
    expect(issued.data.path).toBe(`/bcmp-web/mmLogin?ticket=${issued.data.ticket}`);
    expect(issued.data.expireTime).toBeGreaterThan(Date.now());
    const first = await server.call<LoginData>('POST', '/service-priv/mmLogin', { body: { ticket: issued.data.ticket } });
    expect(first.code).toBe(200);
    expect(first.data.user.username).toBe('operator');
    const again = await server.call('POST', '/service-priv/mmLogin', { body: { ticket: issued.data.ticket }, lang: 'en' });
    expect(again.code).toBe(1006);
    expect(again.msg).toBe('This sign-in link is invalid or has expired');
  });

  it('refuses an expired or unknown ticket with 1006', async () => {
    await server.app.storage.loginGuard.createTicket({ hash: hashTicket('expired-ticket'), userId: 2, createdBy: 1, expireTime: Date.now() - 1000 });
    const expired = await server.call('POST', '/service-priv/mmLogin', { body: { ticket: 'expired-ticket' } });
    expect(expired.code).toBe(1006);
    expect(expired.msg).toBe('登录凭证无效或已过期');
    expect((await server.call('POST', '/service-priv/mmLogin', { body: { ticket: 'never-issued' } })).code).toBe(1006);
  });

  it('issues tickets only with the user update right', async () => {
    const op = await server.login('operator', 'operator123');
    const r = await server.call('POST', '/service-priv/loginTicket', { token: op, body: { userId: 2 } });
    expect(r.status).toBe(403);
  });
});
