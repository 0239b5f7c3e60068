/**
 * Right: yesterday's alarms in the spec's two classic sets (§9) — driver (DMS, the fatigue set) and
 * vehicle (ADAS, the risk set) — as bars per type. Spec §8: a failure falls back to zero counts.
 */
import { useMemo, useState } from 'react';
import { SegmentedControl, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { alarmName } from '../../../../domain/alarms/catalogue.ts';
import { DRIVER_FATIGUE_SET, VEHICLE_RISK_SET } from '../../../../domain/alarms/sources.ts';
import { useLang, useT } from '../../../i18n/index.ts';
import { StatsChart } from '../../alarm-stats/StatsChart.tsx';
import { dashboardQueries, type BehaviourSet } from '../api.ts';
import { openPanelTarget, Panel } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';
import { useBoxHeight } from '../use-box-height.ts';

export function YesterdayAlarmsPanel() {
  const t = useT(DASHBOARD_NS);
  const lang = useLang();
  const [now] = useState(() => Date.now());
  const q = useQuery(dashboardQueries.yesterday(now));
  const [tab, setTab] = useState<'dms' | 'adas'>('dms');
  const [box, height] = useBoxHeight<HTMLDivElement>(90);
  const set: BehaviourSet | undefined = useMemo(() => {
    if (q.data) return tab === 'dms' ? q.data.driverFatigue : q.data.vehicleRisk;
    if (!q.isError) return undefined;
    // Spec §8: zero counts of the same types.
    const codes = tab === 'dms' ? DRIVER_FATIGUE_SET : VEHICLE_RISK_SET;
    return { count: 0, records: codes.map((c) => ({ alarmType: c, alarmName: alarmName(c, lang), count: 0 })) };
  }, [q.data, q.isError, tab, lang]);
  const labels = useMemo(() => set?.records.map((r) => r.alarmName) ?? [], [set]);
  const series = useMemo(() => (set ? [{ label: t(`yesterday.${tab}`), values: set.records.map((r) => r.count), color: tab === 'dms' ? '#f76707' : '#7048e8' }] : []), [set, tab, t]);
  return (
    <Panel id="yesterday" title={t('yesterday.title')} target="alarms" state={set ? 'ready' : 'loading'}
      extra={<SegmentedControl size="xs" value={tab} onChange={(v) => setTab(v as 'dms' | 'adas')} data={[{ value: 'dms', label: 'DMS' }, { value: 'adas', label: 'ADAS' }]} data-testid="yesterday-tabs" />}>
      <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
        <Text size="xs" c="dimmed" data-testid="yesterday-total" data-tab={tab} data-count={set?.count ?? 0}>{t(`yesterday.${tab}`)} · {t('yesterday.total', { count: set?.count ?? 0 })}</Text>
        <div ref={box} style={{ flex: 1, minHeight: 0 }} data-testid="yesterday-chart" data-values={series[0]?.values.join(',') ?? ''}>
          <StatsChart labels={labels} series={series} height={Math.max(90, height - 4)} onPick={() => openPanelTarget('alarms')} />
        </div>
      </div>
    </Panel>
  );
}
