// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http.ts';
import { setLanguage } from '../i18n/index.ts';
import { FormDrawer } from './FormDrawer.tsx';
import { stubBrowserApis } from './test-dom.ts';

function Form({ submit }: { submit: (v: { username: string; realName: string }) => Promise<unknown> }) {
  const form = useForm({ mode: 'controlled', initialValues: { username: 'ops', realName: '' } });
  return (
    <FormDrawer title="User" form={form} submit={submit} onClose={() => undefined} onSaved={() => undefined} testId="user-form">
      <TextInput label="User name" {...form.getInputProps('username')} data-testid="username" />
      <TextInput label="Name" {...form.getInputProps('realName')} data-testid="realName" />
    </FormDrawer>
  );
}

const refusal = (msg: string, errors: unknown) => new ApiError(400, msg, { code: 400, msg, data: null, errors });

beforeAll(stubBrowserApis);
afterEach(() => {
  cleanup();
  act(() => setLanguage('zh'));
});

describe('server field messages in the kit form', () => {
  it('shows the server\'s field problem under its field and words it again after a language switch', async () => {
    act(() => setLanguage('en'));
    const submit = vi.fn(() => Promise.reject(refusal('Field realName is invalid: must have at most 32 characters', {
      realName: { code: 'maxLength', params: { limit: 32 }, msg: 'must have at most 32 characters' },
    })));
    render(<MantineProvider><Form submit={submit} /></MantineProvider>);
    fireEvent.click(screen.getByTestId('user-form-submit'));
    expect(await screen.findByText('must have at most 32 characters')).toBeTruthy();
    expect(screen.getByTestId('server-error').textContent).toBe('Field realName is invalid: must have at most 32 characters');

    act(() => setLanguage('zh'));
    await waitFor(() => expect(screen.getByText('长度不能超过 32')).toBeTruthy());
    expect(screen.queryByText('must have at most 32 characters')).toBeNull();
    expect(screen.getByTestId('server-error').textContent).toBe('字段 realName 不合法：长度不能超过 32');

    act(() => setLanguage('en'));
    await waitFor(() => expect(screen.getByText('must have at most 32 characters')).toBeTruthy());
  });

  it('keeps the server\'s text for a code it does not know, and leaves a field the user has edited clear', async () => {
    act(() => setLanguage('zh'));
    const submit = vi.fn(() => Promise.reject(new ApiError(409, '用户名已存在', {
      code: 409, msg: '用户名已存在', data: null,
      errors: { username: { code: 'taken', msg: '已被使用' }, realName: { code: 'somethingNew', msg: '服务器的说法' } },
    })));
    render(<MantineProvider><Form submit={submit} /></MantineProvider>);
    fireEvent.click(screen.getByTestId('user-form-submit'));
    expect(await screen.findByText('已被使用')).toBeTruthy();
    expect(screen.getByText('服务器的说法')).toBeTruthy();
    expect(screen.getByTestId('server-error').textContent).toBe('用户名已存在');

    fireEvent.change(screen.getByTestId('username'), { target: { value: 'ops2' } });
    await waitFor(() => expect(screen.queryByText('已被使用')).toBeNull());
    act(() => setLanguage('en'));
    // The edited field stays clear; the unknown code keeps the server's words.
    await waitFor(() => expect(screen.getByTestId('server-error').textContent).toBe('Field username is invalid: is already taken'));
    expect(screen.queryByText('is already taken')).toBeNull();
    expect(screen.getByText('服务器的说法')).toBeTruthy();
  });

  it('still reads an older answer that names the field only in its message', async () => {
    act(() => setLanguage('en'));
    const submit = vi.fn(() => Promise.reject(new ApiError(400, 'Field username is invalid: has the wrong format', { code: 400, msg: 'Field username is invalid: has the wrong format', data: null })));
    render(<MantineProvider><Form submit={submit} /></MantineProvider>);
    fireEvent.click(screen.getByTestId('user-form-submit'));
    expect(await screen.findAllByText('Field username is invalid: has the wrong format')).toHaveLength(2);
  });
});
