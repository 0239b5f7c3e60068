/**
 * One board item: its fields, the actions its state allows (each behind its button bit), the
 * vehicle's alarms on the item and the action log (who, when, what), both kit RowsTables. The item is
 * a query under the board's route key: every handling and board step anywhere refetches it.
 */
import { Alert, Badge, Box, Button, Group, NumberInput, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BOARD_ACTION_BUTTON, UNPUSH_MUTE_DEFAULT_MINUTES, UNPUSH_MUTE_MAX_MINUTES, type BoardAction } from '../../../domain/alarms/board.ts';
import { isApiError } from '../../api/http.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { useInvalidate } from '../../kit/ListPage.tsx';
import { resourceKey } from '../../kit/query.ts';
import { RowsTable } from '../../kit/RowsTable.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import type { Alarm } from '../alarms/api.ts';
import { formatTime, fromLocalInput, riskColor, toLocalInput } from '../alarms/format.ts';
import { announceAlarmsHandled } from '../alarms/handled.ts';
import { BOARD_ROUTE, fetchBoardDetail, runBoardAction, type BoardLogEntry } from './api.ts';
import { formProblem, NOTE_REQUIRED, stateColor } from './form.ts';
import { BOARD_NS } from './messages.ts';
import { DateTimeField } from '../../kit/period-picker/index.ts';

/** Button order in the drawer. */
const ACTION_ORDER: readonly BoardAction[] = ['resolve', 'follow', 'continueFollow', 'cancelFollow', 'report', 'unpush'];
/** Rows a drawer table shows before it scrolls. */
const SHOWN_ROWS = 6;
const shownHeight = (rows: number) => (Math.min(Math.max(rows, 1), SHOWN_ROWS) + 1) * 36 + 2;

export function BoardDetailView({ id }: { id: number }) {
  const t = useT(BOARD_NS);
  const [form, setForm] = useState<BoardAction | null>(null);
  const invalidate = useInvalidate(BOARD_ROUTE);
  const query = useQuery({ queryKey: resourceKey(BOARD_ROUTE, 'detail', id), queryFn: () => fetchBoardDetail(id) });
  const detail = query.data;

  if (!detail) return null;
  const i = detail.item;
  const field = (label: string, value: string, testid?: string) => (
    <Table.Tr>
      <Table.Th w={130}>{label}</Table.Th>
      <Table.Td data-testid={testid}>{value}</Table.Td>
    </Table.Tr>
  );
  const alarmColumns: KitColumn<Alarm>[] = [
    { key: 'time', title: t('alarm.time'), minWidth: 150, maxWidth: 170, render: (a) => formatTime(a.startTime) },
    { key: 'name', title: t('alarm.name'), minWidth: 120, maxWidth: 240, render: (a) => a.alarmName },
    { key: 'risk', title: t('alarm.risk'), minWidth: 72, maxWidth: 96, render: (a) => t(`alarmRisk.${a.riskLevel}`, { defaultValue: a.riskLevel }) },
    { key: 'status', title: t('alarm.status'), minWidth: 90, maxWidth: 120, render: (a) => t(`alarmStatus.${a.dealStatus}`) },
  ];
  const logColumns: KitColumn<BoardLogEntry>[] = [
    { key: 'time', title: t('logField.time'), minWidth: 150, maxWidth: 170, render: (l) => formatTime(l.createTime) },
    { key: 'user', title: t('logField.user'), minWidth: 84, maxWidth: 140, render: (l) => <span data-testid="board-log-user">{l.userId === null ? t('platform') : l.username}</span> },
    { key: 'action', title: t('logField.action'), minWidth: 100, maxWidth: 220, render: (l) => `${l.actionName}${l.alarmName ? ` · ${l.alarmName}` : ''}` },
    {
      key: 'change', title: t('logField.change'), minWidth: 100, maxWidth: 180,
      render: (l) => (l.fromState && l.fromState !== l.toState ? `${t(`state.${l.fromState}`)} → ${t(`state.${l.toState}`)}` : t(`state.${l.toState}`)),
    },
    {
      key: 'note', title: t('logField.note'), minWidth: 140, maxWidth: 320,
      render: (l) => <span data-testid="board-log-note">{l.note}{l.nextFollowTime !== null ? ` (${t('field.nextFollow')} ${formatTime(l.nextFollowTime)})` : ''}</span>,
    },
  ];

  return (
    <Stack gap="sm" data-testid="board-detail" data-item-id={i.id} data-state={i.state}>
      <Group gap="xs">
        <Text fw={700}>{i.vehiidno}</Text>
        <Badge color={stateColor(i.state)} data-testid="board-detail-state">{t(`state.${i.state}`)}</Badge>
        <Badge color={riskColor(i.riskLevel)}>{t(`risk.${i.riskLevel}`)}</Badge>
        {i.overdue && <Badge color="red" variant="filled">{t('overdueBadge')}</Badge>}
      </Group>
      <Table withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {field(t('field.company'), i.companyName)}
          {field(t('field.device'), i.devidno)}
          {field(t('field.alarms'), String(i.alarmCount), 'board-detail-count')}
          {field(t('field.firstTime'), formatTime(i.firstAlarmTime))}
          {field(t('field.lastTime'), formatTime(i.lastAlarmTime))}
          {field(t('field.nextFollow'), formatTime(i.nextFollowTime), 'board-detail-next-follow')}
          {field(t('field.followCount'), String(i.followCount))}
          {field(t('field.reportTime'), formatTime(i.reportTime))}
          {field(t('field.closeTime'), formatTime(i.closeTime))}
          {i.muteUntil !== null && field(t('field.muteUntil'), formatTime(i.muteUntil))}
          {field(t('field.handler'), i.handlerName || '—')}
          {field(t('field.note'), i.note || '—')}
        </Table.Tbody>
      </Table>
      <Group gap="xs">
        {ACTION_ORDER.filter((a) => i.actions.includes(a)).map((a) => (
          <Perm key={a} route={BOARD_ROUTE} button={BOARD_ACTION_BUTTON[a]}>
            <Button
              size="xs"
              variant={form === a ? 'filled' : 'light'}
              color={a === 'resolve' ? 'green' : a === 'unpush' ? 'gray' : a === 'report' ? 'grape' : 'blue'}
              onClick={() => setForm(form === a ? null : a)}
              data-testid={`board-action-${a}`}
            >
              {t(`button.${a}`)}
            </Button>
          </Perm>
        ))}
      </Group>
      {form && (
        <ActionForm
          key={form}
          action={form}
          itemId={i.id}
          onCancel={() => setForm(null)}
          onDone={(closedAlarms) => {
            setForm(null);
            void invalidate();
            // Resolve / unpush handle the item's unprocessed alarms: this console's other windows refresh them.
            if (closedAlarms > 0) announceAlarmsHandled(detail.alarms.filter((a) => a.dealStatus === 0).map((a) => a.id));
          }}
        />
      )}
      <Text fw={600}>{t('alarms')}</Text>
      <Box data-testid="board-alarms">
        <RowsTable
          rows={detail.alarms}
          columns={alarmColumns}
          rowKey={(a) => a.id}
          label={t('alarms')}
          emptyText={t('alarmsEmpty')}
          rowAttributes={(a) => ({ 'data-testid': 'board-alarm-row', 'data-alarm-id': a.id, 'data-deal-status': a.dealStatus })}
          height={shownHeight(detail.alarms.length)}
        />
      </Box>
      <Text fw={600}>{t('log')}</Text>
      <Box data-testid="board-log">
        <RowsTable
          rows={detail.log}
          columns={logColumns}
          rowKey={(l) => l.id}
          label={t('log')}
          emptyText={t('logEmpty')}
          rowAttributes={(l) => ({ 'data-testid': 'board-log-row', 'data-action': l.action })}
          height={shownHeight(detail.log.length)}
        />
      </Box>
    </Stack>
  );
}

