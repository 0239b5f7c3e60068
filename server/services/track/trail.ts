/**
 * Track playback reads: the binary track (the console's playback source), the paged JSON trail, the
 * point count and the points inside a rectangle. Periods are epoch ms, both ends included.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { TrackData } from '../../../proto/track-codec.ts';
import type { PositionRow, Storage, TrailKey } from '../../db/repositories.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { MAX_PAGE, Strict, type App } from '../../http/route.ts';
import { assertRectangle, assertTrackPeriod, Coordinate, PeriodFields, toExclusive, TrackMessages, vehicleInScope } from './common.ts';

/** A week at 1 Hz is 604,800 points; beyond this the answer is cut (header `total` says how many there were). */
export const TRACK_BINARY_MAX_POINTS = 1_000_000;
/** The rectangle query answers at most this many points as JSON (with the total). */
export const INNER_MAX_POINTS = 20_000;
export const PROTOBUF_TYPE = 'application/x-protobuf';

/** One point of the JSON answers. */
export interface TrailRecord {
  lng: number; lat: number; speed: number; direction: number; altitude: number; gpsTime: number; status: number; alarm: number;
  /** Terminal odometer, km; null when not reported. */
  mileage: number | null;
}

export function trailRecord(r: PositionRow): TrailRecord {
  return { lng: r.lng, lat: r.lat, speed: r.speed, direction: r.heading, altitude: r.altitude, gpsTime: r.gpsTime, status: r.status, alarm: r.alarm, mileage: r.mileage };
}

export function trailRecordAt(t: TrackData, i: number): TrailRecord {
  const m = t.mileage[i]!;
  return {
    lng: t.lng[i]!, lat: t.lat[i]!, speed: Math.round(t.speed[i]! * 10) / 10, direction: t.heading[i]!, altitude: t.altitude[i]!, gpsTime: t.time[i]!,
    status: t.status[i]!, alarm: t.alarm[i]!, mileage: Number.isFinite(m) ? m : null,
  };
}

/** Where the next JSON trail page starts: after `key`, page number `current`, `total` of the first page. */
export interface TrailCursor { readonly key: TrailKey; readonly total: number; readonly current: number }

/** Opaque to the client: base64url of "time.rowid.total.current" (whole numbers). */
export function trailCursor(c: TrailCursor): string {
  return Buffer.from(`${c.key.time}.${c.key.rowid}.${c.total}.${c.current}`).toString('base64url');
}

export function parseTrailCursor(text: string): TrailCursor {
  const m = /^(\d{1,16})\.(\d{1,16})\.(\d{1,16})\.(\d{1,9})$/.exec(Buffer.from(text, 'base64url').toString('latin1'));
  const n = m ? m.slice(1).map(Number) : [];
  if (!m || !n.every(Number.isSafeInteger) || n[3]! < 2) throw fail.badRequest(TrackMessages.badCursor);
  return { key: { time: n[0]!, rowid: n[1]! }, total: n[2]!, current: n[3]! };
}

export interface TrailDeps {
  readonly storage: Storage;
  readonly clock: () => number;
}

export function trailRoutes(app: App, { storage, clock }: TrailDeps): void {
  const permission = '/monitor/trackPlaybackPage' as const;

  app.get('/service-monitor/trail/binary', {
    config: { permission },
    schema: { querystring: Strict(PeriodFields) },
  }, async (request, reply) => {
    const { vehicleId, startTime, endTime, companyId } = request.query;
    assertTrackPeriod(startTime, endTime, clock());
    const label = await vehicleInScope(storage, request, vehicleId, companyId);
    const bytes = await storage.tracks.readTrackEncoded(vehicleId, startTime, toExclusive(endTime), TRACK_BINARY_MAX_POINTS,
      { plate: label.vehiidno, deviceNo: label.deviceNo ?? '', startTime, endTime });
    return reply.header('content-type', PROTOBUF_TYPE).header('cache-control', 'no-store')
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  app.get('/service-monitor/trail', {
    config: { permission },
    schema: {
      querystring: Strict({
        ...PeriodFields,
        current: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
        size: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
        cursor: Type.Optional(Type.String({ maxLength: 100 })),
      }),
    },
  }, async (request) => {
    const { vehicleId, startTime, endTime, current, size, companyId, cursor } = request.query;
    assertTrackPeriod(startTime, endTime, clock());
    await vehicleInScope(storage, request, vehicleId, companyId);
    const to = toExclusive(endTime);
    // Keyset paging: a cursor carries the last row's (gps_time, row id), the page number and the total
    // counted for the first page, so a page costs its own rows, neither a count nor an OFFSET skip.
    const at = cursor === undefined ? undefined : parseTrailCursor(cursor);
    const total = at?.total ?? await storage.tracks.count(vehicleId, startTime, to);
    const page = at?.current ?? current;
    const { rows, last } = await storage.tracks.pageAfter(vehicleId, startTime, to, at?.key, at ? 0 : (current - 1) * size, size);
    const next = last && rows.length === size ? trailCursor({ key: last, total, current: page + 1 }) : null;
    return ok({ records: rows.map(trailRecord), total, current: page, size, next }, requestLang(request));
  });

  app.get('/service-monitor/trail/gpsCount', {
    config: { permission },
    schema: { querystring: Strict(PeriodFields) },
  }, async (request) => {
    const { vehicleId, startTime, endTime, companyId } = request.query;
    assertTrackPeriod(startTime, endTime, clock());
    await vehicleInScope(storage, request, vehicleId, companyId);
    return ok({ total: await storage.tracks.count(vehicleId, startTime, toExclusive(endTime)) }, requestLang(request));
  });

  app.get('/service-monitor/trail/inner', {
    config: { permission },
    schema: {
      querystring: Strict({
        ...PeriodFields,
        minLng: Coordinate(180), minLat: Coordinate(90), maxLng: Coordinate(180), maxLat: Coordinate(90),
      }),
    },
  }, async (request) => {
    const { vehicleId, startTime, endTime, companyId, minLng, minLat, maxLng, maxLat } = request.query;
    const box = { minLng, minLat, maxLng, maxLat };
    assertRectangle(box);
    assertTrackPeriod(startTime, endTime, clock());
    await vehicleInScope(storage, request, vehicleId, companyId);
    const t = await storage.tracks.readTrack(vehicleId, startTime, toExclusive(endTime), INNER_MAX_POINTS, box);
    const records: TrailRecord[] = [];
    for (let i = 0; i < t.count; i++) records.push(trailRecordAt(t, i));
    return ok({ total: t.total, records }, requestLang(request));
  });
}
