import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { resourceKey } from './query.ts';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

/** One page of a server list (server/API.md `Page`). */
export interface Page<T> {
  records: T[];
  total: number;
}

export interface ListQuery {
  current: number;
  size: number;
  /** Trimmed; '' for none. */
  keyword: string;
}

export interface ResourceList<T> {
  query: ListQuery;
  records: T[];
  total: number;
  /** First load or a refetch in flight (the previous page stays visible meanwhile). */
  fetching: boolean;
  /** The failure of the last fetch, if it failed. */
  error: unknown;
  setCurrent: (current: number) => void;
  setSize: (size: number) => void;
  /** Apply a keyword and go back to page 1. */
  search: (keyword: string) => void;
  /** Refetch every call of this screen (after a write). */
  invalidate: () => Promise<void>;
}

/**
 * A server-paged list on TanStack Query. The key is `[route, 'page', {scope, current, size, keyword}]`:
 * each page is cached by its parameters, switching back is instant, and an answer for an older key
 * can never overwrite a newer one. A change of `scope` (e.g. the selected company) goes back to page
 * 1; when a delete empties the last page, the list steps back to the new last page.
 */
export function useResourceList<T>(route: string, fetchPage: (q: ListQuery) => Promise<Page<T>>, scope: unknown = null): ResourceList<T> {
  const client = useQueryClient();
  const [query, setQuery] = useState<ListQuery>({ current: 1, size: DEFAULT_PAGE_SIZE, keyword: '' });

  const scopeKey = JSON.stringify(scope);
  const [seenScope, setSeenScope] = useState(scopeKey);
  if (seenScope !== scopeKey) {
    setSeenScope(scopeKey);
    setQuery((q) => ({ ...q, current: 1 }));
  }

  const result = useQuery({
    queryKey: resourceKey(route, 'page', { scope, ...query }),
    queryFn: () => fetchPage(query),
    placeholderData: keepPreviousData,
  });

  const total = result.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / query.size));
  const pastEnd = result.isSuccess && !result.isPlaceholderData && query.current > lastPage;
  // Adjusted during render (React's pattern for state derived from props): the next key is the last page.
  if (pastEnd) setQuery((q) => ({ ...q, current: lastPage }));

  return {
    query,
    records: result.data?.records ?? [],
    total,
    fetching: result.isFetching,
    error: result.isError ? result.error : undefined,
    setCurrent: useCallback((current: number) => setQuery((q) => ({ ...q, current })), []),
    setSize: useCallback((size: number) => setQuery((q) => ({ ...q, size, current: 1 })), []),
    search: useCallback((keyword: string) => setQuery((q) => ({ ...q, keyword: keyword.trim(), current: 1 })), []),
    invalidate: useCallback(() => client.invalidateQueries({ queryKey: [route] }), [client, route]),
  };
}
