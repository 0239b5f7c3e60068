import { describe, expect, it } from 'vitest';
import { afterRestore, guardDecision, postLoginTarget, restoreFailureEndsSession } from './guard.ts';
import { rootTargetFor, ROOT_ROUTES } from './root.ts';

describe('the route guard (spec §2)', () => {
  it('signs the user out on a login path, even when signed in', () => {
    expect(guardDecision({ path: '/login', userLoaded: true, storedToken: 't', loginType: 'default' })).toEqual({ kind: 'signOut' });
    expect(guardDecision({ path: '/kxLogin?redirect=%2Fa', userLoaded: false, storedToken: null, loginType: 'kx' })).toEqual({ kind: 'signOut' });
  });

  it('lets a loaded user through', () => {
    expect(guardDecision({ path: '/system/user', userLoaded: true, storedToken: 't', loginType: 'default' })).toEqual({ kind: 'proceed' });
  });

  it('restores the user from a stored token', () => {
    expect(guardDecision({ path: '/system/user', userLoaded: false, storedToken: 'abc', loginType: 'default' })).toEqual({ kind: 'restore', token: 'abc' });
  });

  it('sends a visitor without token to the login page of the stored type with a redirect', () => {
    expect(guardDecision({ path: '/system/role', userLoaded: false, storedToken: null, loginType: 'jhx' })).toEqual({
      kind: 'toLogin',
      to: '/jhxLogin?redirect=%2Fsystem%2Frole',
    });
  });

  it('sends a failed restore to the login page of the stored type', () => {
    expect(afterRestore(false, { path: '/monitor/index', loginType: 'yw' })).toEqual({ kind: 'toLogin', to: '/ywSingleLogin?redirect=%2Fmonitor%2Findex' });
    expect(afterRestore(false, { path: '/scenicWeb/home', loginType: 'default' })).toEqual({ kind: 'toLogin', to: '/scenicLogin?redirect=%2FscenicWeb%2Fhome' });
    expect(afterRestore(true, { path: '/monitor/index', loginType: 'yw' })).toEqual({ kind: 'proceed' });
  });
});

describe('a failed restore', () => {
  it('signs out when the server refused the token, keeps it when the server was not reached', () => {
    for (const code of [401, 403, 1002, 1003]) expect(restoreFailureEndsSession(code)).toBe(true);
    for (const code of [1100, 408, 429, 500, 502, 503, 504]) expect(restoreFailureEndsSession(code)).toBe(false);
  });
});

describe('where a login lands', () => {
  const canSee = (p: string) => p !== '/system/role';

  it('goes to the redirect when the user may see it', () => {
    expect(postLoginTarget('/system/user?current=2', canSee, '/home/index')).toBe('/system/user?current=2');
  });

  it('goes to the root when the redirect is hidden, missing or a login page', () => {
    expect(postLoginTarget('/system/role', canSee, '/home/index')).toBe('/home/index');
    expect(postLoginTarget(undefined, canSee, '/home/index')).toBe('/home/index');
    expect(postLoginTarget('/login', canSee, '/home/index')).toBe('/home/index');
  });

  it('refuses redirects that leave the console', () => {
    expect(postLoginTarget('https://evil.example/', canSee, '/home/index')).toBe('/home/index');
    expect(postLoginTarget('//evil.example/x', canSee, '/home/index')).toBe('/home/index');
  });
});

describe('the root route per variant', () => {
  it('maps each router variant to its start page', () => {
    expect(ROOT_ROUTES).toEqual({ main: '/home/index', park: '/parkChargeManage/operation/captureRecord', monitor: '/monitor/index' });
  });

  const allBuilt = () => true;

  it('falls back to the first visible page when the variant root is hidden', () => {
    expect(rootTargetFor('main', (p) => p.startsWith('/monitor'), ['/home/index', '/monitor/index'], allBuilt)).toBe('/monitor/index');
    expect(rootTargetFor('main', () => true, ['/monitor/index'], allBuilt)).toBe('/home/index');
  });

  it('never lands on a page that is not built: the first built page the user may see, in menu order', () => {
    const built = new Set(['/monitor/index', '/system/user']);
    const isBuilt = (p: string) => built.has(p);
    const order = ['/home/index', '/monitor/shape_map', '/monitor/index', '/system/user'];
    // the dashboard (variant root) is visible but not built; /monitor/shape_map comes first but is not built
    expect(rootTargetFor('main', () => true, order, isBuilt)).toBe('/monitor/index');
    // menu order decides, not the order pages were built in
    expect(rootTargetFor('main', (p) => p !== '/monitor/index', order, isBuilt)).toBe('/system/user');
    // the root wins once it is built
    expect(rootTargetFor('main', () => true, order, (p) => p === '/home/index' || built.has(p))).toBe('/home/index');
  });

  it('answers null when the user may see no built page (no redirect to a placeholder or a 404)', () => {
    expect(rootTargetFor('main', (p) => p === '/home/index' || p === '/monitor/shape_map', ['/home/index', '/monitor/shape_map', '/monitor/index'], (p) => p === '/monitor/index')).toBeNull();
    expect(rootTargetFor('monitor', () => false, ['/monitor/index'], allBuilt)).toBeNull();
  });
});
