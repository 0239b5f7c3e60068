/**
 * Drift (spec §9): of three consecutive points, when the speed implied first→second and second→third
 * (great-circle distance over time) both exceed 160 km/h, the middle point is drift.
 *
 * Decisions:
 * - "Exceed" is strict: exactly 160 km/h is not drift.
 * - Zero time between two points: no movement is speed 0 (duplicate report), any movement is
 *   +Infinity (see `impliedSpeedKmh`), so a jump reported with the previous timestamp counts as fast.
 * - A drift point is removed before the next triple is judged: the triple after a drift point is
 *   (last kept point, next point, the one after). So the good point between two spikes is judged
 *   against the good point before the first spike, not against the spike, and one bad position
 *   never drags its neighbours into drift. A run of drift points is peeled one at a time the same way.
 * - The first and last points of a track are never drift (they have no triple around them).
 */
import { cosLatitude, haversineKmCos, impliedSpeedKmh } from './geo.ts';
import type { TrackColumns } from './columns.ts';

export const DRIFT_SPEED_KMH = 160;

/** The middle point of a triple is drift when both legs' implied speeds exceed 160 km/h. */
export function isDriftTriple(speedInKmh: number, speedOutKmh: number): boolean {
  return speedInKmh > DRIFT_SPEED_KMH && speedOutKmh > DRIFT_SPEED_KMH;
}

/**
 * Drift flags (1 = drift) for a time-sorted track, judged with drift points removed as described
 * above. `analyzeTrack` runs the same walk inline with the other rules; this is for callers that need
 * drift alone (the drift report).
 */
export function findDrift(c: TrackColumns): Uint8Array {
  const { time, lng, lat } = c;
  const n = time.length;
  const flags = new Uint8Array(n);
  if (n < 3) return flags;
  let a = 0;
  let b = 1;
  let cosA = cosLatitude(lat[0]!);
  let cosB = cosLatitude(lat[1]!);
  let vAB = impliedSpeedKmh(haversineKmCos(lng[0]!, lat[0]!, cosA, lng[1]!, lat[1]!, cosB), time[1]! - time[0]!);
  for (let k = 2; k < n; k++) {
    const cosK = cosLatitude(lat[k]!);
    const vBK = impliedSpeedKmh(haversineKmCos(lng[b]!, lat[b]!, cosB, lng[k]!, lat[k]!, cosK), time[k]! - time[b]!);
    if (isDriftTriple(vAB, vBK)) {
      flags[b] = 1;
      vAB = impliedSpeedKmh(haversineKmCos(lng[a]!, lat[a]!, cosA, lng[k]!, lat[k]!, cosK), time[k]! - time[a]!);
    } else {
      a = b;
      cosA = cosB;
      vAB = vBK;
    }
    b = k;
    cosB = cosK;
  }
  return flags;
}
