import { Badge, Button, Checkbox, Drawer, Group, Menu, Modal, NumberInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Perm, usePerm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { faceRecognitionApi, type BoundFace, type DeviceOutcome, type DeviceRow, type RecognitionResult } from './api.ts';
import { LibraryPhoto } from './FacePhoto.tsx';
import { FACE_REC_NS } from './messages.ts';

export const SAMPLE_ROUTE = '/operation/faceRecognitionManagement/deviceSample';
const PUSH_COLOR: Record<string, string> = { none: 'gray', ok: 'green', failed: 'red', offline: 'gray', timeout: 'orange' };

type Dialog =
  | { kind: 'faces'; row: DeviceRow }
  | { kind: 'bind'; row: DeviceRow }
  | { kind: 'status'; row: DeviceRow; answer: Awaited<ReturnType<typeof faceRecognitionApi.getStatus>> }
  | { kind: 'driver'; row: DeviceRow; online: boolean; last: RecognitionResult | null }
  | { kind: 'threshold'; row: DeviceRow };

/**
 * /operation/faceRecognitionManagement/deviceSample: per vehicle terminal, the faces bound to it
 * (library drivers), how many it confirmed holding, the last push and status read, and the driver
 * it identified last. Buttons (each behind its bit): 查看司机 (the bound faces, with 绑定 / 解绑),
 * 添加样本 (push the bound faces, 0x8E11, and show the terminal's answer), 识别 (0x8E10), 获取状态
 * (0x8E12: what the terminal holds), 获取司机, 修改 (bound faces take the current photos), 更新设备
 * (threshold), and 更新状态 for the devices with faces on the page.
 */
export function DeviceSamplePage() {
  const t = useT(FACE_REC_NS);
  const { companyId } = useCompanySelection();
  const invalidate = useInvalidate(SAMPLE_ROUTE);
  const [filter, setFilter] = useState<'bound' | 'pending' | undefined>('bound');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const shown = useRef<DeviceRow[]>([]);

  const pushStateText = (s: string) => t(`push_${s}`);
  const run = async (key: string, work: () => Promise<void>) => {
    setBusy(key);
    try {
      await work();
    } finally {
      setBusy(null);
      await invalidate();
    }
  };
  const outcomes = (devices: DeviceOutcome[]) => {
    for (const d of devices) notifications.show({ color: d.state === 'ok' ? 'green' : 'orange', message: t('pushDone', { plate: d.plate, state: pushStateText(d.state) }) });
  };

  const columns: KitColumn<DeviceRow>[] = [
    {
      key: 'plate', title: t('plate'), minWidth: 110, maxWidth: 160,
      render: (r) => <Stack gap={0}><Text size="sm" fw={500} data-testid="face-device-plate">{r.plate}</Text><Text size="xs" c="dimmed">{r.deviceNo}</Text></Stack>,
    },
    { key: 'online', title: t('online'), minWidth: 64, maxWidth: 80, render: (r) => <Badge size="sm" variant="dot" color={r.online ? 'green' : 'gray'}>{r.online ? t('online') : t('offline')}</Badge> },
    {
      key: 'faces', title: t('faces'), minWidth: 110, maxWidth: 150,
      render: (r) => <Text size="sm" c={r.bound > 0 && r.synced < r.bound ? 'orange' : undefined} data-testid="face-device-count">{t('facesCount', { synced: r.synced, bound: r.bound })}</Text>,
    },
    { key: 'threshold', title: t('threshold'), minWidth: 60, maxWidth: 80, render: (r) => r.threshold },
    {
      key: 'push', title: t('pushState'), minWidth: 130, maxWidth: 200,
      render: (r) => <Stack gap={0}><Badge size="sm" variant="light" color={PUSH_COLOR[r.pushState] ?? 'gray'} data-testid="face-device-push" data-state={r.pushState}>{pushStateText(r.pushState)}</Badge>{r.pushTime !== null && <Text size="xs" c="dimmed">{formatTime(r.pushTime)}</Text>}</Stack>,
    },
    {
      key: 'terminal', title: t('terminalHolds'), minWidth: 130, maxWidth: 200,
      render: (r) => (r.terminalFaces === null ? <Text size="xs" c="dimmed">{t('never')}</Text> : <Text size="xs">{t('terminalHoldsCount', { n: r.terminalFaces.length, time: formatTime(r.statusTime) })}</Text>),
    },
    {
      key: 'driver', title: t('currentDriver'), minWidth: 130, maxWidth: 220,
      render: (r) => (r.lastResult === null ? <Text size="xs" c="dimmed">—</Text> : (
        <Stack gap={0}>
          <Group gap={4}><Text size="sm">{r.lastResult.driverName || t('unknownDriver')}</Text><Badge size="xs" variant="light" color={r.lastResult.result === 'pass' ? 'green' : 'red'}>{t(r.lastResult.result)} {r.lastResult.similarity}</Badge></Group>
          <Text size="xs" c="dimmed">{formatTime(r.lastResult.time)}</Text>
        </Stack>
      )),
    },
    { key: 'company', title: t('company'), minWidth: 110, maxWidth: 200, render: (r) => r.companyName },
  ];

  const rowActions = (r: DeviceRow) => (
    <Group gap={4} wrap="nowrap">
      <Perm route={SAMPLE_ROUTE} button="showDriver">
        <Button size="compact-xs" variant="light" data-testid="face-device-faces" onClick={() => setDialog({ kind: 'faces', row: r })}>{t('showDriver')}</Button>
      </Perm>
      <Perm route={SAMPLE_ROUTE} button="addSample">
        <Button size="compact-xs" variant="light" color="teal" loading={busy === `push-${r.id}`} data-testid="face-device-push-button"
          onClick={() => void run(`push-${r.id}`, async () => outcomes((await faceRecognitionApi.addSample([r.id])).devices))}>{t('addSample')}</Button>
      </Perm>
      <Menu withinPortal position="bottom-end">
        <Menu.Target><Button size="compact-xs" variant="subtle" data-testid="face-device-more" loading={busy?.endsWith(`-${r.id}`) && !busy.startsWith('push')}>{t('more')}</Button></Menu.Target>
        <Menu.Dropdown>
          <Perm route={SAMPLE_ROUTE} button="recognition">
            <Menu.Item data-testid="face-device-recognition" onClick={() => void run(`rec-${r.id}`, async () => {
              const a = await faceRecognitionApi.recognition(r.id);
              notifications.show({ color: a.state === 'ok' ? 'green' : 'orange', message: a.state === 'ok' ? t('recognitionSent', { plate: r.plate }) : t('pushDone', { plate: r.plate, state: pushStateText(a.state) }) });
            })}>{t('recognition')}</Menu.Item>
          </Perm>
          <Perm route={SAMPLE_ROUTE} button="getStatus">
            <Menu.Item data-testid="face-device-status" onClick={() => void run(`status-${r.id}`, async () => setDialog({ kind: 'status', row: r, answer: await faceRecognitionApi.getStatus(r.id) }))}>{t('getStatus')}</Menu.Item>
          </Perm>
          <Perm route={SAMPLE_ROUTE} button="getDriver">
            <Menu.Item data-testid="face-device-driver" onClick={() => void run(`driver-${r.id}`, async () => setDialog({ kind: 'driver', row: r, ...(await faceRecognitionApi.driver(r.id)) }))}>{t('getDriver')}</Menu.Item>
          </Perm>
          <Perm route={SAMPLE_ROUTE} button="update">
            <Menu.Item title={t('updateHint')} data-testid="face-device-update" onClick={() => void run(`update-${r.id}`, async () => {
              const a = await faceRecognitionApi.update([r.id]);
              notifications.show({ message: t('updated', { n: a.changed }) });
            })}>{t('update')}</Menu.Item>
          </Perm>
          <Perm route={SAMPLE_ROUTE} button="updateDevice">
            <Menu.Item data-testid="face-device-threshold" onClick={() => setDialog({ kind: 'threshold', row: r })}>{t('updateDevice')}</Menu.Item>
          </Perm>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );

  return (
    <ListPage<DeviceRow>
      route={SAMPLE_ROUTE}
      pageId="operation-device-sample"
      title={t('deviceTitle')}
      tree={{}}
      searchPlaceholder={t('keywordPlaceholder')}
      filters={
        <Select size="sm" w={150} aria-label={t('faces')} data-testid="face-device-filter" allowDeselect={false}
          data={[{ value: 'all', label: t('filterAll') }, { value: 'bound', label: t('filterBound') }, { value: 'pending', label: t('filterPending') }]}
          value={filter ?? 'all'} onChange={(v) => setFilter(v === 'bound' || v === 'pending' ? v : undefined)} />
      }
      toolbar={
        <Perm route={SAMPLE_ROUTE} button="updateStatus">
          <Button size="sm" variant="default" title={t('updateStatusHint')} loading={busy === 'status-all'} data-testid="face-device-update-status"
            onClick={() => void run('status-all', async () => {
              const ids = shown.current.filter((r) => r.bound > 0).map((r) => r.id).slice(0, 100);
              if (ids.length === 0) return;
              const a = await faceRecognitionApi.updateStatus(ids);
              notifications.show({ message: t('statusDone', { n: a.devices.filter((d) => d.state === 'ok').length }) });
            })}>{t('updateStatus')}</Button>
        </Perm>
      }
      fetchPage={async (q) => {
        const page = await faceRecognitionApi.devices({ current: q.current, size: q.size, keyword: q.keyword || undefined, filter });
        shown.current = page.records;
        return page;
      }}
      scope={{ companyId, filter }}
      columns={columns}
      rowActions={rowActions}
      actionsWidth={210}
    >
      {dialog?.kind === 'faces' && <FacesDrawer row={dialog.row} onClose={() => setDialog(null)} onBind={() => setDialog({ kind: 'bind', row: dialog.row })} changed={() => void invalidate()} />}
      {dialog?.kind === 'bind' && <BindModal row={dialog.row} onClose={() => setDialog({ kind: 'faces', row: dialog.row })} changed={() => void invalidate()} />}
      {dialog?.kind === 'status' && (
        <Modal opened onClose={() => setDialog(null)} title={t('statusTitle', { plate: dialog.row.plate })}>
          <Stack gap="xs" data-testid="face-status-dialog">
            {dialog.answer.held === null ? <Text c="orange">{pushStateText(dialog.answer.state)}</Text> : <Text>{t('statusHeld', { n: dialog.answer.held.length })}</Text>}
            <FaceTable faces={dialog.answer.faces} />
            {dialog.answer.extra.length > 0 && <Text size="sm" c="orange">{t('statusExtra', { ids: dialog.answer.extra.join(', ') })}</Text>}
          </Stack>
        </Modal>
      )}
      {dialog?.kind === 'driver' && (
        <Modal opened onClose={() => setDialog(null)} title={t('driverTitle', { plate: dialog.row.plate })}>
          <Stack gap="xs" data-testid="face-driver-dialog">
            <Badge variant="dot" color={dialog.online ? 'green' : 'gray'}>{dialog.online ? t('online') : t('offline')}</Badge>
            {dialog.last === null ? <Text c="dimmed">{t('noDriverYet')}</Text> : (
              <Group>
                <LibraryPhoto driverId={dialog.last.driverId} name={dialog.last.driverName || dialog.last.reportedName} photoTime={dialog.last.driverPhotoTime} size={72} />
                <Stack gap={0}>
                  <Text fw={500}>{dialog.last.driverName || dialog.last.reportedName || t('unknownDriver')}</Text>
                  <Text size="sm">{t(dialog.last.result)} · {t('score')} {dialog.last.similarity}</Text>
                  <Text size="xs" c="dimmed">{formatTime(dialog.last.time)}</Text>
                </Stack>
              </Group>
            )}
          </Stack>
        </Modal>
      )}
      {dialog?.kind === 'threshold' && <ThresholdModal row={dialog.row} onClose={() => setDialog(null)} changed={() => void invalidate()} />}
    </ListPage>
  );
}

function FaceTable({ faces, onUnbind }: { faces: BoundFace[]; onUnbind?: (f: BoundFace) => void }) {
  const t = useT(FACE_REC_NS);
  if (faces.length === 0) return <Text c="dimmed" size="sm">{t('noFaces')}</Text>;
  return (
    <Table data-testid="face-bound-table">
      <Table.Tbody>
        {faces.map((f) => (
          <Table.Tr key={f.driverId} data-testid="face-bound-row">
            <Table.Td w={56}><LibraryPhoto driverId={f.driverId} name={f.name} photoTime={f.photoTime} size={40} /></Table.Td>
            <Table.Td><Text size="sm">{f.name}</Text><Text size="xs" c="dimmed">{f.certNo}</Text></Table.Td>
            <Table.Td>
              <Badge size="sm" variant="light" color={f.state === 'synced' ? 'green' : 'orange'} data-state={f.state}>{t(f.state)}</Badge>
              {f.onTerminal !== null && <Text size="xs" c={f.onTerminal ? 'dimmed' : 'orange'}>{f.onTerminal ? t('onTerminal') : t('notOnTerminal')}</Text>}
            </Table.Td>
            {onUnbind && (
              <Table.Td w={70}>
                <Perm route={SAMPLE_ROUTE} button="unbind">
                  <Button size="compact-xs" variant="subtle" color="red" data-testid="face-unbind" onClick={() => onUnbind(f)}>{t('unbind')}</Button>
                </Perm>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function FacesDrawer({ row, onClose, onBind, changed }: { row: DeviceRow; onClose: () => void; onBind: () => void; changed: () => void }) {
  const t = useT(FACE_REC_NS);
  const q = useQuery({ queryKey: [SAMPLE_ROUTE, 'faces', row.id], queryFn: () => faceRecognitionApi.faces(row.id) });
  return (
    <Drawer opened onClose={onClose} position="right" size="md" title={t('facesTitle', { plate: row.plate })}>
      <Stack data-testid="face-faces-drawer">
        <Group justify="flex-end">
          <Perm route={SAMPLE_ROUTE} button="bind"><Button size="xs" data-testid="face-bind-open" onClick={onBind}>{t('bind')}</Button></Perm>
        </Group>
        {q.data && <FaceTable faces={q.data.faces} onUnbind={async (f) => { await faceRecognitionApi.unbind(row.id, [f.driverId]); await q.refetch(); changed(); }} />}
      </Stack>
    </Drawer>
  );
}

function BindModal({ row, onClose, changed }: { row: DeviceRow; onClose: () => void; changed: () => void }) {
  const t = useT(FACE_REC_NS);
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const q = useQuery({ queryKey: [SAMPLE_ROUTE, 'candidates', row.id, keyword], queryFn: () => faceRecognitionApi.candidates(row.id, keyword) });
  const canBind = usePerm(SAMPLE_ROUTE, 'bind');
  const save = async () => {
    setSaving(true);
    try {
      await faceRecognitionApi.bind(row.id, picked);
      changed();
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened onClose={onClose} size="lg" title={t('bindTitle', { plate: row.plate })}>
      <Stack data-testid="face-bind-dialog">
        <TextInput placeholder={t('bindSearch')} value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} data-testid="face-bind-search" />
        <Stack gap={4} mah={360} style={{ overflowY: 'auto' }}>
          {(q.data ?? []).map((c) => {
            const usable = c.hasPhoto && c.certNo !== '' && !c.bound;
            return (
              <Checkbox key={c.driverId} disabled={!usable} data-testid="face-bind-candidate"
                label={<Group gap={6}><Text size="sm">{c.name}</Text><Text size="xs" c="dimmed">{c.certNo} · {c.companyName}</Text>
                  {c.bound && <Badge size="xs">{t('alreadyBound')}</Badge>}{!c.hasPhoto && <Badge size="xs" color="gray">{t('noPhoto')}</Badge>}{c.certNo === '' && <Badge size="xs" color="gray">{t('noCert')}</Badge>}</Group>}
                checked={picked.includes(c.driverId)}
                onChange={(e) => setPicked(e.currentTarget.checked ? [...picked, c.driverId] : picked.filter((id) => id !== c.driverId))} />
            );
          })}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('cancel')}</Button>
          <Button disabled={!canBind || picked.length === 0} loading={saving} onClick={() => void save()} data-testid="face-bind-confirm">{t('bind')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ThresholdModal({ row, onClose, changed }: { row: DeviceRow; onClose: () => void; changed: () => void }) {
  const t = useT(FACE_REC_NS);
  const [value, setValue] = useState<number>(row.threshold);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await faceRecognitionApi.updateDevice(row.id, value);
      notifications.show({ message: t('saved') });
      changed();
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('thresholdTitle', { plate: row.plate })}>
      <Stack>
        <NumberInput label={t('threshold')} description={t('thresholdHint')} min={1} max={100} clampBehavior="strict" value={value} onChange={(v) => typeof v === 'number' && setValue(v)} data-testid="face-threshold-input" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('cancel')}</Button>
          <Button loading={saving} onClick={() => void save()} data-testid="face-threshold-save">{t('confirm')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
