// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { companySelection } from '../session/company-selection.ts';
import { session } from '../session/store.ts';
import { registerUnauthorizedNavigation } from '../session/unauthorized.ts';
import { ApiError, http } from './http.ts';

interface Sent {
  url: string;
  init: RequestInit;
}

let sent: Sent[] = [];

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const type: Record<string, string> = typeof body === 'object' ? { 'content-type': 'application/json; charset=utf-8' } : {};
  return new Response(text || null, { status, headers: { ...type, ...headers } });
}

function stubFetch(respond: (url: string, init: RequestInit) => Response | Promise<Response>): void {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return respond(url, init);
  });
}

const headerOf = (s: Sent | undefined, name: string) => new Headers(s?.init.headers).get(name);

beforeEach(() => {
  sent = [];
  localStorage.clear();
  session.token = 'tok-1';
  session.user = null;
  companySelection.companyId = 7;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the request client', () => {
  it('returns the data of a code 200 answer and sends the token and language', async () => {
    stubFetch(() => answer(200, { code: 200, msg: 'ok', data: { n: 1 } }));
    await expect(http.get('/service-priv/role/list')).resolves.toEqual({ n: 1 });
    expect(headerOf(sent[0], 'x-jwt')).toBe('tok-1');
    expect(headerOf(sent[0], 'x-lang')).toBe('zh');
  });

  it('adds the selected company to GET params with repeated arrays', async () => {
    stubFetch(() => answer(200, { code: 200, data: null }));
    await http.get('/service-priv/user/page', { ids: [1, 2], current: 1 });
    expect(sent[0]?.url).toBe('/service-priv/user/page?ids=1&ids=2&current=1&companyId=7');
  });

  it('adds the selected company to a POST body but never the opt-out flag', async () => {
    stubFetch(() => answer(200, { code: 200, data: null }));
    await http.post('/service-priv/role', { name: 'r' });
    await http.post('/service-priv/role', { name: 'r' }, { noCompanyId: true });
    expect(JSON.parse(String(sent[0]?.init.body))).toEqual({ name: 'r', companyId: 7 });
    expect(JSON.parse(String(sent[1]?.init.body))).toEqual({ name: 'r' });
  });

  it('sends a DELETE payload in the query, or as a JSON body when asked (the spec\'s DELETE /vehicle takes {ids})', async () => {
    stubFetch(() => answer(200, { code: 200, data: { deleted: 2 } }));
    await http.delete('/service-priv/role', { ids: [1, 2] });
    await expect(http.delete('/service-priv/vehicle', { ids: [3, 4] }, { jsonBody: true })).resolves.toEqual({ deleted: 2 });
    expect(sent[0]?.url).toBe('/service-priv/role?ids=1&ids=2&companyId=7');
    expect(sent[0]?.init.body).toBeUndefined();
    expect(sent[1]?.url).toBe('/service-priv/vehicle');
    expect(sent[1]?.init.method).toBe('DELETE');
    expect(headerOf(sent[1], 'content-type')).toContain('application/json');
    expect(JSON.parse(String(sent[1]?.init.body))).toEqual({ ids: [3, 4], companyId: 7 });
  });

  it('replaces the stored token when an answer carries a jwt header', async () => {
    stubFetch(() => answer(200, { code: 200, data: 1 }, { jwt: 'tok-2' }));
    await http.get('/x', undefined, { noCompanyId: true });
    expect(session.token).toBe('tok-2');
    expect(localStorage.getItem('token')).toBe('tok-2');
  });

  it('rejects a code other than 200 with the body', async () => {
    const body = { code: 1001, msg: '用户名或密码错误', data: null };
    stubFetch(() => answer(200, body));
    const err = await http.post('/service-priv/login', {}, { silent: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 1001, msg: '用户名或密码错误', body });
  });

  it('uses the status table for an HTTP failure without a JSON body', async () => {
    stubFetch(() => answer(502, '<html>bad gateway</html>', { 'content-type': 'text/html' }));
    await expect(http.get('/x', undefined, { silent: true })).rejects.toMatchObject({ code: 502, msg: '网关错误' });
  });

  it('asks to check the network when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(http.get('/x', undefined, { silent: true })).rejects.toMatchObject({ code: 1100, msg: '网络异常，请检查网络' });
  });

  it('clears the session on 401 and goes to /login with the current path', async () => {
    const go = vi.fn();
    registerUnauthorizedNavigation(go);
    window.history.pushState({}, '', `${import.meta.env.BASE_URL}system/user?current=2`);
    localStorage.setItem('token', 'tok-1');
    stubFetch(() => answer(401, { code: 401, msg: '未授权，请登录', data: null }));
    await expect(http.get('/x', undefined, { silent: true })).rejects.toMatchObject({ code: 401 });
    expect(session.token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(go).toHaveBeenCalledWith('/login?redirect=%2Fsystem%2Fuser%3Fcurrent%3D2');
  });

  it('returns an export as binary with its file name', async () => {
    stubFetch(() => new Response(new Uint8Array([80, 75, 3, 4]), {
      status: 200,
      headers: { 'content-type': 'application/octet-stream', 'content-disposition': "attachment; filename*=UTF-8''%E7%94%A8%E6%88%B7.xlsx" },
    }));
    const out = await http.export('/service-priv/user/export', { isExport: true });
    expect(out.filename).toBe('用户.xlsx');
    expect(out.blob.size).toBe(4);
    expect(sent[0]?.url).toBe('/service-priv/user/export?isExport=true');
  });

  it('rejects an export that answers an error envelope', async () => {
    stubFetch(() => answer(200, { code: 403, msg: '拒绝访问', data: null }));
    await expect(http.export('/e', {}, { silent: true })).rejects.toMatchObject({ code: 403 });
  });
});
