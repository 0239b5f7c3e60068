/**
 * Which stored points the day modules use for positions (the same rule as the positioning reports,
 * domain/track/daily-metrics.ts `invalidReason`): a point outside WGS-84, with a zero coordinate, a
 * non-finite speed or a GPS time past its arrival is left out of distances and places. The engine uses
 * the same test to pick a day's `previous` point, so live and recompute agree on it.
 */
import { invalidReason } from '../track/daily-metrics.ts';
import type { DayPoint } from './module.ts';

export function isValidDayPoint(p: DayPoint): boolean {
  return invalidReason(p.t, p.lng, p.lat, p.speed, p.receivedAt) === null;
}
