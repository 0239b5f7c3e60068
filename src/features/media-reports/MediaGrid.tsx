import { Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { formatChinaTime } from '../reports/online-control/period.ts';
import type { MediaItem } from './api.ts';
import { MediaPhoto } from './MediaPhoto.tsx';
import { MEDIA_NS } from './messages.ts';

/** Thumbnails with plate, channel, time and the alarm or event; a click opens the viewer at that photo. */
export function MediaGrid({ items, onOpen }: { items: readonly MediaItem[]; onOpen: (index: number) => void }) {
  const t = useT(MEDIA_NS);
  return (
    <SimpleGrid cols={{ base: 2, md: 3, lg: 4, xl: 5 }} spacing="sm" data-testid="media-grid">
      {items.map((m, i) => (
        <Card key={m.id} withBorder padding={6} data-testid="media-card" data-media-id={m.id} data-channel={m.channel} data-plate={m.vehiidno} data-source={m.source}>
          <MediaPhoto url={m.url} alt={`${m.vehiidno} ${t('channel', { n: m.channel })}`} height={120} onClick={() => onOpen(i)} />
          <Stack gap={2} mt={4}>
            <Group justify="space-between" wrap="nowrap" gap={4}>
              <Text size="sm" fw={600} truncate>{m.vehiidno}</Text>
              <Badge size="xs" variant="light">{t('channel', { n: m.channel })}</Badge>
            </Group>
            <Text size="xs" c="dimmed">{formatChinaTime(m.captureTime)}</Text>
            <Text size="xs" truncate>{m.alarmName ?? m.eventName}</Text>
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
