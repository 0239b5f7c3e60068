/**
 * The audit and usage calls (issue 19; contract ./api.md): the user_operate screens read `audit_log`
 * by page, by button and by target vehicle/device; user_action reads `page_view` (detail) and the
 * sessions (online duration per user and day). All company-scoped: a row belongs to the company of the
 * caller who made it (its path at the time); an anonymous row (a refused call without a token) only to
 * an administrator's view. Read-only over the audit tables: no call updates or deletes them.
 */
import { AUDIT_RANGE_MAX_MS } from '../../../domain/audit/limits.ts';
import { Type } from '@fastify/type-provider-typebox';
import { chinaDate, chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import { changeResourceOfRoute } from '../../../domain/fleet/change-fields.ts';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { ErrorCode, type Lang } from '../../../domain/errors/catalogue.ts';
import { normaliseIp } from '../../auth/ip.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { EpochMs, Id, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathRange, type Scope } from '../../db/scope.ts';
import type { SqliteDb } from '../../db/sqlite.ts';
import type { AuditWriter } from './writer.ts';

export const OPERATE_BY_DEVICE = '/system/user_operate/operateByDevice';
export const OPERATE_BY_BUTTON = '/system/user_operate/operateByButton';
export const OPERATE_BY_PAGE = '/system/user_operate/operateByPage';
export const ONLINE_DURATION = '/system/user_action/online_duration';
export const ACTION_DETAIL = '/system/user_action/detail';
/** One query covers at most this much time (domain/audit/limits.ts, shared with the console). */
export { AUDIT_RANGE_MAX_MS };
/** Online duration: one query covers at most this many days (rows are users × days). */
export const ONLINE_RANGE_MAX_DAYS = 31;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const AuditMessages = {
  fromAfterTo: pair('开始时间不能晚于结束时间', 'The start must not be after the end'),
  rangeTooLong: (days: number): Message => pair(`时间范围不能超过 ${days} 天`, `The time range must not exceed ${days} days`),
  unknownPage: pair('页面不存在', 'No such page'),
};

const RESULTS = ['ok', 'refused', 'invalid', 'error'] as const;
const Range = { from: Type.Optional(EpochMs), to: Type.Optional(EpochMs) };

function range(q: { from?: number; to?: number }, now: number, maxMs: number): [number, number] {
  const to = q.to ?? now;
  const from = q.from ?? to - 7 * DAY_MS;
  if (from > to) throw fail.badRequest(AuditMessages.fromAfterTo);
  if (to - from > maxMs) throw fail.badRequest(AuditMessages.rangeTooLong(Math.round(maxMs / DAY_MS)));
  return [from, to];
}

function scopeSql(scope: Scope, column: string): { sql: string; params: string[] } {
  if (scope.all) return { sql: '1', params: [] };
  const [from, to] = pathRange(scope.rootPath);
  return { sql: `(${column} >= ? AND ${column} < ?)`, params: [from, to] };
}

function entryName(key: string, lang: Lang): string {
  const e = entryByKey(key);
  if (!e) return key;
  if (e.type === 2) {
    const page = entryByKey(key.slice(0, key.lastIndexOf(':')));
    const name = lang === 'zh' ? e.zh : e.en;
    return page ? `${lang === 'zh' ? page.zh : page.en} / ${name}` : name;
  }
  return lang === 'zh' ? e.zh : e.en;
}

/**
 * The target kinds that name a row of a list screen: the resource of the machine-affairs lists (a vehicle
 * is `vehicle` wherever it is named, as `vehicleId(s)` too; a driver `driver`, a line `line`, …) and, on
 * a screen whose `id` is no vehicle or device, the screen's own `record` (hook.ts targetsOf).
 */
export function rowTargets(page: string): { kinds: string[]; ownPage: boolean } {
  const resource = changeResourceOfRoute(page);
  const kinds = resource ? [resource] : [];
  if (page === '/information/vehicle' || page === '/information/device') return { kinds, ownPage: false };
  return { kinds: kinds.length ? kinds : ['-'], ownPage: true };
}

interface AuditDbRow {
  id: number; time: number; user_id: number | null; user_name: string; real_name: string | null; company_name: string | null;
  ip: string; method: string; route: string; permission: string; page: string; button: string; result: string;
  status: number; code: number; targets: string;
}

export function auditRoutes(app: App, deps: { storage: Storage; db: SqliteDb; writer: AuditWriter; clock: () => number }): void {
  const { storage, db, writer, clock } = deps;

  const rowView = (r: AuditDbRow, lang: Lang) => ({
    id: r.id, time: r.time, userId: r.user_id, userName: r.user_name, realName: r.real_name ?? '', companyName: r.company_name ?? '',
    ip: r.ip, method: r.method, route: r.route, permission: r.permission,
    page: r.page, pageName: r.page ? entryName(r.page, lang) : '', button: r.button, buttonName: r.button ? entryName(r.button, lang) : '',
    result: r.result, status: r.status, code: r.code,
    targets: r.targets ? r.targets.split(',').map((t) => { const i = t.indexOf(':'); return { kind: t.slice(0, i), id: Number(t.slice(i + 1)) }; }) : [],
  });

  /** Summary of one grouping column (page or button) over the scope and period. */
  const summary = (column: 'page' | 'button') => async (request: { query: { from?: number; to?: number; companyId?: number } } & Parameters<typeof auth>[0]) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, request.query.companyId);
    const [from, to] = range(request.query, clock(), AUDIT_RANGE_MAX_MS);
    const s = scopeSql(scope, 'a.company_path');
    const rows = db.prepare(`SELECT a.${column} AS key, COUNT(*) AS total, SUM(a.result = 'ok') AS ok, SUM(a.result = 'refused') AS refused,
        SUM(a.result = 'invalid') AS invalid, SUM(a.result = 'error') AS error, COUNT(DISTINCT a.user_id) AS users, MAX(a.time) AS lastTime
      FROM audit_log a WHERE a.${column} != '' AND a.time >= ? AND a.time <= ? AND ${s.sql}
      GROUP BY a.${column} ORDER BY total DESC, key`).all(from, to, ...s.params) as Array<{ key: string; total: number }>;
    const lang = requestLang(request);
    return ok(rows.map((r) => ({ ...r, name: entryName(r.key, lang) })), lang);
  };

  app.get('/service-priv/useroperate/byPage', {
    config: { permission: OPERATE_BY_PAGE }, schema: { querystring: Strict(Range) },
  }, summary('page'));
  app.get('/service-priv/useroperate/byButton', {
    config: { permission: OPERATE_BY_BUTTON }, schema: { querystring: Strict(Range) },
  }, summary('button'));

  app.get('/service-priv/useroperate/byDevice', {
    config: { permission: OPERATE_BY_DEVICE }, schema: { querystring: Strict(Range) },
  }, async (request) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, request.query.companyId);
    const [from, to] = range(request.query, clock(), AUDIT_RANGE_MAX_MS);
    const s = scopeSql(scope, 'a.company_path');
    const rows = db.prepare(`SELECT t.kind AS kind, t.target_id AS id, COALESCE(v.vehiidno, d.device_no, '') AS name, COUNT(*) AS total,
        SUM(a.result = 'ok') AS ok, SUM(a.result != 'ok') AS failed, COUNT(DISTINCT a.user_id) AS users, MAX(a.time) AS lastTime
      FROM audit_target t JOIN audit_log a ON a.id = t.audit_id
      LEFT JOIN vehicle v ON t.kind = 'vehicle' AND v.id = t.target_id LEFT JOIN device d ON t.kind = 'device' AND d.id = t.target_id
      WHERE t.kind IN ('vehicle', 'device') AND t.time >= ? AND t.time <= ? AND ${s.sql}
      GROUP BY t.kind, t.target_id, v.vehiidno, d.device_no ORDER BY total DESC, t.kind DESC, t.target_id LIMIT 1000`).all(from, to, ...s.params);
    return ok(rows, requestLang(request));
  });

  // The rows behind every summary: any of the three screens reads them, filtered.
  app.get('/service-priv/useroperate/page', {
    config: { permission: [OPERATE_BY_PAGE, OPERATE_BY_BUTTON, OPERATE_BY_DEVICE] },
    schema: {
      querystring: Strict({
        ...PageFields, ...Range, page: Type.Optional(Text(200)), button: Type.Optional(Text(200)),
        vehicleId: Type.Optional(Id), deviceId: Type.Optional(Id), userName: Type.Optional(Text(64)),
        // One list row's calls (the row drawer of the machine-affairs lists): its screen's page key and id.
        recordPage: Type.Optional(Text(200)), recordId: Type.Optional(Id),
        result: Type.Optional(Type.Union(RESULTS.map((r) => Type.Literal(r)))),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const [from, to] = range(q, clock(), AUDIT_RANGE_MAX_MS);
    const s = scopeSql(scope, 'a.company_path');
    const where = [`a.time >= ? AND a.time <= ?`, s.sql];
    const params: unknown[] = [from, to, ...s.params];
    if (q.page) { where.push('a.page = ?'); params.push(q.page); }
    if (q.button) { where.push('a.button = ?'); params.push(q.button); }
    if (q.result) { where.push('a.result = ?'); params.push(q.result); }
    if (q.userName?.trim()) { where.push('a.user_name = ?'); params.push(q.userName.trim()); }
    const target = q.vehicleId ? ['vehicle', q.vehicleId] : q.deviceId ? ['device', q.deviceId] : undefined;
    if (target) { where.push('a.id IN (SELECT audit_id FROM audit_target WHERE kind = ? AND target_id = ?)'); params.push(...target); }
    if (q.recordId !== undefined && q.recordPage) {
      const row = rowTargets(q.recordPage);
      const parts = [`a.id IN (SELECT audit_id FROM audit_target WHERE kind IN (${row.kinds.map(() => '?').join(', ')}) AND target_id = ?)`];
      params.push(...row.kinds, q.recordId);
      if (row.ownPage) {
        // `id`/`ids` of a screen's own calls are kind 'record': only that screen's calls name this row.
        parts.push(`(a.page = ? AND a.id IN (SELECT audit_id FROM audit_target WHERE kind = 'record' AND target_id = ?))`);
        params.push(q.recordPage, q.recordId);
      }
      where.push(`(${parts.join(' OR ')})`);
    }
    const cond = where.join(' AND ');
    const total = (db.prepare(`SELECT COUNT(*) AS n FROM audit_log a WHERE ${cond}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`SELECT a.*, u.real_name, c.name AS company_name FROM audit_log a
      LEFT JOIN user u ON u.id = a.user_id LEFT JOIN company c ON c.id = a.company_id
      WHERE ${cond} ORDER BY a.time DESC, a.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as AuditDbRow[];
    const lang = requestLang(request);
    return ok({ records: rows.map((r) => rowView(r, lang)), total, current: q.current, size: q.size }, lang);
  });

  // A page visit: the console's router calls it (debounced) with the registry key of the page shown.
  app.post('/service-priv/pageview/add', {
    config: { permission: 'session', audit: false },
    schema: { body: Strict({ page: Text(200, 1) }) },
  }, async (request) => {
    const ctx = auth(request);
    const entry = entryByKey(request.body.page);
    if (!entry || entry.type !== 1) throw new AppError(ErrorCode.BadRequest, AuditMessages.unknownPage, null, { page: { code: 'unknownPage' } });
    writer.addView({ time: clock(), userId: ctx.user.id, companyId: ctx.user.companyId, sessionId: ctx.sessionId, page: entry.key, ip: normaliseIp(request.ip) });
    return ok(null, requestLang(request));
  });

  app.get('/service-priv/pageview/page', {
    config: { permission: ACTION_DETAIL },
    schema: { querystring: Strict({ ...PageFields, ...Range, page: Type.Optional(Text(200)), userName: Type.Optional(Text(64)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const [from, to] = range(q, clock(), AUDIT_RANGE_MAX_MS);
    const s = scopeSql(scope, 'p.company_path');
    const where = ['p.time >= ? AND p.time <= ?', s.sql];
    const params: unknown[] = [from, to, ...s.params];
    if (q.page) { where.push('p.page = ?'); params.push(q.page); }
    if (q.userName?.trim()) { where.push('u.username = ?'); params.push(q.userName.trim()); }
    const cond = where.join(' AND ');
    const total = (db.prepare(`SELECT COUNT(*) AS n FROM page_view p JOIN user u ON u.id = p.user_id WHERE ${cond}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`SELECT p.id, p.time, p.page, p.ip, p.user_id AS userId, u.username AS userName, u.real_name AS realName, c.name AS companyName
      FROM page_view p JOIN user u ON u.id = p.user_id JOIN company c ON c.id = u.company_id
      WHERE ${cond} ORDER BY p.time DESC, p.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as Array<{ page: string }>;
    const lang = requestLang(request);
    return ok({ records: rows.map((r) => ({ ...r, pageName: entryName(r.page, lang) })), total, current: q.current, size: q.size }, lang);
  });

  // Online duration per user and China day: each session counts from sign-in to its sign-out, or else to
  // its last sign of life (token refresh, last audited call, last page visit), split at midnight.
  app.get('/service-priv/useraction/onlineDuration', {
    config: { permission: ONLINE_DURATION },
    schema: { querystring: Strict({ ...PageFields, ...Range, userName: Type.Optional(Text(64)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const [from, to] = range(q, clock(), ONLINE_RANGE_MAX_DAYS * DAY_MS);
    const s = scopeSql(scope, 'c.path');
    const params: unknown[] = [to, ...s.params];
    let userCond = '';
    if (q.userName?.trim()) { userCond = ' AND u.username = ?'; params.push(q.userName.trim()); }
    const sessions = db.prepare(`SELECT s.user_id AS userId, u.username AS userName, u.real_name AS realName, c.name AS companyName, s.create_time AS start,
        COALESCE(s.revoked_time, MAX(s.last_seen, COALESCE((SELECT MAX(time) FROM audit_log a WHERE a.session_id = s.id), 0),
          COALESCE((SELECT MAX(time) FROM page_view p WHERE p.session_id = s.id), 0))) AS end
      FROM session s JOIN user u ON u.id = s.user_id JOIN company c ON c.id = u.company_id
      WHERE s.create_time <= ? AND ${s.sql}${userCond}`).all(...params) as Array<{ userId: number; userName: string; realName: string; companyName: string; start: number; end: number }>;
    const perDay = new Map<string, { userId: number; userName: string; realName: string; companyName: string; date: string; seconds: number; sessions: number }>();
    for (const x of sessions) {
      const start = Math.max(x.start, from);
      const end = Math.min(x.end, to);
      if (end <= start) continue;
      for (let day = chinaDayIndex(start); chinaDayStartMs(day) < end; day++) {
        const a = Math.max(start, chinaDayStartMs(day));
        const b = Math.min(end, chinaDayStartMs(day + 1));
        if (b <= a) continue;
        const date = chinaDate(a);
        const key = `${x.userId}|${date}`;
        const row = perDay.get(key) ?? { userId: x.userId, userName: x.userName, realName: x.realName, companyName: x.companyName, date, seconds: 0, sessions: 0 };
        row.seconds += Math.round((b - a) / 1000);
        row.sessions++;
        perDay.set(key, row);
      }
    }
    const all = [...perDay.values()].sort((a, b) => b.date.localeCompare(a.date) || b.seconds - a.seconds || a.userName.localeCompare(b.userName));
    const start = (q.current - 1) * q.size;
    return ok({ records: all.slice(start, start + q.size), total: all.length, current: q.current, size: q.size }, requestLang(request));
  });
}
