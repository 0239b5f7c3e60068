/**
 * Cab supervision (驾驶室监管, /operation/cabSupervision; calls service-safesheet `cab/*`, contract ./api.md,
 * design ./CONTEXT.md).
 *
 * - `sup` opens a supervision of vehicles, or of a company (resolved to its vehicles then), for a reason, with
 *   the message the cabs are to hear; `supPage` lists them; `recAdd` adds an officer's note.
 * - `recSend` sends the message as a 0x8300 text (TTS + terminal display, optionally urgent) through the
 *   shared command tasks (../command-tasks): online terminals at once, settled by their 0x0001; offline ones
 *   when their terminal authenticates again within the validity window. Each send is a record whose
 *   receipts `recQuery` answers per vehicle.
 * - `suggest` (ours) lists vehicles with at least N driver-state alarms in 7 days (N: the platform parameter
 *   `safety.cabSuggestAlarms`, read on each call so a change applies without a restart).
 *
 * Scoping: a supervision belongs to the company of its vehicles (the caller's own when they span several);
 * every id outside the caller's subtree is not found, every vehicle outside it is refused before a write.
 */
import { Type } from '@fastify/type-provider-typebox';
import {
  checkSupervision, MESSAGE_MAX, NOTE_MAX, reasonName, RECEIPT_STATES, SUGGEST_CODES, SUGGEST_DAYS, suggestVehicles,
  SUPERVISION_REASONS, SUPERVISION_VEHICLES_MAX, supervisionProblemMessage, type ReceiptState, type SupervisionReason,
} from '../../../domain/cab-supervision/rules.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { scopeCondition, subtreeScope, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { encodeGbk } from '../../gateway/jt808/bytes.ts';
import { MSG } from '../../gateway/jt808/messages.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { createCommandTasks, type CommandUser } from '../command-tasks/index.ts';
import { TEXT_FLAGS } from '../safe/alarms.ts';
import { vehiclesIn as scopeVehicles } from '../safe/appraisal-core.ts';

export const CAB_PAGE = '/operation/cabSupervision';
const BASE = '/service-safesheet/cab';
/** Validity window of a send (minutes): 1 minute to 7 days; a day when not chosen. */
export const VALID_MINUTES_MAX = 7 * 24 * 60;
export const VALID_MINUTES_DEFAULT = 24 * 60;
const SHOWN_STATE = "CASE WHEN tv.state = 'queued' AND t.expire_time <= ? THEN 'expired' ELSE tv.state END";

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
const problem = (p: NonNullable<ReturnType<typeof checkSupervision>>): Message => (lang: Lang) => supervisionProblemMessage(p, lang);
export const CabMessages = {
  notFound: pair('监管记录不存在', 'No such supervision'),
  noteRequired: pair('请填写记录内容', 'The note is required'),
  noteLength: pair(`记录内容不能超过 ${NOTE_MAX} 个字符`, `The note must be at most ${NOTE_MAX} characters`),
  messageBytes: pair('监管消息过长：终端一条文本最多 1000 字节', 'The message is too long for one terminal text (1000 bytes)'),
  vehiclesOutOfScope: (list: string): Message => pair(`车辆不存在或不在您的管辖范围内：${list}`, `No such vehicle in your scope: ${list}`),
  noDevice: (list: string): Message => pair(`车辆未安装终端：${list}`, `No terminal installed: ${list}`),
  companyEmpty: pair('该企业下没有已安装终端的车辆', 'The company has no vehicle with a terminal'),
  companyTooMany: (n: number): Message => pair(`该企业有 ${n} 辆车，一次最多监管 ${SUPERVISION_VEHICLES_MAX} 辆，请选择下级企业或车辆`, `The company has ${n} vehicles; at most ${SUPERVISION_VEHICLES_MAX} per supervision: choose a branch or vehicles`),
  typesRequired: pair('请至少选择一种显示方式', 'Choose at least one display type'),
} as const;

