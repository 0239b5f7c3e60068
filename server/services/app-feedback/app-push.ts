/**
 * App push (issue 19, /operation/messageManagement/messageNotification; design: ./CONTEXT.md): a message
 * to users of the drivers' app, written as a draft (appNotice/add), published once (appNotice/publishMsg)
 * to chosen app users or whole companies of the caller's subtree. Publishing expands the targets into
 * `app_notice_recipient` rows, each queued until the app fetches it (delivered) and acknowledges it (read)
 * through the app API (./app-api.ts).
 *
 * State-changing routes carry the notice id as `id` so the audit hook names it.
 */
import { Type } from '@fastify/type-provider-typebox';
import { APP_NOTICE_CONTENT_MAX, APP_NOTICE_TARGETS_MAX, APP_NOTICE_TITLE_MAX, deliveryState } from '../../../domain/app-feedback/rules.ts';
import type { Storage } from '../../db/repositories.ts';
import { scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, IdList, PageFields, Strict, Text, type App } from '../../http/route.ts';

export const APP_PUSH_PAGE = '/operation/messageManagement/messageNotification';

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const AppPushMessages = {
  notFound: pair('推送消息不存在', 'No such app message'),
  notDraft: pair('只有草稿可以修改或发布', 'Only a draft can be edited or published'),
  published: pair('已发布的推送不能删除', 'A published app message cannot be deleted'),
  noTargets: pair('请选择接收公司或接收的APP用户', 'Choose the companies or the app users to send to'),
  companiesOutOfScope: (ids: string): Message => pair(`公司不存在或不在您的管辖范围内：${ids}`, `No such company in your scope: ${ids}`),
  usersOutOfScope: (ids: string): Message => pair(`APP用户不存在、已停用或不在您的管辖范围内：${ids}`, `No such enabled app user in your scope: ${ids}`),
  noRecipients: pair('所选公司没有启用的APP用户', 'The chosen companies have no enabled app user'),
} as const;

const Fields = {
  title: Type.String({ minLength: 1, maxLength: APP_NOTICE_TITLE_MAX, pattern: '\\S' }),
  // Spec §5: content required.
  content: Type.String({ minLength: 1, maxLength: APP_NOTICE_CONTENT_MAX, pattern: '\\S' }),
};

interface NoticeRow {
  id: number; title: string; content: string; company_id: number; company_name: string; status: number; created_by_name: string;
  create_time: number; update_time: number; publish_time: number | null; recipients: number; delivered: number; read_count: number;
}
const SELECT = `
  SELECT n.*, c.name AS company_name,
    (SELECT count(*) FROM app_notice_recipient r WHERE r.notice_id = n.id) AS recipients,
    (SELECT count(*) FROM app_notice_recipient r WHERE r.notice_id = n.id AND r.delivered_time IS NOT NULL) AS delivered,
    (SELECT count(*) FROM app_notice_recipient r WHERE r.notice_id = n.id AND r.read_time IS NOT NULL) AS read_count
  FROM app_notice n JOIN company c ON c.id = n.company_id`;
const view = (r: NoticeRow) => ({
  id: r.id, title: r.title, content: r.content, companyId: r.company_id, companyName: r.company_name, status: r.status, createdByName: r.created_by_name,
  createTime: r.create_time, updateTime: r.update_time, publishTime: r.publish_time, recipients: r.recipients, delivered: r.delivered, readCount: r.read_count,
});

