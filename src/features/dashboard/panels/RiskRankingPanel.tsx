/** Right: risk ranking — the 5 riskiest vehicles of the last 30 days, scaled 0–100 to one decimal (spec §9). */
import { Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../../i18n/index.ts';
import { dashboardQueries } from '../api.ts';
import { openPanelTarget, Panel, stateOf } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';

export function RiskRankingPanel() {
  const t = useT(DASHBOARD_NS);
  const q = useQuery(dashboardQueries.risk());
  const rows = q.data?.records ?? [];
  return (
    <Panel id="risk" title={t('risk.title')} target="risk" state={stateOf(q, rows.length === 0)} emptyText={t('risk.empty')}>
      <Stack gap={4}>
        {rows.map((r, i) => (
          <div key={r.vehicleId} data-testid="risk-row" data-plate={r.vehiidno} data-score={r.totalScore} style={{ cursor: 'pointer' }} onClick={() => openPanelTarget('risk')}>
            <div style={{ display: 'flex', gap: 8 }}>
              <Text size="xs" fw={700} w={18}>{i + 1}</Text>
              <Text size="xs" style={{ flex: 1 }}>{r.vehiidno}</Text>
              <Text size="xs" fw={600}>{r.totalScore.toFixed(1)}</Text>
            </div>
            <Progress value={r.totalScore} size="xs" color={r.totalScore >= 80 ? 'red' : r.totalScore >= 50 ? 'orange' : 'yellow'} aria-label={`${r.vehiidno} ${r.totalScore}`} />
          </div>
        ))}
      </Stack>
    </Panel>
  );
}
