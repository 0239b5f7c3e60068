/**
 * /monitor/photoWall (issue 15; design in ./CONTEXT.md, calls in server/services/photowall/api.md):
 * pick a saved wall (mine first, then the others of the selected company's subtree), watch the latest
 * photo of each vehicle × channel as a grid refreshed every N seconds, snap now (0x8801 to the online
 * terminals), open a photo large, and flag a photo as a violation (报警 → a manual alarm in alarm handling).
 */
import { Alert, Badge, Button, Card, Center, Group, Loader, Modal, Select, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { ConfirmDialog } from '../../kit/ConfirmButton.tsx';
import { errorText } from '../../kit/errors.ts';
import type { MediaItem } from '../media-reports/api.ts';
import { MediaPhoto } from '../media-reports/MediaPhoto.tsx';
import { PhotoViewer } from '../media-reports/PhotoViewer.tsx';
import { formatChinaTime } from '../reports/online-control/period.ts';
import { PHOTO_ALARM_TYPES, photoWallApi, PHOTOWALL_ROUTE, WALL_LIMITS, type PhotoWall, type WallTile } from './api.ts';
import { PHOTOWALL_NS } from './messages.ts';
import { WallForm } from './WallForm.tsx';

const KEY = ['photowall'] as const;

export function PhotoWallPage() {
  const t = useT(PHOTOWALL_NS);
  const client = useQueryClient();
  const mine = useQuery({ queryKey: [...KEY, 'mine'], queryFn: photoWallApi.mine });
  const all = useQuery({ queryKey: [...KEY, 'page'], queryFn: () => photoWallApi.page({ current: 1, size: 100 }) });
  const [picked, setPicked] = useState<number | null>(null);
  const [form, setForm] = useState<{ wall: PhotoWall | null } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [snapping, setSnapping] = useState(false);

  const walls = useMemo(() => {
    const m = mine.data ?? [];
    const others = (all.data?.records ?? []).filter((w) => !m.some((x) => x.id === w.id));
    return { mine: m, others, byId: new Map([...m, ...others].map((w) => [w.id, w])) };
  }, [mine.data, all.data]);
  // The picked wall, else my newest, else any.
  const wall = (picked !== null ? walls.byId.get(picked) : undefined) ?? walls.mine[0] ?? walls.others[0];

  const snaps = useQuery({
    queryKey: [...KEY, 'snaps', wall?.id],
    queryFn: () => photoWallApi.snaps(wall!.id),
    enabled: wall !== undefined,
    refetchInterval: wall ? wall.refreshSeconds * 1000 : false,
  });
  const refreshWalls = () => client.invalidateQueries({ queryKey: KEY });

  const snapNow = async () => {
    if (!wall) return;
    setSnapping(true);
    try {
      const r = await photoWallApi.snapNow(wall.id);
      notifications.show({ color: 'green', message: t('snapDone', r), autoClose: 4000 });
      await snaps.refetch();
    } catch (e) {
      notifications.show({ color: 'red', message: errorText(e), autoClose: 5000 });
    } finally {
      setSnapping(false);
    }
  };

  const options = [
    ...(walls.mine.length ? [{ group: t('picker.mine'), items: walls.mine.map((w) => ({ value: String(w.id), label: w.name })) }] : []),
    ...(walls.others.length ? [{ group: t('picker.others'), items: walls.others.map((w) => ({ value: String(w.id), label: `${w.name} · ${w.createdByName}` })) }] : []),
  ];

  return (
    <Stack p="md" gap="sm" h="100%" style={{ overflow: 'auto' }} data-testid="photowall-page">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={4}>{t('title')}</Title>
          <Select
            aria-label={t('picker.label')}
            placeholder={t('picker.placeholder')}
            data={options}
            value={wall ? String(wall.id) : null}
            onChange={(v) => setPicked(v === null ? null : Number(v))}
            w={260}
            searchable
            allowDeselect={false}
            data-testid="photowall-picker"
          />
          <Perm route={PHOTOWALL_ROUTE} button="create">
            <Button onClick={() => setForm({ wall: null })} data-testid="photowall-create">{t('create')}</Button>
          </Perm>
          {wall && (
            <>
              <Perm route={PHOTOWALL_ROUTE} button="update">
                <Button variant="default" onClick={() => setForm({ wall })} data-testid="photowall-edit">{t('edit')}</Button>
              </Perm>
              <Perm route={PHOTOWALL_ROUTE} button="delete">
                <Button variant="default" color="red" onClick={() => setDeleting(true)} data-testid="photowall-delete">{t('delete')}</Button>
              </Perm>
              <Perm route={PHOTOWALL_ROUTE} button="snap">
                <Button variant="light" loading={snapping} onClick={() => void snapNow()} data-testid="photowall-snap">{t('snapNow')}</Button>
              </Perm>
              <Button variant="subtle" onClick={() => void snaps.refetch()}>{t('refresh')}</Button>
            </>
          )}
        </Group>
        {wall && snaps.data && (
          <Text size="xs" c="dimmed" data-testid="photowall-refreshed">{t('refreshEvery', { n: wall.refreshSeconds, time: formatChinaTime(snaps.data.time) })}</Text>
        )}
      </Group>
      {(mine.error ?? all.error) && <Alert color="red">{errorText(mine.error ?? all.error)}</Alert>}
      {!wall && mine.isSuccess && all.isSuccess && <Text c="dimmed" data-testid="photowall-empty">{t('picker.none')}</Text>}
      {wall && <WallGrid wallId={wall.id} tiles={snaps.data?.tiles} hidden={snaps.data?.hidden ?? 0} loading={snaps.isPending} error={snaps.error}
        onAlarmed={() => void snaps.refetch()} />}
      {form && (
        <WallForm wall={form.wall} onClose={() => setForm(null)} onSaved={(w) => {
          setForm(null);
          setPicked(w.id);
          void refreshWalls();
        }} />
      )}
      {wall && (
        <ConfirmDialog opened={deleting} onClose={() => setDeleting(false)} message={t('deleteConfirm', { name: wall.name })} onConfirm={async () => {
          await photoWallApi.remove([wall.id]);
          setPicked(null);
          notifications.show({ color: 'green', message: t('deleted'), autoClose: 2000 });
          await refreshWalls();
        }} />
      )}
    </Stack>
  );
}

function WallGrid({ wallId, tiles, hidden, loading, error, onAlarmed }: {
  wallId: number; tiles: WallTile[] | undefined; hidden: number; loading: boolean; error: Error | null; onAlarmed: () => void;
}) {
  const t = useT(PHOTOWALL_NS);
  const [viewing, setViewing] = useState<number | null>(null);
  const [flagging, setFlagging] = useState<WallTile | null>(null);
  const photos: MediaItem[] = useMemo(() => (tiles ?? []).flatMap((x) => (x.photo ? [x.photo] : [])), [tiles]);
  if (error) return <Alert color="red">{errorText(error)}</Alert>;
  if (loading || !tiles) return <Center h={200}><Loader /></Center>;
  return (
    <>
      {hidden > 0 && <Text size="xs" c="dimmed">{t('hidden', { n: hidden })}</Text>}
      <SimpleGrid cols={{ base: 2, md: 3, lg: 4, xl: 6 }} spacing="sm" data-testid="photowall-grid">
        {tiles.map((tile) => (
          <Card key={`${tile.vehicleId}:${tile.channel}`} withBorder padding="xs" data-testid="photowall-tile" data-vehicle={tile.vehicleId}
            data-channel={tile.channel} data-media-id={tile.photo?.id ?? ''}>
            {tile.photo
              ? <MediaPhoto url={tile.photo.url} alt={`${tile.vehiidno} ${tile.channel}`} height={140} onClick={() => setViewing(photos.indexOf(tile.photo!))} />
              : <Center h={140} bg="gray.1" style={{ borderRadius: 4 }}><Text size="xs" c="dimmed">{t('tile.noPhoto')}</Text></Center>}
            <Group justify="space-between" mt={6} gap={4} wrap="nowrap">
              <Text fw={600} size="sm" truncate>{tile.vehiidno}</Text>
              <Badge size="xs" color={tile.online ? 'green' : 'gray'}>{tile.online ? t('tile.online') : t('tile.offline')}</Badge>
            </Group>
            <Text size="xs" c="dimmed">{t('tile.channel', { n: tile.channel })}{tile.photo ? ` · ${formatChinaTime(tile.photo.captureTime)}` : ''}</Text>
            {tile.photo && tile.photo.lng !== null && tile.photo.lat !== null && (
              <Text size="xs" c="dimmed">{`${tile.photo.lng.toFixed(5)}, ${tile.photo.lat.toFixed(5)}`}</Text>
            )}
            {tile.photo && (
              tile.photo.alarmId !== null
                ? <Badge mt={4} color="red" variant="light" size="sm" data-testid="photowall-alarmed">{t('tile.alarmed', { id: tile.photo.alarmId })}</Badge>
                : (
                  <Perm route={PHOTOWALL_ROUTE} button="alarm">
                    <Button mt={4} size="compact-xs" color="red" variant="light" onClick={() => setFlagging(tile)} data-testid="photowall-alarm">{t('tile.alarm')}</Button>
                  </Perm>
                )
            )}
          </Card>
        ))}
      </SimpleGrid>
      <PhotoViewer items={photos} index={viewing} onIndex={setViewing} onClose={() => setViewing(null)} />
      {flagging && <AlarmDialog wallId={wallId} tile={flagging} onClose={() => setFlagging(null)} onDone={() => {
        setFlagging(null);
        onAlarmed();
      }} />}
    </>
  );
}

function AlarmDialog({ wallId, tile, onClose, onDone }: { wallId: number; tile: WallTile; onClose: () => void; onDone: () => void }) {
  const t = useT(PHOTOWALL_NS);
  const lang = useLang();
  const [type, setType] = useState<string>(String(PHOTO_ALARM_TYPES[0]));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async () => {
    if (!reason.trim()) {
      setProblem(t('alarm.reasonRequired'));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const r = await photoWallApi.doAlarm({ mediaId: tile.photo!.id, alarmType: Number(type), reason: reason.trim(), wallId });
      notifications.show({ color: 'green', message: t('alarm.done', { id: r.alarmId, name: r.alarmName }), autoClose: 5000 });
      onDone();
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={() => !busy && onClose()} title={t('alarm.title', { plate: tile.vehiidno, channel: tile.channel })}>
      <Stack gap="sm" data-testid="photowall-alarm-dialog">
        <Select label={t('alarm.type')} data={PHOTO_ALARM_TYPES.map((c) => ({ value: String(c), label: alarmName(c, lang) }))} value={type}
          onChange={(v) => v && setType(v)} allowDeselect={false} data-testid="photowall-alarm-type" comboboxProps={{ withinPortal: true }} />
        <Textarea label={t('alarm.reason')} withAsterisk maxLength={WALL_LIMITS.reasonMax} value={reason} onChange={(e) => setReason(e.currentTarget.value)}
          error={problem ?? undefined} data-testid="photowall-alarm-reason" autosize minRows={2} />
        <Group justify="flex-end">
          <Button color="red" loading={busy} onClick={() => void submit()} data-testid="photowall-alarm-submit">{t('alarm.submit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
