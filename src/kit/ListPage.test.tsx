// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { ApiError } from '../api/http.ts';
import { setUser } from '../session/store.ts';
import { ListPage } from './ListPage.tsx';
import { createQueryClient, shouldRetry } from './query.ts';
import type { KitColumn } from './ResourceTable.tsx';
import type { ListQuery, Page } from './useResourceList.ts';
import { stubBrowserApis } from './test-dom.ts';

interface Row {
  id: number;
  name: string;
}

const ROUTE = '/system/role';
const ROWS: Row[] = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, name: `role-${i + 1}` }));
const columns: KitColumn<Row>[] = [{ key: 'name', title: 'Name', minWidth: 120, maxWidth: 240, render: (r) => r.name }];

function serve(rows: Row[]) {
  return vi.fn((q: ListQuery): Promise<Page<Row>> => {
    const hits = rows.filter((r) => r.name.includes(q.keyword));
    return Promise.resolve({ records: hits.slice((q.current - 1) * q.size, q.current * q.size), total: hits.length });
  });
}

function signInWith(buttons: string[], userLevel = 2, id = 9) {
  const keys = ['/system', ROUTE, ...buttons.map((b) => `${ROUTE}:${b}`)];
  act(() => setUser({ id, username: 'u', realName: null, userLevel, companyId: 1, geoInverse: false, permissions: masksFromIds(keys.map((k) => entryByKey(k)?.id ?? 0)) }));
}

function renderPage(fetchPage: (q: ListQuery) => Promise<Page<Row>>, extra: { remove?: (r: Row) => Promise<unknown> } = {}) {
  const client = createQueryClient();
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <ListPage<Row>
          route={ROUTE}
          pageId="kit-test"
          title="Roles"
          searchPlaceholder="name"
          fetchPage={fetchPage}
          columns={columns}
          onCreate={() => undefined}
          onEdit={() => undefined}
          remove={extra.remove ? { name: (r) => r.name, call: extra.remove } : undefined}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** Types a keyword into the filter bar and presses 查询. */
function searchFor(keyword: string) {
  fireEvent.change(screen.getByLabelText('关键字'), { target: { value: keyword } });
  fireEvent.click(screen.getByTestId('search'));
}

beforeAll(stubBrowserApis);
// A mantine-datatable screen renders slowly in jsdom; on a machine busy with other runs a test takes several seconds.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  signInWith(['retrieve', 'create', 'update', 'delete']);
  // Each test starts at the route's bare address with nothing remembered (the list keeps its state in both).
  sessionStorage.clear();
  localStorage.clear();
  window.history.replaceState(null, '', ROUTE);
});
afterEach(cleanup);

