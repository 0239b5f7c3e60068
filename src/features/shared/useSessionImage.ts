import { useEffect, useState } from 'react';

/**
 * An image a call behind the session token answers (a driver's photo, an enrolled face): the bytes are
 * fetched with the token and shown through an object URL, freed when the image changes or the component
 * goes. `args` version the image (null: there is none); while another version's bytes are on their way,
 * the answer is null, so the caller shows its placeholder instead of the previous picture.
 *
 * `load` must be stable (a module-level API function): the image reloads when `args` change, not on render.
 */
export function useSessionImage<A extends readonly (string | number)[]>(load: (...args: A) => Promise<{ blob: Blob }>, args: A | null): string | null {
  const version = args === null ? null : JSON.stringify(args);
  const [shown, setShown] = useState<{ version: string; url: string } | null>(null);
  useEffect(() => {
    if (version === null) return;
    let url: string | null = null;
    let stale = false;
    load(...(JSON.parse(version) as A)).then(({ blob }) => {
      if (stale) return;
      url = URL.createObjectURL(blob);
      setShown({ version, url });
    }, () => undefined);
    return () => {
      stale = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [load, version]);
  return shown !== null && shown.version === version ? shown.url : null;
}
