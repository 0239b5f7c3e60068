/**
 * Great-circle geometry on WGS-84 degrees. The haversine formula on a sphere is what the track rules
 * need: their thresholds (2 km, 10 km, 160 km/h) are far coarser than the ≤ 0.5 % error of a sphere
 * against the ellipsoid, and it costs one sqrt, one asin and two sines per pair on the hot path.
 */

/** IUGG mean Earth radius R₁ = (2a + b) / 3 in km: minimises the mean error of the spherical model. */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;
const MS_PER_HOUR = 3_600_000;

/** `Math.cos(lat)` for a latitude in degrees: callers walking a track compute it once per point. */
export function cosLatitude(latDeg: number): number {
  return Math.cos(latDeg * RAD);
}

/**
 * Haversine distance in km when both latitudes' cosines are known (see `cosLatitude`). The `min(1, …)`
 * guards asin against rounding just above 1 for antipodal points.
 */
export function haversineKmCos(lng1: number, lat1: number, cos1: number, lng2: number, lat2: number, cos2: number): number {
  const sLat = Math.sin((lat2 - lat1) * RAD * 0.5);
  const sLng = Math.sin((lng2 - lng1) * RAD * 0.5);
  const h = sLat * sLat + cos1 * cos2 * sLng * sLng;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Great-circle distance in km between two WGS-84 positions in degrees. */
export function haversineKm(lng1: number, lat1: number, lng2: number, lat2: number): number {
  return haversineKmCos(lng1, lat1, cosLatitude(lat1), lng2, lat2, cosLatitude(lat2));
}

/**
 * Speed in km/h implied by covering `km` in `dtMs` milliseconds. The sign of `dtMs` is ignored (a
 * speed has no direction in time). Zero time: no movement is speed 0 (a duplicate report), any
 * movement is +Infinity (a position cannot change in no time, so it is faster than any threshold).
 */
export function impliedSpeedKmh(km: number, dtMs: number): number {
  const dt = Math.abs(dtMs);
  if (dt === 0) return km > 0 ? Infinity : 0;
  return (km * MS_PER_HOUR) / dt;
}

/** Implied speed in km/h between points i and j of a track's columns (great-circle distance over time). */
export function speedBetweenKmh(
  time: ArrayLike<number>,
  lng: ArrayLike<number>,
  lat: ArrayLike<number>,
  i: number,
  j: number,
): number {
  const km = haversineKm(lng[i] ?? NaN, lat[i] ?? NaN, lng[j] ?? NaN, lat[j] ?? NaN);
  return impliedSpeedKmh(km, (time[j] ?? NaN) - (time[i] ?? NaN));
}
