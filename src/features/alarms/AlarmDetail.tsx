/**
 * One alarm in the processing page's drawer: its fields, confirm (HandleForm) / invalid / typical behind
 * their button bits, the evidence, and the processing log (a kit RowsTable). The alarm and its log are
 * queries under the page's route key, so a handling anywhere (this console, another window, another
 * operator through the push channel) refetches them with the list.
 */
import { Box, Button, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { DealStatus } from '../../../domain/alarms/engine.ts';
import { isApiError } from '../../api/http.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { resourceKey } from '../../kit/query.ts';
import { RowsTable } from '../../kit/RowsTable.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { fetchAlarm, fetchDealLog, invalidAlarm, markTypical, type Alarm, type DealLogEntry } from './api.ts';
import { AlarmEvidence } from './AlarmEvidence.tsx';
import { formatPlace, formatTime, handledOutcome } from './format.ts';
import { HandleForm } from './HandleForm.tsx';
import { ALARMS_NS } from './messages.ts';

export const ALARM_ROUTE = '/safeManagement/alarmProcessingPage';
/** Log rows shown before the log scrolls. */
const LOG_ROWS = 6;

/** The drawer's content for alarm `id`; `onChanged` after an action that no handling signal announces (typical). */
export function AlarmDetail({ id, onChanged }: { id: number; onChanged: () => void }) {
  const alarm = useQuery({ queryKey: resourceKey(ALARM_ROUTE, 'detail', id), queryFn: () => fetchAlarm(id) });
  if (!alarm.data) return null;
  return <AlarmDetailView alarm={alarm.data} onChanged={onChanged} />;
}

function AlarmDetailView({ alarm: a, onChanged }: { alarm: Alarm; onChanged: () => void }) {
  const t = useT(ALARMS_NS);
  const lang = useLang();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const log = useQuery({ queryKey: resourceKey(ALARM_ROUTE, 'log', { id: a.id, state: [a.dealStatus, a.typical, a.dealTime] }), queryFn: () => fetchDealLog(a.id) });
  const subject = t('handle.subject', { plate: a.vehiidno, alarm: alarmName(a.alarmType, lang) });

  const run = async (action: () => Promise<string>, failed: string) => {
    setBusy(true);
    try {
      notifications.show({ color: 'green', title: subject, message: await action() });
      onChanged();
    } catch (e) {
      notifications.show({ color: 'red', title: subject, message: isApiError(e) ? `${failed}: ${e.msg}` : failed });
    } finally {
      setBusy(false);
    }
  };

  // Plain words (issue 13): the alarm is invalid; what the terminal knows only when it matters.
  const invalid = async () => {
    const answer = await invalidAlarm(a.id, '');
    const outcome = handledOutcome(answer.terminalResult);
    if (outcome === 'plain' || outcome === 'notNeeded' || outcome === 'confirmed') return t('page.invalidDone');
    return t('page.invalidDoneWith', { terminal: t(`page.terminal.${outcome}`, { result: answer.terminalResultText }) });
  };

  const field = (label: string, value: string, testid?: string) => (
    <Table.Tr>
      <Table.Th w={120}>{label}</Table.Th>
      <Table.Td data-testid={testid}>{value}</Table.Td>
    </Table.Tr>
  );

  const logColumns: KitColumn<DealLogEntry>[] = [
    { key: 'time', title: t('field.dealTime'), minWidth: 150, maxWidth: 170, render: (l) => formatTime(l.createTime) },
    { key: 'user', title: t('field.dealUser'), minWidth: 84, maxWidth: 140, render: (l) => <span data-testid="alarm-log-user">{l.userId === null ? t('page.logPlatform') : l.username}</span> },
    { key: 'action', title: t('page.action'), minWidth: 72, maxWidth: 120, render: (l) => t(`page.logAction.${l.action}`, { defaultValue: l.action }) },
    { key: 'dealType', title: t('field.dealType'), minWidth: 84, maxWidth: 120, render: (l) => <span data-testid="alarm-log-deal-type">{l.dealType ? t(`dealType.${l.dealType}`) : ''}</span> },
    { key: 'content', title: t('field.dealContent'), minWidth: 120, maxWidth: 280, render: (l) => l.content },
    { key: 'terminal', title: t('page.terminalAnswer'), minWidth: 100, maxWidth: 220, render: (l) => l.terminalResultText },
  ];
  const logRows = log.data ?? [];

  return (
    <Stack gap="sm" data-testid="alarm-detail" data-alarm-id={a.id}>
      <Table withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {field(t('field.plate'), a.vehiidno)}
          {field(t('field.device'), a.devidno)}
          {field(t('field.company'), a.companyName)}
          {field(t('field.alarmName'), alarmName(a.alarmType, lang))}
          {field(t('field.risk'), t(`risk.${a.riskLevel}`, { defaultValue: a.riskLevel }))}
          {field(t('field.time'), formatTime(a.startTime))}
          {field(t('field.endTime'), formatTime(a.endTime))}
          {field(t('field.count'), String(a.count))}
          {field(t('field.place'), formatPlace(a.lng, a.lat))}
          {field(t('field.speed'), t('speedValue', { speed: a.speed }))}
          {field(t('field.source'), t(`source.${a.source}`, { defaultValue: a.source }))}
          {field(t('field.status'), t(`status.${a.dealStatus}`), 'alarm-detail-status')}
          {field(t('field.dealType'), a.dealType ? t(`dealType.${a.dealType}`) : '—')}
          {field(t('field.dealContent'), a.dealContent || '—')}
          {field(t('field.dealUser'), a.dealUsername || '—')}
          {field(t('field.dealTime'), formatTime(a.dealTime))}
          {field(t('field.typical'), a.typical ? t('page.yes') : t('page.no'))}
        </Table.Tbody>
      </Table>
      <Group gap="xs">
        <Perm route={ALARM_ROUTE} button="confirm">
          <Button size="xs" onClick={() => setConfirming(true)} disabled={confirming} data-testid="alarm-confirm">{t('page.confirm')}</Button>
        </Perm>
        <Perm route={ALARM_ROUTE} button="deal">
          <Button size="xs" color="gray" loading={busy} disabled={a.dealStatus === DealStatus.Invalid} onClick={() => void run(invalid, t('page.invalidFailed'))} data-testid="alarm-invalid">
            {t('page.invalid')}
          </Button>
        </Perm>
        <Perm route={ALARM_ROUTE} button="deal">
          <Button
            size="xs"
            variant="light"
            loading={busy}
            onClick={() => void run(async () => (await markTypical([a.id], !a.typical), t('page.typicalDone')), t('page.typicalFailed'))}
            data-testid="alarm-typical"
          >
            {a.typical ? t('page.unmarkTypical') : t('page.markTypical')}
          </Button>
        </Perm>
      </Group>
      {confirming && <HandleForm alarm={a} onDone={() => setConfirming(false)} />}
      <AlarmEvidence alarm={a} />
      <Text fw={600}>{t('page.log')}</Text>
      <Box data-testid="alarm-log">
        <RowsTable
          rows={logRows}
          columns={logColumns}
          rowKey={(l) => l.id}
          label={t('page.log')}
          loading={log.isPending}
          error={log.error ?? undefined}
          onRetry={() => void log.refetch()}
          emptyText={t('page.logEmpty')}
          rowAttributes={(l) => ({ 'data-testid': 'alarm-log-row', 'data-action': l.action })}
          height={(Math.min(Math.max(logRows.length, 1), LOG_ROWS) + 1) * 36 + 2}
        />
      </Box>
    </Stack>
  );
}
