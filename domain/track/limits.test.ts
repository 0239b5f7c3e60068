import { describe, expect, it } from 'vitest';
import { checkHistoryPeriod, checkTrackPeriod, periodMessage, TRACK_MAX_PERIOD_MS } from './limits.ts';

const now = Date.UTC(2026, 10, 22, 12);
const day = 86_400_000;

describe('track period limits', () => {
  it('accepts exactly seven days and refuses one millisecond more', () => {
    expect(checkTrackPeriod(now - TRACK_MAX_PERIOD_MS, now, now)).toBeNull();
    expect(checkTrackPeriod(now - TRACK_MAX_PERIOD_MS - 1, now, now)).toBe('tooLong');
  });

  it('refuses a start after the end before anything else', () => {
    expect(checkTrackPeriod(now, now - 1, now)).toBe('startAfterEnd');
    expect(checkTrackPeriod(now - 40 * day, now - 41 * day, now)).toBe('startAfterEnd');
  });

  it('refuses a start older than 30 days even when the period is short', () => {
    expect(checkTrackPeriod(now - 31 * day, now - 30.5 * day, now)).toBe('tooOld');
    expect(checkTrackPeriod(now - 30 * day, now - 29 * day, now)).toBeNull();
  });

  it('limits a monitor history query to 24 hours', () => {
    expect(checkHistoryPeriod(now - day, now)).toBeNull();
    expect(checkHistoryPeriod(now - day - 1, now)).toBe('historyTooLong');
  });

  it('has a message in both languages for every problem', () => {
    expect(periodMessage('tooLong', 'zh')).toBe('查询时间段不能超过七天');
    expect(periodMessage('tooLong', 'en')).toBe('The period can be at most seven days');
  });
});
