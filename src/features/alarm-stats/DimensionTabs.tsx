/** The dimension tabs (type, day, vehicle, driver, company) of the statistics and comparison pages. */
import { Tabs } from '@mantine/core';
import { STATS_DIMENSIONS, type StatsDimension } from '../../../domain/alarms/stats.ts';
import { useT } from '../../i18n/index.ts';
import { ALARM_STATS_NS } from './messages.ts';

export function DimensionTabs({ value, onChange, testIdPrefix }: { value: StatsDimension; onChange: (dim: StatsDimension) => void; testIdPrefix: string }) {
  const t = useT(ALARM_STATS_NS);
  return (
    <Tabs value={value} onChange={(v) => v && onChange(v as StatsDimension)}>
      <Tabs.List>
        {STATS_DIMENSIONS.map((d) => <Tabs.Tab key={d} value={d} data-testid={`${testIdPrefix}-${d}`}>{t(`dim.${d}`)}</Tabs.Tab>)}
      </Tabs.List>
    </Tabs>
  );
}
