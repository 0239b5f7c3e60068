/**
 * Centre bottom: today's newest alarms. Read from the server (so a reload shows the same list) and read
 * again when the session's push stream brings a new alarm (at most every 2 s), besides every 60 s.
 */
import { useEffect, useMemo } from 'react';
import { Badge } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useT } from '../../../i18n/index.ts';
import type { KitColumn } from '../../../kit/ResourceTable.tsx';
import { RowsTable } from '../../../kit/RowsTable.tsx';
import { acquireLiveStream } from '../../../live/stream/session-stream.ts';
import { dashboardQueries, type RunningAlarm } from '../api.ts';
import { openPanelTarget, Panel, stateOf } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';

/** New pushed alarms are batched: a storm re-reads the list once per 2 s, not once per alarm. */
const PUSH_REFRESH_MS = 2000;
const LEVEL_COLOR: Record<string, string> = { high: 'red', medium: 'orange', low: 'yellow', ordinary: 'gray' };

/** The alarm's time of day on the operator's clock (the header's clock shows the same). */
function hhmmss(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export function RunningAlarmsPanel() {
  const t = useT(DASHBOARD_NS);
  const q = useQuery(dashboardQueries.running());
  const client = useQueryClient();
  useEffect(() => {
    const stream = acquireLiveStream();
    let newest: number | null | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = stream.onAlarmLists((snap) => {
      const id = snap.recent[0]?.id ?? null;
      if (id === newest) return;
      const first = newest === undefined;
      newest = id;
      if (first || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: dashboardQueries.running().queryKey });
        void client.invalidateQueries({ queryKey: dashboardQueries.mapTotals().queryKey });
      }, PUSH_REFRESH_MS);
    });
    return () => {
      off();
      if (timer !== undefined) clearTimeout(timer);
      stream.dispose();
    };
  }, [client]);
  const rows = q.data?.records ?? [];
  const columns = useMemo((): KitColumn<RunningAlarm>[] => [
    { key: 'time', title: t('running.time'), minWidth: 70, maxWidth: 90, render: (a) => hhmmss(a.startTime) },
    { key: 'plate', title: t('risk.plate'), minWidth: 90, maxWidth: 130, render: (a) => a.vehiidno },
    { key: 'type', title: t('running.type'), minWidth: 120, maxWidth: 260, render: (a) => a.alarmName },
    { key: 'level', title: t('running.level'), minWidth: 60, maxWidth: 80, render: (a) => <Badge size="xs" color={LEVEL_COLOR[a.riskLevel] ?? 'gray'}>{t(`level.${a.riskLevel}`)}</Badge> },
  ], [t]);
  return (
    <Panel id="running" title={t('running.title')} target="alarms" state={stateOf(q)}>
      <div style={{ position: 'absolute', inset: 0, display: 'flex', flexDirection: 'column' }}>
        <RowsTable rows={rows} columns={columns} rowKey={(a) => a.id} label={t('running.title')} emptyText={t('running.empty')}
          onRowClick={() => openPanelTarget('alarms')} rowAttributes={(a) => ({ 'data-testid': 'running-row', 'data-alarm-id': a.id })} testId="running-table" />
      </div>
    </Panel>
  );
}
