/**
 * 驾驶室监管 (/operation/cabSupervision, issue 19): supervisions of the selected company (reason, message,
 * vehicles, last send's receipts); 新增监管 (bit 590) from chosen vehicles or from a suggested one (vehicles
 * with at least N driver-state alarms in 7 days, N the system parameter safety.cabSuggestAlarms); a row's
 * detail adds notes (591), sends the message to the cabs (592: a 0x8300 with TTS + display) and shows
 * each vehicle's receipt live: 已发送 → 已应答 on the terminal's 0x0001, or waiting while offline.
 */
import { Alert, Badge, Button, Checkbox, Group, Modal, Paper, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import type { VehicleOption } from '../fleet-pickers/VehicleSelect.tsx';
import { VehiclesPicker } from '../fleet-pickers/VehiclesPicker.tsx';
import { formatTime } from '../system/ui/format.ts';
import {
  CAB_ROUTE, cabApi, DISPLAY_TYPES, REASONS, RECEIPT_STATES, SUPERVISION_VEHICLES_MAX, type DisplayType, type Reason, type ReceiptState, type Supervision,
} from './api.ts';
import { CAB_NS } from './messages.ts';

const POLL_MS = 1000;
export const RECEIPT_COLOR: Record<ReceiptState, string> = { queued: 'gray', sent: 'blue', ok: 'green', failed: 'red', timeout: 'orange', expired: 'yellow' };

function Receipts({ counts }: { counts: Record<ReceiptState, number> }) {
  const t = useT(CAB_NS);
  return <Group gap={4}>{RECEIPT_STATES.filter((s) => (counts[s] ?? 0) > 0).map((s) => <Badge key={s} size="sm" variant="light" color={RECEIPT_COLOR[s]}>{t(`states.${s}`)} {counts[s]}</Badge>)}</Group>;
}

export function CabSupervisionPage() {
  const t = useT(CAB_NS);
  const { companyId } = useCompanySelection();
  const invalidate = useInvalidate(CAB_ROUTE);
  const [reason, setReason] = useState<Reason | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [creating, setCreating] = useState<{ vehicles: VehicleOption[]; reason: Reason | null } | null>(null);
  const suggestions = useQuery({ queryKey: [CAB_ROUTE, 'suggest', companyId], queryFn: cabApi.suggest });
  const columns: KitColumn<Supervision>[] = [
    { key: 'id', title: '#', minWidth: 50, maxWidth: 70, render: (r) => r.id },
    { key: 'reason', title: t('reason'), minWidth: 120, maxWidth: 180, render: (r) => t(`reasons.${r.reason}`) },
    { key: 'target', title: t('target'), minWidth: 140, maxWidth: 260, render: (r) => (r.target === 'company' ? t('targetCompany', { name: r.targetCompanyName ?? '' }) : r.vehicles.slice(0, 3).map((v) => v.vehiidno).join('、') + (r.vehicleCount > 3 ? ` … ${t('targetVehicles', { n: r.vehicleCount })}` : '')) },
    { key: 'message', title: t('message'), minWidth: 200, maxWidth: 420, render: (r) => <Text size="sm" lineClamp={2}>{r.message}</Text> },
    { key: 'lastSend', title: t('lastSend'), minWidth: 160, maxWidth: 300, render: (r) => (r.lastReceipts ? <Receipts counts={r.lastReceipts} /> : <Text size="sm" c="dimmed">{t('notSent')}</Text>) },
    { key: 'records', title: t('records'), minWidth: 60, maxWidth: 80, render: (r) => r.recordCount },
    { key: 'createdByName', title: t('createdBy'), minWidth: 90, maxWidth: 140, render: (r) => r.createdByName },
    { key: 'createTime', title: t('createTime'), minWidth: 130, maxWidth: 170, render: (r) => formatTime(r.createTime) },
  ];
  const sug = suggestions.data;
  return (
    <ListPage<Supervision>
      route={CAB_ROUTE}
      pageId="operation-cab-supervision"
      title={t('title')}
      tree={{}}
      searchPlaceholder={t('search')}
      filters={<Select placeholder={t('allReasons')} clearable value={reason} onChange={(v) => setReason(v as Reason | null)} w={180} data={REASONS.map((r) => ({ value: r, label: t(`reasons.${r}`) }))} data-testid="cab-reason-filter" />}
      fetchPage={(q) => cabApi.page({ current: q.current, size: q.size, keyword: q.keyword || undefined, reason: reason ?? undefined })}
      scope={{ companyId, reason }}
      columns={columns}
      refreshMs={5000}
      toolbar={<Perm route={CAB_ROUTE} button="add"><Button size="xs" onClick={() => setCreating({ vehicles: [], reason: null })} data-testid="cab-create">{t('create')}</Button></Perm>}
      header={sug && (
        <Paper withBorder p={6} data-testid="cab-suggestions">
          <Text size="xs" fw={500}>{t('suggestTitle', { days: sug.days, n: sug.threshold })}</Text>
          {sug.records.length === 0 ? <Text size="xs" c="dimmed">{t('suggestNone')}</Text> : (
            <Group gap={6} mt={4}>
              {sug.records.slice(0, 8).map((s) => (
                <Group key={s.vehicleId} gap={4} data-testid={`cab-suggest-${s.vehicleId}`}>
                  <Badge variant="light" color="red" title={s.lastSupervisedTime ? t('lastSupervised', { time: formatTime(s.lastSupervisedTime) }) : undefined}>{s.vehiidno} · {t(`reasons.${s.reason}`)} {t('alarmsN', { n: s.total })}</Badge>
                  {s.hasDevice && <Perm route={CAB_ROUTE} button="add"><Button size="compact-xs" variant="subtle" onClick={() => setCreating({ vehicles: [{ id: s.vehicleId, plate: s.vehiidno, companyName: s.companyName }], reason: s.reason })}>{t('supervise')}</Button></Perm>}
                </Group>
              ))}
            </Group>
          )}
        </Paper>
      )}
      rowActions={(r) => <Button size="compact-xs" variant="light" onClick={() => setOpen(r.id)} data-testid={`cab-view-${r.id}`}>{t('view')}</Button>}
    >
      <Modal opened={creating !== null} onClose={() => setCreating(null)} size="lg" title={t('createTitle')}>
        {creating && <CreateForm initial={creating} onDone={(id) => { setCreating(null); void invalidate(); void suggestions.refetch(); setOpen(id); }} />}
      </Modal>
      <Modal opened={open !== null} onClose={() => setOpen(null)} size="xl" title={open !== null ? t('detail', { id: open }) : ''}>
        {open !== null && <SupervisionView id={open} onChanged={() => void invalidate()} />}
      </Modal>
    </ListPage>
  );
}

function CreateForm({ initial, onDone }: { initial: { vehicles: VehicleOption[]; reason: Reason | null }; onDone(id: number): void }) {
  const t = useT(CAB_NS);
  const [reason, setReason] = useState<Reason | null>(initial.reason);
  const [message, setMessage] = useState(initial.reason ? t(`defaultMessage.${initial.reason}`) : '');
  const [vehicles, setVehicles] = useState<VehicleOption[]>(initial.vehicles);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pickReason = (r: Reason | null) => {
    // A standard wording for the reason, unless the officer already wrote their own.
    if (r && (message.trim() === '' || REASONS.some((x) => t(`defaultMessage.${x}`) === message))) setMessage(t(`defaultMessage.${r}`));
    setReason(r);
  };
  const save = async () => {
    if (!reason) return setError(t('reasonRequired'));
    if (!message.trim()) return setError(t('messageRequired'));
    if (vehicles.length === 0) return setError(t('vehiclesRequired'));
    setBusy(true);
    setError(null);
    try {
      const s = await cabApi.create({ reason, message: message.trim(), vehicleIds: vehicles.map((v) => v.id) });
      notifications.show({ color: 'green', message: t('created', { id: s.id }) });
      onDone(s.id);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm">
      <Select label={t('reason')} withAsterisk value={reason} onChange={(v) => pickReason(v as Reason | null)} data={REASONS.map((r) => ({ value: r, label: t(`reasons.${r}`) }))} w={260} data-testid="cab-form-reason" />
      <Textarea label={t('message')} withAsterisk placeholder={t('messagePlaceholder')} value={message} onChange={(e) => setMessage(e.currentTarget.value)} autosize minRows={2} maxLength={200} data-testid="cab-form-message" />
      <Text size="sm" fw={500}>{t('vehicles')}</Text>
      <VehiclesPicker value={vehicles} onChange={setVehicles} max={SUPERVISION_VEHICLES_MAX} needsDevice testId="cab-form-vehicles" />
      {error && <Alert color="red" p={6} data-testid="cab-form-error">{error}</Alert>}
      <Group><Button loading={busy} onClick={() => void save()} data-testid="cab-form-save">{t('save')}</Button></Group>
    </Stack>
  );
}

function SupervisionView({ id, onChanged }: { id: number; onChanged(): void }) {
  const t = useT(CAB_NS);
  const qc = useQueryClient();
  const key = [CAB_ROUTE, 'records', id];
  const q = useQuery({
    queryKey: key,
    queryFn: () => cabApi.records(id),
    // Poll while a receipt can still change: sent and waiting for its answer, or queued inside the window.
    refetchInterval: (s) => (s.state.data?.records.some((r) => (r.counts?.sent ?? 0) > 0 || ((r.counts?.queued ?? 0) > 0)) ? POLL_MS : false),
  });
  const [note, setNote] = useState('');
  const [types, setTypes] = useState<DisplayType[]>(['tts', 'display']);
  const [valid, setValid] = useState('1440');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (fn: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      notifications.show({ color: 'green', message: done });
      await qc.invalidateQueries({ queryKey: key });
      onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  if (!q.data) return null;
  const { supervision: s, records } = q.data;
  return (
    <Stack gap="sm" data-testid="cab-detail">
      <Group gap="md">
        <Text size="sm"><b>{t('reason')}：</b>{t(`reasons.${s.reason}`)}</Text>
        <Text size="sm"><b>{t('vehicles')}：</b>{s.vehicles.map((v) => v.vehiidno).join('、')}</Text>
      </Group>
      <Text size="sm"><b>{t('message')}：</b>{s.message}</Text>
      <Perm route={CAB_ROUTE} button="send">
        <Group align="end">
          <Checkbox.Group label={t('sendTypes')} value={types} onChange={(v) => setTypes(v as DisplayType[])}>
            <Group mt={4}>{DISPLAY_TYPES.map((d) => <Checkbox key={d} value={d} label={t(`types.${d}`)} />)}</Group>
          </Checkbox.Group>
          <Select label={t('valid')} value={valid} onChange={(v) => setValid(v ?? '1440')} allowDeselect={false} w={120} data={['60', '1440', '4320'].map((m) => ({ value: m, label: t(`validChoice.${m}`) }))} />
          <Button loading={busy} disabled={types.length === 0} onClick={() => void act(() => cabApi.send(id, types, Number(valid)), t('sent'))} data-testid="cab-send">{t('send')}</Button>
        </Group>
      </Perm>
      <Perm route={CAB_ROUTE} button="record">
        <Group align="end">
          <Textarea style={{ flex: 1 }} label={t('note')} placeholder={t('notePlaceholder')} value={note} onChange={(e) => setNote(e.currentTarget.value)} autosize minRows={1} maxLength={500} data-testid="cab-note" />
          <Button variant="light" loading={busy} onClick={() => (note.trim() ? void act(async () => { await cabApi.addNote(id, note.trim()); setNote(''); }, t('noteAdded')) : setError(t('noteRequired')))} data-testid="cab-note-add">{t('addNote')}</Button>
        </Group>
      </Perm>
      {error && <Alert color="red" p={6} data-testid="cab-detail-error">{error}</Alert>}
      {records.length === 0 ? <Text size="sm" c="dimmed">{t('noRecords')}</Text> : records.map((r) => (
        <Paper key={r.id} withBorder p={8} data-testid={`cab-record-${r.kind}`}>
          <Group gap={6}>
            <Badge size="sm" variant="outline">{r.kind === 'send' ? t('kindSend') : t('kindNote')}</Badge>
            <Text size="xs" c="dimmed">{formatTime(r.createTime)} · {r.createdByName}</Text>
            {r.counts && <Receipts counts={r.counts} />}
          </Group>
          {r.kind === 'note' ? <Text size="sm" mt={4}>{r.content}</Text> : (
            <Table mt={4} withTableBorder>
              <Table.Thead><Table.Tr><Table.Th>{t('plate')}</Table.Th><Table.Th>{t('state')}</Table.Th><Table.Th>{t('updated')}</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>{(r.receipts ?? []).map((x) => (
                <Table.Tr key={x.vehicleId} data-testid={`cab-receipt-${x.vehicleId}`}>
                  <Table.Td>{x.vehiidno}</Table.Td>
                  <Table.Td><Badge size="sm" variant="light" color={RECEIPT_COLOR[x.state]} data-testid={`cab-state-${r.taskId}-${x.vehicleId}`}>{t(`states.${x.state}`)}</Badge></Table.Td>
                  <Table.Td>{formatTime(x.updateTime)}</Table.Td>
                </Table.Tr>
              ))}</Table.Tbody>
            </Table>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
