/** Left: online monitoring (spec §3 stat keys), every 30 s (§4); a click opens /information/vehicle when permitted. */
import { SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../../i18n/index.ts';
import { dashboardQueries } from '../api.ts';
import { Figure, openPanelTarget, Panel, stateOf } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';

const KEYS = ['vehicleTotal', 'vehicleOnline', 'vehicleTodayOnline', 'vehicleRunning', 'vehicleStop', 'vehicleYesterdayRegister', 'riskTotal', 'onlineRate'] as const;

export function OnlinePanel() {
  const t = useT(DASHBOARD_NS);
  const q = useQuery(dashboardQueries.online());
  const d = q.data;
  return (
    <Panel id="online" title={t('online.title')} target="online" state={stateOf(q)}>
      {d ? (
        <SimpleGrid cols={4} spacing={6} verticalSpacing={4}>
          {KEYS.map((k) => (
            <Figure key={k} label={t(`online.${k}`)} value={k === 'onlineRate' ? `${d.onlineRate.toFixed(2)}%` : d[k]} testId={`online-${k}`}
              onClick={() => openPanelTarget(k === 'riskTotal' ? 'alarms' : 'online')} />
          ))}
        </SimpleGrid>
      ) : null}
    </Panel>
  );
}
