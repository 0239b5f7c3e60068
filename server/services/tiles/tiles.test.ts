/**
 * Street-map archives over HTTP: the list, byte ranges a pmtiles reader asks for, cache headers,
 * missing files and bad input — against the committed fixture (tools/tiles/build-fixture.mjs).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { startServer, type TestServer } from '../../test/harness.ts';
import { parseRange } from './range.ts';
import type { ArchiveInfo } from './index.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'china-outline.pmtiles');
const bytes = readFileSync(FIXTURE);

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const dir = path.join(server.config.dataDir, 'tiles');
  mkdirSync(dir, { recursive: true });
  copyFileSync(FIXTURE, path.join(dir, 'china.pmtiles'));
  // Not an archive: must not be offered.
  writeFileSync(path.join(dir, 'broken.pmtiles'), 'half a download');
  writeFileSync(path.join(dir, 'notes.txt'), 'hello');
});
afterAll(() => server.close());

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${server.url}${p}`, { headers });

describe('GET /tiles/archives', () => {
  it('lists the valid archives with their zooms and bounds, no sign-in needed', async () => {
    const a = await server.call<ArchiveInfo[]>('GET', '/tiles/archives');
    expect(a.status).toBe(200);
    expect(a.data.map((x) => x.name)).toEqual(['china.pmtiles']);
    expect(a.data[0]).toMatchObject({ url: '/tiles/china.pmtiles', bytes: bytes.length, minZoom: 0, maxZoom: 5, bounds: [73, 17, 136, 54] });
    expect(a.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('GET /tiles/:name', () => {
  it('answers the whole file with range support and cache headers', async () => {
    const r = await get('/tiles/china.pmtiles');
    expect(r.status).toBe(200);
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Buffer.from(await r.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers a byte range with 206 and Content-Range', async () => {
    const r = await get('/tiles/china.pmtiles', { range: 'bytes=0-126' });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 0-126/${bytes.length}`);
    const body = Buffer.from(await r.arrayBuffer());
    expect(body.length).toBe(127);
    expect(body.toString('ascii', 0, 7)).toBe('PMTiles');
    const tail = await get('/tiles/china.pmtiles', { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);
  });

  it('serves what a pmtiles reader needs to decode a tile over China', async () => {
    const source: Source = {
      getKey: () => 'china',
      getBytes: async (offset, length): Promise<RangeResponse> => {
        const r = await get('/tiles/china.pmtiles', { range: `bytes=${offset}-${offset + length - 1}` });
        expect(r.status).toBe(206);
        return { data: await r.arrayBuffer(), etag: r.headers.get('etag') ?? undefined };
      },
    };
    const archive = new PMTiles(source);
    const tile = await archive.getZxy(4, 12, 6); // central China
    expect(tile?.data.byteLength).toBeGreaterThan(1000);
    expect(await archive.getZxy(4, 0, 0)).toBeUndefined(); // over the Atlantic: not in the archive
  });

  it('refuses a range past the end or malformed with 416 and the size', async () => {
    for (const range of [`bytes=${bytes.length}-`, 'bytes=10-5', 'bytes=0-1,5-6', 'items=0-1']) {
      const r = await get('/tiles/china.pmtiles', { range, 'x-lang': 'en' });
      expect(r.status, range).toBe(416);
      expect(r.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
      expect(((await r.json()) as { msg: string }).msg).toMatch(/byte range/);
    }
  });

  it('answers 304 to a cached copy and the whole file when If-Range names an old copy', async () => {
    const etag = (await get('/tiles/china.pmtiles', { range: 'bytes=0-0' })).headers.get('etag')!;
    expect((await get('/tiles/china.pmtiles', { 'if-none-match': etag })).status).toBe(304);
    const stale = await get('/tiles/china.pmtiles', { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(stale.status).toBe(200);
    expect(Number(stale.headers.get('content-length'))).toBe(bytes.length);
    await stale.arrayBuffer();
  });

  it('answers HEAD with the size and no body', async () => {
    const r = await fetch(`${server.url}/tiles/china.pmtiles`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(Number(r.headers.get('content-length'))).toBe(bytes.length);
  });

  it('answers 404 for a missing archive and 400 for a name that is not one', async () => {
    const missing = await server.call('GET', '/tiles/shanghai.pmtiles', { lang: 'en' });
    expect(missing.status).toBe(404);
    expect(missing.msg).toBe('This street map file is not on the server');
    for (const bad of ['notes.txt', '..%2Fsecret.key', '.hidden.pmtiles']) {
      const r = await server.call('GET', `/tiles/${bad}`, { lang: 'zh' });
      expect(r.status, bad).toBe(400);
      expect(r.msg).toContain('地图文件名无效');
    }
  });
});

describe('parseRange', () => {
  it('reads one range, clamps the end, and refuses the rest', () => {
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
  });
});