function ActionForm({ action, itemId, onCancel, onDone }: { action: BoardAction; itemId: number; onCancel: () => void; onDone: (closedAlarms: number) => void }) {
  const t = useT(BOARD_NS);
  const [note, setNote] = useState('');
  const [next, setNext] = useState(() => toLocalInput(Date.now() + 3_600_000));
  const [mute, setMute] = useState<number | string>(UNPUSH_MUTE_DEFAULT_MINUTES);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const needsTime = action === 'follow' || action === 'continueFollow';

  const submit = async () => {
    const nextFollowTime = needsTime ? fromLocalInput(next) : undefined;
    const p = formProblem(action, note, nextFollowTime, Date.now());
    if (p) {
      setProblem(t(`form.${p}`));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const r = await runBoardAction(action, itemId, {
        note: note.trim() || undefined, nextFollowTime, muteMinutes: action === 'unpush' ? Number(mute) : undefined,
      });
      notifications.show({ color: 'green', message: t(`done.${action}`, { count: r.closedAlarms }) });
      onDone(r.closedAlarms);
    } catch (e) {
      const failed = t(`failed.${action}`);
      setProblem(isApiError(e) ? `${failed}: ${e.msg}` : failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }} data-testid="board-action-form" data-action={action}>
      <Textarea
        label={t('form.note')}
        placeholder={t('form.notePlaceholder')}
        withAsterisk={NOTE_REQUIRED.has(action)}
        maxLength={500}
        autosize
        minRows={2}
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        data-testid="board-form-note"
      />
      {needsTime && (
        <DateTimeField withAsterisk label={t('form.nextFollow')} value={next} onChange={setNext} data-testid="board-form-next" />
      )}
      {action === 'unpush' && (
        <NumberInput label={t('form.muteMinutes')} description={t('form.muteHint')} min={0} max={UNPUSH_MUTE_MAX_MINUTES} allowDecimal={false} value={mute} onChange={setMute} data-testid="board-form-mute" />
      )}
      {problem && <Alert color="red" data-testid="board-form-problem">{problem}</Alert>}
      <Group gap="xs">
        <Button size="xs" loading={busy} onClick={() => void submit()} data-testid="board-form-submit">{t('form.submit')}</Button>
        <Button size="xs" variant="default" onClick={onCancel}>{t('form.cancel')}</Button>
      </Group>
    </Stack>
  );
}
