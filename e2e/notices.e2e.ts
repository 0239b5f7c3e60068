/**
 * Notices against the real stack (issue 19): the operator's console is open; the administrator writes a
 * notice on 消息发布 and publishes it to the operator; without a reload the operator's bell shows 1 unread
 * (pushed as `noticeUnread` through the stream worker); opening it from the dropdown shows its content
 * and the bell goes back to 0; the administrator's delivery log shows it read.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

// Ports 0: no fixed gateway, media or FTP port, so parallel servers never collide.
const e2e = useE2E({ seedVehicles: 5, env: { GATEWAY_PORT: '0', MEDIA_PORT: '0', FTP_PORT: '0' } });

describe('notices', () => {
  test('admin publishes → the operator\'s open console shows unread 1 → opens it → 0; the log shows it read', async () => {
    // The demo seed left the operator an unread notice: read them all first, so the count starts at 0.
    const operatorToken = await e2e.server.token(ACCOUNTS.operator);
    const cleared = await e2e.server.api<{ unread: number }>('/service-priv/notice/user/read', { method: 'POST', token: operatorToken, body: { all: true } });
    expect(cleared.data.unread).toBe(0);

    const operator = await e2e.newPage();
    await login(operator, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
    // Off the live map the operator lands on: its software-WebGL frames starve the other page's clicks on a loaded machine.
    await operator.goto(consolePath('/monitor/videoMonitor'));
    const bell = operator.getByTestId('notice-bell');
    await expect.poll(() => bell.getAttribute('data-unread'), { timeout: 20_000 }).toBe('0');

    const admin = await e2e.newPage();
    await login(admin, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await admin.goto(consolePath('/system/message/messageMgm'));
    await admin.getByRole('button', { name: '新增' }).click();
    // Spec §5: content is required — an empty content is refused in words, nothing saved.
    await admin.getByTestId('notice-title').fill('今晚 22:00 系统升级');
    await admin.getByTestId('notice-form-submit').click();
    await admin.getByText('请输入消息内容').waitFor();
    await admin.getByTestId('notice-content-input').fill('升级期间轨迹回放暂停 30 分钟，实时监控不受影响。');
    await admin.getByTestId('notice-form-submit').click();
    await admin.getByTestId('notice-form').waitFor({ state: 'detached' });
    const row = admin.locator('tr', { hasText: '今晚 22:00 系统升级' });
    await row.locator('[data-action="publish"]').click();
    await admin.getByTestId('notice-publish').getByText('指定用户').click();
    await admin.getByTestId('publish-users').click();
    await admin.getByTestId('publish-users').fill('operator');
    await admin.getByRole('option', { name: /operator/ }).click();
    // The picker stays open for more names: a click on the dialog's title closes it.
    await admin.getByText('发布消息：今晚 22:00 系统升级').click();
    await admin.getByTestId('publish-submit').click();
    await admin.getByTestId('notice-publish').waitFor({ state: 'detached' });
    await row.getByText('已发布').waitFor();

    // The operator's console, never reloaded, shows the new notice.
    await expect.poll(() => bell.getAttribute('data-unread'), { timeout: 15_000 }).toBe('1');
    await bell.click();
    const item = operator.getByTestId('notice-item').filter({ hasText: '今晚 22:00 系统升级' });
    await item.click();
    await expect.poll(() => operator.getByTestId('notice-content').textContent()).toContain('轨迹回放暂停 30 分钟');
    await expect.poll(() => bell.getAttribute('data-unread'), { timeout: 15_000 }).toBe('0');

    // The administrator's delivery log: the operator received and read it.
    await row.locator('[data-action="log"]').click();
    const logRow = admin.getByTestId('notice-log').locator('tr', { hasText: 'operator' });
    await logRow.waitFor();
    await expect.poll(() => logRow.textContent()).not.toContain('未读');
  });
});

describe('menu favourites', () => {
  // A page without a map (as above).
  test('the operator stars the page it is on; another session shows it starred and listed; unstarring removes it for the user', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
    await page.goto(consolePath('/monitor/videoMonitor'));
    const star = page.getByTestId('favourites');
    await expect.poll(() => star.getAttribute('data-starred'), { timeout: 20_000 }).toBe('false');
    await star.click();
    await page.getByTestId('favourite-toggle').click();
    await expect.poll(() => star.getAttribute('data-starred')).toBe('true');

    // Stored on the server for this user: another browser session shows the page starred and lists it.
    const again = await e2e.newPage();
    await login(again, ACCOUNTS.operator.username, ACCOUNTS.operator.password);
    await again.goto(consolePath('/monitor/videoMonitor'));
    const star2 = again.getByTestId('favourites');
    await expect.poll(() => star2.getAttribute('data-starred'), { timeout: 20_000 }).toBe('true');
    await star2.click();
    await again.getByTestId('favourite-item').filter({ hasText: '多路视频' }).waitFor();
    // Unstarred there, gone for the user.
    await again.getByTestId('favourite-toggle').click();
    await expect.poll(() => star2.getAttribute('data-starred')).toBe('false');
    const token = await e2e.server.token(ACCOUNTS.operator);
    expect((await e2e.server.api<unknown[]>('/service-priv/usermenu/mycollection', { method: 'GET', token })).data).toEqual([]);
  });
});
