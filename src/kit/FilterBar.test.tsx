// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { setUser } from '../session/store.ts';
import { FilterBar } from './FilterBar.tsx';
import { stubBrowserApis } from './test-dom.ts';

const ROUTE = '/system/role';

beforeAll(stubBrowserApis);
beforeEach(() => {
  const keys = ['/system', ROUTE, `${ROUTE}:retrieve`];
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel: 2, companyId: 1, geoInverse: false, permissions: masksFromIds(keys.map((k) => entryByKey(k)?.id ?? 0)) }));
});
afterEach(cleanup);

function renderBar(onSearch: (k: string) => void, withActions = true) {
  render(
    <MantineProvider>
      <FilterBar placeholder="name" route={ROUTE} onSearch={onSearch} keyword="abc" filters={<input aria-label="f1" />}>
        {withActions ? <button type="button">新增</button> : null}
      </FilterBar>
    </MantineProvider>,
  );
}

/** Mantine's Group writes its wrap into a CSS variable on the element. */
const wrapOf = (el: HTMLElement) => el.style.getPropertyValue('--group-wrap');

describe('the filter bar', () => {
  it('wraps its inputs onto further lines, keeps 查询 and 重置 together, and keeps the actions together at the right', () => {
    renderBar(() => undefined);
    const bar = screen.getByTestId('filter-bar');
    const inputs = screen.getByTestId('filter-bar-inputs');
    const actions = screen.getByTestId('filter-bar-actions');
    // the bar and its inputs wrap: nothing runs past the right edge on a narrow screen
    expect(wrapOf(bar)).toBe('wrap');
    expect(wrapOf(inputs)).toBe('wrap');
    // the inputs take the line's rest, shrinking below their one-line width (then wrapping)
    expect(inputs.style.flex).toMatch(/^1 1 \d+px$/);
    expect(inputs.style.minWidth).toBe('0px');
    // 查询 and 重置 are one unit that does not split
    const search = screen.getByTestId('search');
    const reset = screen.getByRole('button', { name: '重置' });
    const pair = search.parentElement!;
    expect(pair.contains(reset)).toBe(true);
    expect(wrapOf(pair)).toBe('nowrap');
    expect(inputs.contains(screen.getByLabelText('f1'))).toBe(true);
    // the page's actions: one unit that does not shrink, pushed to the right (also when alone on a line)
    expect(actions.contains(screen.getByRole('button', { name: '新增' }))).toBe(true);
    expect(inputs.contains(actions)).toBe(false);
    expect(wrapOf(actions)).toBe('nowrap');
    expect(actions.style.flex).toBe('0 0 auto');
    expect(actions.style.marginLeft).toBe('auto');
  });

  it('searches the typed keyword, starts with the applied one, and resets to none', () => {
    const onSearch = vi.fn();
    renderBar(onSearch, false);
    expect(screen.queryByTestId('filter-bar-actions')).toBeNull();
    const box = screen.getByLabelText('关键字');
    expect((box as HTMLInputElement).value).toBe('abc');
    fireEvent.change(box, { target: { value: 'xyz' } });
    fireEvent.click(screen.getByTestId('search'));
    expect(onSearch).toHaveBeenLastCalledWith('xyz');
    fireEvent.click(screen.getByRole('button', { name: '重置' }));
    expect(onSearch).toHaveBeenLastCalledWith('');
    expect((box as HTMLInputElement).value).toBe('');
  });
});
