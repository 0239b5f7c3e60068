/**
 * Right: yesterday's alarms in the spec's two classic sets (§9) — driver (DMS, the fatigue set) and
 * vehicle (ADAS, the risk set) — as a bar per type with its name beside it (eight long alarm names do
 * not fit under a chart's axis in a side panel). Spec §8: a failure falls back to zero counts.
 */
import { useMemo, useState } from 'react';
import { Progress, ScrollArea, SegmentedControl, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { alarmName } from '../../../../domain/alarms/catalogue.ts';
import { DRIVER_FATIGUE_SET, VEHICLE_RISK_SET } from '../../../../domain/alarms/sources.ts';
import { useLang, useT } from '../../../i18n/index.ts';
import { dashboardQueries, type BehaviourSet } from '../api.ts';
import { openPanelTarget, Panel } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';

export function YesterdayAlarmsPanel() {
  const t = useT(DASHBOARD_NS);
  const lang = useLang();
  const [now] = useState(() => Date.now());
  const q = useQuery(dashboardQueries.yesterday(now));
  const [tab, setTab] = useState<'dms' | 'adas'>('dms');
  const set: BehaviourSet | undefined = useMemo(() => {
    if (q.data) return tab === 'dms' ? q.data.driverFatigue : q.data.vehicleRisk;
    if (!q.isError) return undefined;
    // Spec §8: zero counts of the same types.
    const codes = tab === 'dms' ? DRIVER_FATIGUE_SET : VEHICLE_RISK_SET;
    return { count: 0, records: codes.map((c) => ({ alarmType: c, alarmName: alarmName(c, lang), count: 0 })) };
  }, [q.data, q.isError, tab, lang]);
  const max = Math.max(1, ...(set?.records.map((r) => r.count) ?? []));
  const color = tab === 'dms' ? 'orange' : 'violet';
  return (
    <Panel id="yesterday" title={t('yesterday.title')} target="alarms" state={set ? 'ready' : 'loading'}
      extra={<SegmentedControl size="xs" value={tab} onChange={(v) => setTab(v as 'dms' | 'adas')} data={[{ value: 'dms', label: 'DMS' }, { value: 'adas', label: 'ADAS' }]} data-testid="yesterday-tabs" />}>
      <div style={{ position: 'absolute', inset: 0, display: 'flex', flexDirection: 'column' }}>
        <Text size="xs" c="dimmed" data-testid="yesterday-total" data-tab={tab} data-count={set?.count ?? 0}>{t(`yesterday.${tab}`)} · {t('yesterday.total', { count: set?.count ?? 0 })}</Text>
        <ScrollArea style={{ flex: 1, minHeight: 0 }} type="auto" data-testid="yesterday-chart" data-values={set?.records.map((r) => r.count).join(',') ?? ''}>
          {set?.records.map((r) => (
            <div key={r.alarmType} style={{ marginTop: 4, cursor: 'pointer' }} onClick={() => openPanelTarget('alarms')}>
              <div style={{ display: 'flex', gap: 8 }}>
                <Text size="xs" style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={r.alarmName}>{r.alarmName}</Text>
                <Text size="xs" fw={600}>{r.count}</Text>
              </div>
              <Progress value={(100 * r.count) / max} size="xs" color={color} aria-label={`${r.alarmName} ${r.count}`} />
            </div>
          ))}
        </ScrollArea>
      </div>
    </Panel>
  );
}
