/**
 * Centre bottom: online rate of each company under the user's (spec §2: shown only while the fleet is
 * under 10,000 vehicles — the page decides; a wall may place it freely). Every 30 s.
 */
import { Progress, ScrollArea, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../../i18n/index.ts';
import { dashboardQueries } from '../api.ts';
import { Panel, stateOf } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';

export function OnlineRatePanel() {
  const t = useT(DASHBOARD_NS);
  const q = useQuery(dashboardQueries.onlineRate());
  const rows = q.data?.records ?? [];
  return (
    <Panel id="online-rate" title={t('onlineRate.title')} target="online" state={stateOf(q, rows.length === 0)}>
      <ScrollArea h="100%" type="auto">
        {rows.map((r) => (
          <div key={r.companyId} style={{ marginBottom: 6 }} data-testid="online-rate-row" data-company={r.companyName} data-rate={r.onlineRate}>
            <div style={{ display: 'flex', gap: 8 }}>
              <Text size="xs" style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{r.companyName}</Text>
              <Text size="xs" c="dimmed">{r.online}/{r.total}</Text>
              <Text size="xs" fw={600} w={56} ta="right">{r.onlineRate.toFixed(2)}%</Text>
            </div>
            <Progress value={r.onlineRate} size="sm" aria-label={`${r.companyName} ${r.onlineRate}%`} />
          </div>
        ))}
      </ScrollArea>
    </Panel>
  );
}
