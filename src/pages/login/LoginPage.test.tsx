// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.ts';
import LoginPage from './LoginPage.tsx';

// The page reads ?redirect from the router; these tests never get as far as navigating.
vi.mock('@tanstack/react-router', () => ({ useRouterState: () => ({}) }));

/** The server's answer to the next sign-in, as the real one words it in Chinese. */
function answer(body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })));
}

async function signIn() {
  render(<MantineProvider><LoginPage loginType="default" /></MantineProvider>);
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: 'operator' } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'guess' } });
  await act(async () => {
    fireEvent.click(screen.getByTestId('login-submit'));
  });
}

describe('the login page', () => {
  beforeAll(() => {
    // jsdom has no matchMedia; Mantine reads the colour scheme from it
    window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    act(() => setLanguage('zh'));
  });

  it('shows a server error in Chinese and reads it in English after the language switch', async () => {
    act(() => setLanguage('zh'));
    answer({ code: 1001, msg: '用户名或密码错误', data: null });
    await signIn();
    expect(screen.getByTestId('login-error').textContent).toBe('用户名或密码错误');
    act(() => fireEvent.click(screen.getByTestId('lang-switch')));
    expect(screen.getByTestId('login-error').textContent).toBe('Wrong user name or password');
  });

  it('re-renders a validation message in the new language', async () => {
    act(() => setLanguage('zh'));
    render(<MantineProvider><LoginPage loginType="default" /></MantineProvider>);
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-submit'));
    });
    expect(screen.getByText('请输入用户名')).toBeTruthy();
    act(() => fireEvent.click(screen.getByTestId('lang-switch')));
    expect(screen.getByText('Enter the user name', { exact: false })).toBeTruthy();
  });

  it('states a back-off wait, counts it down in either language and keeps the button disabled until it is over', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    act(() => setLanguage('zh'));
    answer({ code: 1005, msg: '登录失败次数过多，请 1 分 35 秒后再试', data: { retryAfterSeconds: 95 } });
    await signIn();
    expect(screen.getByTestId('login-error').textContent).toBe('登录失败次数过多，请 1 分 35 秒后再试');
    expect(screen.getByTestId('login-submit').hasAttribute('disabled')).toBe(true);
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByTestId('login-error').textContent).toBe('登录失败次数过多，请 1 分 33 秒后再试');
    act(() => fireEvent.click(screen.getByTestId('lang-switch')));
    expect(screen.getByTestId('login-error').textContent).toBe('Too many failed sign-ins. Try again in 1 min 33 s.');
    act(() => vi.advanceTimersByTime(93_000));
    expect(screen.queryByTestId('login-error')).toBeNull();
    expect(screen.getByTestId('login-submit').hasAttribute('disabled')).toBe(false);
  });
});
