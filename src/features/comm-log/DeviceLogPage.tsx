/**
 * 通讯日志查询 /monitor/deviceLog (issue 17): a vehicle's JT/T 808 frames both ways from the gateway's
 * frame log, newest first, server-paged (≤ 24 h per search), filtered by direction and message ids.
 * 详情 opens a row: the wire bytes in hex on the left, the gateway codec's decoding on the right (or why
 * it does not decode). 上传终端日志 (button bit) asks the terminal for its own log (DevLogPanel).
 */
import { Alert, Button, Code, Group, Paper, ScrollArea, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ResourceTable, type KitColumn } from '../../kit/ResourceTable.tsx';
import { useResourceList } from '../../kit/useResourceList.ts';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { commLogApi, DEVICE_LOG_ROUTE, type Frame, type FrameFilter } from './api.ts';
import { DevLogPanel } from './DevLogPanel.tsx';
import { COMM_LOG_NS } from './messages.ts';
import { fmtTime, fromLocalInput, toLocalInput } from './time.ts';
import { vehicleFromUrl } from '../fleet-pickers/url-vehicle.ts';

type Row = Omit<Frame, 'id'> & { key: string; id: number };
const HOUR = 3_600_000;

export function DeviceLogPage() {
  const t = useT(COMM_LOG_NS);
  // Opened from the vehicle menu (通讯日志): that vehicle is chosen.
  const [fromMenu] = useState(() => vehicleFromUrl());
  const [vehicleId, setVehicleId] = useState<number | null>(fromMenu?.id ?? null);
  const [from, setFrom] = useState(() => toLocalInput(Date.now() - HOUR));
  const [to, setTo] = useState(() => toLocalInput(Date.now() + 60_000));
  const [direction, setDirection] = useState<string>('all');
  const [msgIds, setMsgIds] = useState('');
  const [filter, setFilter] = useState<FrameFilter | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState<Row | null>(null);

  const list = useResourceList<Row>(DEVICE_LOG_ROUTE, async (q) => {
    if (!filter) return { records: [], total: 0 };
    const page = await commLogApi.frames(filter, q.current, q.size);
    // The table keys rows by a number; the frame's own id ("day:row") stays as `key`.
    return { total: page.total, records: page.records.map((r, i) => ({ ...r, key: r.id, id: (q.current - 1) * q.size + i + 1 })) };
  }, filter);

  const search = () => {
    const f = fromLocalInput(from), e = fromLocalInput(to);
    if (vehicleId === null) return setProblem(t('noVehicle'));
    setProblem(null);
    setOpen(null);
    setFilter({ vehicleId, from: f, to: e, ...(direction === 'all' ? {} : { direction: direction as 'up' | 'down' }), ...(msgIds.trim() ? { msgIds: msgIds.trim() } : {}) });
  };

  const columns: KitColumn<Row>[] = [
    { key: 'time', title: t('time'), minWidth: 190, maxWidth: 210, render: (r) => fmtTime(r.time) },
    { key: 'direction', title: t('direction'), minWidth: 70, maxWidth: 90, render: (r) => <Text size="sm" c={r.direction === 'up' ? 'teal' : 'blue'}>{r.direction === 'up' ? `↑ ${t('upShort')}` : `↓ ${t('downShort')}`}</Text> },
    { key: 'msgId', title: t('msgId'), minWidth: 90, maxWidth: 100, render: (r) => r.msgIdHex },
    { key: 'msgName', title: t('msgName'), minWidth: 140, maxWidth: 240, render: (r) => <Text size="sm" c={r.error ? 'red' : undefined}>{r.msgName}</Text> },
    { key: 'serial', title: t('serial'), minWidth: 70, maxWidth: 90, render: (r) => r.serial ?? '' },
    { key: 'length', title: t('length'), minWidth: 60, maxWidth: 80, align: 'right', render: (r) => r.length },
    { key: 'hex', title: t('hex'), minWidth: 200, maxWidth: 420, render: (r) => <Text size="xs" ff="monospace" truncate="end">{r.hex}</Text> },
  ];

  return (
    <Stack p="md" gap="sm">
      <Title order={4}>{t('deviceTitle')}</Title>
      <Group align="end" gap="sm" wrap="wrap">
        <VehicleSelect label={t('vehicle')} placeholder={t('vehiclePick')} value={vehicleId} initial={fromMenu ?? undefined} onChange={(id) => setVehicleId(id)} testId="commlog-vehicle" w={240} />
        <TextInput type="datetime-local" step={1} label={t('from')} value={from} onChange={(e) => setFrom(e.currentTarget.value)} data-testid="commlog-from" w={210} />
        <TextInput type="datetime-local" step={1} label={t('to')} value={to} onChange={(e) => setTo(e.currentTarget.value)} data-testid="commlog-to" w={210} />
        <Select label={t('direction')} value={direction} onChange={(v) => setDirection(v ?? 'all')} allowDeselect={false} w={190} data-testid="commlog-direction"
          data={[{ value: 'all', label: t('all') }, { value: 'up', label: t('up') }, { value: 'down', label: t('down') }]} />
        <TextInput label={t('msgIds')} placeholder={t('msgIdsPlaceholder')} value={msgIds} onChange={(e) => setMsgIds(e.currentTarget.value)} w={180} data-testid="commlog-msgids" />
        <Button onClick={search} data-testid="commlog-search">{t('search')}</Button>
        <Perm route={DEVICE_LOG_ROUTE} button="uploadLog"><DevLogPanel vehicleId={vehicleId} /></Perm>
      </Group>
      {problem && <Alert color="red" data-testid="commlog-problem">{problem}</Alert>}
      {filter === null
        ? <Text c="dimmed" size="sm">{t('none')}</Text>
        : <ResourceTable<Row> list={list} columns={columns} label={t('deviceTitle')} storeKey={DEVICE_LOG_ROUTE}
            rowAttributes={(r) => ({ 'data-testid': 'commlog-row', 'data-msgid': r.msgIdHex, 'data-direction': r.direction })}
            actions={{ width: 80, render: (r) => <Button size="compact-xs" variant="subtle" onClick={() => setOpen(open?.key === r.key ? null : r)} data-testid="commlog-detail">{open?.key === r.key ? t('hide') : t('detail')}</Button> }} />}
      {open && <FrameDetail frame={open} />}
    </Stack>
  );
}

/** One frame opened: wire hex left, decoded JSON right. */
function FrameDetail({ frame }: { frame: Row }) {
  const t = useT(COMM_LOG_NS);
  const hex = frame.hex.replace(/(..)/g, '$1 ').trim();
  return (
    <Paper withBorder p="sm" data-testid="commlog-open" data-msgid={frame.msgIdHex}>
      <Text fw={600} mb="xs">{fmtTime(frame.time)} · {frame.direction === 'up' ? '↑' : '↓'} {frame.msgIdHex} {frame.msgName} · {frame.vehiidno ?? frame.phone ?? ''}</Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap={4}>
          <Text size="sm" c="dimmed">{t('hex')} · {frame.length} B</Text>
          <ScrollArea.Autosize mah={360}><Code block data-testid="commlog-hex" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{hex}</Code></ScrollArea.Autosize>
        </Stack>
        <Stack gap={4}>
          <Text size="sm" c="dimmed">{t('decoded')}</Text>
          {frame.error && <Alert color="orange" p="xs" data-testid="commlog-error">{t('decodeError', { error: frame.error })}</Alert>}
          <ScrollArea.Autosize mah={360}><Code block data-testid="commlog-decoded">{JSON.stringify(frame.decoded, null, 2)}</Code></ScrollArea.Autosize>
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}