describe('a list screen declared on the kit', () => {
  it('shows the first server page with the total, and asks the server for page 2 when it is clicked', async () => {
    const fetchPage = serve(ROWS);
    renderPage(fetchPage);
    await screen.findByText('role-1');
    expect(screen.queryByText('role-21')).toBeNull();
    expect(screen.getByText('第 1–20 条 · 共 45 条')).toBeTruthy();
    expect(fetchPage).toHaveBeenLastCalledWith({ current: 1, size: 20, keyword: '' });

    fireEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByText('role-21');
    expect(fetchPage).toHaveBeenLastCalledWith({ current: 2, size: 20, keyword: '' });
  });

  it('searches by keyword from page 1', async () => {
    const fetchPage = serve(ROWS);
    renderPage(fetchPage);
    await screen.findByText('role-1');
    searchFor(' role-4 ');
    await screen.findByText('第 1–7 条 · 共 7 条');
    expect(fetchPage).toHaveBeenLastCalledWith({ current: 1, size: 20, keyword: 'role-4' });
  });

  it('asks the server again when 查询 is pressed with nothing changed, and shows the rows as they are now', async () => {
    const rows = ROWS.slice(0, 3);
    const fetchPage = serve(rows);
    renderPage(fetchPage);
    await screen.findByText('role-1');
    rows.push({ id: 99, name: 'role-new' });
    fireEvent.click(screen.getByTestId('search'));
    await screen.findByText('role-new');
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('marks header cells with their minimum widths and pins the action column at the end', async () => {
    renderPage(serve(ROWS));
    await screen.findByText('role-1');
    const nameHeader = document.querySelector('thead th[data-accessor="name"]') as HTMLElement;
    expect(nameHeader.getAttribute('data-min-width')).toBe('120');
    expect(nameHeader.style.minWidth).toBe('120px');
    expect(nameHeader.style.maxWidth).toBe('240px');
    const headers = [...document.querySelectorAll('thead th')];
    const last = headers[headers.length - 1] as HTMLElement;
    expect(last.getAttribute('data-accessor')).toBe('__actions');
    expect(last.textContent).toBe('操作');
    expect(last.getAttribute('data-min-width')).toBe('160');
  });

  it('shows only the buttons whose permission bits the user holds', async () => {
    signInWith(['update']);
    renderPage(serve(ROWS), { remove: () => Promise.resolve() });
    const row = (await screen.findByText('role-1')).closest('tr') as HTMLElement;
    expect(within(row).getByText('修改').closest('button')?.getAttribute('data-perm')).toBe(`${ROUTE}:update`);
    expect(within(row).queryByText('删除')).toBeNull();
    expect(screen.queryByText('新增')).toBeNull();
    expect(screen.queryByTestId('search')).toBeNull();
  });

  it('deletes after the confirm and reloads the page from the server', async () => {
    const rows = [...ROWS];
    const fetchPage = serve(rows);
    const remove = vi.fn((r: Row) => {
      rows.splice(rows.findIndex((x) => x.id === r.id), 1);
      return Promise.resolve();
    });
    renderPage(fetchPage, { remove });
    const row = (await screen.findByText('role-1')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByText('删除'));
    expect(await screen.findByText('确定要删除「role-1」吗？此操作不可恢复。')).toBeTruthy();
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await screen.findByText('第 1–20 条 · 共 44 条');
    expect(remove).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('role-1')).toBeNull();
  });

  it('says the list is empty, in Chinese', async () => {
    renderPage(serve([]));
    expect(await screen.findByText('暂无数据')).toBeTruthy();
  });

  it('shows a refused call once with the server\'s message and a retry, without retrying it itself', async () => {
    const fetchPage = vi.fn(() => Promise.reject(new ApiError(403, '暂无该权限！')));
    renderPage(fetchPage);
    const alert = await screen.findByTestId('list-error');
    expect(alert.textContent).toContain('加载失败：暂无该权限！');
    expect(fetchPage).toHaveBeenCalledTimes(1);
    fireEvent.click(within(alert).getByText('重试'));
    await waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(2));
  });
});

describe('the retry rule', () => {
  it('retries a network failure up to three times and never an answer from the server', () => {
    expect(shouldRetry(0, new ApiError(1100, '网络异常，请检查网络'))).toBe(true);
    expect(shouldRetry(3, new ApiError(1100, '网络异常，请检查网络'))).toBe(false);
    expect(shouldRetry(0, new ApiError(400, '参数错误'))).toBe(false);
    expect(shouldRetry(0, new ApiError(500, '服务器错误'))).toBe(false);
  });
});

