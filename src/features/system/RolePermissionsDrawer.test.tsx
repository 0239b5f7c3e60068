// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bitOf, masksFromIds, slotOf } from '../../../domain/permissions/bits.ts';
import { PERMISSION_REGISTRY } from '../../../domain/permissions/registry.ts';
import { setUser } from '../../session/store.ts';
import { RolePermissionsDrawer } from './RolePermissionsDrawer.tsx';
import type { PermissionRecord, Role } from './types.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';

const savePermissions = vi.fn((roleId: number, permissionIds: number[]) => Promise.resolve({ roleId, permissionIds }));
let current: number[] = [];
const records: PermissionRecord[] = PERMISSION_REGISTRY.map((e, i) => ({
  id: e.id, pid: e.pid, type: e.type, name: e.zh, nameEn: e.en, routeKey: e.key, offset: slotOf(e.id), permissions: bitOf(e.id), sort: i,
}));
vi.mock('./api.ts', () => ({
  privApi: { registry: () => Promise.resolve(records) },
  roleApi: {
    permissions: (roleId: number) => Promise.resolve({ roleId, permissionIds: current }),
    savePermissions: (roleId: number, ids: number[]) => savePermissions(roleId, ids),
  },
}));

const role: Role = { id: 5, name: '值班员', companyId: 1, remark: '', createTime: 0, updateTime: 0, permissionIds: [] };
const id = (key: string) => PERMISSION_REGISTRY.find((e) => e.key === key)?.id ?? -1;

function signIn(userLevel: number) {
  act(() => setUser({ id: 1, username: 'admin', realName: null, userLevel, companyId: 1, geoInverse: false, permissions: masksFromIds(PERMISSION_REGISTRY.map((e) => e.id)) }));
}

function open() {
  render(
    <MantineProvider>
      <RolePermissionsDrawer role={role} canSave onClose={() => undefined} onSaved={() => undefined} />
    </MantineProvider>,
  );
  return screen.findByTestId('perm-tree');
}

beforeAll(stubBrowserApis);

afterEach(() => {
  cleanup();
  savePermissions.mockClear();
});

describe('the role permission drawer', () => {
  it('shows names without developer notation, explains the 全局 node, and shows ids to an administrator on demand', async () => {
    signIn(0);
    current = [];
    const tree = await open();
    expect(within(tree).getByText('全局')).toBeTruthy();
    expect(within(tree).getByTestId('perm-global-hint').textContent).toBe('全局：报警弹窗等全局功能，不勾选则该角色收不到报警弹窗');
    expect(within(tree).queryByTestId('perm-ids')).toBeNull();
    expect(tree.textContent).not.toContain('1<<');

    fireEvent.click(screen.getByLabelText('显示编号'));
    await waitFor(() => expect(within(tree).getAllByTestId('perm-ids').length).toBeGreaterThan(0));
    expect(tree.textContent).toContain(`#${id('/monitor')} · 1:1<<${id('/monitor')}`);
  });

  it('offers no id switch to a non-administrator', async () => {
    signIn(2);
    current = [];
    await open();
    expect(screen.queryByLabelText('显示编号')).toBeNull();
  });

  it('warns before saving a monitoring role without the alarm pop-up, and saves only when told to', async () => {
    signIn(0);
    current = [];
    const tree = await open();
    fireEvent.click(within(tree).getByRole('checkbox', { name: '监控中心' }));
    fireEvent.click(screen.getByTestId('perm-save'));

    const warning = await screen.findByText(/该角色包含「监控中心」的页面，但未勾选「全局 → 报警弹窗」/);
    expect(warning.textContent).toContain('将收不到报警弹窗');
    expect(savePermissions).not.toHaveBeenCalled();

    fireEvent.click(screen.getByText('返回勾选'));
    await waitFor(() => expect(screen.queryByText(/未勾选「全局 → 报警弹窗」/)).toBeNull());
    expect(savePermissions).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('perm-save'));
    fireEvent.click(await screen.findByTestId('popup-save-anyway'));
    await waitFor(() => expect(savePermissions).toHaveBeenCalledTimes(1));
    expect(savePermissions.mock.calls[0]?.[1]).toContain(id('/monitor/index'));
  });

  it('saves a monitoring role that has the alarm pop-up without asking', async () => {
    signIn(0);
    current = [id('/global'), id('/global/alarm')];
    const tree = await open();
    fireEvent.click(within(tree).getByRole('checkbox', { name: '监控中心' }));
    fireEvent.click(screen.getByTestId('perm-save'));
    await waitFor(() => expect(savePermissions).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/未勾选「全局 → 报警弹窗」/)).toBeNull();
  });
});
