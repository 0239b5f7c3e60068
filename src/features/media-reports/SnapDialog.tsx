import { Alert, Button, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { mediaApi, type SnapResult } from './api.ts';
import { MediaPhoto } from './MediaPhoto.tsx';
import { MEDIA_NS } from './messages.ts';
import { PhotoViewer } from './PhotoViewer.tsx';

/**
 * The alarm pop-up's photoSnap: asks every camera of the alarm's vehicle for a photo linked to the
 * alarm, waits for the uploads, and shows them (or the server's message, e.g. "capture failed, retry").
 * The request starts from the user's click (`started`), not from a mount effect: the modal may mount its
 * content twice, and each start makes the terminal take real photos.
 */
export function SnapDialog({ vehicleId, alarmId, started }: { vehicleId: number; alarmId?: number; started?: Promise<SnapResult> }) {
  const t = useT(MEDIA_NS);
  const [job, setJob] = useState(() => ({ attempt: 0, request: started ?? mediaApi.photoSnap(vehicleId, alarmId) }));
  const attempt = job.attempt;
  const [state, setState] = useState<{ attempt: number; result: SnapResult | null; error: string | null }>({ attempt: -1, result: null, error: null });
  const [open, setOpen] = useState<number | null>(null);
  const retry = () => {
    const request = mediaApi.photoSnap(vehicleId, alarmId);
    setJob((j) => ({ attempt: j.attempt + 1, request }));
  };

  useEffect(() => {
    let live = true;
    job.request.then(
      (result) => live && setState({ attempt: job.attempt, result, error: null }),
      (e: unknown) => live && setState({ attempt: job.attempt, result: null, error: isApiError(e) ? e.msg : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [job]);

  if (state.attempt !== attempt) {
    return (
      <Group gap="sm" data-testid="snap-progress">
        <Loader size="sm" />
        <Text size="sm">{t('snap.capturing')}</Text>
      </Group>
    );
  }
  if (state.error !== null || !state.result) {
    return (
      <Alert color="red" data-testid="snap-error">
        <Group justify="space-between">
          <Text size="sm">{state.error}</Text>
          <Button size="compact-sm" variant="light" onClick={retry}>{t('snap.retry')}</Button>
        </Group>
      </Alert>
    );
  }
  const { items, channels } = state.result;
  return (
    <Stack gap="xs" data-testid="snap-result">
      <Text size="sm">{t('snap.done', { count: items.length })}</Text>
      {channels.filter((c) => !c.ok).map((c) => (
        <Text key={c.channel} size="xs" c="orange">{t('snap.partial', { channel: c.channel, message: c.message ?? '' })}</Text>
      ))}
      <SimpleGrid cols={2} spacing="xs">
        {items.map((m, i) => (
          <Stack key={m.id} gap={2} data-testid="media-card" data-media-id={m.id} data-channel={m.channel}>
            <MediaPhoto url={m.url} alt={`${m.vehiidno} ${t('channel', { n: m.channel })}`} height={140} onClick={() => setOpen(i)} />
            <Text size="xs" c="dimmed">{t('channel', { n: m.channel })}</Text>
          </Stack>
        ))}
      </SimpleGrid>
      <Button size="compact-sm" variant="light" onClick={retry}>{t('snap.retry')}</Button>
      <PhotoViewer items={items} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />
    </Stack>
  );
}
