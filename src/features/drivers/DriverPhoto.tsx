import { Avatar } from '@mantine/core';
import { useEffect, useState } from 'react';
import { driverApi } from './api.ts';

/**
 * A driver's photo (or the name's first character when there is none). The photo call needs the
 * session token, so the bytes are fetched and shown through an object URL, freed when the photo or
 * the component goes; `photoTime` versions it.
 */
export function DriverPhoto({ id, name, photoTime, size = 32 }: { id: number; name: string; photoTime: number | null; size?: number }) {
  const version = photoTime === null ? null : `${id}:${photoTime}`;
  // The object URL of the version it was made for: another version (or none) shows the initial until its bytes arrive.
  const [shown, setShown] = useState<{ version: string; url: string } | null>(null);
  useEffect(() => {
    if (version === null) return;
    let url: string | null = null;
    let stale = false;
    driverApi.photo(id, photoTime!).then(({ blob }) => {
      if (stale) return;
      url = URL.createObjectURL(blob);
      setShown({ version, url });
    }, () => undefined);
    return () => {
      stale = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, photoTime, version]);
  const src = shown !== null && shown.version === version ? shown.url : null;
  return (
    <Avatar src={src} alt={name} size={size} radius="sm" data-testid="driver-photo" data-has-photo={photoTime !== null}>
      {name.slice(0, 1)}
    </Avatar>
  );
}
