/**
 * The track worker's logic (workers/track.worker.ts hosts it; unit tests drive it directly):
 * fetch the binary track with the session token, decode it, run the rule module (analyzeTrack:
 * drift, continuity gaps, stops, mileage), give every point its Douglas–Peucker importance once,
 * and answer columns the main thread receives as transferred buffers (never per-point objects).
 */
import { toDisplay, type DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { analyzeTrack } from '../../../domain/track/analyze.ts';
import { findStops, type TrackStop } from '../../../domain/track/stops.ts';
import type { LoadAnswer, LoadedTrack, PathBuffers, TrackData, TrackDecoder, TrackLoadRequest, TrackGapView } from './protocol.ts';
import { bucketTolerance, dpImportance, localMercatorScale, selectByTolerance, zoomBucket } from './simplify.ts';

/** uPlot draws ≈ 1 point per pixel usefully; 2,000 keeps a full-HD-wide chart sharp and cheap. */
export const CHART_POINTS = 2000;

export interface TrackCoreDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  decode: TrackDecoder;
  now?: () => number;
}

/** What the worker keeps per track: the columns the rules and the simplifier read again. */
interface Held {
  data: TrackData;
  driftFlags: Uint8Array;
  /** Display coordinates (path vertices). */
  x: Float64Array;
  y: Float64Array;
  /** Non-drift point indices: the path's vertices in order. */
  order: Uint32Array;
  /** Path breaks: a path ends at order position k when breakAfter[k] = 1 (a discontinuous gap follows). */
  breakAfter: Uint8Array;
  importance: Float32Array;
}

export function withQuery(url: string, params: Record<string, string | number>): string {
  const q = Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `${url}${url.includes('?') ? '&' : '?'}${q}`;
}

/** Max speed per time bucket (and the time of that maximum), for a chart that shows every peak. */
export function chartSeries(time: Float64Array, speed: Float32Array, points = CHART_POINTS): { chartTime: Float64Array; chartSpeed: Float32Array } {
  const n = time.length;
  if (n <= points) {
    const chartTime = new Float64Array(n);
    for (let i = 0; i < n; i++) chartTime[i] = time[i]! / 1000;
    return { chartTime, chartSpeed: speed.slice() };
  }
  const t0 = time[0]!;
  const span = time[n - 1]! - t0 || 1;
  const chartTime = new Float64Array(points);
  const chartSpeed = new Float32Array(points);
  let used = 0;
  let bucket = -1;
  for (let i = 0; i < n; i++) {
    const b = Math.min(points - 1, Math.floor(((time[i]! - t0) / span) * points));
    if (b !== bucket) {
      bucket = b;
      chartTime[used] = time[i]! / 1000;
      chartSpeed[used] = speed[i]!;
      used++;
    } else if (speed[i]! > chartSpeed[used - 1]!) {
      chartSpeed[used - 1] = speed[i]!;
    }
  }
  return { chartTime: chartTime.slice(0, used), chartSpeed: chartSpeed.slice(0, used) };
}

function displayColumns(crs: DisplayCrs, lng: Float64Array, lat: Float64Array): { x: Float64Array; y: Float64Array } {
  if (crs === 'wgs84') return { x: lng, y: lat };
  const n = lng.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = toDisplay(crs, lng[i]!, lat[i]!);
    x[i] = p[0];
    y[i] = p[1];
  }
  return { x, y };
}

export class TrackCore {
  private readonly tracks = new Map<number, Held>();
  private nextKey = 1;
  private readonly now: () => number;

  constructor(private readonly deps: TrackCoreDeps) {
    this.now = deps.now ?? (() => performance.now());
  }

  async load(req: TrackLoadRequest): Promise<LoadAnswer> {
    try {
      return await this.loadOrThrow(req);
    } catch (e) {
      // Bytes that do not decode, or columns the rules refuse (analyzeTrack's RangeError names the point).
      return { ok: false, code: 0, msg: e instanceof Error ? e.message : String(e) };
    }
  }

