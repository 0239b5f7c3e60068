/**
 * Query-period limits of track playback and history (spec §5), one rule for the console's forms and
 * the server's validation. Times are epoch milliseconds; the caller passes `now` (a test clock, or
 * the server's time) so the rule stays pure.
 */
import type { Lang } from '../errors/catalogue.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Track playback: the period is at most seven days. */
export const TRACK_MAX_PERIOD_MS = 7 * DAY_MS;
/** Track playback: only the last 30 days can be queried (the start must not be older). */
export const TRACK_MAX_AGE_MS = 30 * DAY_MS;
/** Monitor history query (the monitor page's recent trail): at most 24 hours. */
export const MONITOR_HISTORY_MAX_PERIOD_MS = 24 * HOUR_MS;
/** Positioning export (trail/excel): the first 50,000 points; beyond, the user shortens the range. */
export const TRAIL_EXPORT_MAX_POINTS = 50_000;

export type PeriodProblem = 'startAfterEnd' | 'tooLong' | 'tooOld' | 'historyTooLong';

const MESSAGES: Record<PeriodProblem, readonly [zh: string, en: string]> = {
  startAfterEnd: ['开始时间不能晚于结束时间', 'The start time cannot be after the end time'],
  tooLong: ['查询时间段不能超过七天', 'The period can be at most seven days'],
  tooOld: ['只能查询最近30天的数据', 'Only the last 30 days can be queried'],
  historyTooLong: ['历史查询时间段不能超过24小时', 'The history query period can be at most 24 hours'],
};

export function periodMessage(problem: PeriodProblem, lang: Lang): string {
  return MESSAGES[problem][lang === 'zh' ? 0 : 1];
}

/** The export cap message (catalogue §8: "positioning export first 50000, shorten the range"). */
export function exportCapMessage(total: number, lang: Lang): string {
  return lang === 'zh'
    ? `共 ${total} 个定位点，仅导出前 ${TRAIL_EXPORT_MAX_POINTS} 个，请缩短查询时间段`
    : `${total} positions found; only the first ${TRAIL_EXPORT_MAX_POINTS} are exported, shorten the time range`;
}

/**
 * The first problem of a track-playback period, or null when it may be queried.
 * Order: start after end, then too long, then too old (the user fixes the order of the fields first).
 */
export function checkTrackPeriod(start: number, end: number, now: number): PeriodProblem | null {
  if (start > end) return 'startAfterEnd';
  if (end - start > TRACK_MAX_PERIOD_MS) return 'tooLong';
  if (start < now - TRACK_MAX_AGE_MS) return 'tooOld';
  return null;
}

/** The first problem of a monitor history query period (at most 24 hours), or null. */
export function checkHistoryPeriod(start: number, end: number): PeriodProblem | null {
  if (start > end) return 'startAfterEnd';
  if (end - start > MONITOR_HISTORY_MAX_PERIOD_MS) return 'historyTooLong';
  return null;
}