export function appPushRoutes(app: App, deps: { storage: Storage }): void {
  const { storage } = deps;
  const db = (storage as SqliteStorage).db;

  function noticeIn(scope: Scope, id: number): NoticeRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`${SELECT} WHERE n.id = ? AND ${cond.sql}`).get(id, ...cond.params) as NoticeRow | undefined;
    if (!row) throw fail.notFound(AppPushMessages.notFound);
    return row;
  }

  /** The enabled app users a publication reaches, after checking every target lies in the caller's scope. */
  function recipientsFor(ctx: AuthContext, b: { companyIds?: number[]; appUserIds?: number[] }): number[] {
    const companyIds = b.companyIds ?? [];
    const userIds = b.appUserIds ?? [];
    if (companyIds.length === 0 && userIds.length === 0) throw badField('appUserIds', AppPushMessages.noTargets, 'required');
    const cond = scopeCondition(ctx.scope, 'c');
    const users = new Set<number>();
    if (companyIds.length > 0) {
      const found = db.prepare(`SELECT c.id FROM company c WHERE c.id IN (${companyIds.map(() => '?').join(',')}) AND ${cond.sql}`).all(...companyIds, ...cond.params) as { id: number }[];
      const missing = companyIds.filter((id) => !found.some((c) => c.id === id));
      if (missing.length > 0) throw badField('companyIds', AppPushMessages.companiesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
      // A company's own app users (a sub-company is chosen on its own: the picker lists companies with app users).
      const of = db.prepare('SELECT id FROM app_user WHERE status = 1 AND company_id = ?');
      for (const c of found) for (const u of of.all(c.id) as { id: number }[]) users.add(u.id);
    }
    if (userIds.length > 0) {
      const found = db.prepare(`SELECT a.id FROM app_user a JOIN company c ON c.id = a.company_id WHERE a.id IN (${userIds.map(() => '?').join(',')}) AND a.status = 1 AND ${cond.sql}`)
        .all(...userIds, ...cond.params) as { id: number }[];
      const missing = userIds.filter((id) => !found.some((u) => u.id === id));
      if (missing.length > 0) throw badField('appUserIds', AppPushMessages.usersOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
      for (const u of userIds) users.add(u);
    }
    return [...users];
  }

  app.post('/service-command/appNotice/page', {
    config: { permission: APP_PUSH_PAGE, audit: false },
    schema: { body: Strict({ ...PageFields, title: Type.Optional(Text(APP_NOTICE_TITLE_MAX)), status: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const cond = scopeCondition(await narrowedScope(storage, ctx, b.companyId), 'c');
    let where = `WHERE ${cond.sql}`;
    const params: unknown[] = [...cond.params];
    const title = b.title?.trim() ?? '';
    if (title) { where += " AND n.title LIKE ? ESCAPE '\\'"; params.push(`%${title.replace(/[\\%_]/g, (m) => `\\${m}`)}%`); }
    if (b.status !== undefined) { where += ' AND n.status = ?'; params.push(b.status); }
    const total = (db.prepare(`SELECT count(*) AS n FROM app_notice n JOIN company c ON c.id = n.company_id ${where}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`${SELECT} ${where} ORDER BY n.id DESC LIMIT ? OFFSET ?`).all(...params, b.size, (b.current - 1) * b.size) as NoticeRow[];
    return ok({ records: rows.map(view), total, current: b.current, size: b.size }, requestLang(request));
  });

  app.post('/service-command/appNotice/add', { config: { permission: `${APP_PUSH_PAGE}:create` }, schema: { body: Strict(Fields) } }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const now = Date.now();
    const r = db.prepare(`INSERT INTO app_notice (title, content, company_id, status, created_by, created_by_name, create_time, update_time) VALUES (?, ?, ?, 0, ?, ?, ?, ?)`)
      .run(b.title.trim(), b.content.trim(), ctx.user.companyId, ctx.user.id, ctx.user.realName || ctx.user.username, now, now);
    return ok(view(noticeIn(ctx.scope, Number(r.lastInsertRowid))), requestLang(request));
  });

  app.post('/service-command/appNotice/update', { config: { permission: `${APP_PUSH_PAGE}:update` }, schema: { body: Strict({ id: Id, ...Fields }) } }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    if (noticeIn(ctx.scope, b.id).status !== 0) throw fail.badRequest(AppPushMessages.notDraft);
    db.prepare('UPDATE app_notice SET title = ?, content = ?, update_time = ? WHERE id = ?').run(b.title.trim(), b.content.trim(), Date.now(), b.id);
    return ok(view(noticeIn(ctx.scope, b.id)), requestLang(request));
  });

  app.post('/service-command/appNotice/delete', { config: { permission: `${APP_PUSH_PAGE}:delete` }, schema: { body: Strict({ ids: IdList }) } }, async (request) => {
    const ctx = auth(request);
    const rows = request.body.ids.map((id) => noticeIn(ctx.scope, id));
    if (rows.some((r) => r.status !== 0)) throw fail.badRequest(AppPushMessages.published);
    const del = db.prepare('DELETE FROM app_notice WHERE id = ?');
    db.transaction(() => { for (const r of rows) del.run(r.id); })();
    return ok({ deleted: rows.length }, requestLang(request));
  });

  app.post('/service-command/appNotice/publishMsg', {
    config: { permission: `${APP_PUSH_PAGE}:publish` },
    schema: {
      body: Strict({
        id: Id,
        companyIds: Type.Optional(Type.Array(Id, { maxItems: APP_NOTICE_TARGETS_MAX, uniqueItems: true })),
        appUserIds: Type.Optional(Type.Array(Id, { maxItems: APP_NOTICE_TARGETS_MAX, uniqueItems: true })),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    if (noticeIn(ctx.scope, b.id).status !== 0) throw fail.badRequest(AppPushMessages.notDraft);
    const users = recipientsFor(ctx, b);
    // No publication to zero users: the companies chosen had no enabled app user.
    if (users.length === 0) throw badField('companyIds', AppPushMessages.noRecipients, 'empty');
    const now = Date.now();
    db.transaction(() => {
      const target = db.prepare('INSERT INTO app_notice_target (notice_id, company_id, app_user_id) VALUES (?, ?, ?)');
      for (const c of b.companyIds ?? []) target.run(b.id, c, null);
      for (const u of b.appUserIds ?? []) target.run(b.id, null, u);
      const rec = db.prepare('INSERT INTO app_notice_recipient (notice_id, app_user_id, send_time) VALUES (?, ?, ?)');
      for (const u of users) rec.run(b.id, u, now);
      db.prepare('UPDATE app_notice SET status = 1, publish_time = ?, update_time = ? WHERE id = ?').run(now, now, b.id);
    })();
    return ok(view(noticeIn(ctx.scope, b.id)), requestLang(request));
  });

  /** Per-recipient delivery state of one published message (queued → delivered → read). */
  app.get('/service-command/appNotice/recipients', {
    config: { permission: APP_PUSH_PAGE },
    schema: { querystring: Strict({ id: Id, ...PageFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    noticeIn(ctx.scope, q.id);
    const total = (db.prepare('SELECT count(*) AS n FROM app_notice_recipient WHERE notice_id = ?').get(q.id) as { n: number }).n;
    const rows = db.prepare(`SELECT a.id AS appUserId, a.username, a.real_name AS realName, c.name AS companyName, r.send_time AS sendTime,
        r.delivered_time AS deliveredTime, r.read_time AS readTime
      FROM app_notice_recipient r JOIN app_user a ON a.id = r.app_user_id JOIN company c ON c.id = a.company_id
      WHERE r.notice_id = ? ORDER BY a.id LIMIT ? OFFSET ?`).all(q.id, q.size, (q.current - 1) * q.size) as { deliveredTime: number | null; readTime: number | null }[];
    return ok({ records: rows.map((r) => ({ ...r, state: deliveryState(r) })), total, current: q.current, size: q.size }, requestLang(request));
  });

  /** The publish picker: the companies of the caller's subtree that have enabled app users, each with its users. */
  app.get('/service-command/appNotice/getUsersAndCompany', {
    config: { permission: APP_PUSH_PAGE },
    schema: { querystring: Strict({ keyword: Type.Optional(Text(50)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const cond = scopeCondition(await narrowedScope(storage, ctx, q.companyId), 'c');
    const kw = q.keyword?.trim() ?? '';
    const like = `%${kw.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const rows = db.prepare(`SELECT a.id, a.username, a.real_name AS realName, c.id AS companyId, c.name AS companyName
      FROM app_user a JOIN company c ON c.id = a.company_id WHERE a.status = 1 AND ${cond.sql}
      ${kw ? "AND (a.username LIKE ? ESCAPE '\\' OR a.real_name LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\')" : ''}
      ORDER BY c.path, a.id LIMIT 2000`).all(...cond.params, ...(kw ? [like, like, like] : [])) as { id: number; username: string; realName: string; companyId: number; companyName: string }[];
    const companies = new Map<number, { companyId: number; companyName: string; users: { id: number; username: string; realName: string }[] }>();
    for (const r of rows) {
      const c = companies.get(r.companyId) ?? { companyId: r.companyId, companyName: r.companyName, users: [] };
      c.users.push({ id: r.id, username: r.username, realName: r.realName });
      companies.set(r.companyId, c);
    }
    return ok([...companies.values()], requestLang(request));
  });

  /** App users of the caller's subtree, paged (catalogue: GET /service-app/api/user/page). */
  app.get('/service-app/api/user/page', {
    config: { permission: APP_PUSH_PAGE },
    schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Text(50)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const cond = scopeCondition(await narrowedScope(storage, ctx, q.companyId), 'c');
    let where = `WHERE ${cond.sql}`;
    const params: unknown[] = [...cond.params];
    const kw = q.keyword?.trim() ?? '';
    if (kw) {
      const like = `%${kw.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      where += " AND (a.username LIKE ? ESCAPE '\\' OR a.real_name LIKE ? ESCAPE '\\' OR a.phone LIKE ? ESCAPE '\\')";
      params.push(like, like, like);
    }
    const total = (db.prepare(`SELECT count(*) AS n FROM app_user a JOIN company c ON c.id = a.company_id ${where}`).get(...params) as { n: number }).n;
    const records = db.prepare(`SELECT a.id, a.username, a.real_name AS realName, a.phone, a.status, a.driver_id AS driverId, c.id AS companyId, c.name AS companyName,
        a.create_time AS createTime, a.last_seen_time AS lastSeenTime
      FROM app_user a JOIN company c ON c.id = a.company_id ${where} ORDER BY a.id LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size);
    return ok({ records, total, current: q.current, size: q.size }, requestLang(request));
  });
}
