/**
 * Feedback threads (issue 19; design: ./CONTEXT.md). A thread ("theme") is raised by a console user
 * (platform feedback) or by a drivers'-app user (app feedback, through ./app-api.ts); administrators of
 * the thread's company subtree reply, list, filter by reply, change its status and export it.
 *
 * State-changing routes carry the thread id as `id` so the audit hook names it.
 */
import { Type } from '@fastify/type-provider-typebox';
import {
  acceptsPosts, FEEDBACK_CONTENT_MAX, FEEDBACK_EXPORT_CAP, FEEDBACK_MESSAGES_MAX, FEEDBACK_TITLE_MAX, FEEDBACK_TYPES, FeedbackSource,
  statusAfterPost, type FeedbackSourceId, type FeedbackStatusId,
} from '../../../domain/app-feedback/rules.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { Storage } from '../../db/repositories.ts';
import { scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope, permits, type AuthContext } from '../../http/auth.ts';
import { badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { EpochMs, Id, PageFields, Strict, Text, type App } from '../../http/route.ts';
import { ExportJobs } from '../export-jobs.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';

export const APP_FEEDBACK_PAGE = '/system/feedback/appfeedback';
export const PLATFORM_FEEDBACK_PAGE = '/system/feedback/platformFeedBack';
const PAGE_OF: Record<FeedbackSourceId, typeof APP_FEEDBACK_PAGE | typeof PLATFORM_FEEDBACK_PAGE> = { 1: APP_FEEDBACK_PAGE, 2: PLATFORM_FEEDBACK_PAGE };
const BOTH_PAGES = [APP_FEEDBACK_PAGE, PLATFORM_FEEDBACK_PAGE] as const;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const FeedbackMessages = {
  notFound: pair('反馈不存在', 'No such feedback'),
  closed: pair('反馈已关闭，不能再回复；如有新问题请重新提交', 'The feedback is closed; raise a new one for a new problem'),
  tooManyPosts: pair(`一条反馈最多 ${FEEDBACK_MESSAGES_MAX} 条回复`, `A feedback thread holds at most ${FEEDBACK_MESSAGES_MAX} posts`),
  sameStatus: pair('反馈已是该状态', 'The feedback already has that status'),
  taskNotFound: pair('导出任务不存在或已过期', 'The export task does not exist or has expired'),
  exportFailed: pair('导出失败，请重试', 'The export failed; please try again'),
  taskNotDone: pair('导出尚未完成', 'The export is not finished yet'),
  firstOnly: (cap: number): Message => pair(`仅导出前 ${cap} 条，请缩小查询范围`, `Only the first ${cap} rows were exported; narrow the query`),
} as const;

// Spec §5 "content required": at least one character that is not white space.
export const FeedbackContent = Type.String({ minLength: 1, maxLength: FEEDBACK_CONTENT_MAX, pattern: '\\S' });
export const FeedbackTitle = Type.String({ minLength: 1, maxLength: FEEDBACK_TITLE_MAX, pattern: '\\S' });
export const FeedbackTypeField = Type.Union(FEEDBACK_TYPES.map((t) => Type.Literal(t)));
const SourceField = Type.Union([Type.Literal(1), Type.Literal(2)]);
const StatusField = Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]);
const Flag = Type.Union([Type.Literal(0), Type.Literal(1)]);

export interface ThemeRow {
  id: number; company_id: number; company_name: string; source: FeedbackSourceId; type: number; title: string; status: FeedbackStatusId;
  author_user_id: number | null; author_app_user_id: number | null; author_name: string; create_time: number; update_time: number;
  reply_time: number | null; messages: number; unread_for_admin: number; unread_for_author: number; first_content: string;
}

export const THEME_SELECT = `
  SELECT t.*, c.name AS company_name,
    (SELECT count(*) FROM feedback_message m WHERE m.theme_id = t.id) AS messages,
    (SELECT count(*) FROM feedback_message m WHERE m.theme_id = t.id AND m.side = 1 AND m.read_time IS NULL) AS unread_for_admin,
    (SELECT count(*) FROM feedback_message m WHERE m.theme_id = t.id AND m.side = 2 AND m.read_time IS NULL) AS unread_for_author,
    coalesce((SELECT m.content FROM feedback_message m WHERE m.theme_id = t.id ORDER BY m.id LIMIT 1), '') AS first_content
  FROM feedback_theme t JOIN company c ON c.id = t.company_id`;

