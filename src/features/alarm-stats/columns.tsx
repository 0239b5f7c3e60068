/** The table columns of each statistics dimension (the first column is the row's label). */
import { Button } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import type { StatsDimension } from '../../../domain/alarms/stats.ts';
import { useT } from '../../i18n/index.ts';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import type { CompanyRow, DriverRow, StatsRow, TypeRow, VehicleRow } from './api.ts';
import { rowLabel } from './dimension.ts';
import { ALARM_STATS_NS } from './messages.ts';

/** Widths (px) of each dimension's label column at 1280: an alarm name, a date, a plate, a driver, a company. */
const LABEL_WIDTH: Record<StatsDimension, { minWidth: number; maxWidth: number }> = {
  type: { minWidth: 160, maxWidth: 280 },
  date: { minWidth: 100, maxWidth: 200 },
  vehicle: { minWidth: 100, maxWidth: 140 },
  driver: { minWidth: 120, maxWidth: 220 },
  company: { minWidth: 160, maxWidth: 300 },
};

/** A column of counts: right-aligned, 80–110 px. */
export function countColumn<R>(key: string, title: ReactNode, render: (row: R) => ReactNode): KitColumn<R> {
  return { key, title, render, minWidth: 80, maxWidth: 110, align: 'right' };
}

export function labelWidth(dim: StatsDimension): { minWidth: number; maxWidth: number } {
  return LABEL_WIDTH[dim];
}

export interface StatsColumns {
  columns: KitColumn<StatsRow>[];
  /** The company tab's 下级 button, pinned right. */
  actions?: { render: (row: StatsRow) => ReactNode; width: number };
}

export function useStatsColumns(dim: StatsDimension, { onDrill }: { onDrill?: (row: CompanyRow) => void } = {}): StatsColumns {
  const t = useT(ALARM_STATS_NS);
  return useMemo(() => {
    const own = t('own');
    const labelTitle = { type: t('col.type'), date: t('col.date'), vehicle: t('col.plate'), driver: t('col.driver'), company: t('col.company') }[dim];
    const first: KitColumn<StatsRow> = { key: 'label', title: labelTitle, render: (r) => rowLabel(dim, r, own), ...LABEL_WIDTH[dim] };
    const extra: KitColumn<StatsRow>[] =
      dim === 'type' ? [{ key: 'group', title: t('col.group'), render: (r) => (r as TypeRow).groupName, minWidth: 110, maxWidth: 200 }]
        : dim === 'vehicle' ? [{ key: 'company', title: t('col.company'), render: (r) => (r as VehicleRow).companyName, minWidth: 120, maxWidth: 240 }]
          : dim === 'driver' ? [
            // An 18-character ID number.
            { key: 'cert', title: t('col.cert'), render: (r) => (r as DriverRow).driverCert || '—', minWidth: 170, maxWidth: 200 },
            { key: 'latest', title: t('col.latestVehicle'), render: (r) => (r as DriverRow).vehiidno, minWidth: 100, maxWidth: 140 },
          ] : [];
    const counts: KitColumn<StatsRow>[] = [
      countColumn('count', t('col.count'), (r) => r.count),
      countColumn('occurrences', t('col.occurrences'), (r) => r.occurrences),
      countColumn('unprocessed', t('col.unprocessed'), (r) => r.unprocessed),
      countColumn('vehicles', t('col.vehicles'), (r) => r.vehicles),
    ];
    const actions = dim === 'company' && onDrill ? {
      width: 100,
      render: (r: StatsRow) => {
        const c = r as CompanyRow;
        if (c.own || c.childCount === 0) return null;
        return (
          <Button size="compact-xs" variant="subtle" data-testid="stats-drill" onClick={(e) => { e.stopPropagation(); onDrill(c); }}>{t('drill')}</Button>
        );
      },
    } : undefined;
    return actions ? { columns: [first, ...extra, ...counts], actions } : { columns: [first, ...extra, ...counts] };
  }, [dim, onDrill, t]);
}
