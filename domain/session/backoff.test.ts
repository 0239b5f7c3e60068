import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, remainingWait, throttledMessage, waitAfter, waitSeconds } from './backoff.ts';

const rule = DEFAULT_BACKOFF;

describe('progressive login back-off', () => {
  it('lets the first four failures pass, then waits 30 s and doubles per failure up to 15 min', () => {
    expect([1, 2, 3, 4].map((n) => waitAfter(n, rule))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9].map((n) => waitAfter(n, rule) / 1000)).toEqual([30, 60, 120, 240, 480]);
    expect(waitAfter(10, rule)).toBe(15 * 60_000);
    expect(waitAfter(5000, rule)).toBe(15 * 60_000);
  });

  it('counts the wait from the newest failure, whatever order the times come in', () => {
    const times = [1000, 5000, 2000, 4000, 3000];
    expect(remainingWait(times, 5000, rule)).toBe(30_000);
    expect(remainingWait(times, 20_000, rule)).toBe(15_000);
    expect(remainingWait(times, 35_000, rule)).toBe(0);
    expect(remainingWait(times.slice(0, 4), 5000, rule)).toBe(0);
  });

  it('forgets failures older than the window, so a quiet hour ends the streak', () => {
    const times = [0, 1, 2, 3, 4, 5, 6];
    expect(remainingWait(times, 7, rule)).toBe(6 + 120_000 - 7);
    expect(remainingWait(times, rule.windowMs + 5, rule)).toBe(0);
    expect(remainingWait([], 0, rule)).toBe(0);
  });

  it('states whole seconds, rounded up', () => {
    expect(waitSeconds(29_001)).toBe(30);
    expect(waitSeconds(1)).toBe(1);
    expect(waitSeconds(0)).toBe(0);
  });

  it('states the wait in minutes and seconds in either language', () => {
    expect(throttledMessage(95, 'zh')).toBe('登录失败次数过多，请 1 分 35 秒后再试');
    expect(throttledMessage(95, 'en')).toBe('Too many failed sign-ins. Try again in 1 min 35 s.');
    expect(throttledMessage(30, 'zh')).toBe('登录失败次数过多，请 30 秒后再试');
    expect(throttledMessage(900, 'en')).toBe('Too many failed sign-ins. Try again in 15 min.');
  });
});
