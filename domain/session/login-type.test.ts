import { describe, expect, it } from 'vitest';
import { isLoginPath, loginPathFor, loginRoutesFor, loginTypeOfPath, loginUrlFor } from './login-type.ts';

describe('the login page of a stored login type (spec §2)', () => {
  it.each([
    ['scenic', '/scenicLogin'],
    ['jhx', '/jhxLogin'],
    ['yw', '/ywSingleLogin'],
    ['kx', '/kxLogin'],
    ['mm', '/mmLogin'],
    ['default', '/login'],
    ['freight', '/login'],
    ['park', '/login'],
  ] as const)('login type %s returns to %s', (type, path) => {
    expect(loginPathFor(type, '/system/user')).toBe(path);
  });

  it('uses the scenic page whenever the path contains scenicWeb', () => {
    expect(loginPathFor('default', '/scenicWeb/index')).toBe('/scenicLogin');
    expect(loginPathFor(null, '/scenicWeb/index')).toBe('/scenicLogin');
  });

  it('uses /login when no type is stored', () => {
    expect(loginPathFor(null)).toBe('/login');
    expect(loginPathFor(undefined, '/monitor/index')).toBe('/login');
  });

  it('carries the current path as redirect', () => {
    expect(loginUrlFor('jhx', '/system/user?current=2')).toBe('/jhxLogin?redirect=%2Fsystem%2Fuser%3Fcurrent%3D2');
  });

  it('adds no redirect for the root or a login page', () => {
    expect(loginUrlFor('default', '/')).toBe('/login');
    expect(loginUrlFor('default', '/login?redirect=%2Fa')).toBe('/login');
  });
});

describe('login routes', () => {
  it('knows every login path of the spec', () => {
    for (const p of ['/login', '/otherLogin', '/freightLogin', '/monitorLogin', '/zhantingLogin', '/zbLogin', '/jhxLogin', '/scenicLogin', '/ywSingleLogin', '/kxLogin', '/mmLogin']) {
      expect(isLoginPath(p)).toBe(true);
    }
    expect(isLoginPath('/login/')).toBe(true);
    expect(isLoginPath('/system/user')).toBe(false);
  });

  it('offers /parkLogin only in the park variant', () => {
    expect(loginRoutesFor('main').some((r) => r.path === '/parkLogin')).toBe(false);
    expect(loginRoutesFor('park').some((r) => r.path === '/parkLogin')).toBe(true);
  });

  it('stores the variant\'s login type', () => {
    expect(loginTypeOfPath('/scenicLogin')).toBe('scenic');
    expect(loginTypeOfPath('/ywSingleLogin?x=1')).toBe('yw');
  });
});
