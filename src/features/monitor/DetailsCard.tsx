/** The details card of one vehicle, loaded on demand from /service-monitor/monitor/realtime. */
import { useEffect, useState } from 'react';
import { Button, CloseButton, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { fetchRealtime, type RealtimeRecord } from './api.ts';
import { STATE_CSS } from './palette.ts';
import { MONITOR_NS } from './messages.ts';
import { isOnline, type VehicleState } from '../../../domain/vehicle/state.ts';
import { TerminalRegistration } from './TerminalRegistration.tsx';
import { useAddress } from './address.ts';
import { VehicleMenuButton } from './ContextMenu.tsx';
import type { VehicleCommand } from './vehicle-commands.ts';

export interface DetailsCardProps {
  vehicleId: number;
  following: boolean;
  monitored: boolean;
  onClose: () => void;
  onFollow: (follow: boolean) => void;
  onMonitor: () => void;
  /** Online as the live stream knows it (undefined: not known yet). */
  online?: boolean | undefined;
  onCommand?: (kind: VehicleCommand) => void;
}

function time(ms: number | null): string {
  return ms === null ? '–' : new Date(ms).toLocaleString();
}

export function DetailsCard({ vehicleId, following, monitored, onClose, onFollow, onMonitor, online, onCommand }: DetailsCardProps) {
  const t = useT(MONITOR_NS);
  const [loaded, setLoaded] = useState<{ id: number; rec: RealtimeRecord | null; failed: boolean } | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    fetchRealtime(vehicleId, ctrl.signal).then(
      (rec) => setLoaded({ id: vehicleId, rec, failed: false }),
      () => {
        if (!ctrl.signal.aborted) setLoaded({ id: vehicleId, rec: null, failed: true });
      },
    );
    return () => ctrl.abort();
  }, [vehicleId]);
  const current = loaded?.id === vehicleId ? loaded : null;
  const rec = current?.rec ?? null;
  const address = useAddress(rec?.lng, rec?.lat);
  const line = (label: string, value: string) => (
    <Group gap="xs" wrap="nowrap" justify="space-between">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xs" ta="right">
        {value}
      </Text>
    </Group>
  );
  return (
    <Paper shadow="md" p="sm" w={280} withBorder data-testid="details-card">
      <Group justify="space-between" mb={4}>
        <Text fw={600} data-testid="details-plate">{rec?.vehiidno ?? t('details')}</Text>
        <CloseButton onClick={onClose} aria-label={t('close')} />
      </Group>
      {!current ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="xs">{t('loading')}</Text>
        </Group>
      ) : current.failed || !rec ? (
        <Text size="xs" c="red" role="alert">
          {t('loadFailed')}
        </Text>
      ) : (
        <Stack gap={2}>
          <Text size="sm" style={{ color: STATE_CSS[rec.state as VehicleState] }} data-testid="details-state">
            {t(`state.${rec.state}`)}
          </Text>
          {line(t('device'), rec.deviceNo)}
          {line(t('company'), rec.companyName)}
          {line(t('speed'), t('kmh', { v: rec.speed.toFixed(1) }))}
          {line(t('direction'), `${rec.direction}°`)}
          {line(t('altitude'), t('metres', { v: rec.altitude }))}
          {line(t('position'), rec.lng === null || rec.lat === null ? t('noPosition') : `${rec.lng.toFixed(6)}, ${rec.lat.toFixed(6)}`)}
          {address !== null && (
            <Group gap="xs" wrap="nowrap" justify="space-between" data-testid="details-address">
              <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
                {t('address')}
              </Text>
              <Text size="xs" ta="right">
                {address ?? t('loading')}
              </Text>
            </Group>
          )}
          {line(t('gpsTime'), time(rec.gpsTime))}
          {line(t('lastContact'), time(rec.lastContact))}
          {line(t('alarm'), rec.alarm !== 0 ? t('hasAlarm') : t('none'))}
          <TerminalRegistration vehicleId={vehicleId} />
        </Stack>
      )}
      <Group gap="xs" mt="xs">
        <Button size="xs" variant={following ? 'filled' : 'light'} onClick={() => onFollow(!following)}>
          {following ? t('unfollow') : t('follow')}
        </Button>
        <Button size="xs" variant="light" onClick={onMonitor}>
          {monitored ? t('menu.unmonitor') : t('menu.monitor')}
        </Button>
        {onCommand && <VehicleMenuButton online={online ?? (rec ? isOnline(rec.state as VehicleState) : undefined)} onCommand={onCommand} />}
      </Group>
    </Paper>
  );
}
