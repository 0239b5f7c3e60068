/**
 * Photos come from an authenticated route, and an <img> cannot send the token header: each photo is
 * fetched with it and shown through a blob URL. The cache keeps the newest CACHE_SIZE blob URLs (a
 * thumbnail and its viewer share one download) and revokes what falls out.
 */
import { useEffect, useState } from 'react';
import { mediaApi } from './api.ts';

/** 20 KB photos at 320x180: 200 of them hold ≈ 4 MB. */
const CACHE_SIZE = 200;
const cache = new Map<string, Promise<string>>();

function remember(url: string, p: Promise<string>): void {
  cache.set(url, p);
  while (cache.size > CACHE_SIZE) {
    const [oldest, value] = cache.entries().next().value as [string, Promise<string>];
    cache.delete(oldest);
    void value.then((href) => URL.revokeObjectURL(href), () => undefined);
  }
}

/** A blob URL of the photo at `url` (shared and cached); rejects when it cannot be loaded. */
export function loadPhoto(url: string): Promise<string> {
  const hit = cache.get(url);
  if (hit) {
    // Most recently used last.
    cache.delete(url);
    cache.set(url, hit);
    return hit;
  }
  const p = mediaApi.photo(url).then((r) => URL.createObjectURL(r.blob));
  remember(url, p);
  // A failure is not kept: the next look retries.
  p.catch(() => cache.get(url) === p && cache.delete(url));
  return p;
}

export type PhotoState = { state: 'loading' } | { state: 'ready'; src: string } | { state: 'failed' };

export function usePhoto(url: string | null): PhotoState {
  const [s, setS] = useState<{ url: string | null; value: PhotoState }>({ url, value: { state: 'loading' } });
  useEffect(() => {
    if (url === null) return;
    let live = true;
    loadPhoto(url).then(
      (src) => live && setS({ url, value: { state: 'ready', src } }),
      () => live && setS({ url, value: { state: 'failed' } }),
    );
    return () => {
      live = false;
    };
  }, [url]);
  return s.url === url ? s.value : { state: 'loading' };
}
