/**
 * Feedback threads, the drivers'-app API and app push against a real server: an app user raises
 * feedback through the app API, the administrators of its company see, reply, filter by reply, close and
 * export it while another branch's administrators see and touch nothing; read state per side; one app
 * user's token cannot reach another's thread; a push goes queued → delivered (the app fetched it) → read
 * (the app acknowledged it); refused and malformed calls write nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_REGISTRY } from '../../../domain/permissions/registry.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

interface Theme { id: number; status: number; title: string; unreadForAdmin: number; unreadForAuthor: number; messages: number; posts?: { side: number; content: string; readTime: number | null }[] }
interface Page<T> { records: T[]; total: number; unread?: number }

let server: TestServer;
let db: SqliteStorage['db'];
let eastAdmin: string, westAdmin: string, eastViewer: string, consoleUser: string;
let eastId: number, westId: number;
let appEast: string, appEast2: string, appWest: string;
let appEastId: number, appWestId: number;

const call = <T>(method: string, url: string, token: string, body?: unknown) => server.call<T>(method, url, { token, body });
const app = <T>(method: string, url: string, appToken: string | undefined, body?: unknown) =>
  server.call<T>(method, url, { body, headers: appToken === undefined ? {} : { 'x-app-token': appToken } });
const qs = (o: Record<string, unknown>) => `?${new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

/** A key and its ancestors (a button needs its page and menus to be granted). */
function withAncestors(keys: string[]): number[] {
  const out = new Set<number>();
  for (const k of keys) {
    let e = PERMISSION_REGISTRY.find((p) => p.id === permissionId(k));
    while (e) {
      out.add(e.id);
      const pid = e.pid;
      e = PERMISSION_REGISTRY.find((p) => p.id === pid);
    }
  }
  return [...out];
}

async function appUser(username: string, companyId: number): Promise<{ id: number; token: string }> {
  const id = Number(db.prepare('INSERT INTO app_user (company_id, username, real_name, password_hash, create_time) VALUES (?, ?, ?, ?, ?)')
    .run(companyId, username, `司机${username}`, await hashPassword('app-pass-1'), Date.now()).lastInsertRowid);
  const r = await app<{ token: string }>('POST', '/service-app/api/login', undefined, { username, password: 'app-pass-1' });
  expect(r.code).toBe(200);
  return { id, token: r.data.token };
}

beforeAll(async () => {
  server = await startServer();
  db = (server.app.storage as SqliteStorage).db;
  eastId = (db.prepare("SELECT id FROM company WHERE name = '华东分公司'").get() as { id: number }).id;
  westId = (db.prepare('SELECT id FROM company WHERE pid = 1 AND id <> ? ORDER BY id LIMIT 1').get(eastId) as { id: number }).id;
  const all = withAncestors([
    '/system/feedback/appfeedback:reply', '/system/feedback/appfeedback:updateStatus', '/system/feedback/appfeedback:export',
    '/system/feedback/platformFeedBack:reply', '/system/feedback/platformFeedBack:updateStatus', '/system/feedback/platformFeedBack:export',
    '/operation/messageManagement/messageNotification:create', '/operation/messageManagement/messageNotification:publish',
    '/operation/messageManagement/messageNotification:delete',
  ]);
  eastAdmin = await createUserWithRole(server, 'fb_east_admin', eastId, all);
  westAdmin = await createUserWithRole(server, 'fb_west_admin', westId, all);
  eastViewer = await createUserWithRole(server, 'fb_east_viewer', eastId, withAncestors(['/system/feedback/appfeedback', '/operation/messageManagement/messageNotification']));
  consoleUser = await createUserWithRole(server, 'fb_console_user', eastId, [1]);
  ({ id: appEastId, token: appEast } = await appUser('fb_app_east', eastId));
  ({ token: appEast2 } = await appUser('fb_app_east2', eastId));
  ({ id: appWestId, token: appWest } = await appUser('fb_app_west', westId));
}, 90_000);
afterAll(() => server?.close());

