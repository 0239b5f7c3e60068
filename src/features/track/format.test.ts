import { describe, expect, it } from 'vitest';
import { durationParts, formatTime, quickRange } from './format.ts';

describe('track playback formats', () => {
  const now = new Date(2026, 10, 25, 14, 30, 0).getTime();

  it('quick ranges: today from midnight to now, yesterday the whole of yesterday, the last 3 days from the day before yesterday', () => {
    expect(quickRange('today', now)).toEqual({ start: new Date(2026, 10, 25).getTime(), end: now });
    const y = quickRange('yesterday', now);
    expect(formatTime(y.start)).toBe('2026-11-24 00:00:00');
    expect(formatTime(y.end)).toBe('2026-11-24 23:59:59');
    expect(quickRange('last3Days', now)).toEqual({ start: new Date(2026, 10, 23).getTime(), end: now });
  });

  it('yesterday crosses a month boundary', () => {
    const first = new Date(2026, 11, 1, 9, 0, 0).getTime();
    expect(formatTime(quickRange('yesterday', first).start)).toBe('2026-11-30 00:00:00');
  });

  it('splits a stop duration into hours and minutes', () => {
    expect(durationParts(5.4)).toEqual({ h: 0, m: 5 });
    expect(durationParts(125.6)).toEqual({ h: 2, m: 6 });
    expect(durationParts(-1)).toEqual({ h: 0, m: 0 });
  });
});
