/**
 * Progressive login back-off (issue 13): a few failures are free, then each further failure makes the
 * caller wait longer, doubling up to a cap. The HTTP login applies it per account and per address
 * (server/services/priv/session.ts), the recording FTP receiver per address (server/media/ftp-guard.ts).
 * Pure: the callers keep the failure times (SQLite, memory) and ask how long is left.
 */
import type { Lang } from '../errors/catalogue.ts';

export interface BackoffRule {
  /** Failures older than this are forgotten (a quiet period ends the streak). */
  readonly windowMs: number;
  /** This many failures within the window cost nothing; the next wait starts with the one that reaches it. */
  readonly freeFailures: number;
  /** The first wait, after `freeFailures` failures. */
  readonly baseMs: number;
  /** Waits double per further failure up to this. */
  readonly maxMs: number;
}

/** 5 free failures, then 30 s, 60 s, 2 min … up to 15 min; a failure an hour old is forgotten. */
export const DEFAULT_BACKOFF: BackoffRule = { windowMs: 3_600_000, freeFailures: 5, baseMs: 30_000, maxMs: 15 * 60_000 };

/** The wait that follows the `failures`-th failure in a row (0 while failures are still free). */
export function waitAfter(failures: number, rule: BackoffRule): number {
  if (failures < rule.freeFailures) return 0;
  // 2^k overflows to Infinity long before k matters; min() then caps it.
  return Math.min(rule.baseMs * 2 ** (failures - rule.freeFailures), rule.maxMs);
}

/**
 * Milliseconds left before the next attempt is allowed, given the failure times (any order) of one key.
 * Attempts refused during a wait are not failures (the password is not even checked), so the wait runs
 * from the newest failure.
 */
export function remainingWait(failureTimes: readonly number[], now: number, rule: BackoffRule): number {
  let count = 0;
  let last = -Infinity;
  for (const at of failureTimes) {
    if (now - at >= rule.windowMs) continue;
    count++;
    if (at > last) last = at;
  }
  if (count === 0) return 0;
  return Math.max(0, last + waitAfter(count, rule) - now);
}

/** Whole seconds to state to the caller: rounded up, so "0 s" never appears while still refused. */
export function waitSeconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

/** "登录失败次数过多，请 N 分 M 秒后再试" / "Too many failed sign-ins. Try again in N min M s." */
export function throttledMessage(seconds: number, lang: Lang): string {
  const s = Math.max(1, Math.ceil(seconds));
  const min = Math.floor(s / 60);
  const sec = s % 60;
  if (lang === 'zh') {
    const wait = min > 0 ? (sec > 0 ? `${min} 分 ${sec} 秒` : `${min} 分钟`) : `${sec} 秒`;
    return `登录失败次数过多，请 ${wait}后再试`;
  }
  const wait = min > 0 ? (sec > 0 ? `${min} min ${sec} s` : `${min} min`) : `${sec} s`;
  return `Too many failed sign-ins. Try again in ${wait}.`;
}
