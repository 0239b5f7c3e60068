/**
 * Stops: stationary periods at least N minutes long (spec §9 "stop point filter by minutes").
 *
 * Decisions:
 * - A point is stationary when its reported speed is below 1 km/h (receivers report 0–0.9 km/h of
 *   noise at rest) and it lies within 50 m of the stop's first point (parked GPS scatter is typically
 *   under 20 m; 50 m leaves room without merging two parking spots on one street).
 * - A stop is a maximal run of consecutive stationary, non-drift points; drift points are skipped,
 *   neither extending nor ending a stop. Its length is time(last) − time(first), so a parked vehicle
 *   that reports rarely still forms one stop.
 * - It is kept when it has at least two points and lasts at least N minutes (≥, not >). The default
 *   N is 3 minutes, the same as the offline threshold: a halt shorter than that is traffic.
 */
import { cosLatitude, EARTH_RADIUS_KM } from './geo.ts';
import type { TrackColumns } from './columns.ts';

const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;
const KM_PER_DEGREE_SQ = KM_PER_DEGREE * KM_PER_DEGREE;

export const DEFAULT_STOP_MINUTES = 3;
export const STOP_SPEED_KMH = 1;
export const STOP_RADIUS_M = 50;

export interface TrackStop {
  /** Index of the first point of the stop. */
  readonly from: number;
  /** Index of the last point of the stop. */
  readonly to: number;
  /** time(to) − time(from) in minutes. */
  readonly minutes: number;
}

export interface StopOptions {
  /** @default 3 */
  stopMinutes?: number;
  /** @default 1 */
  stopSpeedKmh?: number;
  /** @default 50 */
  stopRadiusM?: number;
}

function checkedOption(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a finite number ≥ 0, got ${value}`);
  return value;
}

/** Streaming stop finder: feed it the kept (non-drift) points in time order, then `finish`. */
export class StopDetector {
  readonly stops: TrackStop[] = [];
  private readonly minMs: number;
  private readonly speedKmh: number;
  private readonly radiusKm: number;
  private from = -1;
  private to = -1;
  private fromTime = 0;
  private toTime = 0;
  private anchorLng = 0;
  private anchorLat = 0;
  private anchorCos = 0;

  constructor(options: StopOptions = {}) {
    this.minMs = checkedOption(options.stopMinutes, DEFAULT_STOP_MINUTES, 'stopMinutes') * 60_000;
    this.speedKmh = checkedOption(options.stopSpeedKmh, STOP_SPEED_KMH, 'stopSpeedKmh');
    this.radiusKm = checkedOption(options.stopRadiusM, STOP_RADIUS_M, 'stopRadiusM') / 1000;
  }

  /** `cosLat` is `cosLatitude(lat)`, which the caller usually has already. */
  push(index: number, time: number, lng: number, lat: number, cosLat: number, speed: number): void {
    if (!(speed < this.speedKmh)) {
      this.close();
      return;
    }
    if (this.from >= 0 && this.withinRadius(lng, lat)) {
      this.to = index;
      this.toTime = time;
      return;
    }
    this.close();
    this.from = this.to = index;
    this.fromTime = this.toTime = time;
    this.anchorLng = lng;
    this.anchorLat = lat;
    this.anchorCos = cosLat;
  }

  finish(): TrackStop[] {
    this.close();
    return this.stops;
  }

  /**
   * The open stationary run (a stop candidate, not yet judged against N minutes), or null: its first
   * point's time and place (the anchor) and its last point's time. Streaming consumers (the report
   * day modules) need the place and span of a stop, which `TrackStop` gives only as indices.
   */
  openRun(): { fromTime: number; toTime: number; lng: number; lat: number } | null {
    return this.from < 0 ? null : { fromTime: this.fromTime, toTime: this.toTime, lng: this.anchorLng, lat: this.anchorLat };
  }

  /**
   * Within the stop radius of the anchor. Equirectangular, not haversine: at ≤ 50 m the two differ by
   * under a millimetre, and this runs for every stationary point (a third of a typical track).
   */
  private withinRadius(lng: number, lat: number): boolean {
    let dLng = Math.abs(lng - this.anchorLng);
    if (dLng > 180) dLng = 360 - dLng;
    const x = dLng * this.anchorCos;
    const y = lat - this.anchorLat;
    return (x * x + y * y) * KM_PER_DEGREE_SQ <= this.radiusKm * this.radiusKm;
  }

  private close(): void {
    if (this.from >= 0 && this.to > this.from && this.toTime - this.fromTime >= this.minMs) {
      this.stops.push({ from: this.from, to: this.to, minutes: (this.toTime - this.fromTime) / 60_000 });
    }
    this.from = -1;
  }
}

/** Stops of a time-sorted track; points flagged in `drift` (1 = drift) are skipped. */
export function findStops(c: TrackColumns, drift: Uint8Array | undefined, options: StopOptions = {}): TrackStop[] {
  const d = new StopDetector(options);
  const { time, lng, lat, speed } = c;
  for (let i = 0; i < time.length; i++) {
    if (drift?.[i] === 1) continue;
    d.push(i, time[i]!, lng[i]!, lat[i]!, cosLatitude(lat[i]!), speed[i]!);
  }
  return d.finish();
}
