/**
 * The drivers'-app API (issue 19; contract: ./CONTEXT.md "App API"). The app is outside this product: it
 * signs an app user in (`POST /service-app/api/login` → a random token, only its SHA-256 stored, 30 days),
 * then sends the token as `X-App-Token` to read its pushes (fetching marks them delivered), acknowledge
 * them (read), raise feedback and read and answer the replies of its OWN threads.
 *
 * These routes are 'public' to the console's guard (no console session can call them meaningfully) and
 * check the app token themselves in `appUser()`: a missing, unknown, expired token or a disabled app user
 * is 401. Every query is keyed by the token's app user, so one app user cannot reach another's thread
 * (404, as for a missing one).
 *
 * The GETs that change state (the notice list marks what it returns delivered, a thread's info marks its
 * replies read) declare `exposeHeadRoute: false`: Fastify would otherwise answer HEAD with the same handler,
 * and a HEAD (a link checker, a proxy's probe) must change nothing. HEAD on them is 404, like any method a
 * route does not have.
 */
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { normaliseIp } from '../../auth/ip.ts';
import { loginThrottle } from '../../auth/login-throttle.ts';
import type { Config } from '../../config.ts';
import { createHash, randomBytes } from 'node:crypto';
import { Type, type TProperties } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { APP_TOKEN_TTL_MS, APP_TOKENS_PER_USER, FeedbackSource } from '../../../domain/app-feedback/rules.ts';
import { dummyPasswordHash, verifyPassword } from '../../auth/passwords.ts';
import type { Storage } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, type App } from '../../http/route.ts';
import { addPost, createTheme, FeedbackContent, FeedbackMessages, FeedbackTitle, FeedbackTypeField, markRead, postsOf, THEME_SELECT, themeById, themeView, type ThemeRow } from './feedback.ts';

export const APP_TOKEN_HEADER = 'x-app-token';
const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const AppApiMessages = {
  noticeNotFound: pair('消息不存在', 'No such message'),
} as const;

const Obj = <T extends TProperties>(p: T) => Type.Object(p, { additionalProperties: false });
const sha = (token: string) => createHash('sha256').update(token).digest('hex');

interface AppUser { id: number; company_id: number; username: string; real_name: string }

/**
 * `last_seen_time` is written at most once a minute per app user (as a display credential's `last_seen`,
 * server/auth/display.ts): the app polls every few seconds, and a write per poll would be a write per request.
 */
export const APP_SEEN_WRITE_MS = 60_000;
/** How many users' last writes are remembered; past it the map starts over (a user then writes once more). */
const SEEN_REMEMBERED_MAX = 50_000;

