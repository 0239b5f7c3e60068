import { describe, expect, it } from 'vitest';
import { chinaDayStartMs, DAY_MS } from '../track/days.ts';
import { alarmQueryEarliest } from './engine.ts';
import { contrast, deltaPercent, driverKey, parseDriverKey, rollupCompanies, statsDays, statsPeriodProblem, ZERO_COUNTS } from './stats.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const c = (count: number, vehicles = 1) => ({ count, occurrences: count, unprocessed: count, vehicles });

describe('the statistics period', () => {
  it('refuses a start after the end and a start older than three calendar months, and accepts the boundary', () => {
    expect(statsPeriodProblem(NOW, NOW - 1, NOW)).toBe('badRange');
    expect(statsPeriodProblem(Number.NaN, NOW, NOW)).toBe('badRange');
    expect(statsPeriodProblem(alarmQueryEarliest(NOW) - 1, NOW, NOW)).toBe('tooOld');
    expect(statsPeriodProblem(alarmQueryEarliest(NOW), NOW + 10 * DAY_MS, NOW)).toBeNull();
  });

  it('lists the China days of a period and stops at today', () => {
    const today = chinaDayStartMs(Math.floor((NOW + 8 * 3_600_000) / DAY_MS));
    // 23:30 China time two days ago → three days up to today, a week into the future adds none.
    expect(statsDays(today - 2 * DAY_MS + 23.5 * 3_600_000, today + 7 * DAY_MS, NOW)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    // 16:30 UTC is already the next China day.
    expect(statsDays(Date.UTC(2026, 10, 20, 16, 30), Date.UTC(2026, 10, 20, 17, 0), NOW)).toEqual(['2026-11-21']);
  });
});

describe('driver attribution keys', () => {
  it('prefers the certificate, then the name, else the vehicle, and parses back', () => {
    expect(driverKey('3301', '王师傅', 7)).toBe('c:3301');
    expect(driverKey('', '王师傅', 7)).toBe('n:王师傅');
    expect(driverKey('', '', 7)).toBe('v:7');
    expect(parseDriverKey('c:3301')).toEqual({ kind: 'cert', cert: '3301' });
    expect(parseDriverKey('n:王师傅')).toEqual({ kind: 'name', name: '王师傅' });
    expect(parseDriverKey('v:7')).toEqual({ kind: 'vehicle', vehicleId: 7 });
    expect(parseDriverKey('v:abc')).toBeUndefined();
    expect(parseDriverKey('n:')).toBeUndefined();
    expect(parseDriverKey('x:1')).toBeUndefined();
  });
});

describe('the company rollup', () => {
  const companies = [
    { id: 1, pid: 0, name: '总公司', path: '/1/' },
    { id: 2, pid: 1, name: '东区', path: '/1/2/' },
    { id: 3, pid: 2, name: '东区一队', path: '/1/2/3/' },
    { id: 4, pid: 1, name: '西区', path: '/1/4/' },
  ];
  const per = new Map([[1, c(1)], [2, c(2)], [3, c(5, 2)]]);

  it('answers the parent’s own vehicles, then each child with its whole subtree', () => {
    const rows = rollupCompanies(companies, per, companies[0]!);
    expect(rows.map((r) => [r.companyId, r.own, r.count, r.vehicles, r.childCount])).toEqual([
      [1, true, 1, 1, 2], [2, false, 7, 3, 1], [4, false, 0, 0, 0],
    ]);
    expect(rows.reduce((s, r) => s + r.count, 0)).toBe(8);
  });

  it('answers the roots when there is no parent', () => {
    const rows = rollupCompanies(companies, per, null);
    expect(rows).toEqual([{ companyId: 1, companyName: '总公司', own: false, childCount: 2, count: 8, occurrences: 8, unprocessed: 8, vehicles: 4 }]);
    expect(rollupCompanies([], new Map(), null)).toEqual([]);
    expect(ZERO_COUNTS.count).toBe(0);
  });
});

describe('contrast of two result sets', () => {
  it('lines rows up by key with the change and its percentage, keeping rows only one side has', () => {
    const a = [{ key: 't1', count: 10 }, { key: 't2', count: 4 }];
    const b = [{ key: 't2', count: 6 }, { key: 't3', count: 3 }];
    const rows = contrast(a, b, (r) => r.key);
    expect(rows.map((r) => [r.key, r.countA, r.countB, r.delta, r.percent])).toEqual([
      ['t1', 10, 0, -10, -100], ['t2', 4, 6, 2, 50], ['t3', 0, 3, 3, null],
    ]);
  });

  it('lines two periods’ days up by position', () => {
    const rows = contrast([{ date: '2026-11-01', count: 2 }], [{ date: '2026-11-08', count: 3 }], (_, i) => `#${i}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ countA: 2, countB: 3, delta: 1, percent: 50 });
  });

  it('rounds the percentage to one decimal and has none without a base', () => {
    expect(deltaPercent(3, 4)).toBe(33.3);
    expect(deltaPercent(0, 0)).toBeNull();
    expect(deltaPercent(5, 5)).toBe(0);
  });
});
