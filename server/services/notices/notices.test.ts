/**
 * Notices against a real server: a notice published to one branch reaches that branch's users only
 * (the other branch sees nothing, in its list, its count or by id), read state is per user, the unread
 * count reaches the user's open console through the push channel, withdrawal takes it back, the message
 * log says who got what and when; refused and malformed calls write nothing; favourites per user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { connectPush } from '../../push/test-client.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

interface Notice { id: number; title: string; status: number; recipients: number; readCount: number; targets: unknown[] }
interface Mine { records: { id: number; title: string; readTime: number | null }[]; total: number; unread: number }

let server: TestServer;
let db: SqliteStorage['db'];
let admin: string;
let writer: string, eastA: string, eastB: string, west: string;
let eastId: number, westId: number;

const call = <T>(method: string, url: string, token: string, body?: unknown) => server.call<T>(method, url, { token, body });
const unread = async (token: string) => (await call<{ unread: number }>('POST', '/service-priv/notice/user/list', token, {})).data.unread;

beforeAll(async () => {
  server = await startServer();
  db = (server.app.storage as SqliteStorage).db;
  admin = await server.login('admin', 'admin123');
  eastId = (db.prepare("SELECT id FROM company WHERE name = '华东分公司'").get() as { id: number }).id;
  westId = (db.prepare('SELECT id FROM company WHERE pid = 1 AND id <> ? ORDER BY id LIMIT 1').get(eastId) as { id: number }).id;
  const fleetOfEast = (db.prepare('SELECT id FROM company WHERE pid = ? ORDER BY id LIMIT 1').get(eastId) as { id: number }).id;
  const page = permissionId('/system/message/messageMgm');
  writer = await createUserWithRole(server, 'nt_writer', 1, [134, 151, page, 530, 531, 532, 533, 534, 535].map((id) => id));
  eastA = await createUserWithRole(server, 'nt_east_a', eastId, [1]);
  eastB = await createUserWithRole(server, 'nt_east_b', fleetOfEast, [1]);
  west = await createUserWithRole(server, 'nt_west', westId, [1]);
}, 60_000);
afterAll(() => server?.close());

describe('notices', () => {
  it('a notice for the east branch reaches its users (with sub-companies) and is invisible to the west branch', async () => {
    const before = { a: await unread(eastA), b: await unread(eastB), w: await unread(west) };
    const draft = await call<Notice>('POST', '/service-priv/notice/add', writer, { title: '华东 例会', content: '周一 9 点例会', level: 2 });
    expect(draft.code).toBe(200);
    expect(draft.data.status).toBe(0);
    // A draft reaches nobody.
    expect(await unread(eastA)).toBe(before.a);
    const pub = await call<Notice>('POST', '/service-priv/notice/publish', writer, { id: draft.data.id, companyIds: [eastId], includeSub: true });
    expect(pub.code).toBe(200);
    expect(pub.data.status).toBe(1);
    expect(await unread(eastA)).toBe(before.a + 1);
    expect(await unread(eastB)).toBe(before.b + 1);
    expect(await unread(west)).toBe(before.w);
    const westList = await call<Mine>('POST', '/service-priv/notice/user/page', west, { current: 1, size: 50 });
    expect(westList.data.records.map((r) => r.title)).not.toContain('华东 例会');
    expect((await call('POST', '/service-priv/notice/user/info', west, { id: draft.data.id })).code).toBe(404);
    // Without sub-companies the fleet under the branch is not reached.
    const d2 = await call<Notice>('POST', '/service-priv/notice/add', writer, { title: '只给分公司', content: '本部' });
    await call('POST', '/service-priv/notice/publish', writer, { id: d2.data.id, companyIds: [eastId] });
    const bList = await call<Mine>('POST', '/service-priv/notice/user/page', eastB, { current: 1, size: 50 });
    expect(bList.data.records.map((r) => r.title)).not.toContain('只给分公司');
    const aList = await call<Mine>('POST', '/service-priv/notice/user/page', eastA, { current: 1, size: 50 });
    expect(aList.data.records.map((r) => r.title)).toContain('只给分公司');
  });

  it('read state is per user: opening marks it read for that user only; read filter and mark-all-read', async () => {
    const d = (await call<Notice>('POST', '/service-priv/notice/add', writer, { title: '每人已读', content: '内容' })).data;
    await call('POST', '/service-priv/notice/publish', writer, { id: d.id, companyIds: [eastId], includeSub: true });
    const a0 = await unread(eastA);
    const b0 = await unread(eastB);
    const opened = await call<{ readTime: number; unread: number }>('POST', '/service-priv/notice/user/info', eastA, { id: d.id });
    expect(opened.code).toBe(200);
    expect(opened.data.readTime).toBeGreaterThan(0);
    expect(opened.data.unread).toBe(a0 - 1);
    expect(await unread(eastB)).toBe(b0);
    const unreadOnly = await call<Mine>('POST', '/service-priv/notice/user/page', eastB, { current: 1, size: 50, read: 0 });
    expect(unreadOnly.data.records.map((r) => r.id)).toContain(d.id);
    expect((await call<Mine>('POST', '/service-priv/notice/user/page', eastA, { current: 1, size: 50, read: 0 })).data.records.map((r) => r.id)).not.toContain(d.id);
    const all = await call<{ unread: number }>('POST', '/service-priv/notice/user/read', eastB, { all: true });
    expect(all.data.unread).toBe(0);
    // The message log shows who read it.
    const log = await call<{ records: { username: string; readTime: number | null; sendTime: number }[] }>('GET', `/service-priv/msgLog/page?current=1&size=50&noticeId=${d.id}`, writer);
    const byUser = new Map(log.data.records.map((r) => [r.username, r]));
    expect(byUser.get('nt_east_a')?.readTime).toBeGreaterThan(0);
    expect(byUser.get('nt_east_b')?.readTime).toBeGreaterThan(0);
    expect(byUser.has('nt_west')).toBe(false);
    expect(byUser.get('branch')?.readTime).toBeNull();
  });

  it('the unread count reaches the user\'s open console through the push channel; withdrawal takes it back', async () => {
    const socket = await connectPush(server.url, eastA);
    const socketWest = await connectPush(server.url, west);
    try {
      const d = (await call<Notice>('POST', '/service-priv/notice/add', writer, { title: '推送测试', content: '内容' })).data;
      const before = await unread(eastA);
      await call('POST', '/service-priv/notice/publish', writer, { id: d.id, userIds: [(db.prepare("SELECT id FROM user WHERE username = 'nt_east_a'").get() as { id: number }).id] });
      const pushed = await socket.waitFor(() => socket.received.find((m) => m.headers.commandType === 'noticeUnread' && (m as { data: { noticeId: number } }).data.noticeId === d.id));
      expect((pushed as { data: { unread: number } }).data.unread).toBe(before + 1);
      // Delivered: the open console got it.
      const row = db.prepare('SELECT delivered_time FROM notice_recipient WHERE notice_id = ?').get(d.id) as { delivered_time: number | null };
      expect(row.delivered_time).toBeGreaterThan(0);
      const n = socket.received.length;
      const w = await call<Notice>('POST', '/service-priv/notice/withdraw', writer, { id: d.id });
      expect(w.data.status).toBe(2);
      const after = await socket.waitFor(() => socket.received.slice(n).find((m) => m.headers.commandType === 'noticeUnread'));
      expect((after as { data: { unread: number } }).data.unread).toBe(before);
      expect(await unread(eastA)).toBe(before);
      expect(socketWest.received.some((m) => m.headers.commandType === 'noticeUnread')).toBe(false);
    } finally {
      socket.close();
      socketWest.close();
    }
  });

  it('refuses without the bit (403) and with bad input (400 naming the field) without writing; content is required', async () => {
    const notices = server.count('notice');
    expect((await call('POST', '/service-priv/notice/add', eastA, { title: 't', content: 'c' })).code).toBe(403);
    const empty = await call('POST', '/service-priv/notice/add', writer, { title: '标题', content: '   ' });
    expect(empty.code).toBe(400);
    expect(empty.msg).toContain('content');
    expect((await call('POST', '/service-priv/notice/add', writer, { title: '标题' })).code).toBe(400);
    expect(server.count('notice')).toBe(notices);
    const d = (await call<Notice>('POST', '/service-priv/notice/add', writer, { title: '无目标', content: 'c' })).data;
    const recipients = server.count('notice_recipient');
    const none = await call('POST', '/service-priv/notice/publish', writer, { id: d.id });
    expect(none.code).toBe(400);
    // A branch administrator cannot publish to another branch (outside its scope).
    const branch = await createUserWithRole(server, 'nt_branch_writer', eastId, [134, 151, 152, 530, 533]);
    const mine = (await call<Notice>('POST', '/service-priv/notice/add', branch, { title: '分公司', content: 'c' })).data;
    const out = await call('POST', '/service-priv/notice/publish', branch, { id: mine.id, companyIds: [westId] });
    expect(out.code).toBe(400);
    expect(out.msg).toContain('companyIds');
    // And it does not see the head office's notices.
    expect((await call('POST', '/service-priv/notice/publish', branch, { id: d.id, companyIds: [eastId] })).code).toBe(404);
    expect(server.count('notice_recipient')).toBe(recipients);
    // Published notices must be withdrawn before deletion.
    const p = (await call<Notice>('POST', '/service-priv/notice/add', writer, { title: '删除', content: 'c' })).data;
    await call('POST', '/service-priv/notice/publish', writer, { id: p.id, companyIds: [westId] });
    expect((await call('POST', '/service-priv/notice/delete', writer, { ids: [p.id] })).code).toBe(400);
    await call('POST', '/service-priv/notice/withdraw', writer, { id: p.id });
    expect((await call('POST', '/service-priv/notice/delete', writer, { ids: [p.id] })).code).toBe(200);
  });

  it('the demo seed has the administrator\'s notices: the operator has one unread, the branch one more', async () => {
    const operator = await server.login('operator', 'operator123');
    const list = await call<Mine>('POST', '/service-priv/notice/user/page', operator, { current: 1, size: 50 });
    expect(list.data.records.map((r) => r.title)).toContain('平台维护通知');
    expect(list.data.records.map((r) => r.title)).not.toContain('华东分公司夏季安全检查');
    const branch = await server.login('branch', 'branch123');
    const bl = await call<Mine>('POST', '/service-priv/notice/user/page', branch, { current: 1, size: 50 });
    expect(bl.data.records.map((r) => r.title)).toContain('华东分公司夏季安全检查');
  });
});

describe('user menu favourites', () => {
  it('collects a page the user may open, per user, refuses buttons and pages it may not see, cancels', async () => {
    const c = await call<{ routeKey: string }[]>('POST', '/service-priv/usermenu/collect', writer, { routeKey: '/system/message/messageMgm' });
    expect(c.code).toBe(200);
    expect(c.data.map((f) => f.routeKey)).toEqual(['/system/message/messageMgm']);
    expect((await call<{ routeKey: string }[]>('GET', '/service-priv/usermenu/mycollection', writer)).data.map((f) => f.routeKey)).toEqual(['/system/message/messageMgm']);
    expect((await call<unknown[]>('GET', '/service-priv/usermenu/mycollection', eastA)).data).toEqual([]);
    expect((await call('POST', '/service-priv/usermenu/collect', eastA, { routeKey: '/system/message/messageMgm' })).code).toBe(400);
    expect((await call('POST', '/service-priv/usermenu/collect', writer, { routeKey: '/system/message/messageMgm:create' })).code).toBe(400);
    const x = await call<unknown[]>('POST', '/service-priv/usermenu/cancel', writer, { routeKey: '/system/message/messageMgm' });
    expect(x.data).toEqual([]);
    expect(admin).toBeTruthy();
  });
});
