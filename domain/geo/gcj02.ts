/**
 * GCJ-02 ("Mars coordinates"), the obfuscated datum Chinese map providers (AMap, Tencent, Google China)
 * draw their tiles in. Stored positions are always WGS-84; the console converts for display only when
 * the basemap is a GCJ-02 source, so a vehicle sits on the road the tiles show.
 *
 * The forward transform is the widely published one (Krasovsky 1940 ellipsoid, offsets of ~100–700 m).
 * There is no closed-form inverse: `gcj02ToWgs84` iterates the forward transform (it is nearly the
 * identity, so a fixed-point iteration converges to < 1e-9° in 2–4 rounds).
 */

/** Semi-major axis of the Krasovsky 1940 ellipsoid in metres, as the published transform uses it. */
const A = 6378245.0;
/** First eccentricity squared of the Krasovsky 1940 ellipsoid. */
const EE = 0.006693421622965943;
const PI = Math.PI;
const DEG = PI / 180;

/** The coordinate reference system a map source is drawn in. */
export type DisplayCrs = 'wgs84' | 'gcj02';

export const DISPLAY_CRS_VALUES: readonly DisplayCrs[] = ['wgs84', 'gcj02'];

export function isDisplayCrs(value: unknown): value is DisplayCrs {
  return value === 'wgs84' || value === 'gcj02';
}

/**
 * The GCJ-02 offset applies only inside this box (the published rough outline of China); outside it
 * both datums are identical, as the providers' own SDKs do.
 */
export function outOfChina(lng: number, lat: number): boolean {
  return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271;
}

function offsetLat(x: number, y: number): number {
  let r = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * PI) + 20 * Math.sin(2 * x * PI)) * 2) / 3;
  r += ((20 * Math.sin(y * PI) + 40 * Math.sin((y / 3) * PI)) * 2) / 3;
  r += ((160 * Math.sin((y / 12) * PI) + 320 * Math.sin((y * PI) / 30)) * 2) / 3;
  return r;
}

function offsetLng(x: number, y: number): number {
  let r = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * PI) + 20 * Math.sin(2 * x * PI)) * 2) / 3;
  r += ((20 * Math.sin(x * PI) + 40 * Math.sin((x / 3) * PI)) * 2) / 3;
  r += ((150 * Math.sin((x / 12) * PI) + 300 * Math.sin((x / 30) * PI)) * 2) / 3;
  return r;
}

/** Scratch result so the batched loops allocate nothing per point. */
interface MutablePoint {
  lng: number;
  lat: number;
}

function forwardInto(lng: number, lat: number, out: MutablePoint): void {
  if (!Number.isFinite(lng) || !Number.isFinite(lat) || outOfChina(lng, lat)) {
    out.lng = lng;
    out.lat = lat;
    return;
  }
  const x = lng - 105;
  const y = lat - 35;
  const radLat = lat * DEG;
  const s = Math.sin(radLat);
  const magic = 1 - EE * s * s;
  const sqrtMagic = Math.sqrt(magic);
  const dLat = (offsetLat(x, y) * 180) / (((A * (1 - EE)) / (magic * sqrtMagic)) * PI);
  const dLng = (offsetLng(x, y) * 180) / ((A / sqrtMagic) * Math.cos(radLat) * PI);
  out.lng = lng + dLng;
  out.lat = lat + dLat;
}

/** WGS-84 → GCJ-02 for one position in degrees. Outside China (and for NaN) the input comes back. */
export function wgs84ToGcj02(lng: number, lat: number): [lng: number, lat: number] {
  const p = { lng, lat };
  forwardInto(lng, lat, p);
  return [p.lng, p.lat];
}

/** Worst-case residual of the inverse in degrees (≈ 0.1 mm), far below any display or storage need. */
const INVERSE_EPS = 1e-9;
const INVERSE_MAX_ROUNDS = 10;

function inverseInto(lng: number, lat: number, out: MutablePoint, tmp: MutablePoint): void {
  if (!Number.isFinite(lng) || !Number.isFinite(lat) || outOfChina(lng, lat)) {
    out.lng = lng;
    out.lat = lat;
    return;
  }
  // Fixed point of w = g − (f(w) − w): f is the identity plus a slowly varying offset.
  let wLng = lng;
  let wLat = lat;
  for (let i = 0; i < INVERSE_MAX_ROUNDS; i++) {
    forwardInto(wLng, wLat, tmp);
    const eLng = tmp.lng - lng;
    const eLat = tmp.lat - lat;
    wLng -= eLng;
    wLat -= eLat;
    if (Math.abs(eLng) < INVERSE_EPS && Math.abs(eLat) < INVERSE_EPS) break;
  }
  out.lng = wLng;
  out.lat = wLat;
}

/** GCJ-02 → WGS-84 for one position in degrees (e.g. a rectangle drawn on a GCJ-02 basemap). */
export function gcj02ToWgs84(lng: number, lat: number): [lng: number, lat: number] {
  const out = { lng, lat };
  inverseInto(lng, lat, out, { lng: 0, lat: 0 });
  return [out.lng, out.lat];
}

/** A writable array of numbers: Float32Array, Float64Array or number[]. */
export interface NumberArray {
  length: number;
  [index: number]: number;
}

/**
 * Converts `count` interleaved (lng, lat) pairs from `src` into `dst` (which may be `src` itself).
 * Used by the stream worker per frame: 100k pairs cost ≈ 10 ms, so the worker converts only reports
 * that changed, never the whole fleet every frame.
 */
export function wgs84ToGcj02Pairs(src: ArrayLike<number>, dst: NumberArray, count: number): void {
  const p: MutablePoint = { lng: 0, lat: 0 };
  for (let i = 0; i < count; i++) {
    const k = i * 2;
    forwardInto(src[k] as number, src[k + 1] as number, p);
    dst[k] = p.lng;
    dst[k + 1] = p.lat;
  }
}

/** Inverse of `wgs84ToGcj02Pairs`. */
export function gcj02ToWgs84Pairs(src: ArrayLike<number>, dst: NumberArray, count: number): void {
  const p: MutablePoint = { lng: 0, lat: 0 };
  const tmp: MutablePoint = { lng: 0, lat: 0 };
  for (let i = 0; i < count; i++) {
    const k = i * 2;
    inverseInto(src[k] as number, src[k + 1] as number, p, tmp);
    dst[k] = p.lng;
    dst[k + 1] = p.lat;
  }
}

/** Converts a WGS-84 position into `crs` for display. */
export function toDisplay(crs: DisplayCrs, lng: number, lat: number): [lng: number, lat: number] {
  return crs === 'gcj02' ? wgs84ToGcj02(lng, lat) : [lng, lat];
}

/** Converts a position read off a map drawn in `crs` back to WGS-84 (for queries and storage). */
export function fromDisplay(crs: DisplayCrs, lng: number, lat: number): [lng: number, lat: number] {
  return crs === 'gcj02' ? gcj02ToWgs84(lng, lat) : [lng, lat];
}