export function themeView(r: ThemeRow) {
  return {
    id: r.id, companyId: r.company_id, companyName: r.company_name, source: r.source, type: r.type, title: r.title, status: r.status,
    authorName: r.author_name, createTime: r.create_time, updateTime: r.update_time, replyTime: r.reply_time,
    messages: r.messages, unreadForAdmin: r.unread_for_admin, unreadForAuthor: r.unread_for_author, content: r.first_content,
  };
}
export type ThemeView = ReturnType<typeof themeView>;

type Db = SqliteStorage['db'];

/** The posts of a thread, oldest first. */
export function postsOf(db: Db, themeId: number) {
  return db.prepare(`SELECT id, side, content, sender_name AS senderName, create_time AS createTime, read_time AS readTime
    FROM feedback_message WHERE theme_id = ? ORDER BY id`).all(themeId) as { id: number; side: 1 | 2; content: string; senderName: string; createTime: number; readTime: number | null }[];
}

/**
 * Adds a post to a thread and moves its status (an admin reply → replied, the author's follow-up → open).
 * Refuses a closed thread and one that is full.
 */
export function addPost(db: Db, theme: ThemeRow, side: 'author' | 'admin', content: string, sender: { name: string; userId: number | null }): void {
  if (!acceptsPosts(theme.status)) throw fail.badRequest(FeedbackMessages.closed);
  if (theme.messages >= FEEDBACK_MESSAGES_MAX) throw fail.badRequest(FeedbackMessages.tooManyPosts);
  const now = Date.now();
  db.transaction(() => {
    db.prepare('INSERT INTO feedback_message (theme_id, side, content, sender_name, sender_user_id, create_time) VALUES (?, ?, ?, ?, ?, ?)')
      .run(theme.id, side === 'author' ? 1 : 2, content.trim(), sender.name, sender.userId, now);
    // Answering is reading: the side that posts has seen the other side's posts.
    db.prepare('UPDATE feedback_message SET read_time = ? WHERE theme_id = ? AND side = ? AND read_time IS NULL').run(now, theme.id, side === 'author' ? 2 : 1);
    db.prepare(`UPDATE feedback_theme SET status = ?, update_time = ?${side === 'admin' ? ', reply_time = ?' : ''} WHERE id = ?`)
      .run(...(side === 'admin' ? [statusAfterPost('admin'), now, now, theme.id] : [statusAfterPost('author'), now, theme.id]));
  })();
}

/** Opens a thread for one side: the other side's posts become read. */
export function markRead(db: Db, themeId: number, reader: 'author' | 'admin'): void {
  db.prepare('UPDATE feedback_message SET read_time = ? WHERE theme_id = ? AND side = ? AND read_time IS NULL').run(Date.now(), themeId, reader === 'author' ? 2 : 1);
}

/** Creates a thread with its first post. */
export function createTheme(db: Db, t: {
  companyId: number; source: FeedbackSourceId; type: number; title: string; content: string; authorName: string; authorUserId: number | null; authorAppUserId: number | null;
}): number {
  const now = Date.now();
  return db.transaction(() => {
    const id = Number(db.prepare(`INSERT INTO feedback_theme (company_id, source, type, title, status, author_user_id, author_app_user_id, author_name, create_time, update_time)
      VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`).run(t.companyId, t.source, t.type, t.title.trim(), t.authorUserId, t.authorAppUserId, t.authorName, now, now).lastInsertRowid);
    db.prepare('INSERT INTO feedback_message (theme_id, side, content, sender_name, sender_user_id, create_time) VALUES (?, 1, ?, ?, ?, ?)')
      .run(id, t.content.trim(), t.authorName, t.authorUserId, now);
    return id;
  })();
}

export function themeById(db: Db, id: number): ThemeRow | undefined {
  return db.prepare(`${THEME_SELECT} WHERE t.id = ?`).get(id) as ThemeRow | undefined;
}

const SearchFields = {
  ...PageFields,
  source: SourceField,
  type: Type.Optional(FeedbackTypeField),
  status: Type.Optional(StatusField),
  /** 1: threads an administrator has replied to; 0: not yet (queryByReply). */
  replied: Type.Optional(Flag),
  keyword: Type.Optional(Text(50)),
  from: Type.Optional(EpochMs),
  to: Type.Optional(EpochMs),
};
type Search = { source: FeedbackSourceId; type?: number; status?: number; replied?: 0 | 1; keyword?: string; from?: number; to?: number };

