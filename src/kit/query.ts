/**
 * Server state for the console (TanStack Query): one client, one retry rule.
 *
 * Only a network failure (ErrorCode.Network: no answer at all) is retried. An answer is final: a 4xx
 * (bad input, no permission, not found) would fail the same way again, and a 5xx is shown at once
 * with its message instead of making the user wait through back-off.
 */
import { QueryClient } from '@tanstack/react-query';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { isApiError } from '../api/http.ts';

/** Network failures are retried at most this many times (1 s, 2 s, 4 s back-off). */
export const NETWORK_RETRIES = 3;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < NETWORK_RETRIES && isApiError(error) && error.code === ErrorCode.Network;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // 10 s: a tab switched back within that shows the cached page without a refetch flash.
      queries: { retry: shouldRetry, staleTime: 10_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** The key of every call of one screen starts with its route, so one invalidation refreshes them all. */
export function resourceKey(route: string, call: string, params?: unknown): readonly unknown[] {
  return params === undefined ? [route, call] : [route, call, params];
}
