/** Display formats of track playback (local time, as the operator reads the period). */
const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-22 08:05:09` in local time. */
export function formatTime(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The value of an `<input type="datetime-local">`: `2026-11-22T08:05`. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Epoch ms of a datetime-local value, NaN when empty or malformed. */
export function fromLocalInput(value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return Number.NaN;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)).getTime();
}

export type QuickRange = 'today' | 'yesterday' | 'last3Days';
export const QUICK_RANGES: readonly QuickRange[] = ['today', 'yesterday', 'last3Days'];

/**
 * The period of a quick range in local days: today = midnight → now, yesterday = the whole of
 * yesterday (to 23:59:59), last 3 days = the day before yesterday's midnight → now.
 */
export function quickRange(kind: QuickRange, now: number): { start: number; end: number } {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const daysBack = (n: number) => {
    const d = new Date(midnight);
    d.setDate(d.getDate() - n);
    return d.getTime();
  };
  if (kind === 'today') return { start: midnight.getTime(), end: now };
  if (kind === 'yesterday') return { start: daysBack(1), end: midnight.getTime() - 1000 };
  return { start: daysBack(2), end: now };
}

/** A stop's duration as whole hours and minutes (rounded to the minute). */
export function durationParts(minutes: number): { h: number; m: number } {
  const total = Math.max(0, Math.round(minutes));
  return { h: Math.floor(total / 60), m: total % 60 };
}
