/**
 * Fence geometry for the platform's evaluation (rules.ts) and its index (index.ts): containment,
 * distance outside a fence (the hysteresis margin), bounding boxes in degrees, and the time window.
 *
 * Decisions:
 * - Distances use a local equirectangular projection around the fence (metres per degree of
 *   longitude scaled by cos(latitude)), not haversine on every test: fences are at most 100 km in
 *   radius and the position is near them, where the projection's error is below 0.1 % of the
 *   distance (≈ 1 cm at a 10 m edge, well under GNSS noise), and the hot path stays a few
 *   multiplications. `haversineM` is kept as the reference the tests compare against.
 * - Polygons: even-odd ray cast in degrees (the edges are short enough for a straight line in
 *   lng/lat to be the edge the console drew and the terminal tests). A point exactly on an edge may
 *   fall either way; the hysteresis margin absorbs that. @turf/boolean-point-in-polygon is not
 *   installed, and its GeoJSON objects would allocate per test.
 * - Rectangles are axis-aligned in lng/lat (JT/T 808 0x8602 carries the two corners).
 * - Time windows are Asia/Shanghai wall clock (UTC+8, no daylight saving, as domain/track/days.ts);
 *   an end before its start runs over midnight; equal times or both null: always active.
 */
import { chinaTimeOfDayMs } from '../track/days.ts';
import type { FenceGeometry, FenceRule, LngLat } from './types.ts';

/** Mean Earth radius (IUGG), metres. */
export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;
/** Metres per degree of latitude (and of longitude at the equator). */
export const M_PER_DEG = EARTH_RADIUS_M * RAD;

/** Great-circle distance in metres. */
export function haversineM(a: LngLat, b: LngLat): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLng = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** [minLng, minLat, maxLng, maxLat] in degrees. */
export type BBox = [minLng: number, minLat: number, maxLng: number, maxLat: number];

/**
 * A fence's geometry prepared for repeated tests: the bounding box and, per shape, what the tests
 * need precomputed (a circle's metres per degree of longitude at its latitude, a polygon's flat
 * coordinate array).
 */
export type PreparedGeometry =
  | { readonly shape: 'circle'; readonly bbox: BBox; readonly lng: number; readonly lat: number; readonly radius: number; readonly mPerDegLng: number }
  | { readonly shape: 'rect'; readonly bbox: BBox }
  | { readonly shape: 'polygon'; readonly bbox: BBox; /** lng0, lat0, lng1, lat1, … */ readonly xy: Float64Array };

export function prepareGeometry(g: FenceGeometry): PreparedGeometry {
  switch (g.shape) {
    case 'circle': {
      const [lng, lat] = g.center;
      const mPerDegLng = M_PER_DEG * Math.cos(lat * RAD);
      return { shape: 'circle', bbox: circleBBox(g.center, g.radius), lng, lat, radius: g.radius, mPerDegLng };
    }
    case 'rect':
      return { shape: 'rect', bbox: [Math.min(g.sw[0], g.ne[0]), Math.min(g.sw[1], g.ne[1]), Math.max(g.sw[0], g.ne[0]), Math.max(g.sw[1], g.ne[1])] };
    case 'polygon': {
      const xy = new Float64Array(g.points.length * 2);
      const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
      g.points.forEach(([x, y], i) => {
        xy[2 * i] = x;
        xy[2 * i + 1] = y;
        if (x < bbox[0]) bbox[0] = x;
        if (y < bbox[1]) bbox[1] = y;
        if (x > bbox[2]) bbox[2] = x;
        if (y > bbox[3]) bbox[3] = y;
      });
      return { shape: 'polygon', bbox, xy };
    }
  }
}

/**
 * A circle's bounding box in degrees: the radius in degrees of latitude, and in degrees of
 * longitude at the circle's latitude widened to the parallel nearer the pole it reaches (where a
 * metre spans more longitude), so the box always contains the circle.
 */
export function circleBBox(center: LngLat, radius: number): BBox {
  const dLat = radius / M_PER_DEG;
  const poleward = Math.min(89.9, Math.abs(center[1]) + dLat);
  const dLng = radius / (M_PER_DEG * Math.cos(poleward * RAD));
  return [center[0] - dLng, center[1] - dLat, center[0] + dLng, center[1] + dLat];
}