export function appApiRoutes(app: App, deps: { storage: Storage; config: Config }): void {
  const db = (deps.storage as SqliteStorage).db;
  // The console's sign-in throttle (per account and per address); app accounts are logged as `app:<name>`.
  const throttle = loginThrottle(deps.storage, deps.config);
  const findToken = db.prepare(`SELECT a.id, a.company_id, a.username, a.real_name FROM app_token t JOIN app_user a ON a.id = t.app_user_id
      WHERE t.token_hash = ? AND t.expire_time > ? AND a.status = 1`);
  const markDelivered = db.prepare(`UPDATE app_notice_recipient SET delivered_time = ? WHERE app_user_id = ? AND delivered_time IS NULL
    AND notice_id IN (SELECT value FROM json_each(?))`);
  const writeSeen = db.prepare('UPDATE app_user SET last_seen_time = ? WHERE id = ?');
  /** app user id → when its last_seen_time was last written. */
  const seenWritten = new Map<number, number>();

  /** The signed-in app user of a request, or 401. */
  function appUser(request: FastifyRequest): AppUser {
    const token = request.headers[APP_TOKEN_HEADER];
    if (typeof token !== 'string' || token.length < 20 || token.length > 200) throw fail.unauthorized();
    const now = Date.now();
    const row = findToken.get(sha(token), now) as AppUser | undefined;
    if (!row) throw fail.unauthorized();
    if (now - (seenWritten.get(row.id) ?? -Infinity) >= APP_SEEN_WRITE_MS) {
      if (seenWritten.size >= SEEN_REMEMBERED_MAX) seenWritten.clear();
      seenWritten.set(row.id, now);
      writeSeen.run(now, row.id);
    }
    return row;
  }

  app.post('/service-app/api/login', {
    config: { permission: 'public' },
    schema: { body: Obj({ username: Type.String({ minLength: 1, maxLength: 50 }), password: Type.String({ minLength: 1, maxLength: 100 }) }) },
  }, async (request) => {
    const b = request.body;
    const ip = normaliseIp(request.ip);
    const account = `app:${b.username}`;
    const now0 = Date.now();
    await throttle.check(account, ip, now0);
    const found = db.prepare('SELECT id, password_hash, status, real_name, company_id FROM app_user WHERE username = ?').get(b.username) as
      { id: number; password_hash: string; status: number; real_name: string; company_id: number } | undefined;
    // The same work whether the name exists or not, so timing does not tell which names exist.
    const passwordOk = await verifyPassword(b.password, found?.password_hash ?? (await dummyPasswordHash()));
    if (!found || !passwordOk || found.status !== 1) {
      await throttle.failed(account, ip, now0);
      // The console's answer to a wrong password (business code 1001, HTTP 200): not a malformed request.
      throw fail.business(ErrorCode.BadCredentials);
    }
    await throttle.succeeded(account, ip);
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    db.transaction(() => {
      db.prepare('INSERT INTO app_token (token_hash, app_user_id, create_time, expire_time) VALUES (?, ?, ?, ?)').run(sha(token), found.id, now, now + APP_TOKEN_TTL_MS);
      // Keep the newest few (one per phone); expired ones go too.
      db.prepare(`DELETE FROM app_token WHERE app_user_id = ? AND (expire_time <= ? OR token_hash NOT IN
        (SELECT token_hash FROM app_token WHERE app_user_id = ? ORDER BY create_time DESC LIMIT ?))`).run(found.id, now, found.id, APP_TOKENS_PER_USER);
    })();
    return ok({ token, expireTime: now + APP_TOKEN_TTL_MS, user: { id: found.id, username: b.username, realName: found.real_name, companyId: found.company_id } }, requestLang(request));
  });

  // ------------------------------------------------------------------ pushes

  /** My pushes, newest first; what this call returns counts as delivered. */
  app.get('/service-app/api/notice/list', {
    config: { permission: 'public' },
    exposeHeadRoute: false,
    schema: { querystring: Obj({ ...PageFields, unread: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])) }) },
  }, async (request) => {
    const me = appUser(request);
    const q = request.query;
    const where = `FROM app_notice_recipient r JOIN app_notice n ON n.id = r.notice_id WHERE r.app_user_id = ?${q.unread === 1 ? ' AND r.read_time IS NULL' : ''}`;
    const total = (db.prepare(`SELECT count(*) AS n ${where}`).get(me.id) as { n: number }).n;
    const records = db.prepare(`SELECT n.id, n.title, n.content, n.created_by_name AS senderName, r.send_time AS sendTime, r.delivered_time AS deliveredTime, r.read_time AS readTime
      ${where} ORDER BY r.send_time DESC, n.id DESC LIMIT ? OFFSET ?`).all(me.id, q.size, (q.current - 1) * q.size) as { id: number; deliveredTime: number | null }[];
    const now = Date.now();
    const fresh = records.filter((r) => r.deliveredTime === null);
    if (fresh.length > 0) {
      // One statement for the page (at most PageFields' size ids), not one UPDATE per push.
      markDelivered.run(now, me.id, JSON.stringify(fresh.map((r) => r.id)));
      for (const r of fresh) r.deliveredTime = now;
    }
    return ok({ records, total, current: q.current, size: q.size }, requestLang(request));
  });

  /** Acknowledges a push (read; delivered too if the app got it another way). */
  app.post('/service-app/api/notice/read', { config: { permission: 'public' }, schema: { body: Obj({ id: Id }) } }, async (request) => {
    const me = appUser(request);
    const now = Date.now();
    const found = db.prepare('SELECT read_time FROM app_notice_recipient WHERE notice_id = ? AND app_user_id = ?').get(request.body.id, me.id) as { read_time: number | null } | undefined;
    if (!found) throw fail.notFound(AppApiMessages.noticeNotFound);
    db.prepare('UPDATE app_notice_recipient SET read_time = coalesce(read_time, ?), delivered_time = coalesce(delivered_time, ?) WHERE notice_id = ? AND app_user_id = ?')
      .run(now, now, request.body.id, me.id);
    return ok({ id: request.body.id, readTime: found.read_time ?? now }, requestLang(request));
  });

  // ------------------------------------------------------------------ feedback

  function mine(me: AppUser, id: number): ThemeRow {
    const row = themeById(db, id);
    if (!row || row.source !== FeedbackSource.app || row.author_app_user_id !== me.id) throw fail.notFound(FeedbackMessages.notFound);
    return row;
  }
  const authorName = (me: AppUser) => me.real_name || me.username;

  app.get('/service-app/api/feedback/list', { config: { permission: 'public' }, schema: { querystring: Obj({ ...PageFields }) } }, async (request) => {
    const me = appUser(request);
    const q = request.query;
    const total = (db.prepare('SELECT count(*) AS n FROM feedback_theme WHERE author_app_user_id = ? AND source = 1').get(me.id) as { n: number }).n;
    const rows = db.prepare(`${THEME_SELECT} WHERE t.author_app_user_id = ? AND t.source = 1 ORDER BY t.update_time DESC, t.id DESC LIMIT ? OFFSET ?`)
      .all(me.id, q.size, (q.current - 1) * q.size) as ThemeRow[];
    return ok({ records: rows.map(themeView), total, current: q.current, size: q.size }, requestLang(request));
  });

  /** One of my threads with its posts; the administrators' replies become read. */
  app.get('/service-app/api/feedback/info', { config: { permission: 'public' }, exposeHeadRoute: false, schema: { querystring: Obj({ id: Id }) } }, async (request) => {
    const me = appUser(request);
    const row = mine(me, request.query.id);
    markRead(db, row.id, 'author');
    return ok({ ...themeView(mine(me, row.id)), posts: postsOf(db, row.id) }, requestLang(request));
  });

  app.post('/service-app/api/feedback/add', {
    config: { permission: 'public' },
    schema: { body: Obj({ type: FeedbackTypeField, title: FeedbackTitle, content: FeedbackContent }) },
  }, async (request) => {
    const me = appUser(request);
    const b = request.body;
    const id = createTheme(db, { companyId: me.company_id, source: FeedbackSource.app, type: b.type, title: b.title, content: b.content, authorName: authorName(me), authorUserId: null, authorAppUserId: me.id });
    return ok({ ...themeView(mine(me, id)), posts: postsOf(db, id) }, requestLang(request));
  });

  app.post('/service-app/api/feedback/reply', { config: { permission: 'public' }, schema: { body: Obj({ id: Id, content: FeedbackContent }) } }, async (request) => {
    const me = appUser(request);
    addPost(db, mine(me, request.body.id), 'author', request.body.content, { name: authorName(me), userId: null });
    return ok({ ...themeView(mine(me, request.body.id)), posts: postsOf(db, request.body.id) }, requestLang(request));
  });
}