describe('page, size and keyword in the URL', () => {
  it('writes them into the address and comes back to them after a reload', async () => {
    const fetchPage = serve(ROWS);
    renderPage(fetchPage);
    await screen.findByText('role-1');
    searchFor('role-');
    await waitFor(() => expect(window.location.search).toBe('?q=role-'));
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByText('role-21');
    expect(window.location.search).toBe('?page=2&q=role-');

    // A reload: the same address, a fresh screen.
    cleanup();
    const again = serve(ROWS);
    renderPage(again);
    await screen.findByText('role-21');
    expect(again).toHaveBeenCalledWith({ current: 2, size: 20, keyword: 'role-' });
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('role-');
  });

  it('comes back to the same page after a tab switch, which opens the bare path', async () => {
    renderPage(serve(ROWS));
    await screen.findByText('role-1');
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    await screen.findByText('role-41');
    expect(window.location.search).toBe('?page=3');

    cleanup();
    window.history.replaceState(null, '', '/system/user');
    window.history.replaceState(null, '', ROUTE);
    const again = serve(ROWS);
    renderPage(again);
    await screen.findByText('role-41');
    expect(again).toHaveBeenCalledTimes(1);
    expect(again).toHaveBeenCalledWith({ current: 3, size: 20, keyword: '' });
    expect(window.location.search).toBe('?page=3');
  });

  it('does not hand one user\'s keyword to the next user signing in in the same browser tab', async () => {
    renderPage(serve(ROWS));
    await screen.findByText('role-1');
    searchFor('role-4');
    await waitFor(() => expect(window.location.search).toBe('?q=role-4'));

    cleanup();
    window.history.replaceState(null, '', ROUTE);
    signInWith(['retrieve'], 2, 10);
    const again = serve(ROWS);
    renderPage(again);
    await screen.findByText('role-1');
    expect(again).toHaveBeenCalledWith({ current: 1, size: 20, keyword: '' });
  });

  it('falls back to the defaults for values that make no sense, without an error', async () => {
    window.history.replaceState(null, '', `${ROUTE}?page=abc&size=33&q=%20&other=1`);
    const fetchPage = serve(ROWS);
    renderPage(fetchPage);
    await screen.findByText('role-1');
    expect(fetchPage).toHaveBeenCalledWith({ current: 1, size: 20, keyword: '' });
    expect(screen.queryByTestId('list-error')).toBeNull();
    // The nonsense is dropped from the address; what is not the list's stays.
    await waitFor(() => expect(window.location.search).toBe('?other=1'));
  });

  it('steps back to the last page when the address asks for one past the end', async () => {
    window.history.replaceState(null, '', `${ROUTE}?page=9&size=50`);
    renderPage(serve(ROWS));
    await screen.findByText('第 1–45 条 · 共 45 条');
    await waitFor(() => expect(window.location.search).toBe('?size=50'));
  });
});

describe('column widths', () => {
  // jsdom lays nothing out: a header cell is 100 px wide for the resize handle's arithmetic.
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 100 });
  });

  const header = () => document.querySelector('thead th[data-accessor="name"]') as HTMLElement;
  const drag = (dx: number) => {
    const handle = header().querySelector('.mantine-datatable-header-resizable-handle') as HTMLElement;
    fireEvent.mouseDown(handle, { clientX: 500 });
    fireEvent.mouseMove(document, { clientX: 500 + dx });
    fireEvent.mouseUp(document, { clientX: 500 + dx });
  };

  it('are resized by dragging a header edge, kept within the column\'s min and max, remembered, and reset', async () => {
    renderPage(serve(ROWS));
    await screen.findByText('role-1');
    expect(header().style.width).toBe('240px');
    expect(screen.queryByTestId('reset-widths')).toBeNull();

    drag(40);
    await waitFor(() => expect(header().style.width).toBe('140px'));
    expect(localStorage.getItem('kit-table:/system/role-columns-width')).toContain('"name":"140px"');
    // The filler is not kept at the width it had on this screen.
    await waitFor(() => expect(localStorage.getItem('kit-table:/system/role-columns-width')).toContain('"__filler":"0px"'));

    // The library would go down to 50 px: the column stops at its minimum (120 px).
    drag(-80);
    await waitFor(() => expect(header().style.width).toBe('120px'));

    // Remembered in this browser: a new visit shows the same width.
    cleanup();
    renderPage(serve(ROWS));
    await screen.findByText('role-1');
    await waitFor(() => expect(header().style.width).toBe('120px'));

    fireEvent.click(await screen.findByTestId('reset-widths'));
    await waitFor(() => expect(header().style.width).toBe('240px'));
    expect(screen.queryByTestId('reset-widths')).toBeNull();
  });
});
