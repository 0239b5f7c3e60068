import { describe, expect, it } from 'vitest';
import { chinaDayStartMs, DAY_MS } from '../track/days.ts';
import { retentionCutoffs, rollupsOutlivePositions } from './policy.ts';

const policy = { positionDays: 180, alarmDays: 1095, logDays: 90, reportDays: 1095, tokenTtlSeconds: 8 * 3600 };

describe('retention cutoffs', () => {
  // 2026-11-25 01:30 China time = 2026-11-24 17:30 UTC: the China day differs from the UTC day.
  const now = Date.UTC(2026, 10, 24, 17, 30);

  it('cuts positions at a China midnight, keeping the last N whole days and today', () => {
    const c = retentionCutoffs(now, policy);
    // 180 days before 2026-11-25 (China) is 2026-05-29: its first instant (UTC 16:00 the day before) is the first kept.
    expect(c.positionBefore).toBe(Date.UTC(2026, 4, 28, 16, 0));
    expect(c.positionBefore).toBe(chinaDayStartMs(c.positionDay!));
    expect(c.reportDate).toBe('2023-11-26');
  });

  it('cuts alarms and logs at the instant N × 24 h ago', () => {
    const c = retentionCutoffs(now, policy);
    expect(c.alarmBefore).toBe(now - 1095 * DAY_MS);
    expect(c.logBefore).toBe(now - 90 * DAY_MS);
  });

  it('never deletes a session a token could still use, whatever LOG_RETENTION_DAYS says', () => {
    const c = retentionCutoffs(now, { ...policy, logDays: 1, tokenTtlSeconds: 30 * 24 * 3600 });
    expect(c.logBefore).toBe(now - DAY_MS);
    expect(c.sessionBefore).toBe(now - 31 * DAY_MS);
  });

  it('keeps everything of a kind set to 0 days', () => {
    const c = retentionCutoffs(now, { positionDays: 0, alarmDays: 0, logDays: 0, reportDays: 0, tokenTtlSeconds: 3600 });
    expect(c).toEqual({ positionDay: null, positionBefore: null, reportDay: null, reportDate: null, alarmBefore: null, logBefore: null, sessionBefore: null });
  });

  it('computes rollups before deleting positions only when the reports keep days longer', () => {
    expect(rollupsOutlivePositions({ positionDays: 180, reportDays: 1095 })).toBe(true);
    expect(rollupsOutlivePositions({ positionDays: 180, reportDays: 0 })).toBe(true);
    expect(rollupsOutlivePositions({ positionDays: 180, reportDays: 90 })).toBe(false);
    expect(rollupsOutlivePositions({ positionDays: 0, reportDays: 1095 })).toBe(false);
  });
});
