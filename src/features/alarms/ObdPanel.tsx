/**
 * The pop-up's OBD buttons: the vehicle's engine as its terminal last reported it over the CAN bus
 * (0x0705; obd = OBD-II of light vehicles, obdLargeVehicle = J1939 of trucks), refreshed every 5 s
 * (a TanStack Query refetch interval), shown in the kit's RowsTable (reading, value).
 */
import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n/index.ts';
import { resourceKey } from '../../kit/query.ts';
import { RowsTable } from '../../kit/RowsTable.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { formatTime } from './format.ts';
import { fetchObd, type CanProtocol, type ObdReading } from './voice-api.ts';
import { VOICE_NS } from './voice-messages.ts';

const REFRESH_MS = 5000;
type Reading = 'engineRpm' | 'coolantC' | 'fuelPct' | 'speedKmh' | 'engineLoadPct' | 'engineHours';
const READINGS: readonly { key: Reading; unit: string }[] = [
  { key: 'engineRpm', unit: 'rpm' }, { key: 'coolantC', unit: '°C' }, { key: 'fuelPct', unit: '%' }, { key: 'speedKmh', unit: 'km/h' },
  { key: 'engineLoadPct', unit: '%' }, { key: 'engineHours', unit: 'h' },
];

export function ObdPanel({ vehicleId, protocol }: { vehicleId: number; protocol: CanProtocol }) {
  const t = useT(VOICE_NS);
  const query = useQuery({
    queryKey: resourceKey('/global/alarm', 'obd', { vehicleId, protocol }),
    queryFn: () => fetchObd(vehicleId, protocol),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const reading: ObdReading | null | undefined = query.data?.reading;
  if (query.data && reading === null) return <Text data-testid="obd-none">{t('obd.none')}</Text>;
  // Engine hours are a J1939 reading; OBD-II has none.
  const rows = READINGS.filter((r) => protocol === 'j1939' || r.key !== 'engineHours');
  const value = (r: (typeof READINGS)[number]) => (reading ? (reading[r.key] as number | null) : null);
  const columns: KitColumn<(typeof READINGS)[number]>[] = [
    { key: 'reading', title: t('obd.reading'), minWidth: 140, maxWidth: 220, render: (r) => t(`obd.${r.key}`) },
    {
      key: 'value', title: t('obd.value'), minWidth: 100, maxWidth: 160, align: 'right',
      render: (r) => {
        const v = value(r);
        return <span data-testid={`obd-${r.key}`} data-value={v ?? ''}>{v === null ? t('obd.na') : `${v} ${r.unit}`}</span>;
      },
    },
  ];
  return (
    <div data-testid={reading ? 'obd-panel' : undefined} data-protocol={protocol}>
      <RowsTable
        rows={reading ? rows : []}
        columns={columns}
        rowKey={(r) => r.key}
        label={t('obd.reading')}
        loading={query.isPending}
        error={query.isError && !reading ? query.error : undefined}
        onRetry={() => void query.refetch()}
        height={(rows.length + 1) * 36 + 2}
      />
      {reading && <Text size="xs" c="dimmed" mt="xs">{t('obd.updated', { time: formatTime(reading.time) })}</Text>}
    </div>
  );
}
