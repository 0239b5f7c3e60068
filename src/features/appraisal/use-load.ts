import { useEffect, useState } from 'react';

export interface LoadState<T> {
  /** The latest answer (kept while a newer load runs, so tables do not blink). */
  data: T | null;
  /** The failure of the current load, or null. */
  error: unknown;
  loading: boolean;
}

/**
 * Runs `load` whenever its identity changes (wrap it in useCallback with the query as deps; null
 * loads nothing) and aborts the previous run. State is only set from the answer, never in the effect
 * body: `loading` is derived from which load the stored answer belongs to.
 */
export function useLoad<T>(load: ((signal: AbortSignal) => Promise<T>) | null): LoadState<T> {
  const [result, setResult] = useState<{ source: unknown; data: T | null; error: unknown } | null>(null);
  useEffect(() => {
    if (load === null) return;
    const ctrl = new AbortController();
    load(ctrl.signal).then(
      (data) => setResult({ source: load, data, error: null }),
      (error: unknown) => {
        if (!ctrl.signal.aborted) setResult((r) => ({ source: load, data: r?.data ?? null, error }));
      },
    );
    return () => ctrl.abort();
  }, [load]);
  const current = load !== null && result?.source === load;
  return { data: result?.data ?? null, error: current ? result.error : null, loading: load !== null && !current };
}
