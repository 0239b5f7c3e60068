/**
 * Path simplification per zoom level, Douglas–Peucker computed once for every tolerance.
 *
 * One exhaustive Douglas–Peucker pass gives each point an importance: the distance at which it was
 * chosen as a split point, clamped to its ancestors' (a point survives tolerance ε exactly when it
 * and every split above it are > ε). So "the path at zoom z" is a linear filter `importance > ε(z)`
 * — identical to running Douglas–Peucker with ε(z) — and the O(n log n) pass runs once per track,
 * not once per zoom. Distances are in Web Mercator degrees, where one screen pixel is the same size
 * everywhere: ε(z) = 360° / (512 · 2^z) per pixel (maplibre's 512-px tiles).
 */

/**
 * Mercator y in degrees (same unit as longitude), so distances are isotropic on screen. The track
 * core uses `localMercator` instead (a multiply per point instead of log∘tan: 86 ms saved a week).
 */
export function mercatorY(lat: number): number {
  const clamped = Math.max(-85.05112878, Math.min(85.05112878, lat));
  return (Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360)) * 180) / Math.PI;
}

/**
 * Mercator y near a reference latitude: lat / cos(lat0), its tangent at lat0. Over a track within
 * ±2° of lat0 (≈ 220 km north–south) the scale differs from true mercator by < 4 % at 40° N, so a
 * 1-px tolerance stays within 1.04 px.
 */
export function localMercatorScale(lat0: number): number {
  return 1 / Math.cos((Math.max(-85, Math.min(85, lat0)) * Math.PI) / 180);
}

/** Degrees of mercator per screen pixel at a zoom level. */
export function degreesPerPixel(zoom: number): number {
  return 360 / (512 * 2 ** zoom);
}

/** Zoom buckets the path is cut for: whole zoom levels 3..18 (a pixel halves per level). */
export const MIN_PATH_ZOOM = 3;
export const MAX_PATH_ZOOM = 18;

export function zoomBucket(zoom: number): number {
  return Math.max(MIN_PATH_ZOOM, Math.min(MAX_PATH_ZOOM, Math.floor(zoom)));
}

/** Tolerance of a bucket: 1 px at the bucket's lower zoom is ≤ 1 px at every zoom inside it. */
export function bucketTolerance(bucket: number, pixels = 1): number {
  return degreesPerPixel(bucket + 1) * pixels;
}

/** Distance from (px,py) to the segment (ax,ay)–(bx,by). */
export function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let f = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  if (f < 0) f = 0;
  else if (f > 1) f = 1;
  const ex = px - (ax + f * dx);
  const ey = py - (ay + f * dy);
  return Math.sqrt(ex * ex + ey * ey);
}

/**
 * Importance of each of the `order.length` points of a polyline whose vertices are
 * (x[order[k]], y[order[k]]). `keep[k]` = 1 forces vertex k (gap ends): the polyline is split there
 * and each piece simplified on its own. Endpoints and forced vertices get +Infinity.
 * Iterative (an explicit stack): a week of 1 Hz points would overflow the call stack recursively.
 */
export function dpImportance(x: Float64Array, y: Float64Array, order: Uint32Array, keep?: Uint8Array): Float32Array {
  const m = order.length;
  const imp = new Float32Array(m);
  if (m === 0) return imp;
  imp[0] = Infinity;
  imp[m - 1] = Infinity;
  // Stack of (from, to, ceiling) triples; the ceiling is the smallest importance above the segment.
  const stack: number[] = [];
  let start = 0;
  for (let k = 1; k < m; k++) {
    if (k === m - 1 || keep?.[k] === 1) {
      imp[k] = Infinity;
      if (k - start > 1) stack.push(start, k, Infinity);
      start = k;
    }
  }
  while (stack.length > 0) {
    const ceiling = stack.pop()!;
    const b = stack.pop()!;
    const a = stack.pop()!;
    const ia = order[a]!;
    const ib = order[b]!;
    const ax = x[ia]!;
    const ay = y[ia]!;
    const dx = x[ib]! - ax;
    const dy = y[ib]! - ay;
    const len2 = dx * dx + dy * dy;
    const inv = len2 > 0 ? 1 / len2 : 0;
    // Squared distances in the scan, one square root for the winner: this loop runs ≈ n·log2(n)
    // times (12 M for a 1 Hz week), so it is written without calls.
    let best = -1;
    let bestD2 = 0;
    for (let k = a + 1; k < b; k++) {
      const i = order[k]!;
      const px = x[i]! - ax;
      const py = y[i]! - ay;
      let f = (px * dx + py * dy) * inv;
      if (f < 0) f = 0;
      else if (f > 1) f = 1;
      const ex = px - f * dx;
      const ey = py - f * dy;
      const d2 = ex * ex + ey * ey;
      if (d2 > bestD2) {
        bestD2 = d2;
        best = k;
      }
    }
    // Every inner point on the chord: none matters at any tolerance (importance stays 0).
    if (best < 0) continue;
    const v = Math.min(Math.sqrt(bestD2), ceiling);
    imp[best] = v;
    if (best - a > 1) stack.push(a, best, v);
    if (b - best > 1) stack.push(best, b, v);
  }
  return imp;
}

/** Positions in `order` whose importance exceeds the tolerance (ascending). */
export function selectByTolerance(importance: Float32Array, tolerance: number): Uint32Array {
  let count = 0;
  for (let k = 0; k < importance.length; k++) if (importance[k]! > tolerance) count++;
  const out = new Uint32Array(count);
  for (let k = 0, j = 0; k < importance.length; k++) if (importance[k]! > tolerance) out[j++] = k;
  return out;
}
