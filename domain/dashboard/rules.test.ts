import { describe, expect, it } from 'vitest';
import { chinaDayIndex, chinaDayStartMs } from '../track/days.ts';
import { chartDays, drivingMinutesByDay, hoursOneDecimal, panelClick, riskRanking } from './rules.ts';

describe('dashboard rules', () => {
  it('covers the 7 China days before today, oldest first', () => {
    const now = Date.UTC(2026, 10, 25, 2, 0); // 10:00 China time on 25 Nov
    const d = chartDays(now);
    expect(d.dates).toEqual(['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24']);
    expect(d.last).toBe(chinaDayIndex(now) - 1);
  });

  it('counts moving intervals up to 5 minutes apart for the later point’s day', () => {
    const day = chinaDayIndex(Date.UTC(2026, 10, 24));
    const t0 = chinaDayStartMs(day) + 3_600_000;
    const time = [t0, t0 + 60_000, t0 + 120_000, t0 + 180_000, t0 + 180_000 + 600_000, t0 + 180_000 + 660_000];
    const speed = [0, 40, 40, 0, 40, 40];
    // 2 moving minutes, then a stop interval, a 10-minute silence (not counted) and one more minute.
    expect(drivingMinutesByDay(time, speed, day, day)).toEqual([3]);
    expect(hoursOneDecimal(3)).toBe(0.1);
    expect(hoursOneDecimal(90)).toBe(1.5);
  });

  it('scales risk so the riskiest vehicle scores 100, to one decimal, top 5 only', () => {
    const rows = [1, 2, 3, 4, 5, 6].map((id) => ({ vehicleId: id, vehiidno: `V${id}`, points: id === 6 ? 0 : id * 3 }));
    expect(riskRanking(rows).map((r) => [r.vehicleId, r.totalScore])).toEqual([[5, 100], [4, 80], [3, 60], [2, 40], [1, 20]]);
    expect(riskRanking([{ vehicleId: 9, vehiidno: 'X', points: 2 }, { vehicleId: 8, vehiidno: 'Y', points: 3 }]).map((r) => r.totalScore)).toEqual([100, 66.7]);
    expect(riskRanking([])).toEqual([]);
  });

  it('navigates to a permitted target and warns otherwise', () => {
    expect(panelClick('risk', (r) => r === '/safeManagement/vehicleScore/checkReport')).toEqual({ navigate: '/safeManagement/vehicleScore/checkReport' });
    expect(panelClick('online', () => false)).toEqual({ warn: true });
  });
});
