/** The table columns of each statistics dimension (the first column is the row's label). */
import { Button } from '@mantine/core';
import { useMemo } from 'react';
import type { StatsDimension } from '../../../domain/alarms/stats.ts';
import { useT } from '../../i18n/index.ts';
import type { CompanyRow, DriverRow, StatsRow, TypeRow, VehicleRow } from './api.ts';
import { rowLabel } from './dimension.ts';
import { ALARM_STATS_NS } from './messages.ts';
import type { StatsColumn } from './StatsTable.tsx';

export function useStatsColumns(dim: StatsDimension, { onDrill }: { onDrill?: (row: CompanyRow) => void } = {}): StatsColumn<StatsRow>[] {
  const t = useT(ALARM_STATS_NS);
  return useMemo(() => {
    const own = t('own');
    const labelTitle = { type: t('col.type'), date: t('col.date'), vehicle: t('col.plate'), driver: t('col.driver'), company: t('col.company') }[dim];
    const first: StatsColumn<StatsRow> = { key: 'label', title: labelTitle, render: (r) => rowLabel(dim, r, own), width: '1.6fr' };
    const extra: StatsColumn<StatsRow>[] =
      dim === 'type' ? [{ key: 'group', title: t('col.group'), render: (r) => (r as TypeRow).groupName, width: '1fr' }]
        : dim === 'vehicle' ? [{ key: 'company', title: t('col.company'), render: (r) => (r as VehicleRow).companyName, width: '1.2fr' }]
          : dim === 'driver' ? [
            { key: 'cert', title: t('col.cert'), render: (r) => (r as DriverRow).driverCert || '—', width: '1fr' },
            { key: 'latest', title: t('col.latestVehicle'), render: (r) => (r as DriverRow).vehiidno, width: '1fr' },
          ] : [];
    const counts: StatsColumn<StatsRow>[] = [
      { key: 'count', title: t('col.count'), render: (r) => r.count, width: '90px', align: 'right' },
      { key: 'occurrences', title: t('col.occurrences'), render: (r) => r.occurrences, width: '90px', align: 'right' },
      { key: 'unprocessed', title: t('col.unprocessed'), render: (r) => r.unprocessed, width: '90px', align: 'right' },
      { key: 'vehicles', title: t('col.vehicles'), render: (r) => r.vehicles, width: '90px', align: 'right' },
    ];
    const drill: StatsColumn<StatsRow>[] = dim === 'company' && onDrill ? [{
      key: 'drill', title: t('col.action'), width: '100px',
      render: (r) => {
        const c = r as CompanyRow;
        if (c.own || c.childCount === 0) return null;
        return (
          <Button size="compact-xs" variant="subtle" data-testid="stats-drill" onClick={(e) => { e.stopPropagation(); onDrill(c); }}>{t('drill')}</Button>
        );
      },
    }] : [];
    return [first, ...extra, ...counts, ...drill];
  }, [dim, onDrill, t]);
}