describe('feedback threads', () => {
  it('an app user\'s feedback reaches its branch\'s administrators; a reply marks it replied and unread for the author until the app opens it', async () => {
    const raised = await app<Theme>('POST', '/service-app/api/feedback/add', appEast, { type: 2, title: '摄像头黑屏', content: '3 号通道一直黑屏' });
    expect(raised.code).toBe(200);
    expect(raised.data.status).toBe(0);
    const list = await call<Page<Theme>>('GET', `/service-priv/feedback/page${qs({ source: 1, current: 1, size: 50 })}`, eastAdmin);
    const mine = list.data.records.find((t) => t.id === raised.data.id);
    expect(mine?.unreadForAdmin).toBe(1);
    // Opening it reads the author's post on the admin side.
    const info = await call<Theme>('GET', `/service-priv/feedback/info${qs({ id: raised.data.id })}`, eastAdmin);
    expect(info.data.unreadForAdmin).toBe(0);
    const noReply = await call<Page<Theme>>('POST', '/service-priv/feedback/queryByReply', eastAdmin, { source: 1, replied: 0, current: 1, size: 50 });
    expect(noReply.data.records.map((t) => t.id)).toContain(raised.data.id);

    const reply = await call<Theme>('POST', '/service-priv/feedback/addAdminTheme', eastAdmin, { id: raised.data.id, content: '请重启终端后再试' });
    expect(reply.code).toBe(200);
    expect(reply.data.status).toBe(1);
    const replied = await call<Page<Theme>>('POST', '/service-priv/feedback/queryByReply', eastAdmin, { source: 1, replied: 1, current: 1, size: 50 });
    expect(replied.data.records.map((t) => t.id)).toContain(raised.data.id);
    expect((await call<Page<Theme>>('POST', '/service-priv/feedback/queryByReply', eastAdmin, { source: 1, replied: 0, current: 1, size: 50 })).data.records.map((t) => t.id)).not.toContain(raised.data.id);

    const appList = await app<Page<Theme>>('GET', `/service-app/api/feedback/list${qs({ current: 1, size: 20 })}`, appEast);
    expect(appList.data.records.find((t) => t.id === raised.data.id)?.unreadForAuthor).toBe(1);
    const opened = await app<Theme>('GET', `/service-app/api/feedback/info${qs({ id: raised.data.id })}`, appEast);
    expect(opened.data.unreadForAuthor).toBe(0);
    expect(opened.data.posts?.map((p) => p.content)).toEqual(['3 号通道一直黑屏', '请重启终端后再试']);
    // The author's follow-up reopens it for the administrators.
    const follow = await app<Theme>('POST', '/service-app/api/feedback/reply', appEast, { id: raised.data.id, content: '重启后仍然黑屏' });
    expect(follow.data.status).toBe(0);
  });

  it('attack: another branch\'s administrator cannot list, open, reply to or close the thread, and writes nothing', async () => {
    const t = (await app<Theme>('POST', '/service-app/api/feedback/add', appEast, { type: 3, title: '华东投诉', content: '内容' })).data;
    const west = await call<Page<Theme>>('GET', `/service-priv/feedback/page${qs({ source: 1, current: 1, size: 100 })}`, westAdmin);
    expect(west.data.records.map((r) => r.id)).not.toContain(t.id);
    expect((await call('GET', `/service-priv/feedback/info${qs({ id: t.id })}`, westAdmin)).code).toBe(404);
    const posts = server.count('feedback_message');
    expect((await call('POST', '/service-priv/feedback/addAdminTheme', westAdmin, { id: t.id, content: '越权回复' })).code).toBe(404);
    expect((await call('POST', '/service-priv/feedback/updateThemeType', westAdmin, { id: t.id, status: 2 })).code).toBe(404);
    expect(server.count('feedback_message')).toBe(posts);
    expect((db.prepare('SELECT status FROM feedback_theme WHERE id = ?').get(t.id) as { status: number }).status).toBe(0);
  });

  it('attack: an app user\'s token cannot read or answer another app user\'s thread; no or a forged token is 401', async () => {
    const t = (await app<Theme>('POST', '/service-app/api/feedback/add', appEast, { type: 1, title: '私人反馈', content: '只给管理员看' })).data;
    expect((await app('GET', `/service-app/api/feedback/info${qs({ id: t.id })}`, appEast2)).code).toBe(404);
    expect((await app('GET', `/service-app/api/feedback/info${qs({ id: t.id })}`, appWest)).code).toBe(404);
    const posts = server.count('feedback_message');
    expect((await app('POST', '/service-app/api/feedback/reply', appEast2, { id: t.id, content: '冒充' })).code).toBe(404);
    expect(server.count('feedback_message')).toBe(posts);
    expect((await app<Page<Theme>>('GET', `/service-app/api/feedback/list${qs({ current: 1, size: 50 })}`, appEast2)).data.records.map((r) => r.id)).not.toContain(t.id);
    expect((await app('GET', `/service-app/api/feedback/list${qs({ current: 1, size: 5 })}`, undefined)).code).toBe(401);
    expect((await app('GET', `/service-app/api/feedback/list${qs({ current: 1, size: 5 })}`, `${appEast.slice(0, -2)}xx`)).code).toBe(401);
    // A console session is no app token.
    expect((await server.call('GET', `/service-app/api/feedback/list${qs({ current: 1, size: 5 })}`, { token: eastAdmin })).code).toBe(401);
    expect((await app('POST', '/service-app/api/login', undefined, { username: 'fb_app_east', password: 'wrong' })).msg).toContain('用户名或密码错误');
  });

  it('a closed thread takes no more posts; status changes need the bit; bad input is refused in Chinese without writing', async () => {
    const t = (await app<Theme>('POST', '/service-app/api/feedback/add', appEast, { type: 4, title: '待关闭', content: '内容' })).data;
    const posts = server.count('feedback_message');
    expect((await call('POST', '/service-priv/feedback/updateThemeType', eastViewer, { id: t.id, status: 2 })).code).toBe(403);
    expect((await call('POST', '/service-priv/feedback/addAdminTheme', eastViewer, { id: t.id, content: '无权回复' })).code).toBe(403);
    const empty = await call('POST', '/service-priv/feedback/addAdminTheme', eastAdmin, { id: t.id, content: '   ' });
    expect(empty.code).toBe(400);
    expect(empty.msg).toContain('content');
    expect(server.count('feedback_message')).toBe(posts);
    const closed = await call<Theme>('POST', '/service-priv/feedback/updateThemeType', eastAdmin, { id: t.id, status: 2 });
    expect(closed.data.status).toBe(2);
    const late = await app('POST', '/service-app/api/feedback/reply', appEast, { id: t.id, content: '还有问题' });
    expect(late.code).toBe(400);
    expect(late.msg).toContain('反馈已关闭');
    expect(server.count('feedback_message')).toBe(posts);
    const badType = await app('POST', '/service-app/api/feedback/add', appEast, { type: 9, title: 'x', content: 'y' });
    expect(badType.code).toBe(400);
  });

  it('platform feedback: a console user raises it, an admin replies, queryIsRead shows the unread reply until opened', async () => {
    const t = await call<Theme>('POST', '/service-priv/feedback/addUserTheme', consoleUser, { type: 1, title: '报表导出太慢', content: '月报导出要等很久' });
    expect(t.code).toBe(200);
    const missing = await call('POST', '/service-priv/feedback/addUserTheme', consoleUser, { content: '没有标题' });
    expect(missing.code).toBe(400);
    await call('POST', '/service-priv/feedback/addAdminTheme', eastAdmin, { id: t.data.id, content: '已优化' });
    const unread = await call<Page<Theme>>('POST', '/service-priv/feedback/queryIsRead', consoleUser, { current: 1, size: 20, read: 0 });
    expect(unread.data.records.map((r) => r.id)).toContain(t.data.id);
    expect(unread.data.unread).toBeGreaterThanOrEqual(1);
    const opened = await call<Theme & { unread: number }>('POST', '/service-priv/feedback/queryIsRead', consoleUser, { current: 1, size: 20, id: t.data.id });
    expect(opened.data.unreadForAuthor).toBe(0);
    expect((await call<Page<Theme>>('POST', '/service-priv/feedback/queryIsRead', consoleUser, { current: 1, size: 20, read: 0 })).data.records.map((r) => r.id)).not.toContain(t.data.id);
    // Someone else's platform thread is not mine to follow up.
    expect((await call('POST', '/service-priv/feedback/addUserTheme', eastAdmin, { id: t.data.id, content: '代答' })).code).toBe(404);
    // It lists under platform feedback, not app feedback.
    const ops = await call<Page<Theme>>('POST', '/service-ops/feedback/page', eastAdmin, { source: 2, current: 1, size: 50 });
    expect(ops.data.records.map((r) => r.id)).toContain(t.data.id);
  });

  it('exports the branch\'s app feedback as .xlsx (another branch\'s thread not in it)', async () => {
    await app('POST', '/service-app/api/feedback/add', appWest, { type: 1, title: '西部导出不可见', content: 'x' });
    await app('POST', '/service-app/api/feedback/add', appEast, { type: 1, title: '华东导出可见', content: 'x' });
    const start = await call<{ taskId: string }>('POST', '/service-priv/feedback/excel', eastAdmin, { source: 1 });
    expect(start.code).toBe(200);
    let status = '';
    for (let i = 0; i < 50 && status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await call<{ status: string }>('GET', `/service-priv/feedback/export_status${qs({ taskId: start.data.taskId })}`, eastAdmin)).data.status;
    }
    expect(status).toBe('done');
    const res = await fetch(`${server.url}/service-priv/feedback/excel_file${qs({ taskId: start.data.taskId })}`, { headers: { 'x-jwt': eastAdmin } });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const titles = book.worksheets[0]!.getColumn(1).values.map(String);
    expect(titles).toContain('标题');
    expect(titles).toContain('华东导出可见');
    expect(titles).not.toContain('西部导出不可见');
    expect((await call('POST', '/service-priv/feedback/excel', eastViewer, { source: 1 })).code).toBe(403);
  });
});

