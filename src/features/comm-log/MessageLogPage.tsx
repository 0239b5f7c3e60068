/**
 * 设备消息查询 /monitor/messageLog (issue 17): what terminals sent beyond positions — transparent data
 * (0x0900), e-waybills (0x0701), driver identity (0x0702), upgrade results (0x0108) — one tab per type,
 * decoded, newest first, for one vehicle or every vehicle of the selected company (≤ 7 days a search).
 */
import { Button, Code, Group, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { ResourceTable, type KitColumn } from '../../kit/ResourceTable.tsx';
import { useResourceList } from '../../kit/useResourceList.ts';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { commLogApi, MESSAGE_LOG_ROUTE, MESSAGE_TYPES, type DeviceMessage, type MessageType } from './api.ts';
import { COMM_LOG_NS } from './messages.ts';
import { fmtTime, fromLocalInput, toLocalInput } from './time.ts';

type Row = Omit<DeviceMessage, 'id'> & { key: string; id: number };
const DAY = 86_400_000;

export function MessageLogPage() {
  const t = useT(COMM_LOG_NS);
  const [type, setType] = useState<MessageType>('transparent');
  const [vehicleId, setVehicleId] = useState<number | null>(null);
  const [from, setFrom] = useState(() => toLocalInput(Date.now() - DAY));
  const [to, setTo] = useState(() => toLocalInput(Date.now() + 60_000));
  const [filter, setFilter] = useState<{ vehicleId: number | null; from: number; to: number }>(() => ({ vehicleId: null, from: Date.now() - DAY, to: Date.now() + 60_000 }));

  const list = useResourceList<Row>(MESSAGE_LOG_ROUTE, async (q) => {
    const page = await commLogApi.messages(type, filter.from, filter.to, filter.vehicleId, q.current, q.size);
    return { total: page.total, records: page.records.map((r, i) => ({ ...r, key: r.id, id: (q.current - 1) * q.size + i + 1 })) };
  }, { type, ...filter });

  const columns: KitColumn<Row>[] = [
    { key: 'time', title: t('time'), minWidth: 190, maxWidth: 210, render: (r) => fmtTime(r.time) },
    { key: 'plate', title: t('plate'), minWidth: 100, maxWidth: 160, render: (r) => r.vehiidno ?? r.phone ?? '' },
    { key: 'msg', title: t('msgName'), minWidth: 150, maxWidth: 220, render: (r) => `${r.msgIdHex} ${r.msgName}` },
    {
      key: 'content', title: t('content'), minWidth: 260, maxWidth: 900,
      render: (r) => (r.error
        ? <Text size="sm" c="red">{r.error}</Text>
        : <Stack gap={2}>{r.text !== null && <Text size="sm" data-testid="message-text">{r.text}</Text>}<Code>{JSON.stringify(r.content)}</Code></Stack>),
    },
  ];

  return (
    <Stack p="md" gap="sm">
      <Title order={4}>{t('messageTitle')}</Title>
      <Group align="end" gap="sm">
        <VehicleSelect label={t('vehicle')} placeholder={t('vehiclePick')} value={vehicleId} onChange={(id) => setVehicleId(id)} testId="messagelog-vehicle" w={240} />
        <TextInput type="datetime-local" step={1} label={t('from')} value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={210} />
        <TextInput type="datetime-local" step={1} label={t('to')} value={to} onChange={(e) => setTo(e.currentTarget.value)} w={210} />
        <Button onClick={() => setFilter({ vehicleId, from: fromLocalInput(from), to: fromLocalInput(to) })} data-testid="messagelog-search">{t('search')}</Button>
      </Group>
      <Tabs value={type} onChange={(v) => v && setType(v as MessageType)}>
        <Tabs.List>{MESSAGE_TYPES.map((m) => <Tabs.Tab key={m} value={m} data-testid={`messagelog-tab-${m}`}>{t(`type.${m}`)}</Tabs.Tab>)}</Tabs.List>
      </Tabs>
      <ResourceTable<Row> list={list} columns={columns} label={t('messageTitle')} storeKey={MESSAGE_LOG_ROUTE} rowAttributes={() => ({ 'data-testid': 'messagelog-row' })} />
    </Stack>
  );
}
