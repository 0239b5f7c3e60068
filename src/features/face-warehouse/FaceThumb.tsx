import { Avatar } from '@mantine/core';
import { useEffect, useState } from 'react';
import { faceWarehouseApi } from './api.ts';

/**
 * A face's thumbnail (or the name's first character when the photo is gone). The call needs the session
 * token, so the bytes are fetched and shown through an object URL, freed when the photo or the component
 * goes; `photoTime` versions it (as the driver list's photo does).
 */
export function FaceThumb({ driverId, name, photoTime, size = 40 }: { driverId: number; name: string; photoTime: number | null; size?: number }) {
  const version = photoTime === null ? null : `${driverId}:${photoTime}`;
  const [shown, setShown] = useState<{ version: string; url: string } | null>(null);
  useEffect(() => {
    if (version === null) return;
    let url: string | null = null;
    let stale = false;
    faceWarehouseApi.photo(driverId, photoTime!).then(({ blob }) => {
      if (stale) return;
      url = URL.createObjectURL(blob);
      setShown({ version, url });
    }, () => undefined);
    return () => {
      stale = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [driverId, photoTime, version]);
  const src = shown !== null && shown.version === version ? shown.url : null;
  return (
    <Avatar src={src} alt={name} size={size} radius="sm" data-testid="face-thumb" data-loaded={src !== null}>
      {name.slice(0, 1)}
    </Avatar>
  );
}
