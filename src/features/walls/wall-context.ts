/**
 * What every wall panel reads: how the wall authenticates, the company it shows, and its live half.
 * `useWallQuery` is a panel's server call on the kit's QueryClient with the wall's refresh interval;
 * it keeps the last answer when a refresh fails (the panel marks it stale) and keeps trying.
 */
import { createContext, useContext } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useLang } from '../../i18n/index.ts';
import { wallGet, type WallAuth } from './wall-api.ts';
import type { WallLive } from './wall-live.ts';

export interface WallContextValue {
  readonly auth: WallAuth;
  readonly companyId: number | null;
  readonly live: WallLive | null;
}

export const WallContext = createContext<WallContextValue | null>(null);

export function useWall(): WallContextValue {
  const v = useContext(WallContext);
  if (!v) throw new Error('a wall panel outside a wall');
  return v;
}

/** Stable part of a query key for the wall's credential (never the secret itself). */
export function authKey(auth: WallAuth): string {
  return auth.kind === 'display' ? `display:${auth.key.split('.')[1] ?? ''}` : 'user';
}

/** Refresh cadences (s): states follow the live fleet, alarm counts the spec's 60 s, trends slower. */
export const REFRESH = { states: 10_000, alarms: 30_000, alarmCounts: 60_000, week: 300_000, companies: 30_000, latest: 10_000, preset: 60_000 } as const;

export function useWallQuery<T>(path: string, query: Record<string, string | number>, intervalMs: number): UseQueryResult<T> {
  const { auth, companyId } = useWall();
  const lang = useLang();
  return useQuery({
    queryKey: ['wall', authKey(auth), path, query, companyId, lang],
    queryFn: () => wallGet<T>(auth, path, { ...query, companyId }, lang),
    refetchInterval: intervalMs,
    refetchIntervalInBackground: true,
    staleTime: 0,
    // A failed refresh keeps the last figures (marked stale); the interval tries again.
    retry: false,
  });
}
