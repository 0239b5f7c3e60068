/** The period the audit screens send: inclusive epoch-ms bounds, at most 92 days (the server allows 93). */
import { AUDIT_RANGE_DAYS } from '../../../domain/audit/limits.ts';
import { periodProblem, valueTime, type Period } from '../../../domain/period/period.ts';

/** A day under the server's cap: the picker's inclusive minute-end bounds would otherwise cross it. */
export const AUDIT_LIMITS = { maxSpanDays: AUDIT_RANGE_DAYS - 1 } as const;
export const ONLINE_LIMITS = { maxSpanDays: 30 } as const;

/** Bounds of a valid period, undefined while it is not valid (the list keeps the last valid one). */
export function auditBounds(p: Period, limits: { maxSpanDays: number } = AUDIT_LIMITS): { from: number; to: number } | undefined {
  if (periodProblem(p, 'datetime', limits) !== null) return undefined;
  return { from: valueTime(p.start), to: valueTime(p.end) + 59_999 };
}
