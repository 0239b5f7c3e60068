// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { ApiError } from '../api/http.ts';
import type { ExportJob } from '../features/shared/ExportJobButton.tsx';
import { setLanguage } from '../i18n/index.ts';
import { setUser } from '../session/store.ts';
import { ListPage } from './ListPage.tsx';
import { createQueryClient } from './query.ts';
import { stubBrowserApis } from './test-dom.ts';

const ROUTE = '/system/user';

function signInWith(buttons: string[]) {
  const keys = ['/system', ROUTE, ...buttons.map((b) => `${ROUTE}:${b}`)];
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel: 2, companyId: 1, geoInverse: false, permissions: masksFromIds(keys.map((k) => entryByKey(k)?.id ?? 0)) }));
}

function renderPage(exportJob: (q: { keyword: string }) => ExportJob) {
  render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={createQueryClient()}>
        <ListPage<{ id: number; name: string }>
          route={ROUTE}
          pageId="kit-export-test"
          title="Users"
          searchPlaceholder="name"
          fetchPage={() => Promise.resolve({ records: [{ id: 1, name: 'branch' }], total: 1 })}
          columns={[{ key: 'name', title: 'Name', minWidth: 120, maxWidth: 240, render: (r) => r.name }]}
          exportJob={exportJob}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeAll(() => {
  stubBrowserApis();
  URL.createObjectURL = () => 'blob:test';
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  cleanup();
  // The notifications store outlives a render: one test's message (same id) would hide the next one's.
  notifications.clean();
  vi.useRealTimers();
});

describe('the list kit\'s export button', () => {
  it('is not there without the route\'s export bit', async () => {
    signInWith(['retrieve']);
    renderPage(() => ({ start: vi.fn(), status: vi.fn(), file: vi.fn() }));
    await screen.findByText('branch');
    expect(screen.queryByTestId('list-export')).toBeNull();
  });

  it('starts the server job for the keyword searched, polls it and fetches the file', async () => {
    act(() => setLanguage('zh'));
    signInWith(['retrieve', 'export']);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const start = vi.fn(() => Promise.resolve({ taskId: 't1' }));
    const status = vi.fn(() => Promise.resolve({ status: 'done' as const, total: 1, exported: 1 }));
    const file = vi.fn(() => Promise.resolve({ blob: new Blob(['x']), filename: '用户.xlsx' }));
    const exportJob = vi.fn(() => ({ start, status, file }));
    renderPage(exportJob);
    await screen.findByText('branch');
    fireEvent.change(screen.getByPlaceholderText('name'), { target: { value: 'bran' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(exportJob).toHaveBeenLastCalledWith({ keyword: 'bran' }));
    fireEvent.click(screen.getByTestId('list-export'));
    await waitFor(() => expect(start).toHaveBeenCalled());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1100);
    });
    await waitFor(() => expect(file).toHaveBeenCalledWith('t1'));
    expect(status).toHaveBeenCalledWith('t1');
  });

  it('says the export failed, with the server\'s reason, in the UI language', async () => {
    act(() => setLanguage('en'));
    signInWith(['retrieve', 'export']);
    const start = vi.fn(() => Promise.reject(new ApiError(403, 'Access denied', { code: 403, msg: 'Access denied', data: null })));
    renderPage(() => ({ start, status: vi.fn(), file: vi.fn() }));
    await screen.findByText('branch');
    fireEvent.click(screen.getByTestId('list-export'));
    expect(await screen.findByText('Export failed: Access denied')).toBeTruthy();
    act(() => setLanguage('zh'));
  });

  it('shows a failed job\'s own reason once, not "export failed: export failed"', async () => {
    act(() => setLanguage('zh'));
    signInWith(['retrieve', 'export']);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const status = vi.fn(() => Promise.resolve({ status: 'failed' as const, total: 0, exported: 0, message: '导出失败，请重试' }));
    renderPage(() => ({ start: () => Promise.resolve({ taskId: 't2' }), status, file: vi.fn() }));
    await screen.findByText('branch');
    fireEvent.click(screen.getByTestId('list-export'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1100);
    });
    expect(await screen.findByText('导出失败，请重试')).toBeTruthy();
  });
});
