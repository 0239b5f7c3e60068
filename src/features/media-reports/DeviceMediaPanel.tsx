import { Alert, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { useT } from '../../i18n/index.ts';
import { problemOf, useProblemText, type Problem } from '../../i18n/problem.ts';
import { formatChinaTime } from '../reports/online-control/period.ts';
import { mediaApi, type MediaItem, type StoredItem } from './api.ts';
import { MediaGrid } from './MediaGrid.tsx';
import { MEDIA_NS } from './messages.ts';
import { PhotoViewer } from './PhotoViewer.tsx';

/** How long the panel looks for requested uploads to arrive, and how often. */
const UPLOAD_WAIT_MS = 30_000;
const UPLOAD_POLL_MS = 1000;
/** The server takes at most 50 ids per upload call. */
const MAX_UPLOAD = 50;

/**
 * Photos kept on the terminal (searchDeviceMedia → 0x8802): search the period, pick some, upload them
 * (uploadDeviceMediaByMediaId → 0x8805) and show them once they arrived (…Result, polled).
 */
export function DeviceMediaPanel({ vehicleId, startTime, endTime, channel, onUploaded }: {
  vehicleId: number; startTime: number; endTime: number; channel?: number; onUploaded: () => void;
}) {
  const t = useT(MEDIA_NS);
  const [items, setItems] = useState<StoredItem[] | null>(null);
  const [picked, setPicked] = useState<ReadonlySet<string | number>>(() => new Set());
  const [busy, setBusy] = useState<'search' | 'upload' | null>(null);
  // Kept as what it means, so a language switch re-renders it (i18n/problem.ts).
  const [problem, setProblem] = useState<Problem | null>(null);
  const error = useProblemText(problem);
  const [arrived, setArrived] = useState<MediaItem[]>([]);
  const [missing, setMissing] = useState<number[]>([]);
  const [open, setOpen] = useState<number | null>(null);

  const run = async (what: 'search' | 'upload', fn: () => Promise<void>) => {
    setBusy(what);
    setProblem(null);
    try {
      await fn();
    } catch (e) {
      setProblem(problemOf(e));
    } finally {
      setBusy(null);
    }
  };

  const search = () => run('search', async () => {
    const r = await mediaApi.searchDevice(vehicleId, { channel, startTime, endTime });
    setItems(r.items);
    setPicked(new Set());
  });

  const upload = () => run('upload', async () => {
    const ids = [...picked].map(Number).slice(0, MAX_UPLOAD);
    await mediaApi.uploadByIds(vehicleId, ids);
    const until = Date.now() + UPLOAD_WAIT_MS;
    let r = await mediaApi.uploadResult(vehicleId, ids);
    while (r.missing.length > 0 && Date.now() < until) {
      setArrived(r.items);
      await new Promise((resolve) => setTimeout(resolve, UPLOAD_POLL_MS));
      r = await mediaApi.uploadResult(vehicleId, ids);
    }
    setArrived(r.items);
    setMissing(r.missing);
    onUploaded();
  });

  const columns: KitColumn<StoredItem>[] = [
    { key: 'mediaId', title: t('device.mediaId'), minWidth: 90, maxWidth: 130, render: (it) => it.mediaId },
    { key: 'channel', title: t('filter.channels'), minWidth: 70, maxWidth: 100, render: (it) => it.channel },
    { key: 'time', title: t('viewer.time'), minWidth: 150, maxWidth: 180, render: (it) => (it.time === null ? '' : formatChinaTime(it.time)) },
    { key: 'event', title: t('viewer.event'), minWidth: 120, maxWidth: 240, render: (it) => it.eventName },
  ];

  return (
    <Stack gap="sm" data-testid="device-media">
      <Group gap="xs">
        <Button size="sm" onClick={() => void search()} loading={busy === 'search'} data-testid="device-search">{t('device.search')}</Button>
        <Button size="sm" variant="light" disabled={picked.size === 0} onClick={() => void upload()} loading={busy === 'upload'} data-testid="device-upload">
          {t('device.upload', { count: Math.min(picked.size, MAX_UPLOAD) })}
        </Button>
      </Group>
      {error !== null && <Alert color="red" data-testid="device-error">{error}</Alert>}
      {busy === 'upload' && <Group gap="xs"><Loader size="xs" /><Text size="sm">{t('device.waiting')}</Text></Group>}
      {missing.length > 0 && <Text size="sm" c="orange">{t('device.missing', { count: missing.length })}</Text>}
      {items !== null && (
        <Box data-testid="device-list">
          <RowsTable
            rows={items} columns={columns} rowKey={(it) => it.mediaId} label={t('device.button')} height={260} emptyText={t('device.empty')}
            selection={{ selected: picked, onChange: setPicked, rowLabel: (it) => String(it.mediaId) }} rowAttributes={() => ({ 'data-testid': 'device-row' })}
          />
        </Box>
      )}
      {arrived.length > 0 && <MediaGrid items={arrived} onOpen={setOpen} />}
      <PhotoViewer items={arrived} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />
    </Stack>
  );
}
