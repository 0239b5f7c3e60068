/**
 * The pop-up's OBD buttons: the vehicle's engine as its terminal last reported it over the CAN bus
 * (0x0705; obd = OBD-II of light vehicles, obdLargeVehicle = J1939 of trucks), refreshed every 5 s.
 */
import { Alert, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { formatTime } from './format.ts';
import { fetchObd, type CanProtocol, type ObdReading } from './voice-api.ts';
import { VOICE_NS } from './voice-messages.ts';

const REFRESH_MS = 5000;
const ROWS: readonly [keyof ObdReading, string][] = [
  ['engineRpm', 'rpm'], ['coolantC', '°C'], ['fuelPct', '%'], ['speedKmh', 'km/h'], ['engineLoadPct', '%'], ['engineHours', 'h'],
];

export function ObdPanel({ vehicleId, protocol }: { vehicleId: number; protocol: CanProtocol }) {
  const t = useT(VOICE_NS);
  const [reading, setReading] = useState<ObdReading | null | undefined>(undefined);
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    const load = () =>
      fetchObd(vehicleId, protocol).then(
        (r) => live && (setReading(r.reading), setError('')),
        (e: unknown) => live && setError(isApiError(e) ? e.msg : String(e)),
      );
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [vehicleId, protocol]);

  if (error) return <Alert color="red" data-testid="obd-error">{error}</Alert>;
  if (reading === undefined) return null;
  if (reading === null) return <Text data-testid="obd-none">{t('obd.none')}</Text>;
  const rows = ROWS.filter(([k]) => protocol === 'j1939' || k !== 'engineHours');
  return (
    <div data-testid="obd-panel" data-protocol={protocol}>
      <Table withRowBorders>
        <Table.Tbody>
          {rows.map(([key, unit]) => {
            const v = reading[key] as number | null;
            return (
              <Table.Tr key={key}>
                <Table.Td>{t(`obd.${key}`)}</Table.Td>
                <Table.Td data-testid={`obd-${key}`} data-value={v ?? ''}>{v === null ? t('obd.na') : `${v} ${unit}`}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="xs">{t('obd.updated', { time: formatTime(reading.time) })}</Text>
    </div>
  );
}
