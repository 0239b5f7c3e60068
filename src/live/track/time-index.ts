/**
 * "Where is the vehicle at time t": a binary search over the sorted time column, then linear
 * interpolation of position and shortest-angle interpolation of heading. Runs on the main thread
 * once per vehicle per animation frame: log2(604,800) ≈ 20 comparisons ≈ 1 µs, far below the
 * ≈ 80 µs of one Comlink round trip to the worker, and the answer is needed synchronously in the frame.
 */

/**
 * Index of the last point whose time ≤ t: −1 before the first point, n − 1 at or after the last.
 * Equal times resolve to the last of the run, so time never goes backwards within a step.
 */
export function indexAtOrBefore(time: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Heading from a to b (degrees, 0..360) at fraction f, along the shorter way round (350° → 10° passes 0°). */
export function lerpHeading(a: number, b: number, f: number): number {
  let d = (((b - a) % 360) + 540) % 360 - 180;
  // Exactly opposite: turn clockwise (the sign of −180 is arbitrary; keep it stable).
  if (d === -180) d = 180;
  const h = (a + d * f) % 360;
  return h < 0 ? h + 360 : h;
}

/** The columns a position sample reads; `lng`/`lat` in whatever CRS the caller draws in. */
export interface SampleColumns {
  readonly time: Float64Array;
  readonly lng: Float64Array;
  readonly lat: Float64Array;
  readonly heading: ArrayLike<number>;
  readonly speed: ArrayLike<number>;
}

/** A reusable sample (written in place each frame: no allocation on the hot path). */
export interface Sample {
  lng: number;
  lat: number;
  heading: number;
  speed: number;
  /** Index of the point at or before t (−1 before the track). */
  index: number;
}

export function emptySample(): Sample {
  return { lng: Number.NaN, lat: Number.NaN, heading: 0, speed: 0, index: -1 };
}

/**
 * Writes the interpolated state at time t into `out` and returns whether the track has a position
 * then: before the first point it answers false (the vehicle is not drawn), after the last it holds
 * the last point. Speed is the earlier point's reported speed (what the terminal said), not interpolated.
 */
export function sampleAt(c: SampleColumns, t: number, out: Sample): boolean {
  const n = c.time.length;
  const i = indexAtOrBefore(c.time, t);
  out.index = i;
  if (i < 0 || n === 0) {
    out.lng = out.lat = Number.NaN;
    return false;
  }
  if (i >= n - 1) {
    out.lng = c.lng[n - 1]!;
    out.lat = c.lat[n - 1]!;
    out.heading = c.heading[n - 1]!;
    out.speed = c.speed[n - 1]!;
    return true;
  }
  const t0 = c.time[i]!;
  const t1 = c.time[i + 1]!;
  const f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
  out.lng = c.lng[i]! + (c.lng[i + 1]! - c.lng[i]!) * f;
  out.lat = c.lat[i]! + (c.lat[i + 1]! - c.lat[i]!) * f;
  out.heading = lerpHeading(c.heading[i]!, c.heading[i + 1]!, f);
  out.speed = c.speed[i]!;
  return true;
}