describe('app push', () => {
  interface Push { id: number; status: number; recipients: number; delivered: number; readCount: number }
  interface Rec { appUserId: number; state: string }

  it('publish → the app fetches it (delivered) → acknowledges it (read); the other branch\'s app user gets nothing', async () => {
    const draft = await call<Push>('POST', '/service-command/appNotice/add', eastAdmin, { title: '安全提醒', content: '雨天路滑，请减速慢行' });
    expect(draft.code).toBe(200);
    const picker = await call<{ companyId: number; users: { id: number }[] }[]>('GET', '/service-command/appNotice/getUsersAndCompany', eastAdmin);
    expect(picker.data.flatMap((c) => c.users.map((u) => u.id))).toContain(appEastId);
    expect(picker.data.flatMap((c) => c.users.map((u) => u.id))).not.toContain(appWestId);
    const pub = await call<Push>('POST', '/service-command/appNotice/publishMsg', eastAdmin, { id: draft.data.id, appUserIds: [appEastId] });
    expect(pub.code).toBe(200);
    expect(pub.data.recipients).toBe(1);
    const states = async () => (await call<Page<Rec>>('GET', `/service-command/appNotice/recipients${qs({ id: draft.data.id, current: 1, size: 10 })}`, eastAdmin)).data.records.map((r) => r.state);
    expect(await states()).toEqual(['queued']);
    const fetched = await app<Page<{ id: number; title: string }>>('GET', `/service-app/api/notice/list${qs({ current: 1, size: 10 })}`, appEast);
    expect(fetched.data.records.map((r) => r.title)).toContain('安全提醒');
    expect(await states()).toEqual(['delivered']);
    expect((await app('POST', '/service-app/api/notice/read', appEast, { id: draft.data.id })).code).toBe(200);
    expect(await states()).toEqual(['read']);
    const west = await app<Page<{ id: number }>>('GET', `/service-app/api/notice/list${qs({ current: 1, size: 50 })}`, appWest);
    expect(west.data.records.map((r) => r.id)).not.toContain(draft.data.id);
    expect((await app('POST', '/service-app/api/notice/read', appWest, { id: draft.data.id })).code).toBe(404);
  });

  it('refuses empty content, a publish to zero users, another branch\'s app users, and callers without the bit — writing nothing', async () => {
    const notices = server.count('app_notice');
    const empty = await call('POST', '/service-command/appNotice/add', eastAdmin, { title: '空', content: '  ' });
    expect(empty.code).toBe(400);
    expect(empty.msg).toContain('content');
    expect((await call('POST', '/service-command/appNotice/add', eastAdmin, { title: '长', content: 'x'.repeat(501) })).code).toBe(400);
    expect((await call('POST', '/service-command/appNotice/add', eastViewer, { title: '无权', content: 'x' })).code).toBe(403);
    expect(server.count('app_notice')).toBe(notices);
    const d = (await call<Push>('POST', '/service-command/appNotice/add', eastAdmin, { title: '草稿', content: '内容' })).data;
    const rec = server.count('app_notice_recipient');
    const none = await call('POST', '/service-command/appNotice/publishMsg', eastAdmin, { id: d.id });
    expect(none.code).toBe(400);
    expect(none.msg).toContain('请选择接收公司或接收的APP用户');
    // A company of the subtree with no app user: zero recipients is refused.
    const bare = (await server.app.storage.companies.create(eastId, { name: '无APP用户车队', contact: '', phone: '', address: '', remark: '' })).id;
    const zero = await call('POST', '/service-command/appNotice/publishMsg', eastAdmin, { id: d.id, companyIds: [bare] });
    expect(zero.code).toBe(400);
    expect(zero.msg).toContain('没有启用的APP用户');
    const foreign = await call('POST', '/service-command/appNotice/publishMsg', eastAdmin, { id: d.id, appUserIds: [appWestId] });
    expect(foreign.code).toBe(400);
    expect(foreign.msg).toContain('不在您的管辖范围内');
    expect((await call('POST', '/service-command/appNotice/publishMsg', westAdmin, { id: d.id, appUserIds: [appWestId] })).code).toBe(404);
    expect(server.count('app_notice_recipient')).toBe(rec);
    // A whole company reaches its enabled app users.
    const all = await call<Push>('POST', '/service-command/appNotice/publishMsg', eastAdmin, { id: d.id, companyIds: [eastId] });
    expect(all.data.recipients).toBeGreaterThanOrEqual(2);
    const users = await call<Page<{ username: string }>>('GET', `/service-app/api/user/page${qs({ current: 1, size: 100 })}`, eastAdmin);
    expect(users.data.records.map((u) => u.username)).toContain('fb_app_east');
    expect(users.data.records.map((u) => u.username)).not.toContain('fb_app_west');
  });
});

