import { Avatar, Image, Text } from '@mantine/core';
import { useSessionImage } from '../shared/useSessionImage.ts';
import { faceRecognitionApi } from './api.ts';

/** The photo a terminal took at a comparison (bytes behind the token). */
export function CapturedPhoto({ id, size = 56 }: { id: number; size?: number }) {
  const src = useSessionImage(faceRecognitionApi.resultPhoto, [id]);
  return <Image src={src ?? undefined} w={size} h={size} radius="sm" fit="cover" alt="" data-testid="face-captured" data-loaded={src !== null} fallbackSrc={undefined} />;
}

/** A driver's face-library photo, versioned by its time; the name's first character without one. */
export function LibraryPhoto({ driverId, name, photoTime, size = 56 }: { driverId: number | null; name: string; photoTime: number | null; size?: number }) {
  const src = useSessionImage(faceRecognitionApi.facePhoto, driverId === null || photoTime === null ? null : [driverId, photoTime]);
  if (driverId === null) return <Text size="xs" c="dimmed">—</Text>;
  return <Avatar src={src} alt={name} size={size} radius="sm" data-testid="face-library" data-loaded={src !== null}>{name.slice(0, 1)}</Avatar>;
}