function where(scope: Scope, q: Search): { sql: string; params: unknown[] } {
  const cond = scopeCondition(scope, 'c');
  let sql = `WHERE ${cond.sql} AND t.source = ?`;
  const params: unknown[] = [...cond.params, q.source];
  if (q.type !== undefined) { sql += ' AND t.type = ?'; params.push(q.type); }
  if (q.status !== undefined) { sql += ' AND t.status = ?'; params.push(q.status); }
  if (q.replied !== undefined) sql += q.replied === 1 ? ' AND t.reply_time IS NOT NULL' : ' AND t.reply_time IS NULL';
  const kw = q.keyword?.trim() ?? '';
  if (kw) {
    sql += " AND (t.title LIKE ? ESCAPE '\\' OR t.author_name LIKE ? ESCAPE '\\')";
    const like = `%${kw.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    params.push(like, like);
  }
  if (q.from !== undefined) { sql += ' AND t.create_time >= ?'; params.push(q.from); }
  if (q.to !== undefined) { sql += ' AND t.create_time < ?'; params.push(q.to); }
  return { sql, params };
}

const TYPE_LABEL: Record<number, [string, string]> = { 1: ['建议', 'Suggestion'], 2: ['故障', 'Fault'], 3: ['投诉', 'Complaint'], 4: ['其他', 'Other'] };
const STATUS_LABEL: Record<number, [string, string]> = { 0: ['待回复', 'Open'], 1: ['已回复', 'Replied'], 2: ['已关闭', 'Closed'] };
const time = (ms: number | null) => (ms === null ? '' : new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' '));
function sheet(lang: Lang): SheetColumn<ThemeView>[] {
  const i = lang === 'zh' ? 0 : 1;
  return [
    { header: ['标题', 'Title'], width: 28, value: (r) => r.title },
    { header: ['类型', 'Type'], width: 8, value: (r) => TYPE_LABEL[r.type]?.[i] ?? '' },
    { header: ['状态', 'Status'], width: 8, value: (r) => STATUS_LABEL[r.status]?.[i] ?? '' },
    { header: ['内容', 'Content'], width: 48, value: (r) => r.content },
    { header: ['反馈人', 'Author'], width: 12, value: (r) => r.authorName },
    { header: ['所属公司', 'Company'], width: 18, value: (r) => r.companyName },
    { header: ['回复数', 'Posts'], width: 8, value: (r) => r.messages - 1 },
    { header: ['提交时间', 'Raised'], width: 20, value: (r) => time(r.createTime) },
    { header: ['最近回复时间', 'Last reply'], width: 20, value: (r) => time(r.replyTime) },
  ];
}

export function feedbackRoutes(app: App, deps: { storage: Storage }): void {
  const { storage } = deps;
  const db = (storage as SqliteStorage).db;

  /** The caller may work on this source's page (any-of routes name both pages). */
  function needPage(ctx: AuthContext, source: FeedbackSourceId, button?: string): void {
    if (!permits(ctx, button ? `${PAGE_OF[source]}:${button}` : PAGE_OF[source])) throw fail.forbidden();
  }
  /** A thread in the caller's subtree (another company's is 404, like a missing one). */
  function themeIn(scope: Scope, id: number): ThemeRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`${THEME_SELECT} WHERE t.id = ? AND ${cond.sql}`).get(id, ...cond.params) as ThemeRow | undefined;
    if (!row) throw fail.notFound(FeedbackMessages.notFound);
    return row;
  }

  async function page(ctx: AuthContext, b: Search & { current: number; size: number; companyId?: number }) {
    needPage(ctx, b.source);
    const scope = await narrowedScope(storage, ctx, b.companyId);
    const w = where(scope, b);
    const total = (db.prepare(`SELECT count(*) AS n FROM feedback_theme t JOIN company c ON c.id = t.company_id ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = db.prepare(`${THEME_SELECT} ${w.sql} ORDER BY t.update_time DESC, t.id DESC LIMIT ? OFFSET ?`).all(...w.params, b.size, (b.current - 1) * b.size) as ThemeRow[];
    return { records: rows.map(themeView), total, current: b.current, size: b.size };
  }

  // ------------------------------------------------------------------ administrators' side

  app.get('/service-priv/feedback/page', { config: { permission: [...BOTH_PAGES] }, schema: { querystring: Strict(SearchFields) } },
    async (request) => ok(await page(auth(request), request.query), requestLang(request)));

  /** The operations view of the same list (catalogue: POST /service-ops/feedback/page). */
  app.post('/service-ops/feedback/page', { config: { permission: [...BOTH_PAGES], audit: false }, schema: { body: Strict(SearchFields) } },
    async (request) => ok(await page(auth(request), request.body), requestLang(request)));

  /** Threads with (replied 1) or without (replied 0) an administrator's reply. */
  app.post('/service-priv/feedback/queryByReply', {
    config: { permission: [...BOTH_PAGES], audit: false },
    schema: { body: Strict({ ...PageFields, source: SourceField, replied: Flag }) },
  }, async (request) => ok(await page(auth(request), request.body), requestLang(request)));

  /** One thread with its posts; an administrator opening it reads the author's posts. */
  // No HEAD: opening marks the replies read, and a HEAD must change nothing (app-api.ts says why).
  app.get('/service-priv/feedback/info', { config: { permission: [...BOTH_PAGES] }, exposeHeadRoute: false, schema: { querystring: Strict({ id: Id }) } }, async (request) => {
    const ctx = auth(request);
    const row = themeIn(ctx.scope, request.query.id);
    needPage(ctx, row.source);
    markRead(db, row.id, 'admin');
    return ok({ ...themeView(themeIn(ctx.scope, row.id)), posts: postsOf(db, row.id) }, requestLang(request));
  });

  /** An administrator's reply. */
  app.post('/service-priv/feedback/addAdminTheme', {
    config: { permission: [`${APP_FEEDBACK_PAGE}:reply`, `${PLATFORM_FEEDBACK_PAGE}:reply`] },
    schema: { body: Strict({ id: Id, content: FeedbackContent }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = themeIn(ctx.scope, request.body.id);
    needPage(ctx, row.source, 'reply');
    addPost(db, row, 'admin', request.body.content, { name: ctx.user.realName || ctx.user.username, userId: ctx.user.id });
    return ok({ ...themeView(themeIn(ctx.scope, row.id)), posts: postsOf(db, row.id) }, requestLang(request));
  });

  /** Changes a thread's status (open / replied / closed). */
  app.post('/service-priv/feedback/updateThemeType', {
    config: { permission: [`${APP_FEEDBACK_PAGE}:updateStatus`, `${PLATFORM_FEEDBACK_PAGE}:updateStatus`] },
    schema: { body: Strict({ id: Id, status: StatusField }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = themeIn(ctx.scope, request.body.id);
    needPage(ctx, row.source, 'updateStatus');
    if (row.status === request.body.status) throw badField('status', FeedbackMessages.sameStatus);
    db.prepare('UPDATE feedback_theme SET status = ?, update_time = ? WHERE id = ?').run(request.body.status, Date.now(), row.id);
    return ok(themeView(themeIn(ctx.scope, row.id)), requestLang(request));
  });

  // ------------------------------------------------------------------ a console user's own threads (platform feedback)

  function ownTheme(ctx: AuthContext, id: number): ThemeRow {
    const row = themeById(db, id);
    if (!row || row.source !== FeedbackSource.platform || row.author_user_id !== ctx.user.id) throw fail.notFound(FeedbackMessages.notFound);
    return row;
  }

  /** Raises a platform feedback (no id) or adds the author's follow-up to their own thread (id). Any signed-in user. */
  app.post('/service-priv/feedback/addUserTheme', {
    config: { permission: 'session' },
    schema: { body: Strict({ id: Type.Optional(Id), type: Type.Optional(FeedbackTypeField), title: Type.Optional(FeedbackTitle), content: FeedbackContent }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const name = ctx.user.realName || ctx.user.username;
    let id = b.id;
    if (id === undefined) {
      if (b.type === undefined) throw fail.field('type', { code: 'required' });
      if (b.title === undefined) throw fail.field('title', { code: 'required' });
      id = createTheme(db, { companyId: ctx.user.companyId, source: FeedbackSource.platform, type: b.type, title: b.title, content: b.content, authorName: name, authorUserId: ctx.user.id, authorAppUserId: null });
    } else {
      addPost(db, ownTheme(ctx, id), 'author', b.content, { name, userId: ctx.user.id });
    }
    return ok({ ...themeView(ownTheme(ctx, id)), posts: postsOf(db, id) }, requestLang(request));
  });

  /** My platform feedback with the unread replies of each (read 0: only threads with unread replies); `id` opens one and reads it. */
  app.post('/service-priv/feedback/queryIsRead', {
    config: { permission: 'session' },
    schema: { body: Strict({ ...PageFields, read: Type.Optional(Flag), id: Type.Optional(Id) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const unreadTotal = () => (db.prepare(`SELECT count(*) AS n FROM feedback_message m JOIN feedback_theme t ON t.id = m.theme_id
      WHERE t.author_user_id = ? AND t.source = 2 AND m.side = 2 AND m.read_time IS NULL`).get(ctx.user.id) as { n: number }).n;
    if (b.id !== undefined) {
      const row = ownTheme(ctx, b.id);
      markRead(db, row.id, 'author');
      return ok({ ...themeView(ownTheme(ctx, row.id)), posts: postsOf(db, row.id), unread: unreadTotal() }, requestLang(request));
    }
    let sql = 'WHERE t.author_user_id = ? AND t.source = 2';
    if (b.read === 0) sql += ' AND EXISTS (SELECT 1 FROM feedback_message m WHERE m.theme_id = t.id AND m.side = 2 AND m.read_time IS NULL)';
    if (b.read === 1) sql += ' AND NOT EXISTS (SELECT 1 FROM feedback_message m WHERE m.theme_id = t.id AND m.side = 2 AND m.read_time IS NULL)';
    const total = (db.prepare(`SELECT count(*) AS n FROM feedback_theme t ${sql}`).get(ctx.user.id) as { n: number }).n;
    const rows = db.prepare(`${THEME_SELECT} ${sql} ORDER BY t.update_time DESC, t.id DESC LIMIT ? OFFSET ?`).all(ctx.user.id, b.size, (b.current - 1) * b.size) as ThemeRow[];
    return ok({ records: rows.map(themeView), total, current: b.current, size: b.size, unread: unreadTotal() }, requestLang(request));
  });

  // ------------------------------------------------------------------ export (the kit's job: …/excel → …/export_status → …/excel_file)

  const jobs = new ExportJobs(app.exportFiles, 'feedback', { notFound: FeedbackMessages.taskNotFound, failed: FeedbackMessages.exportFailed, notDone: FeedbackMessages.taskNotDone }, 'feedback export');
  const exportBits = [`${APP_FEEDBACK_PAGE}:export`, `${PLATFORM_FEEDBACK_PAGE}:export`] as const;
  const { current: _c, size: _s, ...ExportFields } = SearchFields;
  app.post('/service-priv/feedback/excel', { config: { permission: [...exportBits] }, schema: { body: Strict(ExportFields) } }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const b = request.body;
    needPage(ctx, b.source, 'export');
    const scope = await narrowedScope(storage, ctx, b.companyId);
    const fileName = b.source === FeedbackSource.app ? (['APP反馈', 'app_feedback'] as const) : (['平台反馈', 'platform_feedback'] as const);
    const job = await jobs.start({ userId: ctx.user.id, fileName, asciiName: fileName[1], log: request.log }, async () => {
      const w = where(scope, b);
      const total = (db.prepare(`SELECT count(*) AS n FROM feedback_theme t JOIN company c ON c.id = t.company_id ${w.sql}`).get(...w.params) as { n: number }).n;
      const rows = (db.prepare(`${THEME_SELECT} ${w.sql} ORDER BY t.update_time DESC, t.id DESC LIMIT ?`).all(...w.params, FEEDBACK_EXPORT_CAP) as ThemeRow[]).map(themeView);
      return { total, exported: rows.length, file: await xlsxBuffer(fileName[1], sheet(lang), rows, lang) };
    });
    return ok({ taskId: job.id }, lang);
  });
  const TaskQuery = Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) });
  app.get('/service-priv/feedback/export_status', { config: { permission: [...exportBits] }, schema: { querystring: TaskQuery } }, async (request) => {
    const lang = requestLang(request);
    const job = await jobs.own(auth(request).user.id, request.query.taskId);
    const message = job.status === 'failed' ? FeedbackMessages.exportFailed(lang) : job.total > FEEDBACK_EXPORT_CAP ? FeedbackMessages.firstOnly(FEEDBACK_EXPORT_CAP)(lang) : undefined;
    return ok({ status: job.status, total: job.total, exported: job.exported, ...(message === undefined ? {} : { message }) }, lang);
  });
  app.get('/service-priv/feedback/excel_file', { config: { permission: [...exportBits] }, schema: { querystring: TaskQuery } }, async (request, reply) => {
    const f = await jobs.file(auth(request).user.id, request.query.taskId, requestLang(request));
    return sendXlsx(reply, f.body, f.name, f.asciiName);
  });
}
