import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageParams, ReportPage } from './api.ts';

/** Rows per request when a whole list is loaded (the server's page size limit). */
export const LOAD_ALL_PAGE_SIZE = 500;
/** A whole-list load stops here: 20,000 vehicles is beyond any fleet a user reports on at once. */
export const LOAD_ALL_MAX_ROWS = 20_000;
export const DETAIL_PAGE_SIZES = [50, 100, 200, 500] as const;

interface LoadState<T, X> {
  key: string;
  rows: T[];
  extra: X | undefined;
  total: number;
  /** The failure of the last load (the request client's ApiError), undefined when it did not fail. */
  error: unknown;
  done: boolean;
}

/**
 * Loads every page of a list (500 rows a request) for one key (the query); a new key or `reload`
 * drops the old answers (aborted) and starts again. `extra` is the first page's fields besides the
 * page (e.g. `totals`). Loading is derived: the settled key differs from the wanted one.
 */
export function useAllPages<T, X extends object = object>(
  fetchPage: (page: PageParams, signal: AbortSignal) => Promise<ReportPage<T> & X>,
  key: string,
  enabled: boolean,
) {
  const [tick, setTick] = useState(0);
  const wanted = `${key}#${tick}`;
  const [state, setState] = useState<LoadState<T, X>>({ key: '', rows: [], extra: undefined, total: 0, error: undefined, done: true });
  const fetchRef = useRef(fetchPage);
  useEffect(() => {
    fetchRef.current = fetchPage;
  });

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    void (async () => {
      const rows: T[] = [];
      let extra: X | undefined;
      let total: number | undefined;
      try {
        for (let current = 1; ; current++) {
          const page = await fetchRef.current({ current, size: LOAD_ALL_PAGE_SIZE }, abort.signal);
          if (abort.signal.aborted) return;
          const { records, total: pageTotal, current: _c, size: _s, ...rest } = page;
          if (current === 1) extra = rest as unknown as X;
          total = pageTotal;
          rows.push(...records);
          const done = records.length === 0 || rows.length >= Math.min(total, LOAD_ALL_MAX_ROWS);
          // Show the first page at once; later pages extend the list as they come.
          setState({ key: wanted, rows: rows.slice(), extra, total, error: undefined, done });
          if (done) return;
        }
      } catch (error: unknown) {
        if (!abort.signal.aborted) setState({ key: wanted, rows, extra, total: total ?? rows.length, error: error ?? new Error('failed'), done: true });
      }
    })();
    return () => abort.abort();
  }, [wanted, enabled]);

  const settled = state.key === wanted;
  return {
    rows: settled ? state.rows : [],
    extra: settled ? state.extra : undefined,
    total: settled ? state.total : 0,
    loading: enabled && !settled,
    /** More pages are still coming (the first is shown). */
    loadingMore: settled && !state.done,
    /** The failure shown with its message and 重试 (the rows loaded before it stay). */
    error: settled ? state.error : undefined,
    reload: useCallback(() => setTick((n) => n + 1), []),
  };
}

/** One server page of a list at a time (detail lists), back to page 1 when the key changes. */
export function useServerPage<T>(fetchPage: (page: PageParams, signal: AbortSignal) => Promise<ReportPage<T>>, key: string, enabled: boolean) {
  const [paging, setPaging] = useState<{ key: string; current: number; size: number }>({ key, current: 1, size: 100 });
  const current = paging.key === key ? paging.current : 1;
  const size = paging.size;
  const [tick, setTick] = useState(0);
  const wanted = `${key}#${current}#${size}#${tick}`;
  const [state, setState] = useState<{ key: string; page: ReportPage<T> | undefined; error: unknown }>({ key: '', page: undefined, error: undefined });
  const fetchRef = useRef(fetchPage);
  useEffect(() => {
    fetchRef.current = fetchPage;
  });

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    fetchRef.current({ current, size }, abort.signal).then(
      (page) => {
        if (!abort.signal.aborted) setState({ key: wanted, page, error: undefined });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) setState({ key: wanted, page: undefined, error: error ?? new Error('failed') });
      },
    );
    return () => abort.abort();
  }, [wanted, enabled, current, size]);

  const settled = state.key === wanted;
  return {
    rows: settled ? (state.page?.records ?? []) : [],
    total: settled ? (state.page?.total ?? 0) : 0,
    current,
    size,
    loading: enabled && !settled,
    error: settled ? state.error : undefined,
    setCurrent: useCallback((c: number) => setPaging((p) => ({ ...p, key, current: c })), [key]),
    setSize: useCallback((s: number) => setPaging({ key, current: 1, size: s }), [key]),
    reload: useCallback(() => setTick((n) => n + 1), []),
  };
}
