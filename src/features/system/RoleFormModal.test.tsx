// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROLE_LIMITS } from '../../../domain/management/limits.ts';
import { ApiError } from '../../api/http.ts';
import { RoleFormModal } from './RoleFormModal.tsx';
import { stubBrowserApis } from '../../kit/test-dom.ts';

const create = vi.fn();
vi.mock('./api.ts', () => ({ roleApi: { create: (...a: unknown[]) => create(...a) as unknown, update: vi.fn() } }));

beforeAll(stubBrowserApis);

afterEach(() => {
  cleanup();
  create.mockReset();
});

function open(onSaved = vi.fn()) {
  render(
    <MantineProvider>
      <RoleFormModal role={undefined} onClose={() => undefined} onSaved={onSaved} />
    </MantineProvider>,
  );
  return onSaved;
}

const nameInput = () => screen.getByRole('textbox', { name: /角色名称/ });

describe('the role form drawer', () => {
  it('says the name is required and sends nothing', async () => {
    open();
    fireEvent.change(nameInput(), { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('role-form-submit'));
    expect(await screen.findByText('必填')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });

  it('refuses a name over the limit the server also holds, with the number', async () => {
    open();
    fireEvent.change(nameInput(), { target: { value: 'x'.repeat(ROLE_LIMITS.name + 1) } });
    fireEvent.click(screen.getByTestId('role-form-submit'));
    expect(await screen.findByText(`最多 ${ROLE_LIMITS.name} 个字符`)).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });

  it('shows the server\'s refusal under the field it names and stays open', async () => {
    create.mockRejectedValueOnce(new ApiError(400, '角色名称已存在', { code: 400, msg: '角色名称已存在', errors: { name: '角色名称已存在' } }));
    const onSaved = open();
    fireEvent.change(nameInput(), { target: { value: '值班员' } });
    fireEvent.click(screen.getByTestId('role-form-submit'));
    await waitFor(() => expect(screen.getAllByText('角色名称已存在')).toHaveLength(2));
    expect(screen.getByTestId('server-error').textContent).toBe('角色名称已存在');
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('sends the trimmed values and reports the save', async () => {
    create.mockResolvedValueOnce({ id: 9 });
    const onSaved = open();
    fireEvent.change(nameInput(), { target: { value: '  值班员 ' } });
    fireEvent.click(screen.getByTestId('role-form-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledWith({ name: '值班员', remark: '' });
  });
});
