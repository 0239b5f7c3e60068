/**
 * The server against the call catalogue (tools/coverage/spec-lists.json, transcribed from the spec):
 * every registered path the catalogue names answers to the catalogue's method, and COVERAGE.md is the
 * table the current code generates.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COVERAGE_FILE, generate, readSpecLists } from '../../tools/coverage/coverage.ts';
import { methodMismatches } from '../../tools/coverage/model.ts';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
});
afterAll(async () => server?.close());

describe('registered methods match the call catalogue', () => {
  it('every registered path the catalogue names accepts the catalogue method (a console built to the catalogue gets no 404)', () => {
    const routes = server.app.routeTable.map((r) => ({ method: r.method, url: r.url }));
    expect(routes.length).toBeGreaterThan(50);
    expect(methodMismatches(readSpecLists().calls, routes)).toEqual([]);
  });

  it('the two media result calls are POST with a JSON body, and GET no longer routes', async () => {
    const vehicleId = 1;
    const got = await server.call<{ vehicleId: number; items: unknown[]; missing: number[] }>('POST', '/service-command/command/uploadDeviceMediaByMediaIdResult', {
      token: admin, body: { vehicleId, mediaIds: [7, 8] },
    });
    expect(got.code).toBe(200);
    expect(got.data.missing).toEqual([7, 8]);
    const search = await server.call('POST', '/service-command/command/searchDeviceMediaResult', { token: admin, body: { vehicleId } });
    expect(search.code).toBe(404); // no search made yet: "not found" from the handler, with its message
    expect(search.msg).not.toBe('');
    for (const path of ['/service-command/command/uploadDeviceMediaByMediaIdResult?vehicleId=1&mediaIds=7', '/service-command/command/searchDeviceMediaResult?vehicleId=1']) {
      const old = await server.call('GET', path, { token: admin });
      expect(old.status).toBe(404);
    }
  });

  it('a bad body on a result call is a 400 in the caller\'s language', async () => {
    const r = await server.call('POST', '/service-command/command/uploadDeviceMediaByMediaIdResult', { token: admin, lang: 'en', body: { vehicleId: 1, mediaIds: [] } });
    expect(r.code).toBe(400);
    expect(r.msg).toMatch(/[a-z]/i);
  });
});

describe('COVERAGE.md', () => {
  it('is what npm run coverage generates from the current registry, pages and routes (stale otherwise)', async () => {
    const { markdown } = await generate();
    const committed = readFileSync(COVERAGE_FILE, 'utf8');
    expect(committed, 'COVERAGE.md is stale: run `npm run coverage` and commit it').toBe(markdown);
  });
});
