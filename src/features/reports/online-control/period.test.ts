import { describe, expect, it } from 'vitest';
import { checkPeriod, dayOfDate, defaultPeriod, formatChinaTime, vehicleIdsOf } from './period.ts';

describe('online-control report periods', () => {
  it('defaults to the seven China days ending yesterday, even late in the UTC evening', () => {
    // 2026-11-22 17:00 UTC is 2026-11-23 01:00 in China.
    expect(defaultPeriod(Date.UTC(2026, 10, 22, 17))).toEqual({ startDate: '2026-11-16', endDate: '2026-11-22' });
  });

  it('accepts 31 days and refuses 32, a reversed period and an impossible date', () => {
    expect(checkPeriod({ startDate: '2026-10-01', endDate: '2026-10-31' })).toBeNull();
    expect(checkPeriod({ startDate: '2026-10-01', endDate: '2026-11-01' })).toBe('tooLong');
    expect(checkPeriod({ startDate: '2026-10-02', endDate: '2026-10-01' })).toBe('startAfterEnd');
    expect(checkPeriod({ startDate: '2026-02-30', endDate: '2026-03-01' })).toBe('missing');
    expect(checkPeriod({ startDate: '', endDate: '2026-03-01' })).toBe('missing');
    expect(dayOfDate('2026-03-01')).toBe(Date.UTC(2026, 2, 1) / 86_400_000);
  });

  it('shows times in China time and vehicle ids of checked vehicle nodes only', () => {
    expect(formatChinaTime(Date.UTC(2026, 10, 22, 16, 30, 5))).toBe('2026-11-23 00:30:05');
    expect(vehicleIdsOf(['C_1', 'V_12', 'L_3', 'V_5'])).toEqual([5, 12]);
  });
});
