import { describe, expect, it } from 'vitest';
import { parseTyped, periodProblem, quickRange, valueTime } from './period.ts';

// Wednesday 2026-11-25 14:30 local time.
const now = new Date(2026, 10, 25, 14, 30);

describe('quick ranges', () => {
  it('are whole local days ending today', () => {
    expect(quickRange('today', now, 'datetime')).toEqual({ start: '2026-11-25T00:00', end: '2026-11-25T23:59' });
    expect(quickRange('yesterday', now, 'datetime')).toEqual({ start: '2026-11-24T00:00', end: '2026-11-24T23:59' });
  });

  // Instants, not local times: report days are China's (UTC+8), whatever zone the browser runs in.
  const china = (y: number, mo: number, d: number, h: number, mi = 0) => new Date(Date.UTC(y, mo, d, h - 8, mi));

  it('in date mode are China days: at 00:30 China time (16:30 UTC the day before) 今天 is already the new day', () => {
    const justAfterMidnight = china(2026, 10, 26, 0, 30);
    expect(justAfterMidnight.toISOString()).toBe('2026-11-25T16:30:00.000Z');
    expect(quickRange('today', justAfterMidnight, 'date')).toEqual({ start: '2026-11-26', end: '2026-11-26' });
    expect(quickRange('yesterday', justAfterMidnight, 'date')).toEqual({ start: '2026-11-25', end: '2026-11-25' });
    expect(quickRange('today', china(2026, 10, 25, 23, 59), 'date')).toEqual({ start: '2026-11-25', end: '2026-11-25' });
    expect(quickRange('last3Days', china(2026, 10, 25, 14, 30), 'date')).toEqual({ start: '2026-11-23', end: '2026-11-25' });
    expect(quickRange('last7Days', china(2026, 10, 25, 14, 30), 'date')).toEqual({ start: '2026-11-19', end: '2026-11-25' });
  });

  it('cover calendar months, across a year boundary too', () => {
    expect(quickRange('thisMonth', china(2026, 10, 25, 14, 30), 'date')).toEqual({ start: '2026-11-01', end: '2026-11-30' });
    expect(quickRange('lastMonth', now, 'datetime')).toEqual({ start: '2026-10-01T00:00', end: '2026-10-31T23:59' });
    expect(quickRange('lastMonth', china(2027, 0, 3, 9), 'date')).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    expect(quickRange('yesterday', china(2027, 2, 1, 9), 'date')).toEqual({ start: '2027-02-28', end: '2027-02-28' });
  });
});

describe('typed periods', () => {
  it('accept the Chinese console format, the native one and a bare date', () => {
    expect(parseTyped('2026-11-25 08:05', 'datetime')).toBe('2026-11-25T08:05');
    expect(parseTyped('2026-11-25T08:05', 'datetime')).toBe('2026-11-25T08:05');
    expect(parseTyped('2026-11-25', 'datetime')).toBe('2026-11-25T00:00');
    expect(parseTyped('2026-11-25 08:05:59', 'date')).toBe('2026-11-25');
  });

  it('refuse what is no real time', () => {
    for (const bad of ['2026-02-30', '2026-11-25 24:00', '11/25/2026, 12:00 AM', '', 'yesterday']) expect(parseTyped(bad, 'datetime')).toBeNull();
    expect(valueTime('')).toBeNaN();
  });
});

describe('period limits', () => {
  it('name a missing end, a reversed order and a span over the screen limit', () => {
    expect(periodProblem({ start: '2026-11-25T00:00', end: '' }, 'datetime')).toEqual({ kind: 'missing' });
    expect(periodProblem({ start: '2026-11-25T10:00', end: '2026-11-25T09:00' }, 'datetime')).toEqual({ kind: 'order' });
    expect(periodProblem({ start: '2026-11-01', end: '2026-11-07' }, 'date', { maxSpanDays: 7 })).toBeNull();
    expect(periodProblem({ start: '2026-11-01', end: '2026-11-08' }, 'date', { maxSpanDays: 7 })).toEqual({ kind: 'span', maxDays: 7 });
    expect(periodProblem({ start: '2026-11-01T00:00', end: '2026-11-08T00:00' }, 'datetime', { maxSpanDays: 7 })).toBeNull();
    expect(periodProblem({ start: '2026-11-01T00:00', end: '2026-11-08T02:00' }, 'datetime', { maxSpanDays: 7 })).toEqual({ kind: 'span', maxDays: 7 });
  });
});
