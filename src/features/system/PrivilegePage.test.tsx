// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import { PERMISSION_REGISTRY } from '../../../domain/permissions/registry.ts';
import { setLanguage } from '../../i18n/index.ts';
import { stubBrowserApis, stubLayoutHeight } from '../../kit/test-dom.ts';
import { setUser } from '../../session/store.ts';
import { PrivilegePage } from './PrivilegePage.tsx';
import type { PrivDetail, PrivTreeNode } from './types.ts';

const tree: PrivTreeNode = {
  id: 0, name: '全部权限', children: [
    { id: 134, pid: 0, type: 1, name: '系统管理', nameEn: 'System', routeKey: '/system', children: [
      { id: 146, pid: 134, type: 1, name: '权限管理', nameEn: 'Permissions', routeKey: '/system/privilege' },
    ] },
  ],
};
const detail = (id: number): PrivDetail => ({
  record: { id, pid: 0, type: 1, name: '系统管理', nameEn: 'System', routeKey: '/system', offset: 5, permissions: 16, sort: 0 },
  roles: [{ id: 2, name: '监控员', granted: false }, { id: 3, name: '安全员', granted: true }],
});
const grant = vi.fn((roleId: number, ids: number[]) => Promise.resolve({ roleId, permissionIds: ids }));
vi.mock('./api.ts', () => ({
  privApi: {
    tree: () => Promise.resolve(tree),
    detail: (id: number) => Promise.resolve(detail(id)),
    grant: (roleId: number, ids: number[]) => grant(roleId, ids),
    revoke: (roleId: number) => Promise.resolve({ roleId, permissionIds: [] }),
  },
}));

function signIn(userLevel: number) {
  act(() => setUser({ id: 1, username: 'u', realName: null, userLevel, companyId: 1, geoInverse: false, permissions: masksFromIds(PERMISSION_REGISTRY.map((e) => e.id)) }));
}

let unstubLayout: () => void = () => undefined;
beforeAll(() => {
  stubBrowserApis();
  unstubLayout = stubLayoutHeight();
});
afterAll(() => unstubLayout());
afterEach(cleanup);

describe('the privilege screen', () => {
  it('shows a node\'s record and its roles in kit tables, and grants with the pinned switch', async () => {
    act(() => setLanguage('zh'));
    signIn(2);
    render(<MantineProvider><PrivilegePage /></MantineProvider>);
    fireEvent.click(await screen.findByText('系统管理'));
    const record = await screen.findByTestId('priv-record');
    expect(within(record).getByText('路由键')).toBeTruthy();
    expect(within(record).getByText('/system')).toBeTruthy();
    // Header cells carry their minimum widths for the layout checks, like every kit table.
    expect(record.querySelector('thead th[data-accessor="value"]')?.getAttribute('data-min-width')).toBe('200');

    const roles = screen.getByTestId('priv-roles');
    const monitor = roles.querySelector('[data-role-id="2"]') as HTMLElement;
    expect(within(monitor).getByText('未授权')).toBeTruthy();
    fireEvent.click(within(monitor).getByRole('switch', { name: '授予「监控员」' }));
    await waitFor(() => expect(grant).toHaveBeenCalledWith(2, expect.arrayContaining([134])));
    await waitFor(() => expect(within(monitor).getByText('已授权')).toBeTruthy());
  });

  it('says there are no roles in the table\'s own empty state', async () => {
    act(() => setLanguage('en'));
    signIn(2);
    const original = detail(134);
    vi.mocked(grant).mockClear();
    const api = await import('./api.ts');
    vi.spyOn(api.privApi, 'detail').mockResolvedValueOnce({ ...original, roles: [] });
    render(<MantineProvider><PrivilegePage /></MantineProvider>);
    fireEvent.click(await screen.findByText('System'));
    expect(await within(await screen.findByTestId('priv-roles')).findByText('No roles')).toBeTruthy();
    act(() => setLanguage('zh'));
  });
});
