import { describe, expect, it } from 'vitest';
import { checkMediaPeriod, defaultMediaDates, mediaEventName, mediaPeriodOfDates, mediaSourceName } from './media.ts';

describe('media rules', () => {
  it('turns China dates into a period from the first day\'s midnight to the last millisecond of the last day (GMT+8)', () => {
    expect(mediaPeriodOfDates('2026-11-20', '2026-11-22')).toEqual({ startTime: Date.UTC(2026, 10, 19, 16), endTime: Date.UTC(2026, 10, 22, 16) - 1 });
    expect(mediaPeriodOfDates('2026-02-30', '2026-03-01')).toBeNull();
    expect(mediaPeriodOfDates('', '2026-03-01')).toBeNull();
  });

  it('defaults to the seven China days ending today, even when it is still yesterday in UTC', () => {
    // 2026-11-22 01:00 in China = 2026-11-21 17:00 UTC.
    expect(defaultMediaDates(Date.UTC(2026, 10, 21, 17))).toEqual({ startDate: '2026-11-16', endDate: '2026-11-22' });
  });

  it('refuses a reversed period or one longer than 31 days', () => {
    const day = 86_400_000;
    expect(checkMediaPeriod(10, 5)).toBe('startAfterEnd');
    expect(checkMediaPeriod(0, 31 * day)).toBeNull();
    expect(checkMediaPeriod(0, 31 * day + 1)).toBe('tooLong');
  });

  it('names event codes and sources in both languages, and unknown codes by number', () => {
    expect(mediaEventName(0, 'zh')).toBe('平台下发指令');
    expect(mediaEventName(2, 'en')).toBe('Emergency alarm triggered');
    expect(mediaEventName(42, 'en')).toBe('Event 42');
    expect(mediaSourceName('snap', 'zh')).toBe('平台抓拍');
  });
});
