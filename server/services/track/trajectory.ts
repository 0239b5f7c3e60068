/**
 * /service-onlinegps/trajectory: a vehicle's period cut into trips and stops by the shared rule module
 * (domain/track/analyze.ts: drift, continuity, stops), and the points of one segment, plain (detail)
 * or with the rules' drift and continuity flags (detail2). Segment boundaries are point indices into
 * the period's points in time order, the same indices as the binary track's columns.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { analyzeTrack, type TrackAnalysis } from '../../../domain/track/analyze.ts';
import { cosLatitude, haversineKmCos } from '../../../domain/track/geo.ts';
import type { TrackData } from '../../../proto/track-codec.ts';
import type { Storage } from '../../db/repositories.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Strict, type App } from '../../http/route.ts';
import { assertTrackPeriod, PeriodFields, toExclusive, TrackMessages, vehicleInScope } from './common.ts';
import { TRACK_BINARY_MAX_POINTS, trailRecordAt, type TrailRecord } from './trail.ts';

/** Stop filter default, minutes (the rule module's default; the console's "stop point filter"). */
export const DEFAULT_STOP_MINUTES = 3;
/** detail / detail2 answer at most this many points per call (a whole day at 1 Hz is 86,400). */
export const DETAIL_MAX_POINTS = 100_000;

export interface Segment {
  type: 'trip' | 'stop';
  /** First and last point index (inclusive) in the period's points. */
  fromIndex: number;
  toIndex: number;
  startTime: number;
  endTime: number;
  startLng: number; startLat: number; endLng: number; endLat: number;
  minutes: number;
  /** Great-circle km over non-drift points (0 for a stop). */
  km: number;
  /** km/h over non-drift points. */
  maxSpeed: number;
  /** km / hours of the segment (0 for a stop). */
  avgSpeed: number;
  points: number;
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

function segment(t: TrackData, a: TrackAnalysis, type: Segment['type'], from: number, to: number): Segment {
  let km = 0;
  let maxSpeed = 0;
  let prev = -1;
  let prevCos = 0;
  for (let i = from; i <= to; i++) {
    if (a.driftFlags[i] === 1) continue;
    const cos = cosLatitude(t.lat[i]!);
    if (prev >= 0 && type === 'trip') km += haversineKmCos(t.lng[prev]!, t.lat[prev]!, prevCos, t.lng[i]!, t.lat[i]!, cos);
    if (t.speed[i]! > maxSpeed) maxSpeed = t.speed[i]!;
    prev = i;
    prevCos = cos;
  }
  const ms = t.time[to]! - t.time[from]!;
  return {
    type, fromIndex: from, toIndex: to, startTime: t.time[from]!, endTime: t.time[to]!,
    startLng: t.lng[from]!, startLat: t.lat[from]!, endLng: t.lng[to]!, endLat: t.lat[to]!,
    minutes: round(ms / 60_000, 1), km: round(km, 3), maxSpeed: round(maxSpeed, 1),
    avgSpeed: type === 'trip' && ms > 0 ? round(km / (ms / 3_600_000), 1) : 0, points: to - from + 1,
  };
}

/** Trips between stops, in time order; a trip without movement (0 km) is left out. */
export function segments(t: TrackData, a: TrackAnalysis): Segment[] {
  const out: Segment[] = [];
  let cursor = 0;
  const trip = (from: number, to: number) => {
    if (to <= from) return;
    const s = segment(t, a, 'trip', from, to);
    if (s.km > 0) out.push(s);
  };
  for (const stop of a.stops) {
    trip(cursor, stop.from);
    out.push(segment(t, a, 'stop', stop.from, stop.to));
    cursor = stop.to;
  }
  trip(cursor, t.count - 1);
  return out;
}

export interface TrajectoryDeps {
  readonly storage: Storage;
  readonly clock: () => number;
}

const StopMinutes = Type.Integer({ minimum: 1, maximum: 1440, default: DEFAULT_STOP_MINUTES });
// Point indexes of one read track; 10^9 is past any period's point count and keeps the read's LIMIT exact.
const PointIndex = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });
const RangeFields = { fromIndex: PointIndex, toIndex: PointIndex };

