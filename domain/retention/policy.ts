/**
 * Retention of stored history (issue 12 §5): which rows a sweep at `now` deletes, per kind. Pure, so
 * the server's sweep (server/retention/) and its tests agree on the boundaries.
 *
 * - Positions go by whole China days (GMT+8): a day is kept entirely or deleted entirely, so the
 *   track playback's per-vehicle-day blocks (`track_block`) and the reports' daily rollups never
 *   describe half a day. `days` full days are kept before today.
 * - Alarms and raw logs go by the instant `days` × 24 h ago: nothing else is keyed by their day.
 * - A login session is deleted only once it is far past any token's lifetime, whatever the log days.
 * - 0 days keeps everything of that kind (null).
 */
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs, DAY_MS } from '../track/days.ts';

export interface RetentionPolicy {
  readonly positionDays: number;
  readonly alarmDays: number;
  readonly logDays: number;
  readonly reportDays: number;
  /** The longest a session token lives (seconds): sessions are kept at least this long plus a day. */
  readonly tokenTtlSeconds: number;
}

export interface RetentionCutoffs {
  /** Positions of China days < this day index go (null: kept). */
  readonly positionDay: number | null;
  /** The same boundary as epoch ms (the first instant kept). */
  readonly positionBefore: number | null;
  /** Report rollup rows of dates < this `YYYY-MM-DD` go. */
  readonly reportDate: string | null;
  /** First China day of rollups kept (with reportDate). */
  readonly reportDay: number | null;
  /** Alarms (start and arrival) before this instant go. */
  readonly alarmBefore: number | null;
  /** Raw log rows before this instant go. */
  readonly logBefore: number | null;
  /** Sessions last used before this instant go. */
  readonly sessionBefore: number | null;
}

export function retentionCutoffs(now: number, p: RetentionPolicy): RetentionCutoffs {
  const today = chinaDayIndex(now);
  const positionDay = p.positionDays > 0 ? today - p.positionDays : null;
  const reportDay = p.reportDays > 0 ? today - p.reportDays : null;
  const logBefore = p.logDays > 0 ? now - p.logDays * DAY_MS : null;
  return {
    positionDay,
    positionBefore: positionDay === null ? null : chinaDayStartMs(positionDay),
    reportDay,
    reportDate: reportDay === null ? null : chinaDateOfDay(reportDay),
    alarmBefore: p.alarmDays > 0 ? now - p.alarmDays * DAY_MS : null,
    logBefore,
    sessionBefore: logBefore === null ? null : Math.min(logBefore, now - p.tokenTtlSeconds * 1000 - DAY_MS),
  };
}

/**
 * Whether rollups must be computed before positions go: the reports keep days longer than the
 * positions they are computed from (or forever), so a day's rollup has to exist before its rows are
 * deleted, or a later report of that day would find nothing and show the vehicle idle.
 */
export function rollupsOutlivePositions(p: Pick<RetentionPolicy, 'positionDays' | 'reportDays'>): boolean {
  return p.positionDays > 0 && (p.reportDays === 0 || p.reportDays > p.positionDays);
}
