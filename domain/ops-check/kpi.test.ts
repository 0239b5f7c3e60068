import { describe, expect, it } from 'vitest';
import { sumMetrics, type DayMetrics } from '../track/daily-metrics.ts';
import { chinaDayStartMs } from '../track/days.ts';
import { checkTargets, DEFAULT_TARGETS, freezesAt, isFinal, measure, monthDays, monthOfDay, percentile, scorecard, type KpiCode } from './kpi.ts';

const MIN = 60_000;
const ZERO: Omit<DayMetrics, 'date' | 'online' | 'totalGps' | 'pass'> = {
  undetermined: 0, error: 0, drift: 0, lossTimes: 0, lossHours: 0, lossKm: 0, continuousKm: 0, mileageKm: 0, earlyMorningKm: 0, operation: false,
} as never;
const day = (online: boolean, totalGps: number, pass: number) => ({ ...ZERO, date: '2026-10-01', online, totalGps, pass }) as DayMetrics;
const NONE = sumMetrics([]);

describe('ops check KPI arithmetic on crafted days', () => {
  it('online rate counts vehicle-days with a report; data quality is pass over all reports', () => {
    // Two vehicles over three days: one day offline (no reports), one day with drift (8 of 10 pass).
    const days = [day(true, 10, 10), day(true, 10, 8), day(false, 0, 0), day(true, 20, 20), day(true, 20, 20), day(true, 20, 20)];
    const m = measure(sumMetrics(days), [], 0);
    expect(m.onlineRate).toBe(83.33);
    expect(m.dataQuality).toBe(97.5);
    expect(m.alarmHandlingRate).toBeNull();
    expect(m.alarmHandlingMinutes).toBeNull();
  });

  it('an unhandled alarm waits until the period end, so leaving it raises the p90 and lowers the rate', () => {
    const t0 = 1_000_000_000;
    const handledFast = Array.from({ length: 9 }, (_, i) => ({ startTime: t0 + i * MIN, dealTime: t0 + i * MIN + 5 * MIN }));
    const end = t0 + 600 * MIN;
    const allHandled = measure(NONE, [...handledFast, { startTime: t0, dealTime: t0 + 8 * MIN }], end);
    expect(allHandled.alarmHandlingMinutes).toBe(5);
    expect(allHandled.alarmHandlingRate).toBe(100);
    const oneLeft = measure(NONE, [...handledFast, { startTime: t0, dealTime: null }], end);
    expect(oneLeft.alarmHandlingRate).toBe(90);
    // 10 waits, nearest rank p90 = the 9th smallest: still 5 min; with two left the p90 is the wait to the end.
    expect(oneLeft.alarmHandlingMinutes).toBe(5);
    const twoLeft = measure(NONE, [...handledFast.slice(1), { startTime: t0, dealTime: null }, { startTime: t0 + MIN, dealTime: null }], end);
    expect(twoLeft.alarmHandlingMinutes).toBe(599);
  });

  it('percentile is nearest-rank', () => {
    expect(percentile([], 90)).toBeUndefined();
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
  });

  it('scorecard: a pass earns the weight, a miss its share of the target, unjudged weights are shared out', () => {
    const v = (measured: number | null, corrected: number | null = null) => ({ measured, corrected });
    const values: Record<KpiCode, { measured: number | null; corrected: number | null }> = {
      onlineRate: v(95), dataQuality: v(76), alarmHandlingMinutes: v(60), alarmHandlingRate: v(null),
    };
    const card = scorecard(values, DEFAULT_TARGETS);
    // Judged weights 30 + 20 + 20 = 70 → scaled by 100/70. onlineRate passes; dataQuality 76/95 = 0.8; minutes 30/60 = 0.5.
    expect(card.items.map((i) => i.passed)).toEqual([true, false, false, null]);
    expect(card.items[0]!.score).toBeCloseTo(42.86, 2);
    expect(card.items[1]!.score).toBeCloseTo(22.86, 2);
    expect(card.items[2]!.score).toBeCloseTo(14.29, 2);
    expect(card.total).toBeCloseTo(80.01, 1);
    expect(card.passed).toBe(1);
    expect(card.failed).toBe(2);
  });

  it('a correction is judged instead of the measured value, which is kept', () => {
    const values = {
      onlineRate: { measured: 80, corrected: 92 }, dataQuality: { measured: 99, corrected: null },
      alarmHandlingMinutes: { measured: 10, corrected: null }, alarmHandlingRate: { measured: 95, corrected: null },
    };
    const card = scorecard(values, DEFAULT_TARGETS);
    expect(card.items[0]).toMatchObject({ measured: 80, corrected: 92, passed: true, score: 30 });
    expect(card.total).toBe(100);
  });

  it('settings: weights must sum to 100, targets within range, every KPI once (Chinese messages)', () => {
    expect(checkTargets(DEFAULT_TARGETS)).toBeUndefined();
    const heavy = DEFAULT_TARGETS.map((t, i) => (i === 0 ? { ...t, weight: 40 } : t));
    expect(checkTargets(heavy)?.message('zh')).toBe('各项权重之和必须为 100（当前 110）');
    const badTarget = DEFAULT_TARGETS.map((t, i) => (i === 0 ? { ...t, target: 120 } : t));
    expect(checkTargets(badTarget)).toMatchObject({ index: 0, field: 'target' });
    expect(checkTargets(badTarget)?.message('zh')).toBe('车辆上线率(车辆天)的目标值须在 0–100 之间');
    expect(checkTargets(DEFAULT_TARGETS.slice(1))?.message('zh')).toBe('缺少车辆上线率(车辆天)的设置');
    expect(checkTargets([...DEFAULT_TARGETS, DEFAULT_TARGETS[0]!])?.field).toBe('code');
    const fractional = DEFAULT_TARGETS.map((t, i) => (i === 1 ? { ...t, weight: 19.5 } : t));
    expect(checkTargets(fractional)?.field).toBe('weight');
  });

  it('months are China calendar months', () => {
    const m = monthDays('2026-02')!;
    expect(m.lastDay - m.firstDay + 1).toBe(28);
    expect(monthOfDay(m.firstDay)).toBe('2026-02');
    expect(monthOfDay(m.lastDay + 1)).toBe('2026-03');
    expect(monthDays('2026-13')).toBeUndefined();
  });

  it('a closed month is final only when computed after its end plus the two-day grace for blind-area resends', () => {
    const oct = monthDays('2026-10')!;
    const end = chinaDayStartMs(oct.lastDay + 1);
    expect(freezesAt('2026-10')).toBe(end + 2 * 86_400_000);
    expect(isFinal('2026-10', end + 3_600_000)).toBe(false);
    expect(isFinal('2026-10', end + 2 * 86_400_000 - 1)).toBe(false);
    expect(isFinal('2026-10', end + 2 * 86_400_000)).toBe(true);
  });
});
