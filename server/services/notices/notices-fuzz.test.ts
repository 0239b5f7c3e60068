/**
 * The schema fuzz of server/http/fuzz.test.ts narrowed to this area's routes (the whole-server fuzz is
 * long on a loaded machine): random and malformed bodies/queries as an administrator and as a plain user
 * never answer 5xx, and a 4xx answer writes nothing.
 */
import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { fuzzValue, objectValue, seededRng, toQueryString, type JsonSchema } from '../../test/schema-fuzz.ts';
import { createUserWithRole } from '../../test/users.ts';

const RUNS = 40;
let server: TestServer;
let tokens: string[];

beforeAll(async () => {
  server = await startServer();
  tokens = [await server.login('admin', 'admin123'), await createUserWithRole(server, 'nf_plain', 1, [1])];
}, 60_000);
afterAll(() => server?.close());

const part = (schema: FastifySchema | undefined, key: 'body' | 'querystring'): JsonSchema | undefined => (schema as Record<string, JsonSchema> | undefined)?.[key];

describe('notice routes under fuzz', () => {
  it('never answer 5xx, and a 4xx writes nothing', async () => {
    const routes = (server.app.routeTable as { method: string; url: string; schema?: FastifySchema }[])
      .filter((r) => r.method !== 'HEAD' && /\/service-priv\/(notice|msgLog|usermenu)\//.test(r.url));
    expect(routes.length).toBe(15);
    const rng = seededRng(20261128);
    for (const route of routes) {
      for (let i = 0; i < RUNS; i++) {
        const query = part(route.schema, 'querystring');
        const body = part(route.schema, 'body');
        const path = route.url + (query ? toQueryString(objectValue(rng, query)) : '');
        const raw = body ? (rng() < 0.05 ? JSON.stringify(fuzzValue(rng, { type: 'string' })) : JSON.stringify(objectValue(rng, body))) : undefined;
        const token = tokens[i % 2]!;
        const before = fingerprint(server.app);
        const r = await server.call(route.method, path, { token, ...(raw === undefined ? {} : { raw }) });
        expect(r.status, `${route.method} ${path} ${raw ?? ''}`).toBeLessThan(500);
        if (r.status >= 400 || r.code >= 400) expect(changedTables(before, fingerprint(server.app)), `${route.method} ${path} ${raw ?? ''} → ${r.code}`).toEqual([]);
      }
    }
  }, 300_000);
});
