/**
 * Feedback and app push against the real stack (issue 19): the simulated drivers'-app users (server/sim/
 * app-users.ts, sped up here) raise feedback through the app API; the administrator opens one on APP反馈,
 * replies and sees it 已回复; then writes a push on APP推送, publishes it to one simulated app user and,
 * without touching the app, watches that user's state go 已送达 then 已读 as the simulated app fetches and
 * acknowledges it.
 */
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, consolePath, login, useE2E } from './harness.ts';

const e2e = useE2E({
  seedVehicles: 5,
  env: { GATEWAY_PORT: '0', MEDIA_PORT: '0', FTP_PORT: '0', SIM_APP_POLL_MS: '2000', SIM_APP_FEEDBACK_CHANCE: '0.3', SIM_APP_READ_DELAY_MS: '3000' },
});

describe('feedback and app push', () => {
  test('reply to a simulated app user\'s feedback → 已回复; push to a simulated app user → 已送达 → 已读', async () => {
    const admin = await e2e.newPage();
    await login(admin, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await admin.goto(consolePath('/system/feedback/appfeedback'));
    // The simulated app users raise threads on their own; the list refreshes on a filter change.
    const openRow = admin.locator('tr').filter({ has: admin.locator('[data-testid="feedback-status"][data-status="0"]') }).first();
    await expect.poll(async () => {
      if ((await openRow.count()) === 0) await admin.reload();
      return openRow.count();
    }, { timeout: 60_000, interval: 3000 }).toBeGreaterThan(0);
    await openRow.locator('[data-action="open"]').click();
    const thread = admin.getByTestId('feedback-thread');
    await thread.getByTestId('thread-post').first().waitFor();
    // Content is required: an empty reply is refused in words.
    await thread.getByTestId('feedback-reply-send').click();
    await thread.getByText('请输入回复内容').waitFor();
    await thread.getByTestId('feedback-reply-input').fill('已收到，技术人员今天联系您。');
    await thread.getByTestId('feedback-reply-send').click();
    await expect.poll(() => thread.getByTestId('thread-status').getAttribute('data-status')).toBe('1');
    await expect.poll(() => thread.getByTestId('thread-status').textContent()).toBe('已回复');

    // App push to one simulated app user.
    await admin.goto(consolePath('/operation/messageManagement/messageNotification'));
    await admin.getByRole('button', { name: '新增' }).click();
    await admin.getByTestId('push-title').fill('雨天安全提醒');
    await admin.getByTestId('push-form-submit').click();
    await admin.getByText('请输入推送内容').waitFor();
    await admin.getByTestId('push-content').fill('今天有雨，请减速慢行，保持车距。');
    await admin.getByTestId('push-form-submit').click();
    await admin.getByTestId('push-form').waitFor({ state: 'detached' });
    const row = admin.locator('tr', { hasText: '雨天安全提醒' });
    await row.locator('[data-action="publish"]').click();
    const dialog = admin.getByTestId('push-publish');
    await dialog.getByTestId('push-targets').click();
    await dialog.getByTestId('push-targets').fill('driver01');
    await admin.getByRole('option', { name: /driver01/ }).click();
    await admin.getByText('发布推送：雨天安全提醒').click();
    await dialog.getByTestId('push-publish-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await row.locator('[data-action="detail"]').click();
    const state = admin.getByTestId('push-detail').getByTestId('push-state');
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toMatch(/已送达|已读/);
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe('已读');
  });
});
