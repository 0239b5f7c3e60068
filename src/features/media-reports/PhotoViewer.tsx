import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { formatChinaTime } from '../reports/online-control/period.ts';
import type { MediaItem } from './api.ts';
import { MediaPhoto } from './MediaPhoto.tsx';
import { MEDIA_NS } from './messages.ts';
import { loadPhoto } from './photo.ts';

/** A photo at full size with its details; previous / next walk the list it was opened from. */
export function PhotoViewer({ items, index, onIndex, onClose }: { items: readonly MediaItem[]; index: number | null; onIndex: (i: number) => void; onClose: () => void }) {
  const t = useT(MEDIA_NS);
  const item = index === null ? undefined : items[index];
  const download = async (m: MediaItem) => {
    const href = await loadPhoto(m.url);
    const a = document.createElement('a');
    a.href = href;
    a.download = `${m.vehiidno}-ch${m.channel}-${formatChinaTime(m.captureTime).replace(/[: ]/g, '')}.jpg`;
    a.click();
  };
  return (
    <Modal opened={item !== undefined} onClose={onClose} size="xl" title={item ? t('viewer.title', { plate: item.vehiidno, channel: item.channel }) : ''}>
      {item && index !== null && (
        <Stack gap="sm" data-testid="photo-viewer" data-media-id={item.id}>
          <MediaPhoto url={item.url} alt={`${item.vehiidno} ${item.channel}`} height={420} />
          <Table withRowBorders={false} verticalSpacing={2} fz="sm">
            <Table.Tbody>
              <Table.Tr><Table.Th w={120}>{t('viewer.time')}</Table.Th><Table.Td>{formatChinaTime(item.captureTime)}</Table.Td></Table.Tr>
              <Table.Tr><Table.Th>{t('viewer.company')}</Table.Th><Table.Td>{item.companyName}</Table.Td></Table.Tr>
              <Table.Tr><Table.Th>{t('viewer.event')}</Table.Th><Table.Td>{item.eventName}</Table.Td></Table.Tr>
              {item.alarmName !== null && <Table.Tr><Table.Th>{t('viewer.alarm')}</Table.Th><Table.Td>{item.alarmName}</Table.Td></Table.Tr>}
              <Table.Tr><Table.Th>{t('viewer.source')}</Table.Th><Table.Td>{t(`source.${item.source}`)}</Table.Td></Table.Tr>
              {item.requestedByName !== null && <Table.Tr><Table.Th>{t('viewer.requestedBy')}</Table.Th><Table.Td>{item.requestedByName}</Table.Td></Table.Tr>}
              {item.lng !== null && item.lat !== null && (
                <Table.Tr><Table.Th>{t('viewer.position')}</Table.Th><Table.Td>{`${item.lng.toFixed(6)}, ${item.lat.toFixed(6)}`}</Table.Td></Table.Tr>
              )}
              <Table.Tr><Table.Th>{t('viewer.size')}</Table.Th><Table.Td>{`${(item.size / 1024).toFixed(1)} KB`}</Table.Td></Table.Tr>
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Button variant="default" onClick={() => void download(item)}>{t('viewer.download')}</Button>
            <Group gap="xs">
              <Button variant="default" disabled={index === 0} onClick={() => onIndex(index - 1)}>{t('viewer.prev')}</Button>
              <Text size="sm" c="dimmed">{`${index + 1} / ${items.length}`}</Text>
              <Button variant="default" disabled={index >= items.length - 1} onClick={() => onIndex(index + 1)}>{t('viewer.next')}</Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
