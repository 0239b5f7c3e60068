/**
 * Left: operation — distance and driving time of the 7 days before today (spec §9), driving time in
 * hours to one decimal; a click opens the mileage statistics when permitted.
 */
import { useMemo, useState } from 'react';
import { SegmentedControl, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { hoursOneDecimal } from '../../../../domain/dashboard/rules.ts';
import { useT } from '../../../i18n/index.ts';
import { StatsChart } from '../../alarm-stats/StatsChart.tsx';
import { dashboardQueries } from '../api.ts';
import { openPanelTarget, Panel, stateOf } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';
import { useBoxHeight } from '../use-box-height.ts';

export function MileagePanel() {
  const t = useT(DASHBOARD_NS);
  const q = useQuery(dashboardQueries.mileage());
  const [kind, setKind] = useState<'km' | 'hours'>('km');
  const [box, height] = useBoxHeight<HTMLDivElement>(90);
  const days = q.data;
  // Day of the month only: seven dates side by side in a narrow panel would overlap (the total names the span).
  // A day still being counted is marked "…" (its bar is not a figure yet).
  const labels = useMemo(() => days?.map((d) => `${d._id.slice(8)}${d.pending ? '…' : ''}`) ?? [], [days]);
  const pendingDays = days?.filter((d) => d.pending).length ?? 0;
  const series = useMemo(() => days ? [{
    label: t(`mileage.${kind}`),
    values: days.map((d) => (kind === 'km' ? d.aliveMile : hoursOneDecimal(d.aliveMinutes))),
    color: kind === 'km' ? '#228be6' : '#12b886',
  }] : [], [days, kind, t]);
  const km = days ? Math.round(days.reduce((s, d) => s + d.aliveMile, 0) * 10) / 10 : 0;
  const hours = days ? hoursOneDecimal(days.reduce((s, d) => s + d.aliveMinutes, 0)) : 0;
  return (
    <Panel id="mileage" title={t('mileage.title')} target="mileage" state={stateOf(q)}
      extra={<SegmentedControl size="xs" value={kind} onChange={(v) => setKind(v as 'km' | 'hours')} data={[{ value: 'km', label: 'km' }, { value: 'hours', label: 'h' }]} />}>
      <div style={{ position: 'absolute', inset: 0, display: 'flex', flexDirection: 'column' }}>
        <Text size="xs" c="dimmed" data-testid="mileage-total" data-km={km} data-hours={hours} data-pending={pendingDays}>
          {t('mileage.total', { km, hours })}{pendingDays > 0 ? t('mileage.pending', { days: pendingDays }) : ''}
        </Text>
        <div ref={box} style={{ flex: 1, minHeight: 0 }} data-testid="mileage-chart" data-values={series[0]?.values.join(',') ?? ''}>
          <StatsChart labels={labels} series={series} height={Math.max(90, height - 4)} onPick={() => openPanelTarget('mileage')} />
        </div>
      </div>
    </Panel>
  );
}
