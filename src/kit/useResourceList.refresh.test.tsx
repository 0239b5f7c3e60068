// @vitest-environment jsdom
/** A live list (`refreshMs`) asks the server again by itself, on the same page, and stops after a failure. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useResourceList } from './useResourceList.ts';

afterEach(cleanup);

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('useResourceList refreshMs', () => {
  it('fetches the same page again every refreshMs', async () => {
    const fetchPage = vi.fn(async () => ({ records: [{ id: fetchPage.mock.calls.length }], total: 1 }));
    const { result } = renderHook(() => useResourceList('/monitor/boxStatus', fetchPage, { state: 'loaded' }, { refreshMs: 40 }), { wrapper });
    await waitFor(() => expect(fetchPage.mock.calls.length).toBeGreaterThanOrEqual(3), { timeout: 3000 });
    // Every call asked for the same page, size and keyword; the rows are the newest answer.
    expect(new Set(fetchPage.mock.calls.map((c) => JSON.stringify(c)))).toEqual(new Set([JSON.stringify(fetchPage.mock.calls[0])]));
    await waitFor(() => expect(result.current.records[0]!.id).toBeGreaterThan(1));
  });

  it('stops after a failed fetch', async () => {
    let n = 0;
    const fetchPage = vi.fn(async () => {
      n++;
      if (n >= 2) throw new Error('server down');
      return { records: [], total: 0 };
    });
    const { result } = renderHook(() => useResourceList('/monitor/boxStatus', fetchPage, null, { refreshMs: 40 }), { wrapper });
    await waitFor(() => expect(result.current.error).toBeDefined(), { timeout: 3000 });
    const calls = fetchPage.mock.calls.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(fetchPage.mock.calls.length).toBe(calls);
  });

  it('does not poll without refreshMs', async () => {
    const fetchPage = vi.fn(async () => ({ records: [], total: 0 }));
    renderHook(() => useResourceList('/x', fetchPage, null), { wrapper });
    await waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 200));
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });
});
