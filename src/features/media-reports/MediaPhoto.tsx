import { Center, Image, Loader, Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { MEDIA_NS } from './messages.ts';
import { usePhoto } from './photo.ts';

/** One photo from the authenticated route: a loader, the image, or a failure text. */
export function MediaPhoto({ url, alt, height, onClick }: { url: string; alt: string; height: number; onClick?: () => void }) {
  const t = useT(MEDIA_NS);
  const photo = usePhoto(url);
  if (photo.state === 'ready') {
    return (
      <Image
        src={photo.src}
        alt={alt}
        h={height}
        fit="contain"
        bg="dark.8"
        radius="sm"
        onClick={onClick}
        style={onClick ? { cursor: 'zoom-in' } : undefined}
        data-testid="media-photo"
      />
    );
  }
  return (
    <Center h={height} bg="gray.1" style={{ borderRadius: 4 }} data-testid={photo.state === 'failed' ? 'media-photo-failed' : 'media-photo-loading'}>
      {photo.state === 'failed' ? <Text size="xs" c="red">{t('photo.failed')}</Text> : <Loader size="sm" aria-label={t('photo.loading')} />}
    </Center>
  );
}
