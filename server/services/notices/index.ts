/**
 * Notices, the message log and user menu favourites (issue 19; contract: ./api.md).
 *
 * A notice is written (title, content, level) as a draft, published to companies (each with or without
 * its sub-companies) or to chosen users, and withdrawn. Publishing expands the targets ONCE into
 * `notice_recipient` rows (one per user, with send, delivery and read times): that row set is what each
 * user sees and the message log. Every change of a user's unread count goes to that user's open consoles
 * through the push hub (`noticeUnread`, a per-user message: server/push/hub.ts `publishToUser`), so the
 * header's bell moves without a reload. Company scoping: the management list shows notices written in
 * the caller's subtree; targets must lie in it; a reader sees only the notices they received.
 *
 * State-changing routes carry the notice id as `id` (or `ids`) so the audit hook (server/http) names it.
 */
import { Type } from '@fastify/type-provider-typebox';
import { entryByKey } from '../../../domain/permissions/access.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathRange, scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope, permits, type AuthContext } from '../../http/auth.ts';
import { badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, IdList, Name, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { PushHub } from '../../push/hub.ts';

/** The publishing screen and its buttons (domain/permissions/registry.ts, ids 530–535). */
export const NOTICE_PAGE = '/system/message/messageMgm';
export const NOTICE_TITLE_MAX = 100;
/** Spec §5: content is required; 5,000 characters is a long page of text, still one screen to read. */
export const NOTICE_CONTENT_MAX = 5000;
/** 1 normal, 2 important, 3 urgent. */
export const NOTICE_LEVELS = [1, 2, 3] as const;
/** Companies or users one publication may name (spec §5: at most 500 selected at once). */
export const NOTICE_TARGETS_MAX = 500;
/** Entries the header's dropdown shows. */
export const LATEST_MAX = 5;
/** Favourites one user may keep: a menu longer than this is no shortcut. */
export const FAVOURITES_MAX = 50;

export const NoticeStatus = { draft: 0, published: 1, withdrawn: 2 } as const;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const NoticeMessages = {
  notFound: pair('消息不存在', 'No such notice'),
  notDraft: pair('只有草稿可以修改或发布', 'Only a draft can be edited or published'),
  notPublished: pair('只有已发布的消息可以撤回', 'Only a published notice can be withdrawn'),
  published: pair('已发布的消息须先撤回再删除', 'Withdraw a published notice before deleting it'),
  noTargets: pair('请选择接收公司或接收用户', 'Choose the companies or the users to send to'),
  bothTargets: pair('接收公司和接收用户只能选择一种', 'Choose either companies or users, not both'),
  companiesOutOfScope: (ids: string): Message => pair(`公司不存在或不在您的管辖范围内：${ids}`, `No such company in your scope: ${ids}`),
  usersOutOfScope: (ids: string): Message => pair(`用户不存在或不在您的管辖范围内：${ids}`, `No such user in your scope: ${ids}`),
  noRecipients: pair('所选范围内没有启用的用户', 'No enabled user in the chosen companies'),
  notMenu: pair('不是可收藏的菜单', 'Not a menu page that can be collected'),
  tooManyFavourites: pair(`最多收藏 ${FAVOURITES_MAX} 个菜单`, `At most ${FAVOURITES_MAX} favourites`),
} as const;

interface NoticeRow {
  id: number; title: string; content: string; level: number; company_id: number; company_name: string; status: number;
  created_by: number | null; created_by_name: string; create_time: number; update_time: number; publish_time: number | null;
  withdraw_time: number | null; recipients: number; read_count: number;
}

const Level = Type.Union(NOTICE_LEVELS.map((l) => Type.Literal(l)));
const NoticeFields = {
  title: Name(NOTICE_TITLE_MAX),
  // Spec §5 "message content required": at least one character that is not white space.
  content: Type.String({ minLength: 1, maxLength: NOTICE_CONTENT_MAX, pattern: '\\S' }),
  level: Type.Optional(Level),
};
const Flag = Type.Union([Type.Literal(0), Type.Literal(1)]);
const RouteKey = Type.String({ minLength: 2, maxLength: 200, pattern: '^/[A-Za-z0-9_/.-]+$' });

export interface NoticeDeps {
  readonly storage: Storage;
  /** The push hub (registered before these routes); absent in a bare app. */
  readonly push: () => PushHub | undefined;
}

export function noticeRoutes(app: App, deps: NoticeDeps): void {
  const { storage } = deps;
  const db = (storage as SqliteStorage).db;

  const NOTICE_SELECT = `
    SELECT n.*, c.name AS company_name,
      (SELECT count(*) FROM notice_recipient r WHERE r.notice_id = n.id) AS recipients,
      (SELECT count(*) FROM notice_recipient r WHERE r.notice_id = n.id AND r.read_time IS NOT NULL) AS read_count
    FROM notice n JOIN company c ON c.id = n.company_id`;

  function targetsOf(id: number) {
    const rows = db.prepare(`
      SELECT t.company_id, t.include_sub, t.user_id, c.name AS company_name, u.username, u.real_name
      FROM notice_target t LEFT JOIN company c ON c.id = t.company_id LEFT JOIN user u ON u.id = t.user_id
      WHERE t.notice_id = ? ORDER BY t.rowid`).all(id) as { company_id: number | null; include_sub: number; user_id: number | null; company_name: string | null; username: string | null; real_name: string | null }[];
    return rows.map((t) => (t.company_id !== null
      ? { companyId: t.company_id, companyName: t.company_name ?? '', includeSub: t.include_sub === 1 }
      : { userId: t.user_id, username: t.username ?? '', realName: t.real_name ?? '' }));
  }

  function noticeView(r: NoticeRow) {
    return {
      id: r.id, title: r.title, content: r.content, level: r.level, companyId: r.company_id, companyName: r.company_name, status: r.status,
      createdBy: r.created_by, createdByName: r.created_by_name, createTime: r.create_time, updateTime: r.update_time,
      publishTime: r.publish_time, withdrawTime: r.withdraw_time, recipients: r.recipients, readCount: r.read_count, targets: targetsOf(r.id),
    };
  }

  function noticeIn(scope: Scope, id: number): NoticeRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`${NOTICE_SELECT} WHERE n.id = ? AND ${cond.sql}`).get(id, ...cond.params) as NoticeRow | undefined;
    if (!row) throw fail.notFound(NoticeMessages.notFound);
    return row;
  }

  function unreadOf(userId: number): number {
    return (db.prepare(`SELECT count(*) AS n FROM notice_recipient r JOIN notice n ON n.id = r.notice_id
      WHERE r.user_id = ? AND r.read_time IS NULL AND n.status = 1`).get(userId) as { n: number }).n;
  }

  /**
   * Tells each user's open consoles their new unread count; a console that received it counts as
   * delivered for `noticeId` (the message log's delivery time).
   */
  function pushUnread(userIds: Iterable<number>, noticeId: number | null): void {
    const hub = deps.push();
    if (!hub) return;
    const now = Date.now();
    const delivered = db.prepare('UPDATE notice_recipient SET delivered_time = ? WHERE notice_id = ? AND user_id = ? AND delivered_time IS NULL');
    for (const userId of userIds) {
      const sent = hub.publishToUser(userId, { unread: unreadOf(userId), noticeId });
      if (sent > 0 && noticeId !== null) delivered.run(now, noticeId, userId);
    }
  }

  /** The users a publication reaches (enabled ones), after checking every target lies in the caller's scope. */
  function recipientsFor(ctx: AuthContext, b: { companyIds?: number[]; includeSub?: boolean; userIds?: number[] }): number[] {
    const companyIds = b.companyIds ?? [];
    const userIds = b.userIds ?? [];
    if (companyIds.length === 0 && userIds.length === 0) throw badField('companyIds', NoticeMessages.noTargets, 'required');
    if (companyIds.length > 0 && userIds.length > 0) throw badField('userIds', NoticeMessages.bothTargets);
    const cond = scopeCondition(ctx.scope, 'c');
    if (companyIds.length > 0) {
      const found = db.prepare(`SELECT c.id, c.path FROM company c WHERE c.id IN (${companyIds.map(() => '?').join(',')}) AND ${cond.sql}`)
        .all(...companyIds, ...cond.params) as { id: number; path: string }[];
      const missing = companyIds.filter((id) => !found.some((c) => c.id === id));
      if (missing.length > 0) throw badField('companyIds', NoticeMessages.companiesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
      const users = new Set<number>();
      const byPath = db.prepare(`SELECT u.id FROM user u JOIN company c ON c.id = u.company_id WHERE u.status = 1 AND c.path >= ? AND c.path < ?`);
      const byCompany = db.prepare('SELECT u.id FROM user u WHERE u.status = 1 AND u.company_id = ?');
      for (const c of found) {
        const rows = (b.includeSub ? byPath.all(...pathRange(c.path)) : byCompany.all(c.id)) as { id: number }[];
        for (const r of rows) users.add(r.id);
      }
      return [...users];
    }
    const found = db.prepare(`SELECT u.id FROM user u JOIN company c ON c.id = u.company_id WHERE u.id IN (${userIds.map(() => '?').join(',')}) AND u.status = 1 AND ${cond.sql}`)
      .all(...userIds, ...cond.params) as { id: number }[];
    const missing = userIds.filter((id) => !found.some((u) => u.id === id));
    if (missing.length > 0) throw badField('userIds', NoticeMessages.usersOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
    return userIds;
  }

  // ------------------------------------------------------------------ writing and publishing

  app.post('/service-priv/notice/page', {
    config: { permission: NOTICE_PAGE, audit: false },
    schema: { body: Strict({ ...PageFields, title: Type.Optional(Text(NOTICE_TITLE_MAX)), status: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const scope = await narrowedScope(storage, ctx, b.companyId);
    const cond = scopeCondition(scope, 'c');
    const title = b.title?.trim() ?? '';
    let where = `WHERE ${cond.sql}`;
    const params: unknown[] = [...cond.params];
    if (title) {
      where += " AND n.title LIKE ? ESCAPE '\\'";
      params.push(`%${title.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    }
    if (b.status !== undefined) {
      where += ' AND n.status = ?';
      params.push(b.status);
    }
    const total = (db.prepare(`SELECT count(*) AS n FROM notice n JOIN company c ON c.id = n.company_id ${where}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`${NOTICE_SELECT} ${where} ORDER BY n.id DESC LIMIT ? OFFSET ?`).all(...params, b.size, (b.current - 1) * b.size) as NoticeRow[];
    return ok({ records: rows.map(noticeView), total, current: b.current, size: b.size }, requestLang(request));
  });

  app.post('/service-priv/notice/add', {
    config: { permission: `${NOTICE_PAGE}:create` },
    schema: { body: Strict(NoticeFields) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const now = Date.now();
    const r = db.prepare(`INSERT INTO notice (title, content, level, company_id, status, created_by, created_by_name, create_time, update_time)
      VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)`).run(b.title.trim(), b.content.trim(), b.level ?? 1, ctx.user.companyId, ctx.user.id, ctx.user.realName || ctx.user.username, now, now);
    return ok(noticeView(noticeIn(ctx.scope, Number(r.lastInsertRowid))), requestLang(request));
  });

  app.post('/service-priv/notice/update', {
    config: { permission: `${NOTICE_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...NoticeFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = noticeIn(ctx.scope, b.id);
    if (row.status !== NoticeStatus.draft) throw fail.badRequest(NoticeMessages.notDraft);
    db.prepare('UPDATE notice SET title = ?, content = ?, level = ?, update_time = ? WHERE id = ?').run(b.title.trim(), b.content.trim(), b.level ?? row.level, Date.now(), b.id);
    return ok(noticeView(noticeIn(ctx.scope, b.id)), requestLang(request));
  });

  app.post('/service-priv/notice/publish', {
    config: { permission: `${NOTICE_PAGE}:publish` },
    schema: {
      body: Strict({
        id: Id,
        companyIds: Type.Optional(Type.Array(Id, { maxItems: NOTICE_TARGETS_MAX, uniqueItems: true })),
        includeSub: Type.Optional(Type.Boolean()),
        userIds: Type.Optional(Type.Array(Id, { maxItems: NOTICE_TARGETS_MAX, uniqueItems: true })),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = noticeIn(ctx.scope, b.id);
    if (row.status !== NoticeStatus.draft) throw fail.badRequest(NoticeMessages.notDraft);
    const users = recipientsFor(ctx, b);
    if (users.length === 0) throw badField(b.companyIds?.length ? 'companyIds' : 'userIds', NoticeMessages.noRecipients, 'empty');
    const now = Date.now();
    db.transaction(() => {
      const target = db.prepare('INSERT INTO notice_target (notice_id, company_id, include_sub, user_id) VALUES (?, ?, ?, ?)');
      for (const c of b.companyIds ?? []) target.run(b.id, c, b.includeSub ? 1 : 0, null);
      for (const u of b.userIds ?? []) target.run(b.id, null, 0, u);
      const rec = db.prepare('INSERT INTO notice_recipient (notice_id, user_id, send_time) VALUES (?, ?, ?)');
      for (const u of users) rec.run(b.id, u, now);
      db.prepare('UPDATE notice SET status = 1, publish_time = ?, update_time = ? WHERE id = ?').run(now, now, b.id);
    })();
    pushUnread(users, b.id);
    return ok(noticeView(noticeIn(ctx.scope, b.id)), requestLang(request));
  });

  app.post('/service-priv/notice/withdraw', {
    config: { permission: `${NOTICE_PAGE}:withdraw` },
    schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = noticeIn(ctx.scope, b.id);
    if (row.status !== NoticeStatus.published) throw fail.badRequest(NoticeMessages.notPublished);
    const now = Date.now();
    // Only those who had not read it see their count fall; the rows stay for the message log.
    const unreadUsers = (db.prepare('SELECT user_id FROM notice_recipient WHERE notice_id = ? AND read_time IS NULL').all(b.id) as { user_id: number }[]).map((r) => r.user_id);
    db.prepare('UPDATE notice SET status = 2, withdraw_time = ?, update_time = ? WHERE id = ?').run(now, now, b.id);
    pushUnread(unreadUsers, null);
    return ok(noticeView(noticeIn(ctx.scope, b.id)), requestLang(request));
  });

  app.post('/service-priv/notice/delete', {
    config: { permission: `${NOTICE_PAGE}:delete` },
    schema: { body: Strict({ ids: IdList }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const rows = b.ids.map((id) => noticeIn(ctx.scope, id));
    if (rows.some((r) => r.status === NoticeStatus.published)) throw fail.badRequest(NoticeMessages.published);
    db.transaction(() => {
      const del = db.prepare('DELETE FROM notice WHERE id = ?');
      for (const r of rows) del.run(r.id);
    })();
    return ok(rows.length, requestLang(request));
  });

  /** Users a notice can be sent to: enabled users of the caller's subtree, by name (the publish form's picker). */
  app.post('/service-priv/notice/recipients', {
    config: { permission: `${NOTICE_PAGE}:publish` },
    schema: { body: Strict({ ...PageFields, keyword: Type.Optional(Text(50)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const scope = await narrowedScope(storage, ctx, b.companyId);
    const cond = scopeCondition(scope, 'c');
    const kw = b.keyword?.trim() ?? '';
    const like = `%${kw.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const where = `WHERE u.status = 1 AND ${cond.sql}${kw ? " AND (u.username LIKE ? ESCAPE '\\' OR u.real_name LIKE ? ESCAPE '\\')" : ''}`;
    const params: unknown[] = [...cond.params, ...(kw ? [like, like] : [])];
    const total = (db.prepare(`SELECT count(*) AS n FROM user u JOIN company c ON c.id = u.company_id ${where}`).get(...params) as { n: number }).n;
    const records = db.prepare(`SELECT u.id, u.username, u.real_name AS realName, c.name AS companyName FROM user u JOIN company c ON c.id = u.company_id
      ${where} ORDER BY u.username LIMIT ? OFFSET ?`).all(...params, b.size, (b.current - 1) * b.size);
    return ok({ records, total, current: b.current, size: b.size }, requestLang(request));
  });

  // ------------------------------------------------------------------ message log

  app.get('/service-priv/msgLog/page', {
    config: { permission: `${NOTICE_PAGE}:log` },
    schema: { querystring: Strict({ ...PageFields, noticeId: Type.Optional(Id), read: Type.Optional(Flag), keyword: Type.Optional(Text(50)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    let where = `WHERE ${cond.sql}`;
    const params: unknown[] = [...cond.params];
    if (q.noticeId !== undefined) {
      where += ' AND r.notice_id = ?';
      params.push(q.noticeId);
    }
    if (q.read !== undefined) where += q.read === 1 ? ' AND r.read_time IS NOT NULL' : ' AND r.read_time IS NULL';
    const kw = q.keyword?.trim() ?? '';
    if (kw) {
      const like = `%${kw.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      where += " AND (u.username LIKE ? ESCAPE '\\' OR u.real_name LIKE ? ESCAPE '\\' OR n.title LIKE ? ESCAPE '\\')";
      params.push(like, like, like);
    }
    // Scoped by the notice's company (who wrote it), like the management list.
    const from = `FROM notice_recipient r JOIN notice n ON n.id = r.notice_id JOIN company c ON c.id = n.company_id
      JOIN user u ON u.id = r.user_id JOIN company uc ON uc.id = u.company_id`;
    const total = (db.prepare(`SELECT count(*) AS n ${from} ${where}`).get(...params) as { n: number }).n;
    const records = db.prepare(`SELECT r.notice_id AS noticeId, n.title, n.level, n.status, n.created_by_name AS senderName, r.user_id AS userId,
        u.username, u.real_name AS realName, uc.name AS companyName, r.send_time AS sendTime, r.delivered_time AS deliveredTime, r.read_time AS readTime
      ${from} ${where} ORDER BY r.send_time DESC, r.notice_id DESC, u.username LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size);
    return ok({ records, total, current: q.current, size: q.size }, requestLang(request));
  });

  // ------------------------------------------------------------------ my notices (any signed-in user)

  const MINE = `FROM notice_recipient r JOIN notice n ON n.id = r.notice_id WHERE r.user_id = ? AND n.status = 1`;
  const MINE_COLUMNS = `n.id, n.title, n.content, n.level, n.created_by_name AS senderName, n.publish_time AS publishTime, r.read_time AS readTime`;
  interface MineRow { id: number; title: string; content: string; level: number; senderName: string; publishTime: number; readTime: number | null }

  /** Fetching a notice counts as delivered (a console that was closed at publish time). */
  function markDelivered(userId: number, rows: readonly MineRow[]): void {
    if (rows.length === 0) return;
    db.prepare(`UPDATE notice_recipient SET delivered_time = ? WHERE user_id = ? AND delivered_time IS NULL AND notice_id IN (${rows.map(() => '?').join(',')})`)
      .run(Date.now(), userId, ...rows.map((r) => r.id));
  }

  app.post('/service-priv/notice/user/page', {
    config: { permission: 'session', audit: false },
    schema: { body: Strict({ ...PageFields, read: Type.Optional(Flag), title: Type.Optional(Text(NOTICE_TITLE_MAX)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    let where = MINE;
    const params: unknown[] = [ctx.user.id];
    if (b.read !== undefined) where += b.read === 1 ? ' AND r.read_time IS NOT NULL' : ' AND r.read_time IS NULL';
    const title = b.title?.trim() ?? '';
    if (title) {
      where += " AND n.title LIKE ? ESCAPE '\\'";
      params.push(`%${title.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    }
    const total = (db.prepare(`SELECT count(*) AS n ${where}`).get(...params) as { n: number }).n;
    const records = db.prepare(`SELECT ${MINE_COLUMNS} ${where} ORDER BY n.publish_time DESC, n.id DESC LIMIT ? OFFSET ?`).all(...params, b.size, (b.current - 1) * b.size) as MineRow[];
    markDelivered(ctx.user.id, records);
    return ok({ records, total, current: b.current, size: b.size, unread: unreadOf(ctx.user.id) }, requestLang(request));
  });

  /** The header's bell: the unread count and the latest notices (unread first). */
  app.post('/service-priv/notice/user/list', {
    config: { permission: 'session', audit: false },
    schema: { body: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    const records = db.prepare(`SELECT ${MINE_COLUMNS} ${MINE} ORDER BY r.read_time IS NOT NULL, n.publish_time DESC, n.id DESC LIMIT ?`).all(ctx.user.id, LATEST_MAX) as MineRow[];
    markDelivered(ctx.user.id, records);
    return ok({ unread: unreadOf(ctx.user.id), records }, requestLang(request));
  });

  /** One of my notices; opening it marks it read (the bell's count falls on every console of this user). */
  app.post('/service-priv/notice/user/info', {
    config: { permission: 'session' },
    schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = db.prepare(`SELECT ${MINE_COLUMNS} ${MINE} AND n.id = ?`).get(ctx.user.id, request.body.id) as MineRow | undefined;
    if (!row) throw fail.notFound(NoticeMessages.notFound);
    if (row.readTime === null) {
      const now = Date.now();
      db.prepare('UPDATE notice_recipient SET read_time = ?, delivered_time = coalesce(delivered_time, ?) WHERE notice_id = ? AND user_id = ?').run(now, now, row.id, ctx.user.id);
      pushUnread([ctx.user.id], null);
      row.readTime = now;
    }
    return ok({ ...row, unread: unreadOf(ctx.user.id) }, requestLang(request));
  });

  /** Marks the given notices (or, with `all`, every one) of mine read. */
  app.post('/service-priv/notice/user/read', {
    config: { permission: 'session' },
    schema: { body: Strict({ ids: Type.Optional(IdList), all: Type.Optional(Type.Boolean()) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    if (!b.all && !b.ids) throw badField('ids', NoticeMessages.notFound, 'required');
    const now = Date.now();
    const only = b.all ? '' : ` AND notice_id IN (${(b.ids ?? []).map(() => '?').join(',')})`;
    const r = db.prepare(`UPDATE notice_recipient SET read_time = ?, delivered_time = coalesce(delivered_time, ?)
      WHERE user_id = ? AND read_time IS NULL AND notice_id IN (SELECT id FROM notice WHERE status = 1)${only}`).run(now, now, ctx.user.id, ...(b.all ? [] : (b.ids ?? [])));
    if (r.changes > 0) pushUnread([ctx.user.id], null);
    return ok({ changed: r.changes, unread: unreadOf(ctx.user.id) }, requestLang(request));
  });

  // ------------------------------------------------------------------ user menu favourites

  /** A page of the registry the caller may open (a button or an unknown key is no menu). */
  function menuKey(ctx: AuthContext, routeKey: string): string {
    const entry = entryByKey(routeKey);
    if (!entry || entry.type !== 1 || !permits(ctx, routeKey)) throw badField('routeKey', NoticeMessages.notMenu, 'notMenu');
    return entry.key;
  }

  function favouritesOf(ctx: AuthContext) {
    const rows = db.prepare('SELECT route_key AS routeKey, create_time AS createTime FROM user_menu_favourite WHERE user_id = ? ORDER BY create_time, route_key').all(ctx.user.id) as { routeKey: string; createTime: number }[];
    // A page whose permission was taken away since stays stored but is not offered.
    return rows.filter((r) => entryByKey(r.routeKey)?.type === 1 && permits(ctx, r.routeKey));
  }

  app.get('/service-priv/usermenu/mycollection', {
    config: { permission: 'session' },
    schema: { querystring: Strict({}) },
  }, async (request) => ok(favouritesOf(auth(request)), requestLang(request)));

  app.post('/service-priv/usermenu/collect', {
    config: { permission: 'session' },
    schema: { body: Strict({ routeKey: RouteKey }) },
  }, async (request) => {
    const ctx = auth(request);
    const key = menuKey(ctx, request.body.routeKey);
    const count = (db.prepare('SELECT count(*) AS n FROM user_menu_favourite WHERE user_id = ?').get(ctx.user.id) as { n: number }).n;
    const exists = db.prepare('SELECT 1 FROM user_menu_favourite WHERE user_id = ? AND route_key = ?').get(ctx.user.id, key);
    if (!exists && count >= FAVOURITES_MAX) throw badField('routeKey', NoticeMessages.tooManyFavourites, 'maxItems');
    db.prepare('INSERT OR IGNORE INTO user_menu_favourite (user_id, route_key, create_time) VALUES (?, ?, ?)').run(ctx.user.id, key, Date.now());
    return ok(favouritesOf(ctx), requestLang(request));
  });

  app.post('/service-priv/usermenu/cancel', {
    config: { permission: 'session' },
    schema: { body: Strict({ routeKey: RouteKey }) },
  }, async (request) => {
    const ctx = auth(request);
    db.prepare('DELETE FROM user_menu_favourite WHERE user_id = ? AND route_key = ?').run(ctx.user.id, request.body.routeKey);
    return ok(favouritesOf(ctx), requestLang(request));
  });
}
