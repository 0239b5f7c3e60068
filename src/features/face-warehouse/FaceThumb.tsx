import { Avatar } from '@mantine/core';
import { useSessionImage } from '../shared/useSessionImage.ts';
import { faceWarehouseApi } from './api.ts';

/** A face's thumbnail (or the name's first character when the photo is gone), versioned by `photoTime` as the driver list's photo is. */
export function FaceThumb({ driverId, name, photoTime, size = 40 }: { driverId: number; name: string; photoTime: number | null; size?: number }) {
  const src = useSessionImage(faceWarehouseApi.photo, photoTime === null ? null : [driverId, photoTime]);
  return (
    <Avatar src={src} alt={name} size={size} radius="sm" data-testid="face-thumb" data-loaded={src !== null}>
      {name.slice(0, 1)}
    </Avatar>
  );
}
