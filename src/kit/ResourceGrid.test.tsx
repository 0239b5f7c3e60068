// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http.ts';
import { ResourceGrid } from './ResourceGrid.tsx';
import { stubBrowserApis } from './test-dom.ts';
import type { ResourceList } from './useResourceList.ts';

interface Photo {
  id: number;
  plate: string;
}

beforeAll(stubBrowserApis);
afterEach(cleanup);

function list(over: Partial<ResourceList<Photo>>): ResourceList<Photo> {
  return {
    query: { current: 1, size: 20, keyword: '' }, records: [], total: 0, fetching: false, error: undefined,
    setCurrent: vi.fn(), setSize: vi.fn(), search: vi.fn(), invalidate: vi.fn(() => Promise.resolve()), ...over,
  };
}

const grid = (l: ResourceList<Photo>) =>
  render(
    <MantineProvider>
      <ResourceGrid list={l} label="Photos" emptyText="该时段没有照片">
        {(records) => records.map((r) => <span key={r.id}>{r.plate}</span>)}
      </ResourceGrid>
    </MantineProvider>,
  );

describe('ResourceGrid (a server-paged list that is not a table)', () => {
  it('draws the page the screen\'s way, says which rows of how many it shows, and pages on', () => {
    const records = Array.from({ length: 20 }, (_, i) => ({ id: 21 + i, plate: `京A${21 + i}` }));
    const l = list({ query: { current: 2, size: 20, keyword: '' }, records, total: 45 });
    grid(l);
    expect(screen.getByText('京A21')).toBeTruthy();
    expect(screen.getByTestId('list-total').textContent).toBe('第 21–40 条 · 共 45 条');
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(l.setCurrent).toHaveBeenCalledWith(3);
  });

  it('says the list is empty in the screen\'s words, or why it failed with a retry', () => {
    const { unmount } = grid(list({}));
    expect(screen.getByTestId('grid-empty').textContent).toBe('该时段没有照片');
    expect(screen.queryByTestId('list-total')).toBeNull();
    unmount();
    const failed = list({ error: new ApiError(500, '数据库忙') });
    grid(failed);
    expect(screen.getByRole('alert').textContent).toBe('加载失败：数据库忙');
    fireEvent.click(screen.getByText('重试'));
    expect(failed.invalidate).toHaveBeenCalled();
  });
});
