import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { startServer, type TestServer } from '../test/harness.ts';

describe('route declarations', () => {
  it('refuses to start when an API route declares no permission', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-route-test-'));
    const app = await buildApp(loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false }));
    try {
      expect(() => app.get('/service-priv/undeclared', () => 'x')).toThrow(/declares no permission/);
      expect(() => app.get('/service-priv/typo', { config: { permission: '/system/usr' } }, () => 'x')).toThrow(/unknown permission/);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the envelope and errors', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ seedVehicles: 0 }, (app) => {
      app.get('/service-test/boom', { config: { permission: 'public' } }, () => {
        throw new Error('secret database detail');
      });
    });
  });
  afterAll(() => server.close());

  it('answers an unexpected failure with a generic 500 and no internals', async () => {
    const res = await fetch(`${server.url}/service-test/boom`, { headers: { 'x-lang': 'en' } });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ code: 500, msg: 'Internal server error', data: null });
    expect(text).not.toContain('secret');
  });

  it('picks the language from Accept-Language when x-lang is absent', async () => {
    const res = await fetch(`${server.url}/service-priv/user/current`, { headers: { 'accept-language': 'en-US,en;q=0.9,zh;q=0.5' } });
    expect(((await res.json()) as { msg: string }).msg).toBe('Unauthorized, please log in');
    const zh = await fetch(`${server.url}/service-priv/user/current`, { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(((await zh.json()) as { msg: string }).msg).toBe('未授权，请登录');
  });

  it('answers 401 before looking at the body of a protected call', async () => {
    const res = await fetch(`${server.url}/service-priv/user`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(res.status).toBe(401);
  });

  it('answers a query value of the wrong type with 400 naming the field', async () => {
    const token = await server.login('admin', 'admin123');
    const r = await server.call('GET', '/service-priv/user/page?size=abc', { token, lang: 'en' });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('Field size is invalid: must be an integer');
    const big = await server.call('GET', '/service-priv/user/page?size=501', { token, lang: 'en' });
    expect(big.msg).toBe('Field size is invalid: must be at most 500');
  });
});

describe('the console', () => {
  it('says to run the build when the console is not built', async () => {
    const server = await startServer({ seedVehicles: 0 });
    try {
      const res = await fetch(`${server.url}/bcmp-web/system/user`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('npm run build');
    } finally {
      await server.close();
    }
  });

  describe('when built', () => {
    let server: TestServer;
    let consoleDir: string;
    beforeAll(async () => {
      consoleDir = mkdtempSync(path.join(tmpdir(), 'fleet-console-'));
      mkdirSync(path.join(consoleDir, 'assets'));
      writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console shell</title>');
      writeFileSync(path.join(consoleDir, 'assets', 'app-1234.js'), 'export {};');
      server = await startServer({ seedVehicles: 0, consoleDir });
    });
    afterAll(async () => {
      await server.close();
      rmSync(consoleDir, { recursive: true, force: true });
    });

    it('redirects / to /bcmp-web/', async () => {
      const res = await fetch(`${server.url}/`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/bcmp-web/');
    });

    it('answers index.html for client routes and the file for assets', async () => {
      for (const p of ['/bcmp-web/', '/bcmp-web/system/user', '/bcmp-web/login?redirect=%2Fsystem%2Frole']) {
        const res = await fetch(server.url + p);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('console shell');
      }
      const asset = await fetch(`${server.url}/bcmp-web/assets/app-1234.js`);
      expect(await asset.text()).toBe('export {};');
      expect(asset.headers.get('cache-control')).toContain('immutable');
    });

    it('answers 404 for a missing file so a failed chunk load is visible', async () => {
      const res = await fetch(`${server.url}/bcmp-web/assets/missing-chunk.js`);
      expect(res.status).toBe(404);
    });
  });
});
