import { useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../types.ts';

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface PagedState {
  current: number;
  size: number;
  keyword: string;
}

export interface PagedList<T> {
  query: PagedState;
  page: Page<T> | undefined;
  loading: boolean;
  failed: boolean;
  setCurrent: (current: number) => void;
  setSize: (size: number) => void;
  /** Apply a keyword and go back to page 1. */
  search: (keyword: string) => void;
  reload: () => void;
}

/**
 * A server-paged list: page, size and keyword in state, the fetch re-run when they (or `deps`)
 * change. An answer that arrives after a newer request is dropped. When a delete empties the last
 * page, it steps back one page.
 */
export function usePagedList<T>(fetchPage: (q: PagedState) => Promise<Page<T>>, deps: readonly unknown[]): PagedList<T> {
  const [query, setQuery] = useState<PagedState>({ current: 1, size: 20, keyword: '' });
  const [page, setPage] = useState<Page<T> | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const [tick, setTick] = useState(0);
  // Loading is derived: the request key differs from the key of the last settled answer.
  const [settledKey, setSettledKey] = useState<string | undefined>(undefined);
  const fetchRef = useRef(fetchPage);
  useEffect(() => {
    fetchRef.current = fetchPage;
  });

  // A change of the outside filter (e.g. the company) starts again at page 1.
  const depsKey = JSON.stringify(deps);
  const [seenDeps, setSeenDeps] = useState(depsKey);
  if (seenDeps !== depsKey) {
    setSeenDeps(depsKey);
    setQuery((q) => ({ ...q, current: 1 }));
  }

  const requestKey = JSON.stringify([query, tick, depsKey]);
  const loading = settledKey !== requestKey;

  useEffect(() => {
    let stale = false;
    fetchRef
      .current(query)
      .then((p) => {
        if (stale) return;
        const lastPage = Math.max(1, Math.ceil(p.total / query.size));
        if (p.records.length === 0 && query.current > lastPage) {
          setQuery((q) => ({ ...q, current: lastPage }));
          return;
        }
        setPage(p);
        setFailed(false);
        setSettledKey(requestKey);
      })
      .catch(() => {
        if (stale) return;
        setFailed(true);
        setSettledKey(requestKey);
      });
    return () => {
      stale = true;
    };
  }, [query, requestKey]);

  return {
    query,
    page,
    loading,
    failed,
    setCurrent: useCallback((current: number) => setQuery((q) => ({ ...q, current })), []),
    setSize: useCallback((size: number) => setQuery((q) => ({ ...q, size, current: 1 })), []),
    search: useCallback((keyword: string) => setQuery((q) => ({ ...q, keyword: keyword.trim(), current: 1 })), []),
    reload: useCallback(() => setTick((n) => n + 1), []),
  };
}
