/**
 * The pop-up's 详情 (issue 13, compact pop-up on the live map): the alarm as the server holds it now
 * (GET /service-safe/alarmInfo/:id, the processing page's right) with its evidence — photos and clips,
 * a small map, the address, live video and track buttons (AlarmEvidence) — without leaving the map.
 */
import { Alert, Loader, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { alarmName } from '../../../../domain/alarms/catalogue.ts';
import { isApiError } from '../../../api/http.ts';
import { useLang, useT } from '../../../i18n/index.ts';
import { fetchAlarm, type Alarm } from '../api.ts';
import { AlarmEvidence } from '../AlarmEvidence.tsx';
import { formatTime } from '../format.ts';
import { ALARMS_NS } from '../messages.ts';
import { POPUP_NS } from './messages.ts';

type State = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; alarm: Alarm };

export function AlarmDetailBody({ alarmId }: { alarmId: number }) {
  const t = useT(POPUP_NS);
  const at = useT(ALARMS_NS);
  const lang = useLang();
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    fetchAlarm(alarmId).then(
      (alarm) => live && setState({ kind: 'ready', alarm }),
      (e: unknown) => live && setState({ kind: 'failed', message: isApiError(e) ? e.msg : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [alarmId]);

  if (state.kind === 'loading') {
    return (
      <Stack align="center" gap={6} p="md" data-testid="popup-detail-loading">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">{t('loading')}</Text>
      </Stack>
    );
  }
  if (state.kind === 'failed') return <Alert color="red" data-testid="popup-detail-failed">{t('failed', { message: state.message })}</Alert>;
  const a = state.alarm;
  const row = (label: string, value: string, testId?: string) => (
    <Table.Tr>
      <Table.Th w={110}>{label}</Table.Th>
      <Table.Td data-testid={testId}>{value}</Table.Td>
    </Table.Tr>
  );
  return (
    <Stack gap="sm" data-testid="popup-detail" data-alarm-id={a.id}>
      <Table withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {row(at('field.plate'), a.vehiidno)}
          {row(at('field.alarmName'), alarmName(a.alarmType, lang))}
          {row(at('field.time'), formatTime(a.startTime))}
          {row(at('field.speed'), at('speedValue', { speed: a.speed }))}
          {row(at('field.status'), at(`status.${a.dealStatus}`), 'popup-detail-status')}
        </Table.Tbody>
      </Table>
      <AlarmEvidence alarm={a} />
    </Stack>
  );
}