  private async loadOrThrow(req: TrackLoadRequest): Promise<LoadAnswer> {
    const t0 = this.now();
    const headers: Record<string, string> = { 'x-lang': req.lang, Accept: 'application/x-protobuf, application/json' };
    if (req.token) headers['x-jwt'] = req.token;
    let res: Response;
    try {
      res = await this.deps.fetch(withQuery(req.url, { vehicleId: req.vehicleId, startTime: req.startTime, endTime: req.endTime }), { headers });
    } catch {
      return { ok: false, code: 1100, msg: '' };
    }
    const jwt = res.headers.get('jwt');
    const type = res.headers.get('content-type') ?? '';
    // A validation error answers the JSON envelope {code: 400, msg} instead of bytes.
    if (type.includes('json') || !res.ok) {
      let body: { code?: number; msg?: string } = {};
      try {
        body = (await res.json()) as typeof body;
      } catch {
        // no envelope: the status says what happened
      }
      return { ok: false, code: body.code ?? res.status, msg: body.msg ?? '' };
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    const t1 = this.now();
    const data = this.deps.decode(bytes);
    const t2 = this.now();
    const analysis = analyzeTrack(data, { stopMinutes: req.stopMinutes });
    const t3 = this.now();
    const { x, y } = displayColumns(req.crs, data.lng, data.lat);
    const n = data.time.length;

    // Path vertices: every non-drift point (a drift point is a spike: marked, not driven through).
    const order = new Uint32Array(n - analysis.drift.length);
    const posOf = new Int32Array(n).fill(-1);
    for (let i = 0, k = 0; i < n; i++) {
      if (analysis.driftFlags[i] === 0) {
        posOf[i] = k;
        order[k++] = i;
      }
    }
    const gaps: TrackGapView[] = [];
    const breakAfter = new Uint8Array(order.length);
    const keep = new Uint8Array(order.length);
    for (const g of analysis.gaps) {
      if (g.continuous) continue;
      gaps.push({ from: g.from, to: g.to, km: g.km });
      const a = posOf[g.from]!;
      const b = posOf[g.to]!;
      if (a >= 0) {
        breakAfter[a] = 1;
        keep[a] = 1;
      }
      if (b >= 0) keep[b] = 1;
    }
    // Latitudes scaled to mercator around the track's middle latitude (simplify.ts localMercatorScale).
    let minLat = Infinity;
    let maxLat = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = y[i]!;
      if (v < minLat) minLat = v;
      if (v > maxLat) maxLat = v;
    }
    const scale = localMercatorScale((minLat + maxLat) / 2);
    const my = new Float64Array(n);
    for (let i = 0; i < n; i++) my[i] = y[i]! * scale;
    const importance = dpImportance(x, my, order, keep);
    const gapPositions = new Float32Array(gaps.length * 4);
    gaps.forEach((g, j) => {
      gapPositions[4 * j] = x[g.from]!;
      gapPositions[4 * j + 1] = y[g.from]!;
      gapPositions[4 * j + 2] = x[g.to]!;
      gapPositions[4 * j + 3] = y[g.to]!;
    });
    let alarmCount = 0;
    for (let i = 0; i < n; i++) if (data.alarm[i] !== 0) alarmCount++;
    const alarmPoints = new Int32Array(alarmCount);
    for (let i = 0, j = 0; i < n; i++) if (data.alarm[i] !== 0) alarmPoints[j++] = i;

    const key = this.nextKey++;
    const held: Held = { data, driftFlags: analysis.driftFlags, x, y, order, breakAfter, importance };
    this.tracks.set(key, held);
    const path = this.cut(held, zoomBucket(req.zoom));
    const t4 = this.now();

    // The worker keeps its columns (stops and paths read them again): the main thread gets copies.
    const sameXY = x === data.lng;
    const lngCopy = data.lng.slice();
    const latCopy = data.lat.slice();
    const track: LoadedTrack = {
      key, vehicleId: data.vehicleId, plate: data.plate, deviceNo: data.deviceNo, startTime: data.startTime, endTime: data.endTime,
      total: data.total, count: data.count,
      time: data.time.slice(), lng: lngCopy, lat: latCopy, x: sameXY ? lngCopy : x.slice(), y: sameXY ? latCopy : y.slice(),
      speed: data.speed.slice(), heading: data.heading.slice(), alarm: data.alarm.slice(),
      driftFlags: analysis.driftFlags.slice(), drift: analysis.drift, alarmPoints, gaps, gapPositions,
      stops: analysis.stops, mileageKm: analysis.mileageKm,
      ...chartSeries(data.time, data.speed),
      path,
      timings: { fetchMs: t1 - t0, decodeMs: t2 - t1, analyzeMs: t3 - t2, indexMs: t4 - t3 },
      jwt,
    };
    return { ok: true, track };
  }

  path(key: number, bucket: number): PathBuffers | null {
    const held = this.tracks.get(key);
    return held ? this.cut(held, bucket) : null;
  }

  stops(key: number, minutes: number): TrackStop[] | null {
    const held = this.tracks.get(key);
    if (!held) return null;
    return findStops(held.data, held.driftFlags, { stopMinutes: minutes });
  }

  release(key: number): void {
    this.tracks.delete(key);
  }

  get size(): number {
    return this.tracks.size;
  }

  private cut(held: Held, bucket: number): PathBuffers {
    const sel = selectByTolerance(held.importance, bucketTolerance(bucket));
    const m = sel.length;
    const positions = new Float32Array(2 * m);
    const starts: number[] = m > 0 ? [0] : [];
    for (let j = 0; j < m; j++) {
      const k = sel[j]!;
      const i = held.order[k]!;
      positions[2 * j] = held.x[i]!;
      positions[2 * j + 1] = held.y[i]!;
      // Gap ends are always selected (importance +Infinity), so a break lands between two selected vertices.
      if (held.breakAfter[k] === 1 && j + 1 < m) starts.push(j + 1);
    }
    return { bucket, positions, startIndices: Uint32Array.from(starts), vertices: m };
  }
}

/** Buffers of an answer, each once, for `Comlink.transfer` / a postMessage transfer list. */
export function transferablesOf(value: LoadAnswer | PathBuffers | null): Transferable[] {
  if (!value) return [];
  const arrays: ArrayBufferView[] = [];
  if ('positions' in value) arrays.push(value.positions, value.startIndices);
  else if (value.ok) {
    const t = value.track;
    arrays.push(t.time, t.lng, t.lat, t.x, t.y, t.speed, t.heading, t.alarm, t.driftFlags, t.drift, t.alarmPoints, t.gapPositions, t.chartTime, t.chartSpeed, t.path.positions, t.path.startIndices);
  }
  const seen = new Set<ArrayBufferLike>();
  for (const a of arrays) seen.add(a.buffer);
  return [...seen] as Transferable[];
}
