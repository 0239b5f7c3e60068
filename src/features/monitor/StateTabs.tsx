/**
 * State tabs with counts. The counts are realtimestat's (the server's authoritative figures for the
 * selected company, refreshed every 5 s and when the company changes); the stream's live counts show
 * under them, updated at ≤ 2 Hz.
 */
import { useEffect, useState } from 'react';
import { Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { fetchRealtimeStat, type RealtimeStat } from './api.ts';
import { STATE_TABS, type StateTab } from './monitor-controller.ts';
import type { LiveCounts } from './live-source.ts';
import { MONITOR_NS } from './messages.ts';

export const STAT_REFRESH_MS = 5000;

/** The realtimestat field each tab counts. */
export function statCount(stat: RealtimeStat, tab: StateTab): number {
  switch (tab) {
    case 'all':
      return stat.vehicleTotal;
    case 'online':
      return stat.vehicleOnline;
    case 'driving':
      return stat.vehicleRunning;
    case 'parking':
      return stat.vehicleStop;
    case 'idling':
      return stat.vehicleIdle;
    case 'offline':
      return stat.vehicleOffline;
    case 'neverOnline':
      return stat.vehicleNeverOnline;
  }
}

export function useRealtimeStat(): { stat: RealtimeStat | null; failed: boolean } {
  const { companyId } = useCompanySelection();
  const [stat, setStat] = useState<RealtimeStat | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const ctrl = new AbortController();
    const load = () =>
      fetchRealtimeStat(ctrl.signal).then(
        (s) => {
          setStat(s);
          setFailed(false);
        },
        (e: unknown) => {
          if (!ctrl.signal.aborted && (e as { name?: string }).name !== 'AbortError') setFailed(true);
        },
      );
    void load();
    const timer = setInterval(() => void load(), STAT_REFRESH_MS);
    return () => {
      clearInterval(timer);
      ctrl.abort();
    };
  }, [companyId]);
  return { stat, failed };
}

export interface StateTabsProps {
  tab: StateTab;
  onTab: (tab: StateTab) => void;
  live: LiveCounts | null;
}

export function StateTabs({ tab, onTab, live }: StateTabsProps) {
  const t = useT(MONITOR_NS);
  const { stat, failed } = useRealtimeStat();
  return (
    <Stack gap={4}>
      <Group gap={4} role="tablist" data-testid="state-tabs">
        {STATE_TABS.map((k) => (
          <UnstyledButton
            key={k}
            role="tab"
            aria-selected={tab === k}
            data-tab={k}
            onClick={() => onTab(k)}
            style={{
              padding: '2px 6px',
              borderRadius: 4,
              fontSize: 12,
              background: tab === k ? 'var(--mantine-color-blue-light)' : undefined,
              fontWeight: tab === k ? 600 : 400,
            }}
          >
            {t(`tab.${k}`)}{' '}
            <span data-testid={`count-${k}`}>{stat ? statCount(stat, k) : '–'}</span>
          </UnstyledButton>
        ))}
      </Group>
      <Group gap="xs">
        {stat ? (
          <>
            <Badge variant="light" size="sm">
              {t('onlineRate', { rate: stat.onlineRate })}
            </Badge>
            <Text size="xs" c="dimmed">
              {t('todayOnline', { count: stat.vehicleTodayOnline })}
            </Text>
          </>
        ) : null}
        {failed ? (
          <Text size="xs" c="red" role="alert">
            {t('statsFailed')}
          </Text>
        ) : null}
        {live ? (
          <Text size="xs" c="dimmed" data-testid="live-counts">
            {t('liveCounts', { online: live.online, total: live.total })}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
