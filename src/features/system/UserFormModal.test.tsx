// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { setUser } from '../../session/store.ts';
import { UserFormModal } from './UserFormModal.tsx';

const create = vi.fn();
vi.mock('./api.ts', () => ({ userApi: { create: (...a: unknown[]) => create(...a) as unknown, update: vi.fn() } }));

beforeAll(() => {
  stubBrowserApis();
  act(() => setUser({ id: 1, username: 'admin', realName: null, userLevel: 0, companyId: 1, geoInverse: false, permissions: [] }));
});
afterEach(() => {
  cleanup();
  create.mockReset();
});

function open(onSaved = vi.fn()) {
  render(
    <MantineProvider>
      <UserFormModal
        user={undefined}
        defaultCompanyId={1}
        companies={[{ id: 1, pid: 0, name: '总公司', childCount: 0, vehicleCount: 0 }]}
        roles={[]}
        onClose={() => undefined}
        onSaved={onSaved}
      />
    </MantineProvider>,
  );
  return onSaved;
}

describe('the user form drawer', () => {
  it('words the username and password rules with their limits and sends nothing', async () => {
    open();
    fireEvent.change(screen.getByRole('textbox', { name: /用户名/ }), { target: { value: 'ab' } });
    fireEvent.change(screen.getByRole('textbox', { name: /电话/ }), { target: { value: 'call me' } });
    fireEvent.click(screen.getByTestId('user-form-submit'));
    expect(await screen.findByText('长度为 3–32 个字符')).toBeTruthy();
    expect(screen.getByText('必填')).toBeTruthy(); // the password of a new user
    expect(screen.getByText('电话号码只能包含数字、空格、+ 和 -，最多 20 个字符')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });

  it('creates a user of the preselected company, its expiry typed as 2030-01-02 08:00, and reports the save', async () => {
    create.mockResolvedValueOnce({ id: 5 });
    const onSaved = open();
    fireEvent.change(screen.getByRole('textbox', { name: /用户名/ }), { target: { value: 'duty01' } });
    fireEvent.change(screen.getByLabelText(/^密码/), { target: { value: 'secret99' } });
    const expire = screen.getByTestId('user-expire');
    fireEvent.change(expire, { target: { value: '2030-01-02 08:00' } });
    fireEvent.blur(expire);
    fireEvent.click(screen.getByTestId('user-form-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ username: 'duty01', password: 'secret99', companyId: 1, userLevel: 2, expireTime: new Date(2030, 0, 2, 8, 0).getTime() }));
  });
});
