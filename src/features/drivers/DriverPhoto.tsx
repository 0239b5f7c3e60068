import { Avatar } from '@mantine/core';
import { useSessionImage } from '../shared/useSessionImage.ts';
import { driverApi } from './api.ts';

/**
 * A driver's photo (or the name's first character when there is none), fetched with the session
 * token (`useSessionImage`); `photoTime` versions it.
 */
export function DriverPhoto({ id, name, photoTime, size = 32 }: { id: number; name: string; photoTime: number | null; size?: number }) {
  // Another version (or none) shows the initial until its bytes arrive.
  const src = useSessionImage(driverApi.photo, photoTime === null ? null : [id, photoTime]);
  return (
    <Avatar src={src} alt={name} size={size} radius="sm" data-testid="driver-photo" data-has-photo={photoTime !== null}>
      {name.slice(0, 1)}
    </Avatar>
  );
}
