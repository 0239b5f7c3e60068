/**
 * Periods chosen on screens (issue 13): the quick ranges, the text an operator may type, and the
 * limits a screen sets (order, maximum span). Local time throughout, as the operator reads the clock;
 * values are the strings screens already keep: `2026-11-25T08:05` (datetime) or `2026-11-25` (date).
 */

export type PeriodMode = 'datetime' | 'date';

export const QUICK_RANGES = ['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth'] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

export interface Period {
  readonly start: string;
  readonly end: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A local time as a screen value of the mode. */
export function periodValue(d: Date, mode: PeriodMode): string {
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return mode === 'date' ? day : `${day}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A quick range ending today (or last month) as of `now`: whole days, from 00:00 of the first to 23:59
 * of the last, so the same click gives the same period all day long.
 */
export function quickRange(kind: QuickRange, now: Date, mode: PeriodMode): Period {
  // Date mode names report days, and the server's report days are China days (domain/track/days.ts): the
  // quick ranges count them on China's calendar, so 今天 is China's today in a browser on any zone. Datetime
  // values are the operator's local clock, turned into instants by the browser.
  if (mode === 'date') return chinaQuickRange(kind, now);
  const y = now.getFullYear();
  const m = now.getMonth();
  const d = now.getDate();
  const dayStart = (yy: number, mm: number, dd: number) => new Date(yy, mm, dd, 0, 0, 0, 0);
  const dayEnd = (yy: number, mm: number, dd: number) => new Date(yy, mm, dd, 23, 59, 0, 0);
  let from: Date;
  let to: Date;
  switch (kind) {
    case 'today': from = dayStart(y, m, d); to = dayEnd(y, m, d); break;
    case 'yesterday': from = dayStart(y, m, d - 1); to = dayEnd(y, m, d - 1); break;
    case 'last3Days': from = dayStart(y, m, d - 2); to = dayEnd(y, m, d); break;
    case 'last7Days': from = dayStart(y, m, d - 6); to = dayEnd(y, m, d); break;
    // Day 0 of the next month is the last day of this one (Date normalises it).
    case 'thisMonth': from = dayStart(y, m, 1); to = dayEnd(y, m + 1, 0); break;
    case 'lastMonth': from = dayStart(y, m - 1, 1); to = dayEnd(y, m, 0); break;
  }
  return { start: periodValue(from, mode), end: periodValue(to, mode) };
}

const CHINA_OFFSET_MS = 8 * 3_600_000;

/** The quick range of report days on China's calendar (UTC+8 all year), as `YYYY-MM-DD` values. */
function chinaQuickRange(kind: QuickRange, now: Date): Period {
  const cn = new Date(now.getTime() + CHINA_OFFSET_MS);
  const y = cn.getUTCFullYear();
  const m = cn.getUTCMonth();
  const d = cn.getUTCDate();
  // Date.UTC normalises day 0 and negative days the way the local branch's Date constructor does.
  const day = (yy: number, mm: number, dd: number) => {
    const t = new Date(Date.UTC(yy, mm, dd));
    return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  };
  switch (kind) {
    case 'today': return { start: day(y, m, d), end: day(y, m, d) };
    case 'yesterday': return { start: day(y, m, d - 1), end: day(y, m, d - 1) };
    case 'last3Days': return { start: day(y, m, d - 2), end: day(y, m, d) };
    case 'last7Days': return { start: day(y, m, d - 6), end: day(y, m, d) };
    case 'thisMonth': return { start: day(y, m, 1), end: day(y, m + 1, 0) };
    case 'lastMonth': return { start: day(y, m - 1, 1), end: day(y, m, 0) };
  }
}

const TYPED = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*$/;

/**
 * The screen value of what an operator typed (`2026-11-25 08:05`, `2026-11-25T08:05`, `2026-11-25`),
 * or null when it is no real date (2026-02-30, 24:00) — the picker then keeps the previous value.
 */
export function parseTyped(text: string, mode: PeriodMode): string | null {
  const m = TYPED.exec(text);
  if (!m) return null;
  const [yy, mo, dd, hh, mi] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0'].map(Number) as [number, number, number, number, number];
  const d = new Date(yy, mo - 1, dd, hh, mi);
  if (d.getFullYear() !== yy || d.getMonth() !== mo - 1 || d.getDate() !== dd || d.getHours() !== hh || d.getMinutes() !== mi) return null;
  return periodValue(d, mode);
}

/** Epoch ms of a screen value (local time); NaN when empty or malformed. */
export function valueTime(value: string): number {
  const v = parseTyped(value, 'datetime');
  if (v === null) return Number.NaN;
  return new Date(`${v}:00`).getTime();
}

export interface PeriodLimits {
  /** The longest period the screen (or its server call) accepts, in days. */
  readonly maxSpanDays?: number;
}

export type PeriodProblem = { kind: 'missing' } | { kind: 'order' } | { kind: 'span'; maxDays: number };

/**
 * What is wrong with a period, or null. A date-mode period includes its end day, so 2026-11-01 to
 * 2026-11-07 spans 7 days.
 */
export function periodProblem(p: Period, mode: PeriodMode, limits: PeriodLimits = {}): PeriodProblem | null {
  const start = valueTime(p.start);
  const end = valueTime(p.end);
  if (Number.isNaN(start) || Number.isNaN(end)) return { kind: 'missing' };
  if (end < start) return { kind: 'order' };
  const spanMs = end - start + (mode === 'date' ? 86_400_000 : 0);
  // 1 h of slack: a span over a daylight-saving change is an hour longer than its days.
  if (limits.maxSpanDays !== undefined && spanMs > limits.maxSpanDays * 86_400_000 + 3_600_000) return { kind: 'span', maxDays: limits.maxSpanDays };
  return null;
}
