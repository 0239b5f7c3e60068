/**
 * One board item: its fields, the actions its state allows (each behind its button bit), the
 * vehicle's alarms on the item and the action log (who, when, what).
 */
import { Alert, Badge, Button, Group, NumberInput, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { BOARD_ACTION_BUTTON, UNPUSH_MUTE_DEFAULT_MINUTES, UNPUSH_MUTE_MAX_MINUTES, type BoardAction } from '../../../domain/alarms/board.ts';
import { isApiError } from '../../api/http.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { formatTime, fromLocalInput, riskColor, toLocalInput } from '../alarms/format.ts';
import { announceAlarmsHandled } from '../alarms/handled.ts';
import { fetchBoardDetail, runBoardAction, type BoardDetail } from './api.ts';
import { formProblem, NOTE_REQUIRED, stateColor } from './form.ts';
import { BOARD_NS } from './messages.ts';
import { DateTimeField } from '../../kit/period-picker/index.ts';

const ROUTE = '/safeManagement/safetyBoardPage';
/** Button order in the drawer. */
const ACTION_ORDER: readonly BoardAction[] = ['resolve', 'follow', 'continueFollow', 'cancelFollow', 'report', 'unpush'];

export function BoardDetailView({ id, version, onChanged }: { id: number; version: number; onChanged: () => void }) {
  const t = useT(BOARD_NS);
  const [detail, setDetail] = useState<BoardDetail | null>(null);
  const [reload, setReload] = useState(0);
  const [form, setForm] = useState<BoardAction | null>(null);

  useEffect(() => {
    let live = true;
    void fetchBoardDetail(id).then((d) => live && setDetail(d)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id, version, reload]);

  if (!detail) return null;
  const i = detail.item;
  const field = (label: string, value: string, testid?: string) => (
    <Table.Tr>
      <Table.Th w={130}>{label}</Table.Th>
      <Table.Td data-testid={testid}>{value}</Table.Td>
    </Table.Tr>
  );

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
          <Perm key={a} route={ROUTE} button={BOARD_ACTION_BUTTON[a]}>
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
            setReload((n) => n + 1);
            onChanged();
            // Resolve / unpush handle the item's unprocessed alarms: the processing list refreshes them.
            if (closedAlarms > 0) announceAlarmsHandled(detail.alarms.filter((a) => a.dealStatus === 0).map((a) => a.id));
          }}
        />
      )}
      <Text fw={600}>{t('alarms')}</Text>
      {detail.alarms.length === 0 ? (
        <Text size="sm" c="dimmed">{t('alarmsEmpty')}</Text>
      ) : (
        <Table striped data-testid="board-alarms">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alarm.time')}</Table.Th><Table.Th>{t('alarm.name')}</Table.Th><Table.Th>{t('alarm.risk')}</Table.Th><Table.Th>{t('alarm.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {detail.alarms.map((a) => (
              <Table.Tr key={a.id} data-testid="board-alarm-row" data-alarm-id={a.id} data-deal-status={a.dealStatus}>
                <Table.Td>{formatTime(a.startTime)}</Table.Td>
                <Table.Td>{a.alarmName}</Table.Td>
                <Table.Td>{t(`alarmRisk.${a.riskLevel}`, { defaultValue: a.riskLevel })}</Table.Td>
                <Table.Td>{t(`alarmStatus.${a.dealStatus}`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text fw={600}>{t('log')}</Text>
      {detail.log.length === 0 ? (
        <Text size="sm" c="dimmed">{t('logEmpty')}</Text>
      ) : (
        <Table striped data-testid="board-log">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('logField.time')}</Table.Th><Table.Th>{t('logField.user')}</Table.Th><Table.Th>{t('logField.action')}</Table.Th>
              <Table.Th>{t('logField.change')}</Table.Th><Table.Th>{t('logField.note')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {detail.log.map((l) => (
              <Table.Tr key={l.id} data-testid="board-log-row" data-action={l.action}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(l.createTime)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }} data-testid="board-log-user">{l.userId === null ? t('platform') : l.username}</Table.Td>
                <Table.Td>{l.actionName}{l.alarmName ? ` · ${l.alarmName}` : ''}</Table.Td>
                <Table.Td>{l.fromState && l.fromState !== l.toState ? `${t(`state.${l.fromState}`)} → ${t(`state.${l.toState}`)}` : t(`state.${l.toState}`)}</Table.Td>
                <Table.Td data-testid="board-log-note">
                  {l.note}
                  {l.nextFollowTime !== null ? ` (${t('field.nextFollow')} ${formatTime(l.nextFollowTime)})` : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
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
