/**
 * Street-level maps offline (issue 14): the PMTiles archives an operator drops into the tiles
 * directory (TILES_DIR, default DATA_DIR/tiles), served as files with HTTP range requests so the
 * console's `pmtiles` reader fetches only the directory and the tiles it draws.
 *
 * - `GET /tiles/archives`: the valid archives (PMTiles v3 header read: zooms, bounds, centre).
 * - `GET|HEAD /tiles/:name.pmtiles`: the file; `Range: bytes=a-b` → 206, a range past the end or
 *   malformed → 416, `If-None-Match` with the current ETag → 304, missing → 404.
 *
 * Permission: `public`. An archive is public map data (OpenStreetMap-derived), nothing of the fleet;
 * the list names files, not companies. Public lets a wall signed in with a display credential, the
 * login page and a shared cache (Cache-Control public) read the same bytes with no token — the pmtiles
 * reader's range fetches carry no session header. An operator who must not expose the archive puts
 * the server behind the same network boundary as the console.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import type { App } from '../../http/route.ts';
import { parseRange, type ByteRange } from './range.ts';

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const TileMessages = {
  badName: pair('地图文件名无效（仅限字母、数字、点、下划线和连字符，以 .pmtiles 结尾）', 'Invalid map file name (letters, digits, dots, underscores and hyphens, ending in .pmtiles)'),
  missing: pair('服务器上没有该街道地图文件', 'This street map file is not on the server'),
  badRange: pair('请求的字节范围无效或超出文件大小', 'The requested byte range is invalid or past the end of the file'),
};

/** A file name with no path in it: what the list answers and the file route accepts. */
export const ARCHIVE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.pmtiles$/;
const HEADER_BYTES = 127;
/** HTTP 416; the envelope's code equals the status as for the catalogue's HTTP-like codes. */
const RANGE_NOT_SATISFIABLE = 416;
/** Archives are replaced rarely and carry an ETag; an hour of caching, then a cheap 304. */
const CACHE_CONTROL = 'public, max-age=3600';

export interface ArchiveInfo {
  readonly name: string;
  /** Path the console's pmtiles reader fetches (same origin). */
  readonly url: string;
  readonly bytes: number;
  readonly minZoom: number;
  readonly maxZoom: number;
  /** [west, south, east, north], degrees. */
  readonly bounds: readonly [number, number, number, number];
  /** [lng, lat, zoom]. */
  readonly center: readonly [number, number, number];
}

/** Reads a PMTiles v3 header; null when the bytes are not one (a half-copied file, another format). */
export function readHeader(buf: Buffer): Pick<ArchiveInfo, 'minZoom' | 'maxZoom' | 'bounds' | 'center'> | null {
  if (buf.length < HEADER_BYTES || buf.toString('ascii', 0, 7) !== 'PMTiles' || buf.readUInt8(7) !== 3) return null;
  const deg = (at: number) => buf.readInt32LE(at) / 1e7;
  return {
    minZoom: buf.readUInt8(100),
    maxZoom: buf.readUInt8(101),
    bounds: [deg(102), deg(106), deg(110), deg(114)],
    center: [deg(119), deg(123), buf.readUInt8(118)],
  };
}

export function tilesDirOf(config: Pick<Config, 'tilesDir' | 'dataDir'>): string {
  return config.tilesDir ?? path.join(config.dataDir, 'tiles');
}

/** The valid archives in `dir`, by name; an absent directory is an empty list (the outline basemap stays). */
export async function listArchives(dir: string): Promise<ArchiveInfo[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: ArchiveInfo[] = [];
  for (const name of names.filter((n) => ARCHIVE_NAME.test(n)).sort()) {
    const file = path.join(dir, name);
    try {
      const handle = await open(file, 'r');
      try {
        const { size } = await handle.stat();
        const buf = Buffer.alloc(HEADER_BYTES);
        await handle.read(buf, 0, HEADER_BYTES, 0);
        const header = readHeader(buf);
        if (header) out.push({ name, url: `/tiles/${name}`, bytes: size, ...header });
      } finally {
        await handle.close();
      }
    } catch {
      // unreadable (being copied, permissions): not offered
    }
  }
  return out;
}

export function tileRoutes(app: App, deps: { config: Pick<Config, 'tilesDir' | 'dataDir'> }): void {
  const dir = tilesDirOf(deps.config);

  app.get('/tiles/archives', {
    config: { permission: 'public' },
    schema: { querystring: Type.Object({}, { additionalProperties: false }) },
  }, async (request, reply) => {
    // The list changes when a file is dropped in: never cached.
    reply.header('cache-control', 'no-cache');
    return ok(await listArchives(dir), requestLang(request));
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/tiles/:name',
    config: { permission: 'public' },
    schema: { params: Type.Object({ name: Type.String({ maxLength: 200 }) }) },
    handler: async (request, reply: FastifyReply) => {
      const { name } = request.params as { name: string };
      if (!ARCHIVE_NAME.test(name)) throw fail.badRequest(TileMessages.badName);
      const file = path.join(dir, name);
      const st = await stat(file).catch(() => null);
      if (!st?.isFile()) throw fail.notFound(TileMessages.missing);
      // Size and modification time: a replaced archive gets a new tag, so pmtiles readers and caches notice.
      const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
      reply
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('last-modified', st.mtime.toUTCString())
        .header('cache-control', CACHE_CONTROL)
        .header('content-type', 'application/vnd.pmtiles');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();

      let range: ByteRange | null = null;
      const header = request.headers.range;
      // If-Range with another tag: the caller's copy is stale, send the whole file (RFC 9110 §13.1.5).
      const ifRange = request.headers['if-range'];
      if (header !== undefined && (ifRange === undefined || ifRange === etag)) {
        const parsed = parseRange(header, st.size);
        if (parsed === 'unsatisfiable') {
          const lang = requestLang(request);
          return reply.code(416).header('content-range', `bytes */${st.size}`).type('application/json; charset=utf-8')
            .send({ code: RANGE_NOT_SATISFIABLE, msg: TileMessages.badRange(lang), data: null });
        }
        range = parsed;
      }
      const start = range?.start ?? 0;
      const end = range?.end ?? st.size - 1;
      reply.header('content-length', end - start + 1);
      if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${st.size}`);
      if (request.method === 'HEAD' || st.size === 0) return reply.send();
      return reply.send(createReadStream(file, { start, end }));
    },
  });
}