/** What one send carries: the text as sent and its 0x8300 flags. */
export interface CabSendPayload { supervisionId: number; text: string; types: (keyof typeof TEXT_FLAGS)[]; flags: number }

export interface CabSupervisionDeps {
  readonly storage: Storage;
  readonly live: LiveRuntime;
  /** The suggestion threshold in force (platform parameter safety.cabSuggestAlarms). */
  readonly suggestThreshold: () => number;
}

interface SupRow { id: number; company_id: number; company_name: string; target: 'vehicles' | 'company'; target_company_id: number | null; reason: SupervisionReason; message: string; created_by_name: string; create_time: number }

const like = (kw: string) => `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function cabSupervisionRoutes(app: App, deps: CabSupervisionDeps): void {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  // The server's injectable clock (the live store's), never Date.now(): tests pin it, and times agree with the gateway's.
  const clock = live.store.clock;
  const userOf = (ctx: AuthContext): CommandUser => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });

  const tasks = createCommandTasks<CabSendPayload>({ db, storage, gateway: live.gateway, log: app.log }, {
    tables: { task: 'cab_send_task', vehicle: 'cab_send_task_vehicle', payload: 'message' },
    // textType 1 (notice) for 2019 terminals; a 2013 terminal has no such byte and the codec leaves it out.
    message: (p) => ({ msgId: MSG.TEXT, flags: p.flags, textType: 1, text: p.text }),
    fun: () => 'cabSupervision',
    content: (p) => ({ text: p.text, types: p.types, supervisionId: p.supervisionId }),
  });

  function supIn(scope: Scope, id: number): SupRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT s.*, c.name AS company_name FROM cab_supervision s JOIN company c ON c.id = s.company_id WHERE s.id = ? AND ${cond.sql}`).get(id, ...cond.params) as SupRow | undefined;
    if (!row) throw fail.notFound(CabMessages.notFound);
    return row;
  }

  const receiptCounts = (taskId: number, now: number): Record<ReceiptState, number> => {
    const counts = Object.fromEntries(RECEIPT_STATES.map((s) => [s, 0])) as Record<ReceiptState, number>;
    const rows = db.prepare(`SELECT ${SHOWN_STATE} AS state, count(*) AS n FROM cab_send_task_vehicle tv JOIN cab_send_task t ON t.id = tv.task_id WHERE tv.task_id = ? GROUP BY 1`).all(now, taskId) as { state: ReceiptState; n: number }[];
    for (const r of rows) counts[r.state] = r.n;
    return counts;
  };

  function supView(s: SupRow, lang: Lang, now: number) {
    const vehicles = db.prepare('SELECT vehicle_id AS vehicleId, vehiidno FROM cab_supervision_vehicle WHERE supervision_id = ? ORDER BY vehiidno').all(s.id) as { vehicleId: number; vehiidno: string }[];
    const stats = db.prepare("SELECT count(*) AS records, sum(kind = 'send') AS sends, max(CASE WHEN kind = 'send' THEN send_task_id END) AS lastTask FROM cab_supervision_record WHERE supervision_id = ?").get(s.id) as { records: number; sends: number | null; lastTask: number | null };
    const targetName = s.target_company_id === null ? null : (db.prepare('SELECT name FROM company WHERE id = ?').get(s.target_company_id) as { name: string } | undefined)?.name ?? null;
    return {
      id: s.id, companyId: s.company_id, companyName: s.company_name, target: s.target, targetCompanyId: s.target_company_id, targetCompanyName: targetName,
      reason: s.reason, reasonName: reasonName(s.reason, lang), message: s.message, vehicles, vehicleCount: vehicles.length,
      recordCount: stats.records, sendCount: stats.sends ?? 0, lastReceipts: stats.lastTask === null ? null : receiptCounts(stats.lastTask, now),
      createdByName: s.created_by_name, createTime: s.create_time,
    };
  }

  /** The vehicles named, all in scope and with a terminal, or a 400 naming those that are not. */
  async function vehiclesOf(scope: Scope, ids: readonly number[]): Promise<VehicleLabel[]> {
    const labels = await storage.terminals.labels(scope, ids);
    const missing = ids.filter((id) => !labels.has(id));
    if (missing.length > 0) throw badField('vehicleIds', CabMessages.vehiclesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
    const list = ids.map((id) => labels.get(id)!);
    const noDevice = list.filter((v) => !v.deviceNo);
    if (noDevice.length > 0) throw badField('vehicleIds', CabMessages.noDevice(noDevice.slice(0, 10).map((v) => v.vehiidno).join(', ')), 'noDevice');
    return list;
  }

  const ReasonField = Type.Union(SUPERVISION_REASONS.map((r) => Type.Literal(r)));
  const TypeField = Type.Union(Object.keys(TEXT_FLAGS).map((k) => Type.Literal(k as keyof typeof TEXT_FLAGS)));

  app.post(`${BASE}/supPage`, {
    config: { permission: CAB_PAGE },
    schema: { body: Strict({ ...PageFields, keyword: Type.Optional(Type.String({ maxLength: 50 })), reason: Type.Optional(ReasonField) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const lang = requestLang(request);
    const cond = scopeCondition(await narrowedScope(storage, ctx, b.companyId), 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    if (b.reason) { where.push('s.reason = ?'); params.push(b.reason); }
    const kw = b.keyword?.trim();
    if (kw) {
      where.push("(s.message LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM cab_supervision_vehicle sv WHERE sv.supervision_id = s.id AND sv.vehiidno LIKE ? ESCAPE '\\'))");
      params.push(like(kw), like(kw));
    }
    const sql = `FROM cab_supervision s JOIN company c ON c.id = s.company_id WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`SELECT s.*, c.name AS company_name ${sql} ORDER BY s.id DESC LIMIT ? OFFSET ?`).all(...params, b.size, (b.current - 1) * b.size) as SupRow[];
    const now = clock();
    return ok({ records: rows.map((r) => supView(r, lang, now)), total, current: b.current, size: b.size }, lang);
  });

  app.post(`${BASE}/sup`, {
    config: { permission: `${CAB_PAGE}:add` },
    schema: {
      body: Strict({
        reason: Type.Optional(Type.String({ maxLength: 20 })),
        message: Type.Optional(Type.String({ maxLength: MESSAGE_MAX * 4 })),
        // Bounded far above the cap so the handler, not the schema, answers the count in words.
        vehicleIds: Type.Optional(Type.Array(Id, { maxItems: 20_000, uniqueItems: true })),
        targetCompanyId: Type.Optional(Id),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const p = checkSupervision({ reason: b.reason, message: b.message, vehicleIds: b.vehicleIds, companyId: b.targetCompanyId });
    if (p) throw badField(p.field, problem(p), p.code);
    const message = b.message!.trim();
    if (encodeGbk(message).length > 1000) throw badField('message', CabMessages.messageBytes);
    let vehicles: VehicleLabel[];
    let companyId: number;
    if (b.targetCompanyId !== undefined) {
      await narrowedScope(storage, ctx, b.targetCompanyId); // 403 outside the caller's subtree
      const company = await storage.companies.get(ctx.scope, b.targetCompanyId);
      if (!company) throw fail.notFound();
      vehicles = (await scopeVehicles(storage, subtreeScope(company.id, company.path))).filter((v) => v.deviceNo);
      if (vehicles.length === 0) throw badField('targetCompanyId', CabMessages.companyEmpty, 'empty');
      if (vehicles.length > SUPERVISION_VEHICLES_MAX) throw badField('targetCompanyId', CabMessages.companyTooMany(vehicles.length), 'maxItems');
      companyId = company.id;
    } else {
      vehicles = await vehiclesOf(ctx.scope, b.vehicleIds!);
      const companies = new Set(vehicles.map((v) => v.companyId));
      companyId = companies.size === 1 ? vehicles[0]!.companyId : ctx.user.companyId;
    }
    const user = userOf(ctx);
    const id = db.transaction(() => {
      const sid = Number(db.prepare('INSERT INTO cab_supervision (company_id, target, target_company_id, reason, message, created_by, created_by_name, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(companyId, b.targetCompanyId !== undefined ? 'company' : 'vehicles', b.targetCompanyId ?? null, b.reason, message, user.id, user.name, clock()).lastInsertRowid);
      const put = db.prepare('INSERT INTO cab_supervision_vehicle (supervision_id, vehicle_id, vehiidno) VALUES (?, ?, ?)');
      for (const v of vehicles) put.run(sid, v.vehicleId, v.vehiidno);
      return sid;
    })();
    const lang = requestLang(request);
    return ok(supView(supIn(ctx.scope, id), lang, clock()), lang);
  });

  app.post(`${BASE}/recAdd`, {
    config: { permission: `${CAB_PAGE}:record` },
    schema: { body: Strict({ id: Id, content: Type.String({ maxLength: NOTE_MAX * 4 }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const s = supIn(ctx.scope, b.id);
    const content = b.content.trim();
    if (content === '') throw badField('content', CabMessages.noteRequired, 'required');
    if ([...content].length > NOTE_MAX) throw badField('content', CabMessages.noteLength, 'maxLength');
    const rid = Number(db.prepare("INSERT INTO cab_supervision_record (supervision_id, kind, content, created_by_name, create_time) VALUES (?, 'note', ?, ?, ?)")
      .run(s.id, content, userOf(ctx).name, clock()).lastInsertRowid);
    return ok({ id: rid, supervisionId: s.id }, requestLang(request));
  });

  app.post(`${BASE}/recSend`, {
    config: { permission: `${CAB_PAGE}:send` },
    schema: {
      body: Strict({
        id: Id,
        types: Type.Array(TypeField, { maxItems: 4, uniqueItems: true, default: ['tts', 'display'] }),
        validMinutes: Type.Integer({ minimum: 1, maximum: VALID_MINUTES_MAX, default: VALID_MINUTES_DEFAULT }),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const s = supIn(ctx.scope, b.id);
    if (b.types.length === 0) throw badField('types', CabMessages.typesRequired, 'required');
    const ids = (db.prepare('SELECT vehicle_id AS id FROM cab_supervision_vehicle WHERE supervision_id = ?').all(s.id) as { id: number }[]).map((r) => r.id);
    // Vehicles moved out of the caller's scope (or whose terminal was removed) since creation are refused in words.
    const vehicles = await vehiclesOf(ctx.scope, ids);
    const user = userOf(ctx);
    const payload: CabSendPayload = { supervisionId: s.id, text: s.message, types: b.types, flags: b.types.reduce((f, t) => f | TEXT_FLAGS[t], 0) };
    const taskId = tasks.create(s.company_id, payload, vehicles, user, b.validMinutes * 60_000);
    const rid = Number(db.prepare("INSERT INTO cab_supervision_record (supervision_id, kind, content, send_task_id, created_by_name, create_time) VALUES (?, 'send', ?, ?, ?, ?)")
      .run(s.id, s.message, taskId, user.name, clock()).lastInsertRowid);
    return ok({ id: rid, supervisionId: s.id, taskId, receipts: receiptCounts(taskId, clock()) }, requestLang(request));
  });

  app.post(`${BASE}/recQuery`, {
    config: { permission: CAB_PAGE },
    schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const s = supIn(ctx.scope, request.body.id);
    const now = clock();
    const rows = db.prepare('SELECT r.id, r.kind, r.content, r.send_task_id AS taskId, r.created_by_name AS createdByName, r.create_time AS createTime, t.expire_time AS expireTime, t.message AS payload FROM cab_supervision_record r LEFT JOIN cab_send_task t ON t.id = r.send_task_id WHERE r.supervision_id = ? ORDER BY r.id DESC')
      .all(s.id) as { id: number; kind: 'note' | 'send'; content: string; taskId: number | null; createdByName: string; createTime: number; expireTime: number | null; payload: string | null }[];
    const receiptsOf = db.prepare(`SELECT tv.vehicle_id AS vehicleId, tv.vehiidno, ${SHOWN_STATE} AS state, tv.result, tv.update_time AS updateTime
      FROM cab_send_task_vehicle tv JOIN cab_send_task t ON t.id = tv.task_id WHERE tv.task_id = ? ORDER BY tv.vehiidno`);
    const records = rows.map((r) => ({
      id: r.id, kind: r.kind, content: r.content, createdByName: r.createdByName, createTime: r.createTime,
      ...(r.taskId === null ? {} : {
        taskId: r.taskId, expireTime: r.expireTime, types: r.payload ? (JSON.parse(r.payload) as CabSendPayload).types : [],
        counts: receiptCounts(r.taskId, now),
        receipts: receiptsOf.all(now, r.taskId) as { vehicleId: number; vehiidno: string; state: ReceiptState; result: number | null; updateTime: number }[],
      }),
    }));
    return ok({ supervision: supView(s, lang, now), records }, lang);
  });

  app.post(`${BASE}/suggest`, {
    config: { permission: CAB_PAGE },
    schema: { body: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const scope = await narrowedScope(storage, ctx, request.body.companyId);
    const cond = scopeCondition(scope, 'c');
    const threshold = deps.suggestThreshold();
    const now = clock();
    const since = now - SUGGEST_DAYS * 86_400_000;
    const codes = Object.keys(SUGGEST_CODES).map(Number);
    const rows = db.prepare(`SELECT a.vehicle_id AS vehicleId, a.alarm_type AS alarmType, count(*) AS n FROM alarm a JOIN company c ON c.id = a.company_id
      WHERE a.start_time >= ? AND a.deal_status <> 3 AND a.alarm_type IN (${codes.map(() => '?').join(',')}) AND ${cond.sql} GROUP BY 1, 2`)
      .all(since, ...codes, ...cond.params) as { vehicleId: number; alarmType: number; n: number }[];
    const suggestions = suggestVehicles(rows, threshold);
    const labels = await storage.terminals.labels(scope, suggestions.map((s) => s.vehicleId));
    // One query for every suggested vehicle (index cab_supervision_vehicle_vehicle, migration 52), scoped like the
    // rest: a supervision another company opened (before the vehicle moved here) is not the caller's to see.
    const shown = suggestions.filter((s) => labels.has(s.vehicleId));
    const lastSup = new Map((db.prepare(`SELECT sv.vehicle_id AS id, max(s.create_time) AS t FROM cab_supervision_vehicle sv
      JOIN cab_supervision s ON s.id = sv.supervision_id JOIN company c ON c.id = s.company_id
      WHERE sv.vehicle_id IN (SELECT value FROM json_each(?)) AND ${cond.sql} GROUP BY sv.vehicle_id`)
      .all(JSON.stringify(shown.map((s) => s.vehicleId)), ...cond.params) as { id: number; t: number }[]).map((r) => [r.id, r.t]));
    const records = shown.map((s) => {
      const v = labels.get(s.vehicleId)!;
      return {
        vehicleId: s.vehicleId, vehiidno: v.vehiidno, companyId: v.companyId, companyName: v.companyName, hasDevice: v.deviceNo !== null,
        total: s.total, byReason: s.byReason, reason: s.reason, reasonName: reasonName(s.reason, lang),
        lastSupervisedTime: lastSup.get(s.vehicleId) ?? null,
      };
    });
    return ok({ threshold, days: SUGGEST_DAYS, records }, lang);
  });
}