describe('the app token boundary (review findings)', () => {
  const sha = (t: string) => createHash('sha256').update(t).digest('hex');
  const raise = { type: 1, title: '边界测试', content: '不应写入' };
  const seen = (id: number) => (db.prepare('SELECT last_seen_time AS t FROM app_user WHERE id = ?').get(id) as { t: number | null }).t;

  /** Every refused call: 401 in the caller's language, no thread written, the user's last_seen untouched. */
  async function refused(token: string | undefined, headers: Record<string, string> = {}, userId?: number) {
    const threads = server.count('feedback_theme');
    const before = userId === undefined ? undefined : seen(userId);
    const zh = await server.call('POST', '/service-app/api/feedback/add', { body: raise, headers: { ...headers, ...(token === undefined ? {} : { 'x-app-token': token }) } });
    expect(zh.status).toBe(401);
    expect(zh.msg).toBe('未授权，请登录');
    const en = await server.call('GET', `/service-app/api/notice/list${qs({ current: 1, size: 5 })}`, { lang: 'en', headers: { ...headers, ...(token === undefined ? {} : { 'x-app-token': token }) } });
    expect(en.status).toBe(401);
    expect(en.msg).toBe('Unauthorized, please log in');
    expect(server.count('feedback_theme')).toBe(threads);
    if (userId !== undefined) expect(seen(userId)).toBe(before);
  }

  it('attack: no token, a forged token of the right shape, an altered one and an expired one are 401 and write nothing', async () => {
    const u = await appUser('fb_app_bound1', eastId);
    await refused(undefined, {}, u.id);
    await refused(randomBytes(32).toString('base64url'), {}, u.id);
    await refused(`${u.token.slice(0, -1)}${u.token.endsWith('A') ? 'B' : 'A'}`, {}, u.id);
    db.prepare('UPDATE app_token SET expire_time = ? WHERE token_hash = ?').run(Date.now() - 1, sha(u.token));
    await refused(u.token, {}, u.id);
  });

  it('attack: the token of a disabled or a deleted app account is 401 and writes nothing', async () => {
    const disabled = await appUser('fb_app_bound2', eastId);
    expect((await app('GET', `/service-app/api/feedback/list${qs({ current: 1, size: 5 })}`, disabled.token)).code).toBe(200);
    db.prepare('UPDATE app_user SET status = 0 WHERE id = ?').run(disabled.id);
    await refused(disabled.token, {}, disabled.id);
    const deleted = await appUser('fb_app_bound3', eastId);
    db.prepare('DELETE FROM app_user WHERE id = ?').run(deleted.id);
    await refused(deleted.token);
  });

  it('attack: a console session is no app token, and an app token opens no console route', async () => {
    // The console's own token, in its own header and in the app's.
    await refused(undefined, { 'x-jwt': eastAdmin });
    await refused(eastAdmin);
    const u = await appUser('fb_app_bound4', eastId);
    const notices = server.count('app_notice');
    for (const headers of [{ 'x-jwt': u.token }, { 'x-app-token': u.token }] as Record<string, string>[]) {
      const users = await server.call('GET', `/service-app/api/user/page${qs({ current: 1, size: 5 })}`, { headers });
      expect(users.status).toBe(401);
      expect(users.msg).toBe('未授权，请登录');
      expect((await server.call('GET', `/service-priv/feedback/page${qs({ current: 1, size: 5 })}`, { headers })).status).toBe(401);
      const add = await server.call('POST', '/service-command/appNotice/add', { headers, body: { title: '冒充', content: '应用令牌不是控制台会话' } });
      expect(add.status).toBe(401);
    }
    expect(server.count('app_notice')).toBe(notices);
  });

  it('HEAD on the GETs that mark pushes delivered or replies read changes nothing', async () => {
    const u = await appUser('fb_app_head', eastId);
    const draft = (await call<{ id: number }>('POST', '/service-command/appNotice/add', eastAdmin, { title: 'HEAD 测试', content: '不应被标为已送达' })).data;
    expect((await call('POST', '/service-command/appNotice/publishMsg', eastAdmin, { id: draft.id, appUserIds: [u.id] })).code).toBe(200);
    const head = await fetch(`${server.url}/service-app/api/notice/list${qs({ current: 1, size: 10 })}`, { method: 'HEAD', headers: { 'x-app-token': u.token } });
    expect(head.status).toBe(404);
    const delivered = () => (db.prepare('SELECT delivered_time AS t FROM app_notice_recipient WHERE notice_id = ? AND app_user_id = ?').get(draft.id, u.id) as { t: number | null }).t;
    expect(delivered()).toBeNull();
    // A thread with an administrator's reply: HEAD on either side's info leaves the reply unread.
    const t = (await app<Theme>('POST', '/service-app/api/feedback/add', u.token, { type: 1, title: 'HEAD', content: '线程' })).data;
    expect((await call('POST', '/service-priv/feedback/addAdminTheme', eastAdmin, { id: t.id, content: '已收到' })).code).toBe(200);
    const unread = () => (db.prepare('SELECT count(*) AS n FROM feedback_message WHERE theme_id = ? AND read_time IS NULL').get(t.id) as { n: number }).n;
    const before = unread();
    expect(before).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/service-app/api/feedback/info${qs({ id: t.id })}`, { method: 'HEAD', headers: { 'x-app-token': u.token } })).status).toBe(404);
    expect((await fetch(`${server.url}/service-priv/feedback/info${qs({ id: t.id })}`, { method: 'HEAD', headers: { 'x-jwt': eastAdmin } })).status).toBe(404);
    expect(unread()).toBe(before);
    // The GET still does it.
    expect((await app<Page<{ id: number }>>('GET', `/service-app/api/notice/list${qs({ current: 1, size: 10 })}`, u.token)).data.records.map((r) => r.id)).toContain(draft.id);
    expect(delivered()).not.toBeNull();
  });

  it('one fetch marks exactly the pushes it returned delivered; last_seen is written at most once a minute', async () => {
    const u = await appUser('fb_app_batch', eastId);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const d = (await call<{ id: number }>('POST', '/service-command/appNotice/add', eastAdmin, { title: `批量${i}`, content: '内容' })).data;
      expect((await call('POST', '/service-command/appNotice/publishMsg', eastAdmin, { id: d.id, appUserIds: [u.id] })).code).toBe(200);
      ids.push(d.id);
    }
    const page = await app<Page<{ id: number; deliveredTime: number | null }>>('GET', `/service-app/api/notice/list${qs({ current: 1, size: 2 })}`, u.token);
    expect(page.data.records).toHaveLength(2);
    expect(page.data.records.every((r) => r.deliveredTime !== null)).toBe(true);
    const states = db.prepare(`SELECT notice_id AS id, delivered_time AS t FROM app_notice_recipient WHERE app_user_id = ? AND notice_id IN (${ids.join(',')})`).all(u.id) as { id: number; t: number | null }[];
    const returned = new Set(page.data.records.map((r) => r.id));
    for (const s of states) expect(s.t !== null).toBe(returned.has(s.id));
    // The first call wrote last_seen; within the minute the next ones do not (a marker value stays).
    expect(seen(u.id)).not.toBeNull();
    db.prepare('UPDATE app_user SET last_seen_time = 1 WHERE id = ?').run(u.id);
    for (let i = 0; i < 3; i++) expect((await app('GET', `/service-app/api/feedback/list${qs({ current: 1, size: 5 })}`, u.token)).code).toBe(200);
    expect(seen(u.id)).toBe(1);
  });
});

// Last in the file: the failures below also count against this client's address.
describe('the app sign-in is throttled like the console’s', () => {
  it('password guessing on an app account: after the free failures even the right password waits (1005 with retryAfterSeconds)', async () => {
    await appUser('fb_app_guessed', eastId);
    for (let i = 0; i < 5; i++) {
      expect((await app('POST', '/service-app/api/login', undefined, { username: 'fb_app_guessed', password: `guess-${i}` })).msg).toContain('用户名或密码错误');
    }
    const right = await app<{ retryAfterSeconds: number }>('POST', '/service-app/api/login', undefined, { username: 'fb_app_guessed', password: 'app-pass-1' });
    expect(right.code).toBe(1005);
    expect(right.data.retryAfterSeconds).toBeGreaterThan(0);
    // A console account of the same name is another account: its failures are logged apart (`app:` prefix).
    const failures = db.prepare("SELECT COUNT(*) AS n FROM login_failure WHERE username = 'app:fb_app_guessed'").get() as { n: number } | undefined;
    expect(failures?.n ?? 0).toBeGreaterThan(0);
  });
});
