/**
 * One accident as both screens show it: the record, the linked alarms, the photos and uploaded recordings
 * of the vehicle inside the window, a link into track playback around the time, the case as published and
 * its evidence. A case published to the reader's company by another shows the case only (the server sends
 * no alarms, media or track for it).
 */
import { Anchor, Badge, Button, Drawer, Group, Image, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { label } from '../../../domain/accidents/rules.ts';
import { http } from '../../api/http.ts';
import { Perm } from '../../app/Perm.tsx';
import { navigateHref } from '../../app/navigate.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { useSessionImage } from '../shared/useSessionImage.ts';
import { formatTime } from '../system/ui/format.ts';
import { accidentApi, PUBLICITY_ROUTE, type EvidenceFile } from './api.ts';
import { ACCIDENTS_NS } from './messages.ts';

const loadMedia = (id: number) => http.export(`/service-priv/media/file/${id}`, {}, { noCompanyId: true, silent: true });

function Photo({ id }: { id: number }) {
  const src = useSessionImage(loadMedia, [id]);
  return src ? <Image src={src} w={160} h={90} fit="cover" radius="sm" /> : <Text size="xs" c="dimmed">…</Text>;
}

async function openFile(f: EvidenceFile) {
  try {
    const { blob } = await accidentApi.file(f.id);
    const url = URL.createObjectURL(blob);
    window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (e) {
    notifications.show({ color: 'red', message: errorText(e) });
  }
}

export function AccidentDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const t = useT(ACCIDENTS_NS);
  const lang = useLang();
  const q = useQuery({ queryKey: ['accident-detail', id], queryFn: () => accidentApi.detail(id) });
  const a = q.data;
  const removeFile = (f: EvidenceFile) => modals.openConfirmModal({
    title: t('removeFile'), children: <Text size="sm">{t('removeFileConfirm', { name: f.fileName })}</Text>,
    labels: { confirm: t('removeFile'), cancel: '×' }, confirmProps: { color: 'red' },
    onConfirm: () => void accidentApi.removeFile(f.id).then(() => q.refetch(), (e: unknown) => notifications.show({ color: 'red', message: errorText(e) })),
  });
  const field = (name: string, value: React.ReactNode) => (<div><Text size="xs" c="dimmed">{name}</Text><Text size="sm">{value || '—'}</Text></div>);
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={a ? t('detailTitle', { plate: a.plate }) : '…'}>
      {q.error && <Text c="red">{errorText(q.error)}</Text>}
      {a && (
        <Stack gap="md" data-testid="accident-detail">
          <Group gap="xs">
            <Badge color={a.level === 'minor' ? 'gray' : a.level === 'ordinary' ? 'yellow' : 'red'}>{label('level', a.level, lang)}</Badge>
            <Badge variant="light">{label('type', a.type, lang)}</Badge>
            <Badge variant="outline">{label('state', a.state, lang)}</Badge>
            {a.published && <Badge color="green">{t('published')}</Badge>}
          </Group>
          <SimpleGrid cols={3} spacing="xs">
            {field(t('time'), formatTime(a.time))}
            {field(t('company'), a.companyName)}
            {field(t('driver'), a.driverName)}
            {field(t('place'), `${a.place}（${a.lng.toFixed(5)}, ${a.lat.toFixed(5)}）`)}
            {field(t('vin'), a.vin)}
            {field(t('frameNo'), a.frameNo)}
            {field(t('casualties'), `${t('lightInjuries')} ${a.lightInjuries} · ${t('seriousInjuries')} ${a.seriousInjuries} · ${t('deaths')} ${a.deaths}`)}
            {field(t('propertyLoss'), a.propertyLoss.toLocaleString())}
            {field(t('responsibility'), label('responsibility', a.responsibility, lang))}
            {field(t('sourceProject'), a.sourceProject)}
            {field(t('createdBy'), `${a.createdByName} ${formatTime(a.createTime)}`)}
          </SimpleGrid>
          {field(t('description'), a.description)}
          {a.own && (
            <>
              <Title order={6}>{t('alarms')}</Title>
              <Table withTableBorder data-testid="accident-linked-alarms">
                <Table.Thead><Table.Tr><Table.Th>{t('alarmTime')}</Table.Th><Table.Th>{t('alarmName')}</Table.Th><Table.Th>{t('speed')}</Table.Th><Table.Th>{t('driver')}</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {a.alarms.length === 0 && <Table.Tr><Table.Td colSpan={4}><Text size="sm" c="dimmed">{t('noAlarms')}</Text></Table.Td></Table.Tr>}
                  {a.alarms.map((x) => <Table.Tr key={x.id}><Table.Td>{formatTime(x.startTime)}</Table.Td><Table.Td>{x.alarmName}</Table.Td><Table.Td>{Math.round(x.speed)}</Table.Td><Table.Td>{x.driverName}</Table.Td></Table.Tr>)}
                </Table.Tbody>
              </Table>
              {a.track && (
                <Group gap="xs">
                  <Text fw={500} size="sm">{t('track')}</Text>
                  <Anchor size="sm" data-testid="accident-track" onClick={() => {
                    const p = new URLSearchParams({ vehicleId: String(a.track!.vehicleId), startTime: String(a.track!.startTime), endTime: String(a.track!.endTime), plate: a.track!.plate });
                    void navigateHref(`/monitor/trackPlaybackPage?${p.toString()}`);
                  }}>{t('trackOpen')}（{formatTime(a.track.startTime)} – {formatTime(a.track.endTime)}）</Anchor>
                </Group>
              )}
              <Title order={6}>{t('media')}</Title>
              {a.media.length === 0 ? <Text size="sm" c="dimmed">{t('noMedia')}</Text> : (
                <Group gap="xs">{a.media.slice(0, 12).map((m) => <Stack key={m.id} gap={2}><Photo id={m.id} /><Text size="xs">{t('channel', { n: m.channel })} · {formatTime(m.captureTime)}</Text></Stack>)}</Group>
              )}
              <Title order={6}>{t('recordings')}</Title>
              {a.recordings.length === 0 ? <Text size="sm" c="dimmed">{t('noRecordings')}</Text> : a.recordings.map((r) => (
                <Text key={r.id} size="sm">{t('channel', { n: r.channel })} · {formatTime(r.startTime)} – {formatTime(r.endTime)} · {r.state} · {r.files}</Text>
              ))}
            </>
          )}
          {a.publicity && (
            <>
              <Title order={6}>{a.publicity.title}</Title>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{a.publicity.summary}</Text>
              <Text size="xs" c="dimmed">{t('publisher')} {a.publicity.publishedByName} · {formatTime(a.publicity.publishTime)} · {a.publicity.companies.map((c) => c.name).join('、')}</Text>
            </>
          )}
          <Title order={6}>{t('files')}</Title>
          {a.files.length === 0 ? <Text size="sm" c="dimmed">{t('noFiles')}</Text> : a.files.map((f) => (
            <Group key={f.id} gap="xs" data-testid={`accident-file-${f.id}`}>
              <Badge size="sm" variant="light">{f.kind.toUpperCase()}</Badge>
              <Text size="sm">{f.fileName}</Text>
              <Text size="xs" c="dimmed">{(f.size / 1024).toFixed(1)} KiB · {f.uploadedByName} · {formatTime(f.uploadTime)}</Text>
              <Button size="compact-xs" variant="subtle" onClick={() => void openFile(f)}>{t('open')}</Button>
              {a.own && <Perm route={PUBLICITY_ROUTE} button="deleteFile"><Button size="compact-xs" variant="subtle" color="red" onClick={() => removeFile(f)}>{t('removeFile')}</Button></Perm>}
            </Group>
          ))}
        </Stack>
      )}
    </Drawer>
  );
}
