import { useState, type ReactNode } from 'react';
import { quickRange, type Period, type PeriodLimits, type QuickRange } from '../../../domain/period/period.ts';
import { PeriodPicker } from './PeriodPicker.tsx';

export interface ListPeriodOptions<B extends object> {
  /** The bounds a valid period sends; undefined while the period is not valid. */
  bounds: (p: Period) => B | undefined;
  limits: PeriodLimits;
  quick: readonly QuickRange[];
  testIds: { start: string; end: string; quick: string };
}

/**
 * The period of a log list (operator log, audit trail, page visits, online duration), shown on the list's title
 * line (`ListPage header`): a date-time period starting as the last 7 days, without field labels. `applied` is
 * what the list searches with: the bounds of the last valid period, so a half-typed or too-long one (the picker
 * says why) leaves the list as it was instead of emptying it.
 */
export function useListPeriod<B extends object>({ bounds, limits, quick, testIds }: ListPeriodOptions<B>): { applied: Partial<B>; picker: ReactNode } {
  const [period, setPeriod] = useState<Period>(() => quickRange('last7Days', new Date(), 'datetime'));
  const [applied, setApplied] = useState<Partial<B>>(() => bounds(period) ?? {});
  const picker = (
    <PeriodPicker
      size="sm"
      value={period}
      labels={{ start: '', end: '' }}
      quick={quick}
      limits={limits}
      testIds={testIds}
      onChange={(p) => {
        setPeriod(p);
        const b = bounds(p);
        if (b) setApplied(b);
      }}
    />
  );
  return { applied, picker };
}
