/**
 * Messages between the track worker (workers/track.worker.ts → TrackCore) and the main thread
 * (client.ts). Control calls go through Comlink; each answer carrying columns is wrapped in
 * `Comlink.transfer` so its buffers move instead of being cloned (a 7-day 1 Hz track is ≈ 40 MB).
 */
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import type { TrackStop } from '../../../domain/track/stops.ts';
import type { TrackData } from '../../../proto/track-codec.ts';

export type { TrackData };

export type TrackDecoder = (bytes: Uint8Array) => TrackData;

export interface TrackLoadRequest {
  /** Full URL of GET /service-monitor/trail/binary without the query. */
  url: string;
  token: string | null;
  lang: 'zh' | 'en';
  vehicleId: number;
  startTime: number;
  endTime: number;
  crs: DisplayCrs;
  /** Map zoom now: the first path is cut for it. */
  zoom: number;
  /** @default 3 (domain/track/stops.ts) */
  stopMinutes?: number;
}

/** The path of one zoom bucket, in display coordinates, split at discontinuous gaps. */
export interface PathBuffers {
  bucket: number;
  /** x, y pairs (Float32: ≈ 0.7 m at 120° E, below a pixel at every zoom the console allows). */
  positions: Float32Array;
  /** First vertex of each path (deck.gl PathLayer `startIndices`). */
  startIndices: Uint32Array;
  vertices: number;
}

export interface TrackGapView {
  from: number;
  to: number;
  km: number;
}

/** A decoded track (proto/track-codec.ts) with what the worker derived from it. */
export interface LoadedTrack extends Pick<TrackData, 'vehicleId' | 'plate' | 'deviceNo' | 'startTime' | 'endTime' | 'total' | 'count' | 'time' | 'lng' | 'lat' | 'speed' | 'heading' | 'alarm'> {
  /** The worker's handle of this track (for `path`, `stops`, `release`). */
  key: number;
  /** Display CRS (map). The same arrays as lng/lat when the display CRS is WGS-84. */
  x: Float64Array;
  y: Float64Array;
  /** 1 = drift, per point (domain/track/analyze.ts). */
  driftFlags: Uint8Array;
  drift: Int32Array;
  /** Points whose alarm word ≠ 0. */
  alarmPoints: Int32Array;
  /** Discontinuous gaps (spec §9 continuity), drawn apart from driving. */
  gaps: TrackGapView[];
  /** Each gap as a 2-vertex segment in display coordinates. */
  gapPositions: Float32Array;
  stops: TrackStop[];
  mileageKm: number;
  /** Speed chart series, at most CHART_POINTS: time in seconds (uPlot's x unit), max speed per bucket. */
  chartTime: Float64Array;
  chartSpeed: Float32Array;
  path: PathBuffers;
  /** Milliseconds spent in the worker: fetch, decode, analyze, index. */
  timings: { fetchMs: number; decodeMs: number; analyzeMs: number; indexMs: number };
  /** A refreshed token from the answer's `jwt` header (sliding expiry). */
  jwt: string | null;
}

export type LoadAnswer = { ok: true; track: LoadedTrack } | { ok: false; code: number; msg: string };

export interface TrackControl {
  load(req: TrackLoadRequest): Promise<LoadAnswer>;
  /** The path of a zoom bucket, cut once per bucket and cached in the worker. */
  path(key: number, bucket: number): PathBuffers | null;
  /** Stops again with another minutes filter (the rule module's findStops). */
  stops(key: number, minutes: number): TrackStop[] | null;
  release(key: number): void;
}
