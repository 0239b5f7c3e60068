/**
 * A track as columns, not objects: a week of 1 Hz data is 604,800 points, and four typed arrays
 * (≈ 17 MB) cross a worker boundary as transferred buffers where 604,800 objects would be cloned.
 */
export interface TrackColumns {
  /** Epoch milliseconds, non-decreasing (the rules read a track in time order). */
  readonly time: Float64Array;
  /** WGS-84 longitude in degrees, −180..180. */
  readonly lng: Float64Array;
  /** WGS-84 latitude in degrees, −90..90. */
  readonly lat: Float64Array;
  /** Reported speed in km/h, ≥ 0. */
  readonly speed: Float32Array;
}

export interface TrackPoint {
  readonly time: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
}

/** Columns from point objects (tests, small inputs). The hot paths build the columns directly. */
export function columnsFromPoints(points: readonly TrackPoint[]): TrackColumns {
  const n = points.length;
  const c = allocateColumns(n);
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    c.time[i] = p.time;
    c.lng[i] = p.lng;
    c.lat[i] = p.lat;
    c.speed[i] = p.speed;
  }
  return c;
}

export function allocateColumns(n: number): TrackColumns {
  return { time: new Float64Array(n), lng: new Float64Array(n), lat: new Float64Array(n), speed: new Float32Array(n) };
}

/**
 * Throws a RangeError naming the first bad point: columns of unequal length, a time that is not
 * finite or goes backwards, a position outside WGS-84 ranges, a negative or non-finite speed.
 * NaN fails every range comparison below, so it is caught without separate checks.
 */
export function validateTrackColumns(c: TrackColumns): void {
  const n = c.time.length;
  if (c.lng.length !== n || c.lat.length !== n || c.speed.length !== n) {
    throw new RangeError(`track columns differ in length: time ${n}, lng ${c.lng.length}, lat ${c.lat.length}, speed ${c.speed.length}`);
  }
  const { time, lng, lat, speed } = c;
  let prev = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    if (!Number.isFinite(t)) throw new RangeError(`track point ${i}: time ${t} is not a finite number of milliseconds`);
    if (t < prev) throw new RangeError(`track point ${i}: time ${t} is before the previous point's ${prev}; sort the track by time first`);
    prev = t;
    const x = lng[i]!;
    if (!(x >= -180 && x <= 180)) throw new RangeError(`track point ${i}: lng ${x} is outside −180..180`);
    const y = lat[i]!;
    if (!(y >= -90 && y <= 90)) throw new RangeError(`track point ${i}: lat ${y} is outside −90..90`);
    const s = speed[i]!;
    if (!(s >= 0 && s < Infinity)) throw new RangeError(`track point ${i}: speed ${s} is not a finite number ≥ 0`);
  }
}

/**
 * The permutation that sorts points by time, stable (equal times keep their input order), or
 * undefined when the input is already in order so callers can skip copying.
 */
export function timeOrder(time: Float64Array): Uint32Array | undefined {
  const n = time.length;
  let sorted = true;
  for (let i = 1; i < n; i++) {
    if (time[i]! < time[i - 1]!) {
      sorted = false;
      break;
    }
  }
  if (sorted) return undefined;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Index tie-break keeps it stable whatever the engine's typed-array sort guarantees.
  order.sort((a, b) => time[a]! - time[b]! || a - b);
  return order;
}

/** New columns with point k taken from input point order[k]. */
export function permuteColumns(c: TrackColumns, order: Uint32Array): TrackColumns {
  const n = order.length;
  const out = allocateColumns(n);
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    out.time[k] = c.time[i]!;
    out.lng[k] = c.lng[i]!;
    out.lat[k] = c.lat[i]!;
    out.speed[k] = c.speed[i]!;
  }
  return out;
}
