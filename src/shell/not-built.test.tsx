// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { setUser } from '../session/store.ts';
import NothingBuiltPage from './NothingBuiltPage.tsx';
import { SideNav } from './SideNav.tsx';

const id = (key: string) => entryByKey(key)?.id ?? 0;

function signInWith(keys: string[]) {
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel: 2, companyId: 1, geoInverse: false, permissions: masksFromIds(keys.map(id)) }));
}

const inMantine = (node: ReactNode) => render(<MantineProvider>{node}</MantineProvider>);

describe('screens that are not built yet', () => {
  beforeAll(() => {
    // jsdom has no matchMedia; Mantine reads the colour scheme from it
    window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  });
  afterEach(cleanup);

  it('stay in the side navigation with the 未建 mark; built ones carry none', () => {
    signInWith(['/cel', '/cel/approvalQuery', '/monitor', '/monitor/index', '/monitor/lineMonitor']);
    inMantine(<SideNav activePath="/monitor/index" />);
    // the approval group holds only an unbuilt page: marked, not hidden
    expect(screen.getByTestId('nav-group-/cel')).toBeTruthy();
    expect(screen.getByTestId('not-built-mark-/cel').textContent).toBe('未建');
    expect(screen.getByTestId('nav-/monitor/lineMonitor').getAttribute('data-built')).toBe('false');
    expect(screen.getByTestId('not-built-mark-/monitor/lineMonitor').textContent).toBe('未建');
    expect(screen.getByTestId('nav-/monitor/index').getAttribute('data-built')).toBeNull();
    expect(screen.queryByTestId('not-built-mark-/monitor/index')).toBeNull();
    expect(screen.queryByTestId('not-built-mark-/monitor')).toBeNull();
  });

  it('are what / lists, with a sign-out, for a user who may see no built page', () => {
    signInWith(['/cel', '/cel/approvalQuery']);
    inMantine(<NothingBuiltPage />);
    const page = screen.getByTestId('nothing-built');
    expect(page.textContent).toContain('您可访问的页面均尚未开发');
    expect(page.textContent).toContain('审批查询');
    expect(screen.getByTestId('nothing-built-sign-out')).toBeTruthy();
  });
});
