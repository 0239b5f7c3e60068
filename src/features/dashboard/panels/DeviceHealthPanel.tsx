/**
 * Left: maintenance (spec §3 device ops): devices, occlusion / camera error (t1), camera storage over (t2).
 * Spec §8: when the call fails the panel falls back to zeros (the failure is logged by the query).
 */
import { SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../../i18n/index.ts';
import { dashboardQueries, type DeviceHealth } from '../api.ts';
import { Figure, openPanelTarget, Panel } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';

const ZEROS: DeviceHealth = { deviceCount: 0, t1Count: [{ t1: 0 }], t2Count: [{ t2: 0 }] };

export function DeviceHealthPanel() {
  const t = useT(DASHBOARD_NS);
  const q = useQuery(dashboardQueries.health());
  const d = q.data ?? (q.isError ? ZEROS : undefined);
  const t1 = d?.t1Count[0]?.t1 ?? 0;
  const t2 = d?.t2Count[0]?.t2 ?? 0;
  return (
    <Panel id="health" title={t('health.title')} target="maintenance" state={d ? 'ready' : 'loading'}>
      {d ? (
        <SimpleGrid cols={2} spacing={6} verticalSpacing={4}>
          <Figure label={t('health.deviceCount')} value={d.deviceCount} testId="health-deviceCount" onClick={() => openPanelTarget('maintenance')} />
          <Figure label={t('health.healthy')} value={Math.max(0, d.deviceCount - t1 - t2)} testId="health-healthy" onClick={() => openPanelTarget('deviceOffline')} />
          <Figure label={t('health.t1')} value={t1} testId="health-t1" onClick={() => openPanelTarget('abnormal')} />
          <Figure label={t('health.t2')} value={t2} testId="health-t2" onClick={() => openPanelTarget('abnormal')} />
        </SimpleGrid>
      ) : null}
    </Panel>
  );
}