/** A box grown by `metres` on every side (at its poleward edge's latitude, so it is never too small). */
export function expandBBox(b: BBox, metres: number): BBox {
  if (metres <= 0) return [b[0], b[1], b[2], b[3]];
  const dLat = metres / M_PER_DEG;
  const poleward = Math.min(89.9, Math.max(Math.abs(b[1]), Math.abs(b[3])) + dLat);
  const dLng = metres / (M_PER_DEG * Math.cos(poleward * RAD));
  return [b[0] - dLng, b[1] - dLat, b[2] + dLng, b[3] + dLat];
}

/** True when the point is inside the fence (on a circle's or rectangle's edge counts as inside). */
export function contains(g: PreparedGeometry, lng: number, lat: number): boolean {
  const b = g.bbox;
  if (lng < b[0] || lng > b[2] || lat < b[1] || lat > b[3]) return false;
  switch (g.shape) {
    case 'rect':
      return true;
    case 'circle': {
      const dx = (lng - g.lng) * g.mPerDegLng;
      const dy = (lat - g.lat) * M_PER_DEG;
      return dx * dx + dy * dy <= g.radius * g.radius;
    }
    case 'polygon':
      return pointInRing(g.xy, lng, lat);
  }
}

/** Even-odd ray cast (a ray towards +lng) over a flat ring of n vertices, not closed. */
export function pointInRing(xy: Float64Array, x: number, y: number): boolean {
  let inside = false;
  const n = xy.length >> 1;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = xy[2 * i]!, yi = xy[2 * i + 1]!, xj = xy[2 * j]!, yj = xy[2 * j + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Metres from the point to the fence when outside it, 0 inside. Only asked near an edge (a vehicle
 * known inside whose position is not), so a polygon's scan of every edge is rare.
 */
export function distanceOutsideM(g: PreparedGeometry, lng: number, lat: number): number {
  if (contains(g, lng, lat)) return 0;
  // Local metric around the point: metres per degree of longitude at the point's latitude.
  const kx = M_PER_DEG * Math.cos(lat * RAD);
  switch (g.shape) {
    case 'circle': {
      const dx = (lng - g.lng) * g.mPerDegLng;
      const dy = (lat - g.lat) * M_PER_DEG;
      return Math.max(0, Math.sqrt(dx * dx + dy * dy) - g.radius);
    }
    case 'rect': {
      const b = g.bbox;
      const dx = lng < b[0] ? b[0] - lng : lng > b[2] ? lng - b[2] : 0;
      const dy = lat < b[1] ? b[1] - lat : lat > b[3] ? lat - b[3] : 0;
      return Math.hypot(dx * kx, dy * M_PER_DEG);
    }
    case 'polygon': {
      let best = Infinity;
      const xy = g.xy;
      const n = xy.length >> 1;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const d = segmentDistanceM((xy[2 * j]! - lng) * kx, (xy[2 * j + 1]! - lat) * M_PER_DEG, (xy[2 * i]! - lng) * kx, (xy[2 * i + 1]! - lat) * M_PER_DEG);
        if (d < best) best = d;
      }
      return best;
    }
  }
}

/** Distance from the origin to the segment (ax, ay)–(bx, by), all in metres. */
function segmentDistanceM(ax: number, ay: number, bx: number, by: number): number {
  const vx = bx - ax, vy = by - ay;
  const len2 = vx * vx + vy * vy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * vx + ay * vy) / len2));
  return Math.hypot(ax + t * vx, ay + t * vy);
}

/** 'HH:mm' → minutes after midnight; NaN when malformed. */
export function minutesOfDay(hhmm: string): number {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
}

/**
 * A fence rule's time window as [start, end) minutes of the China day, or null when always active
 * (no times, equal times, or a malformed one: the rule then applies all day rather than never).
 * A missing start is midnight, a missing end is the end of the day.
 */
export function windowMinutes(rule: Pick<FenceRule, 'startTime' | 'endTime'>): readonly [number, number] | null {
  if (rule.startTime === null && rule.endTime === null) return null;
  const start = rule.startTime === null ? 0 : minutesOfDay(rule.startTime);
  const end = rule.endTime === null ? 24 * 60 : minutesOfDay(rule.endTime);
  if (!Number.isFinite(start) || !Number.isFinite(end) || start === end) return null;
  return [start, end];
}

/** True when the instant (epoch ms) falls in the window; a window whose end is before its start runs over midnight. */
export function inWindow(window: readonly [number, number] | null, timeMs: number): boolean {
  if (window === null) return true;
  const minute = chinaTimeOfDayMs(timeMs) / 60_000;
  const [start, end] = window;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}
