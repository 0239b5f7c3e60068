/**
 * Track playback reads: the binary track (the console's playback source), the paged JSON trail, the
 * point count and the points inside a rectangle. Periods are epoch ms, both ends included.
 */
import { Type } from '@fastify/type-provider-typebox';
import { encodeTrack, type TrackData } from '../../../proto/track-codec.ts';
import type { PositionRow, Storage } from '../../db/repositories.ts';
import { ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { MAX_PAGE, Strict, type App } from '../../http/route.ts';
import { assertRectangle, assertTrackPeriod, Coordinate, PeriodFields, toExclusive, vehicleInScope } from './common.ts';

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
    const track = await storage.tracks.readTrack(vehicleId, startTime, toExclusive(endTime), TRACK_BINARY_MAX_POINTS);
    Object.assign(track, { plate: label.vehiidno, deviceNo: label.deviceNo, startTime, endTime });
    const bytes = encodeTrack(track);
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
      }),
    },
  }, async (request) => {
    const { vehicleId, startTime, endTime, current, size, companyId } = request.query;
    assertTrackPeriod(startTime, endTime, clock());
    await vehicleInScope(storage, request, vehicleId, companyId);
    const to = toExclusive(endTime);
    const total = await storage.tracks.count(vehicleId, startTime, to);
    const rows = await storage.tracks.page(vehicleId, startTime, to, (current - 1) * size, size);
    return ok({ records: rows.map(trailRecord), total, current, size }, requestLang(request));
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
