import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_PAGE_SIZE, initialListQuery, rememberListQuery, writeListSearch, type ListQuery } from './list-url.ts';
import { resourceKey } from './query.ts';

// The page-size choices and the query's shape live with the URL rules (list-url.ts); screens import them from here.
export { DEFAULT_PAGE_SIZE, PAGE_SIZES, type ListQuery } from './list-url.ts';

/** One page of a server list (server/API.md `Page`). */
export interface Page<T> {
  records: T[];
  total: number;
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
  /** Apply a keyword and go back to page 1; the same keyword on page 1 asks the server again. */
  search: (keyword: string) => void;
  /** Refetch every call of this screen (after a write). */
  invalidate: () => Promise<void>;
}

export interface ResourceListOptions {
  /**
   * Keep page, size and keyword in the URL (`?page=3&size=50&q=…`, see list-url.ts) and in this browser
   * tab's session, so a reload or a tab switch comes back to the same rows. ListPage turns it on;
   * a screen with its own URL params leaves it off. @default false
   */
  inUrl?: boolean;
  /**
   * Ask the server again every this many ms (a live list such as the box states). The page, size,
   * keyword and filters stay; polling stops after a failed fetch (no hammering a failing server),
   * and 查询 or a filter change starts it again. @default undefined (no polling)
   */
  refreshMs?: number;
}

/**
 * A server-paged list on TanStack Query. The key is `[route, 'page', {scope, current, size, keyword}]`:
 * each page is cached by its parameters, switching back is instant, and an answer for an older key
 * can never overwrite a newer one. A change of `scope` (e.g. the selected company) goes back to page
 * 1; when a delete empties the last page, the list steps back to the new last page.
 */
export function useResourceList<T>(
  route: string,
  fetchPage: (q: ListQuery) => Promise<Page<T>>,
  scope: unknown = null,
  options: ResourceListOptions = {},
): ResourceList<T> {
  const client = useQueryClient();
  const scopeKey = JSON.stringify(scope);
  const inUrl = options.inUrl ?? false;
  const [query, setQuery] = useState<ListQuery>(() =>
    // The address may still be the previous page's while this one mounts: its params count only on this route.
    inUrl ? initialListQuery(route, scopeKey, window.location.pathname.endsWith(route) ? window.location.search : '') : { current: 1, size: DEFAULT_PAGE_SIZE, keyword: '' },
  );

  // The URL follows the list (replaced, not pushed: paging is not a step back for the browser's Back).
  // TanStack Router's history sees the replace and keeps its own location in step; its state is kept.
  useEffect(() => {
    if (!inUrl) return;
    rememberListQuery(route, scopeKey, query);
    // Only while the screen's own route is the address (a page kept on screen during a navigation away must not write).
    if (!window.location.pathname.endsWith(route)) return;
    const search = writeListSearch(window.location.search, query);
    if (search !== window.location.search) window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${window.location.hash}`);
  }, [inUrl, route, scopeKey, query]);

  const [seenScope, setSeenScope] = useState(scopeKey);
  if (seenScope !== scopeKey) {
    setSeenScope(scopeKey);
    setQuery((q) => ({ ...q, current: 1 }));
  }

  const result = useQuery({
    queryKey: resourceKey(route, 'page', { scope, ...query }),
    queryFn: () => fetchPage(query),
    placeholderData: keepPreviousData,
    refetchInterval: options.refreshMs === undefined ? false : (q) => (q.state.status === 'error' ? false : options.refreshMs!),
  });

  // 查询 with unchanged parameters still asks the server again: the operator wants the rows as they are now
  // (a driver signed in, a terminal came online), not the cached page of the same key.
  const { refetch } = result;
  const { keyword: appliedKeyword, current: appliedPage } = query;

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
    search: useCallback((keyword: string) => {
      if (appliedKeyword === keyword.trim() && appliedPage === 1) void refetch();
      else setQuery((q) => ({ ...q, keyword: keyword.trim(), current: 1 }));
    }, [appliedKeyword, appliedPage, refetch]),
    invalidate: useCallback(() => client.invalidateQueries({ queryKey: [route] }), [client, route]),
  };
}
