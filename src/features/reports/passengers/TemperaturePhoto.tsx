/**
 * A temperature measurement's face photo in the report row (issue 18): a small thumbnail that opens the full
 * image in a dialog. The image comes from the report's own photo call (server: `/service-onlinegps/temperature/
 * photo/:id`, the media item scoped to the user's company like /service-priv/media/file), loaded with the
 * session's token into an object URL (useSessionImage) — an <img src> could not send the token.
 */
import { useState } from 'react';
import { Image, Modal, Text, UnstyledButton } from '@mantine/core';
import { http } from '../../../api/http.ts';
import { useSessionImage } from '../../shared/useSessionImage.ts';
import type { T } from '../engine-report/EngineReport.tsx';

export const TEMPERATURE_PHOTO_PATH = '/service-onlinegps/temperature/photo';

const loadPhoto = (id: number) => http.export(`${TEMPERATURE_PHOTO_PATH}/${id}`, {}, { noCompanyId: true, silent: true });

export function TemperaturePhoto({ photoId, mediaId, title, t }: { photoId: number | null; mediaId: number | null; title: string; t: T }) {
  const [open, setOpen] = useState(false);
  const src = useSessionImage(loadPhoto, photoId === null ? null : [photoId]);
  if (mediaId === null) return <>—</>;
  // The measurement names a photo the terminal has not uploaded (yet): say so instead of a broken image.
  if (photoId === null) return <Text size="xs" c="dimmed">{t('photoPending', { id: mediaId })}</Text>;
  if (!src) return <Text size="xs" c="dimmed">…</Text>;
  return (
    <>
      <UnstyledButton onClick={() => setOpen(true)} aria-label={t('photoOpen')} data-testid="temperature-photo">
        <Image src={src} w={48} h={32} fit="cover" radius="xs" alt={t('photoOpen')} />
      </UnstyledButton>
      <Modal opened={open} onClose={() => setOpen(false)} size="lg" title={title}>
        <Image src={src} fit="contain" mah="70vh" alt={title} data-testid="temperature-photo-full" />
      </Modal>
    </>
  );
}