function checkRange(fromIndex: number, toIndex: number, count: number): void {
  if (toIndex < fromIndex || toIndex - fromIndex + 1 > DETAIL_MAX_POINTS) throw fail.badRequest(TrackMessages.badRange);
  if (fromIndex >= count) throw fail.notFound(TrackMessages.segmentNotFound);
}

export function trajectoryRoutes(app: App, { storage, clock }: TrajectoryDeps): void {
  const permission = '/monitor/trackPlaybackPage' as const;

  const read = async (request: Parameters<typeof vehicleInScope>[1], q: { vehicleId: number; startTime: number; endTime: number; companyId?: number }, limit: number) => {
    assertTrackPeriod(q.startTime, q.endTime, clock());
    const label = await vehicleInScope(storage, request, q.vehicleId, q.companyId);
    return { label, t: await storage.tracks.readTrack(q.vehicleId, q.startTime, toExclusive(q.endTime), limit) };
  };

  app.get('/service-onlinegps/trajectory', {
    config: { permission },
    schema: { querystring: Strict({ ...PeriodFields, stopMinutes: StopMinutes }) },
  }, async (request) => {
    const q = request.query;
    const { label, t } = await read(request, q, TRACK_BINARY_MAX_POINTS);
    const a = analyzeTrack(t, { stopMinutes: q.stopMinutes });
    const segs = segments(t, a);
    return ok({
      vehicleId: q.vehicleId, plate: label.vehiidno, startTime: q.startTime, endTime: q.endTime, stopMinutes: q.stopMinutes,
      total: t.total, count: t.count, mileageKm: round(a.mileageKm, 3), driftPoints: a.drift.length, discontinuous: a.discontinuous,
      trips: segs.filter((s) => s.type === 'trip').length, stops: a.stops.length, segments: segs,
    }, requestLang(request));
  });

  app.get('/service-onlinegps/trajectory/detail', {
    config: { permission },
    schema: { querystring: Strict({ ...PeriodFields, ...RangeFields }) },
  }, async (request) => {
    const q = request.query;
    if (q.toIndex < q.fromIndex || q.toIndex - q.fromIndex + 1 > DETAIL_MAX_POINTS) throw fail.badRequest(TrackMessages.badRange);
    const { t } = await read(request, q, q.toIndex + 1);
    checkRange(q.fromIndex, q.toIndex, t.count);
    const records: (TrailRecord & { index: number })[] = [];
    for (let i = q.fromIndex; i <= Math.min(q.toIndex, t.count - 1); i++) records.push({ index: i, ...trailRecordAt(t, i) });
    return ok({ total: t.total, records }, requestLang(request));
  });

  app.get('/service-onlinegps/trajectory/detail2', {
    config: { permission },
    schema: { querystring: Strict({ ...PeriodFields, ...RangeFields }) },
  }, async (request) => {
    const q = request.query;
    if (q.toIndex < q.fromIndex || q.toIndex - q.fromIndex + 1 > DETAIL_MAX_POINTS) throw fail.badRequest(TrackMessages.badRange);
    // Drift and continuity depend on the neighbours and on the run before the range: judge the whole period.
    const { t } = await read(request, q, TRACK_BINARY_MAX_POINTS);
    checkRange(q.fromIndex, q.toIndex, t.count);
    const a = analyzeTrack(t);
    const gapAt = new Map(a.gaps.map((g) => [g.to, g]));
    const lang: Lang = requestLang(request);
    const records: (TrailRecord & { index: number; drift: boolean; continuous: boolean | null; gapKm: number | null })[] = [];
    let prevKept = -1;
    for (let i = 0; i <= Math.min(q.toIndex, t.count - 1); i++) {
      const drift = a.driftFlags[i] === 1;
      if (i >= q.fromIndex) {
        const gap = drift ? undefined : gapAt.get(i);
        records.push({
          index: i, ...trailRecordAt(t, i), drift,
          // The pair ending here (from the previous non-drift point): under 2 km is continuous.
          continuous: drift || prevKept < 0 ? null : gap ? gap.continuous : true,
          gapKm: gap ? round(gap.km, 3) : null,
        });
      }
      if (!drift) prevKept = i;
    }
    return ok({ total: t.total, driftPoints: a.drift.length, discontinuous: a.discontinuous, records }, lang);
  });
}
