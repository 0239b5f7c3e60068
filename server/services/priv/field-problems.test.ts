/**
 * A refused save names its field twice (issue 13): the sentence in `msg` (the caller's language) and
 * `errors: {field: {code, params, msg}}`, from which a form words the problem again after a language switch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldRuleText } from '../../../domain/errors/field-problem.ts';
import { startServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
});
afterAll(() => server.close());

interface Refusal { code: number; msg: string; errors?: Record<string, { code: string; params?: Record<string, unknown>; msg: string }> }

async function send(method: string, path: string, body: unknown, lang: 'zh' | 'en'): Promise<{ status: number; body: Refusal }> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', 'x-jwt': admin, 'x-lang': lang }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Refusal };
}

describe('field problems in a refused save', () => {
  it('a schema limit: the sentence, and the field\'s code and limit beside it', async () => {
    const r = await send('POST', '/service-priv/user', { username: 'fp_user', password: 'secret123', userLevel: 2, realName: 'x'.repeat(33) }, 'en');
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('Field realName is invalid: must have at most 32 characters');
    expect(r.body.errors).toEqual({ realName: { code: 'maxLength', params: { limit: 32 }, msg: 'must have at most 32 characters' } });
    // The console words the same code in Chinese without asking the server again.
    expect(fieldRuleText(r.body.errors!.realName!, 'zh')).toBe('长度不能超过 32');
  });

  it('a missing field and a wrong pattern each name their field', async () => {
    const missing = await send('POST', '/service-priv/user', { username: 'fp_user2', userLevel: 2 }, 'zh');
    expect(missing.body.msg).toBe('字段 password 不能为空');
    expect(missing.body.errors).toEqual({ password: { code: 'required', msg: '不能为空' } });
    const pattern = await send('POST', '/service-priv/user', { username: 'no spaces!', password: 'secret123', userLevel: 2 }, 'zh');
    expect(pattern.body.errors?.username).toEqual({ code: 'pattern', msg: '格式不正确' });
  });

  it('a rule of the resource: a taken user name is 409 with the field and code "taken"', async () => {
    const r = await send('POST', '/service-priv/user', { username: 'operator', password: 'secret123', userLevel: 2 }, 'en');
    expect(r.status).toBe(409);
    expect(r.body.msg).toBe('The user name is already taken');
    expect(r.body.errors).toEqual({ username: { code: 'taken', msg: 'is already taken' } });
  });

  it('a bad address range and an unknown role carry their value as a parameter', async () => {
    const ip = await send('POST', '/service-priv/user', { username: 'fp_user3', password: 'secret123', userLevel: 2, allowedIps: '10.0.0.1, 300.1.1.1' }, 'zh');
    expect(ip.status).toBe(400);
    expect(ip.body.errors).toEqual({ allowedIps: { code: 'ipEntry', params: { entry: '300.1.1.1' }, msg: '「300.1.1.1」不是 IPv4 地址或 CIDR 网段' } });
    expect(ip.body.msg).toBe('字段 allowedIps 不合法：「300.1.1.1」不是 IPv4 地址或 CIDR 网段');
    const role = await send('POST', '/service-priv/user', { username: 'fp_user4', password: 'secret123', userLevel: 2, roleIds: [99999] }, 'en');
    expect(role.body.errors?.roleIds).toMatchObject({ code: 'noSuchRole', params: { id: 99999 } });
  });

  it('a problem with the body itself names no field', async () => {
    const res = await fetch(`${server.url}/service-priv/user`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-jwt': admin }, body: '[]' });
    const body = (await res.json()) as Refusal;
    expect(res.status).toBe(400);
    expect(body.errors).toBeUndefined();
  });
});
