/**
 * The session from the user's side: a failed login, signing out, a session revoked while in use,
 * and a reload that cannot reach the server (which must not sign the operator out).
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, routeOf, submitLogin, useE2E } from './harness.ts';

const e2e = useE2E();

describe('session', () => {
  test('a wrong password shows the catalogue message in the chosen language', async () => {
    const page = await e2e.newPage();
    await page.goto(consolePath('/login'));
    await submitLogin(page, ACCOUNTS.admin.username, 'not-the-password');
    await page.getByTestId('login-error').getByText('用户名或密码错误').waitFor();
    expect(routeOf(page.url())).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    // Switching the language re-renders the message that is already shown (issue 13).
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('login-error').getByText('Wrong user name or password').waitFor();

    // The stored language decides the message's language.
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    await page.reload();
    await submitLogin(page, ACCOUNTS.admin.username, 'still-not-the-password');
    await page.getByTestId('login-error').getByText('Wrong user name or password').waitFor();
    expect(routeOf(page.url())).toBe('/login');
  });

  test('sign-out asks for confirmation, then lands on the login page of the stored login type', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password, '/scenicLogin');
    await page.getByTestId('user-display-name').waitFor();
    const signedInAt = routeOf(page.url());
    expect(await page.evaluate(() => localStorage.getItem('loginType'))).toBe('scenic');
    // Sign-out also forgets remember-me and the stored playback types (spec §4).
    await page.evaluate(() => {
      localStorage.setItem('rememberMe', 'admin');
      localStorage.setItem('playType3', '1');
    });

    // Cancelling keeps the session.
    await page.getByTestId('sign-out').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('确定要退出登录吗？').waitFor();
    await page.getByTestId('sign-out-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(routeOf(page.url())).toBe(signedInAt);
    expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();

    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-out-confirm').click();
    await page.waitForURL((url) => routeOf(url.href) === '/scenicLogin');
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('token'),
      rememberMe: localStorage.getItem('rememberMe'),
      playType3: localStorage.getItem('playType3'),
      loginType: localStorage.getItem('loginType'),
    }));
    expect(stored).toEqual({ token: null, rememberMe: null, playType3: null, loginType: 'scenic' });
    await page.getByText('智慧景区管理平台').first().waitFor();
  });

  test('a session whose token is revoked mid-use goes to /login?redirect=… and returns to that page after logging in again', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.branch.username, ACCOUNTS.branch.password);
    await page.goto(consolePath('/system/role'));
    await page.getByTestId('nav-/system/user').waitFor();

    // The administrator revokes every session of the branch administrator through the API.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).not.toBeNull();
    const me = await e2e.server.api<{ user: { id: number } }>('/service-priv/user/current', { token: token ?? '' });
    expect(me.code).toBe(200);
    const adminToken = await e2e.server.token(ACCOUNTS.admin);
    const revoked = await e2e.server.api('/service-priv/user/revokeSessions', { token: adminToken, body: { id: me.data.user.id } });
    expect(revoked.code).toBe(200);

    // The next request (the user page loading its list) answers 401.
    await page.getByTestId('nav-/system/user').click();
    await page.waitForURL((url) => routeOf(url.href) === '/login');
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect).toBe('/system/user');

    await submitLogin(page, ACCOUNTS.branch.username, ACCOUNTS.branch.password);
    await page.waitForURL((url) => routeOf(url.href) === '/system/user');
    await page.locator('[data-perm="/system/user:create"]').first().waitFor();
  });

  test('a reload that cannot reach the server shows the network error and keeps the operator signed in', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(consolePath('/system/role'));
    await page.getByTestId('nav-/system/user').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('token'));

    // The restore call fails as when the page is left mid-request or the server is away.
    await page.route('**/service-priv/user/current*', (route) => route.abort('failed'));
    await page.reload();
    await page.getByTestId('route-error').getByText('网络异常，请检查网络').waitFor();
    expect(routeOf(page.url())).toBe('/system/role');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);

    // Once the server answers again, the same page comes back without a new login.
    await page.unroute('**/service-priv/user/current*');
    await page.getByTestId('route-error').getByRole('button').click();
    await page.getByTestId('nav-/system/user').waitFor();
    expect(routeOf(page.url())).toBe('/system/role');
  });
});
