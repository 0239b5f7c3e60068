/**
 * Period and formatting rules of the online-control report pages. Days are China days (GMT+8)
 * whatever the browser's time zone, as on the server (domain/track/days.ts).
 */
import { chinaDateOfDay, chinaDayIndex, CHINA_OFFSET_MS } from '../../../../domain/track/days.ts';

/** The server refuses longer periods (server/API.md "Positioning-quality reports"). */
export const REPORT_MAX_DAYS = 31;
/** Days in the default period, ending yesterday (complete days, served from the rollup). */
export const DEFAULT_PERIOD_DAYS = 7;

export interface ReportPeriod {
  /** `YYYY-MM-DD`, China days, both inclusive. */
  startDate: string;
  endDate: string;
}

export type PeriodProblem = 'missing' | 'startAfterEnd' | 'tooLong';

export function defaultPeriod(now: number): ReportPeriod {
  const today = chinaDayIndex(now);
  return { startDate: chinaDateOfDay(today - DEFAULT_PERIOD_DAYS), endDate: chinaDateOfDay(today - 1) };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Day index of a `YYYY-MM-DD` calendar date, or undefined. */
export function dayOfDate(text: string): number | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000;
  return chinaDateOfDay(day) === text ? day : undefined;
}

/** The first problem of a period as the server would judge it, or null. */
export function checkPeriod(p: ReportPeriod): PeriodProblem | null {
  const start = dayOfDate(p.startDate);
  const end = dayOfDate(p.endDate);
  if (start === undefined || end === undefined) return 'missing';
  if (start > end) return 'startAfterEnd';
  return end - start + 1 > REPORT_MAX_DAYS ? 'tooLong' : null;
}

/** `2026-11-22 08:05:09` in China time. */
export function formatChinaTime(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  return new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

export function formatPosition(lng: number, lat: number): string {
  return `${lng.toFixed(6)}, ${lat.toFixed(6)}`;
}

/** A percentage as the server sends it (two decimals), with the sign. */
export function formatPercent(value: number): string {
  return `${value.toFixed(2)}%`;
}

/** Vehicle ids of checked tree node ids (`V_12`); other node types are ignored. */
export function vehicleIdsOf(checked: Iterable<string>): number[] {
  const ids: number[] = [];
  for (const id of checked) {
    const m = /^V_([1-9]\d*)$/.exec(id);
    if (m) ids.push(Number(m[1]));
  }
  return ids.sort((a, b) => a - b);
}
