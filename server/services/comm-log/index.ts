/**
 * Communication logs (issue 17; contract: ./api.md): the gateway's frames of a vehicle or device
 * (`/monitor/deviceLog`), the decoded device messages — transparent data, e-waybills, driver
 * identity, upgrade results (`/monitor/messageLog`) — and devlogcommand: ask a terminal for its own
 * log (0x8900 type 0xF1 → 0x0900 type 0xF1, jt808/transparent.ts) and read what came back.
 *
 * The frames live in the gateway's frame log (gateway/frame-log.ts: per-day SQLite files beside the
 * main database); this service owns it: creates it, attaches it to the gateway, registers its
 * whole-day retention with `app.retention`, writes it out at shutdown.
 */
import path from 'node:path';
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import type { Config } from '../../config.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { phoneKey } from '../../gateway/directory.ts';
import { FrameLog, type FrameRow } from '../../gateway/frame-log.ts';
import { decodeGbk, toHex } from '../../gateway/jt808/bytes.ts';
import { decodeFrame } from '../../gateway/jt808/codec.ts';
import { escapeFrame } from '../../gateway/jt808/framing.ts';
import { DEVLOG_MAX_LINES, DEVLOG_TYPE, devlogRequest, devlogText, TRANSPARENT_MSG, type TransparentUp } from '../../gateway/jt808/transparent.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { EpochMs, Id, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { ANSWER_TIMEOUT_MS, commandRecords, type CommandUser } from '../command-tasks/index.ts';
import { hexId, messageName } from './names.ts';

export const DEVICE_LOG_PAGE = '/monitor/deviceLog';
export const MESSAGE_LOG_PAGE = '/monitor/messageLog';
export const UPLOAD_LOG_BUTTON = '/monitor/deviceLog:uploadLog';
/** One frame search covers at most this much time (a day of one terminal is ~3,000 frames at 30 s). */
export const FRAME_RANGE_MAX_MS = 24 * 3_600_000;
/** Device messages are rare: a search may cover a week. */
export const MESSAGE_RANGE_MAX_MS = 7 * 24 * 3_600_000;
export const DEVLOG_LINES_DEFAULT = 200;

/** Device message types of /monitor/messageLog and their message ids. */
export const MESSAGE_TYPES = {
  transparent: TRANSPARENT_MSG.UP,
  waybill: TRANSPARENT_MSG.WAYBILL,
  driver: 0x0702,
  upgrade: TRANSPARENT_MSG.UPGRADE_RESULT,
} as const;
type MessageType = keyof typeof MESSAGE_TYPES;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const CommLogMessages = {
  vehicleOutOfScope: pair('车辆不存在或不在您的管辖范围内', 'No such vehicle in your scope'),
  deviceOutOfScope: pair('终端不存在或不在您的管辖范围内', 'No such device in your scope'),
  needTarget: pair('请选择车辆或终端', 'Choose a vehicle or a device'),
  fromAfterTo: pair('开始时间不能晚于结束时间', 'The start must not be after the end'),
  rangeTooLong: (hours: number): Message => pair(`时间范围不能超过 ${hours} 小时`, `The time range must not exceed ${hours} hours`),
  badMsgId: pair('消息 ID 应为十六进制，如 0x0200', 'Message ids are hex, e.g. 0x0200'),
  noDevice: pair('车辆未安装终端', 'The vehicle has no terminal installed'),
  offline: pair('终端不在线', 'The terminal is offline'),
  timeout: pair('终端未在规定时间内应答', 'The terminal did not answer in time'),
  recordNotFound: pair('记录不存在', 'No such record'),
} as const;

/** JSON view of a decoded message: bytes as hex, times as epoch ms. */
function jsonView(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v instanceof Uint8Array ? toHex(v) : typeof v === 'bigint' ? v.toString() : v)));
}

/** What a frame decodes to with the gateway's codec: the message, or why it does not decode. */
export function decodeForLog(raw: Uint8Array): { decoded: unknown; error: string | null } {
  const r = decodeFrame(raw);
  switch (r.kind) {
    case 'message': {
      const m = r.message;
      const extra: Record<string, unknown> = {};
      if (m.msgId === TRANSPARENT_MSG.UP) extra.text = m.type === DEVLOG_TYPE ? devlogText(m) : decodeGbk(m.data, 0, m.data.length);
      if (m.msgId === TRANSPARENT_MSG.WAYBILL) extra.text = decodeGbk(m.content, 0, m.content.length);
      return { decoded: { header: jsonView(r.header), body: jsonView(m), ...extra }, error: null };
    }
    case 'fragment':
      return { decoded: { header: jsonView(r.header), fragment: { bodyHex: toHex(r.body) } }, error: null };
    case 'unsupported':
      return { decoded: { header: jsonView(r.header), bodyHex: toHex(r.body) }, error: `codec: message ${hexId(r.header.msgId)} is not decoded by this server` };
    case 'error':
      return { decoded: r.header ? { header: jsonView(r.header) } : null, error: `${r.error.code}: ${r.error.message}` };
  }
}

/** Parses "0x0200,8001" (hex, with or without 0x) into ids; 400 naming `msgIds` otherwise. */
function parseMsgIds(text: string | undefined): number[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const ids = text.split(/[\s,]+/).filter(Boolean).map((t) => (/^(0x)?[0-9a-f]{1,4}$/i.test(t) ? parseInt(t.replace(/^0x/i, ''), 16) : NaN));
  if (ids.some((n) => Number.isNaN(n)) || ids.length > 20) throw badField('msgIds', CommLogMessages.badMsgId, 'format');
  return ids;
}

function checkRange(from: number, to: number, max: number): void {
  if (from > to) throw badField('from', CommLogMessages.fromAfterTo, 'range');
  if (to - from > max) throw badField('to', CommLogMessages.rangeTooLong(max / 3_600_000), 'range');
}

export interface CommLogDeps {
  readonly config: Config;
  readonly storage: Storage;
  readonly live: LiveRuntime;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Issue 17: the gateway's frame log (undefined when FRAME_LOG_DAYS=0). */
    frameLog: FrameLog | undefined;
  }
}

/** Creates the frame log, attaches it to the gateway, adds its retention and shutdown, and the routes. */
export function installCommLog(app: FastifyInstance, api: App, deps: CommLogDeps): void {
  const { config, live } = deps;
  const frameLog = config.frameLogDays > 0
    ? new FrameLog({ dir: path.join(config.dataDir, 'frames'), retentionDays: config.frameLogDays, onError: (err) => app.log.error({ err }, 'frame log flush failed') })
    : undefined;
  app.decorate('frameLog', frameLog);
  if (frameLog) {
    live.gateway.attachFrameLog(frameLog);
    app.retention.add({ name: 'frameLog', sweep: async () => frameLog.sweep(), perNode: true }); // its own files: every node sweeps them (issue 20)
    // After live.stop (registered earlier): the gateway's last acks are in the batch.
    app.addHook('preClose', async () => frameLog.close());
  }
  commLogRoutes(api, { ...deps, frameLog });
}

function commLogRoutes(app: App, deps: CommLogDeps & { frameLog: FrameLog | undefined }): void {
  const { storage, live, frameLog } = deps;
  const db = (storage as SqliteStorage).db;
  const gateway = live.gateway;
  const { record, settle } = commandRecords(db);
  const userOf = (ctx: AuthContext): CommandUser => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });

  // Terminals get 0x8001 OK for the messages the log keeps (without a handler the codec's answer would be result 3).
  for (const id of [TRANSPARENT_MSG.UP, TRANSPARENT_MSG.WAYBILL, TRANSPARENT_MSG.UPGRADE_RESULT]) gateway.handleTerminalMessage(id, () => undefined);

  async function vehicleIn(scope: Scope, vehicleId: number): Promise<VehicleLabel> {
    const v = (await storage.terminals.labels(scope, [vehicleId])).get(vehicleId);
    if (!v) throw badField('vehicleId', CommLogMessages.vehicleOutOfScope, 'outOfScope');
    return v;
  }

  /** The device (12-digit number) in the caller's scope, with the vehicle it is installed on. */
  function deviceIn(scope: Scope, deviceNo: string): { deviceNo: string; vehicleId: number | null } {
    const cond = scopeCondition(scope, 'c');
    const padded = deviceNo.padStart(12, '0');
    const row = db.prepare(`SELECT d.device_no AS deviceNo, (SELECT v.id FROM vehicle v WHERE v.device_no = d.device_no) AS vehicleId
      FROM device d JOIN company c ON c.id = d.company_id WHERE d.device_no = ? AND ${cond.sql}`).get(padded, ...cond.params) as { deviceNo: string; vehicleId: number | null } | undefined;
    if (!row) throw badField('deviceNo', CommLogMessages.deviceOutOfScope, 'outOfScope');
    return row;
  }

  function scopeVehicles(scope: Scope): Map<number, string> {
    const cond = scopeCondition(scope, 'c');
    const rows = db.prepare(`SELECT v.id, v.vehiidno FROM vehicle v JOIN company c ON c.id = v.company_id WHERE ${cond.sql}`).all(...cond.params) as { id: number; vehiidno: string }[];
    return new Map(rows.map((r) => [r.id, r.vehiidno]));
  }

  function plates(ids: Iterable<number>): Map<number, string> {
    const list = [...new Set(ids)];
    if (list.length === 0) return new Map();
    const rows = db.prepare('SELECT id, vehiidno FROM vehicle WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(list)) as { id: number; vehiidno: string }[];
    return new Map(rows.map((r) => [r.id, r.vehiidno]));
  }

  function requireLog(): FrameLog {
    if (!frameLog) throw new AppError(ErrorCode.Conflict, pair('通讯日志未开启（FRAME_LOG_DAYS=0）', 'The communication log is off (FRAME_LOG_DAYS=0)'));
    return frameLog;
  }

  function frameView(row: FrameRow, lang: 'zh' | 'en', names: Map<number, string>) {
    const { decoded, error } = decodeForLog(row.raw);
    const wire = escapeFrame(row.raw);
    return {
      id: row.id, time: row.time, direction: row.direction === 0 ? 'up' : 'down', msgId: row.msgId, msgIdHex: hexId(row.msgId), msgName: messageName(row.msgId, lang),
      serial: row.serial, phone: row.phone, vehicleId: row.vehicleId, vehiidno: row.vehicleId === null ? null : names.get(row.vehicleId) ?? null,
      length: wire.length, hex: toHex(wire), decoded, error,
    };
  }

  // ------------------------------------------------------------------ frames (/monitor/deviceLog)

  app.get('/service-monitor/commlog/frames', {
    config: { permission: DEVICE_LOG_PAGE },
    schema: {
      querystring: Strict({
        vehicleId: Type.Optional(Id),
        deviceNo: Type.Optional(Type.String({ pattern: '^[0-9]{1,12}$' })),
        from: EpochMs,
        to: EpochMs,
        direction: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down')])),
        msgIds: Type.Optional(Type.String({ maxLength: 200 })),
        ...PageFields,
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const lang = requestLang(request);
    checkRange(q.from, q.to, FRAME_RANGE_MAX_MS);
    const msgIds = parseMsgIds(q.msgIds);
    let vehicleId: number | undefined;
    let phone: string | undefined;
    if (q.vehicleId !== undefined) {
      const v = await vehicleIn(ctx.scope, q.vehicleId);
      vehicleId = v.vehicleId;
      if (v.deviceNo) phone = phoneKey(v.deviceNo);
    } else if (q.deviceNo !== undefined) {
      const d = deviceIn(ctx.scope, q.deviceNo);
      phone = phoneKey(d.deviceNo);
    } else {
      throw badField('vehicleId', CommLogMessages.needTarget, 'required');
    }
    const log = requireLog();
    const { total, rows } = await log.search({
      from: q.from, to: q.to, vehicleId, phone, direction: q.direction === undefined ? undefined : q.direction === 'up' ? 0 : 1, msgIds,
      offset: (q.current - 1) * q.size, limit: q.size,
    });
    const names = plates(rows.map((r) => r.vehicleId).filter((id): id is number => id !== null));
    return ok({ total, current: q.current, size: q.size, records: rows.map((r) => frameView(r, lang, names)) }, lang);
  });

  // ------------------------------------------------------------------ device messages (/monitor/messageLog)

  app.get('/service-monitor/commlog/messages', {
    config: { permission: MESSAGE_LOG_PAGE },
    schema: {
      querystring: Strict({
        type: Type.Union([Type.Literal('transparent'), Type.Literal('waybill'), Type.Literal('driver'), Type.Literal('upgrade')]),
        vehicleId: Type.Optional(Id),
        from: EpochMs,
        to: EpochMs,
        ...PageFields,
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const lang = requestLang(request);
    checkRange(q.from, q.to, MESSAGE_RANGE_MAX_MS);
    const scope = await narrowedScope(storage, ctx, q.companyId);
    let names: Map<number, string>;
    let vehicleId: number | undefined;
    let vehicleIds: number[] | undefined;
    if (q.vehicleId !== undefined) {
      const v = await vehicleIn(scope, q.vehicleId);
      vehicleId = v.vehicleId;
      names = new Map([[v.vehicleId, v.vehiidno]]);
    } else {
      names = scopeVehicles(scope);
      vehicleIds = [...names.keys()];
    }
    const log = requireLog();
    const { total, rows } = await log.search({
      from: q.from, to: q.to, vehicleId, vehicleIds, direction: 0, msgIds: [MESSAGE_TYPES[q.type as MessageType]],
      offset: (q.current - 1) * q.size, limit: q.size,
    });
    const records = rows.map((r) => {
      const { decoded, error } = decodeForLog(r.raw);
      const body = (decoded as { body?: unknown; text?: string } | null);
      return {
        id: r.id, time: r.time, type: q.type, msgId: r.msgId, msgIdHex: hexId(r.msgId), msgName: messageName(r.msgId, lang), phone: r.phone,
        vehicleId: r.vehicleId, vehiidno: r.vehicleId === null ? null : names.get(r.vehicleId) ?? null,
        content: body?.body ?? null, text: body?.text ?? null, error,
      };
    });
    return ok({ total, current: q.current, size: q.size, records }, lang);
  });

  // ------------------------------------------------------------------ devlogcommand

  type RecordRow = { id: number; vehicle_id: number | null; vehiidno: string; device_no: string; user_name: string; send_time: number; answer_time: number | null; state: string; result: number | null; answer: string | null; content: string };
  const recordView = (r: RecordRow, withLog: boolean) => {
    const answer = r.answer ? (JSON.parse(r.answer) as { log?: string; lines?: number }) : null;
    return {
      id: r.id, vehicleId: r.vehicle_id, vehiidno: r.vehiidno, deviceNo: r.device_no, userName: r.user_name, sendTime: r.send_time, answerTime: r.answer_time,
      state: r.state, result: r.result, lines: (JSON.parse(r.content) as { lines: number }).lines, answerLines: answer?.lines ?? null,
      ...(withLog ? { log: answer?.log ?? null } : {}),
    };
  };

  app.get('/service-command/devlogcommand/uploadDevLog', {
    config: { permission: UPLOAD_LOG_BUTTON },
    schema: { querystring: Strict({ vehicleId: Id, lines: Type.Optional(Type.Integer({ minimum: 1, maximum: DEVLOG_MAX_LINES })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const lines = request.query.lines ?? DEVLOG_LINES_DEFAULT;
    const v = await vehicleIn(ctx.scope, request.query.vehicleId);
    if (!v.deviceNo) throw new AppError(ErrorCode.Conflict, CommLogMessages.noDevice);
    // Offline: 409 and nothing written (a 4xx writes nothing).
    if (!gateway.isReachable(v.vehicleId)) throw new AppError(ErrorCode.Conflict, CommLogMessages.offline);
    const msg = devlogRequest(lines);
    const id = record(v, msg, 'devlog', { lines }, userOf(ctx), 'sent');
    const outcome = await gateway.request(v.vehicleId, msg, TRANSPARENT_MSG.UP, ANSWER_TIMEOUT_MS);
    let answer: { log: string; lines: number } | null = null;
    if (outcome.kind === 'answer') {
      const log = devlogText(outcome.message as TransparentUp);
      answer = { log, lines: log === '' ? 0 : log.split('\n').length };
    }
    settle(id, outcome, answer);
    if (outcome.kind === 'offline') throw new AppError(ErrorCode.Conflict, CommLogMessages.offline);
    if (outcome.kind === 'timeout') throw new AppError(ErrorCode.GatewayTimeout, CommLogMessages.timeout);
    const row = db.prepare('SELECT * FROM command_record WHERE id = ?').get(id) as RecordRow;
    return ok(recordView(row, true), lang);
  });

  function recordIn(scope: Scope, id: number): RecordRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT r.* FROM command_record r JOIN company c ON c.id = r.company_id WHERE r.id = ? AND r.fun = 'devlog' AND ${cond.sql}`).get(id, ...cond.params) as RecordRow | undefined;
    if (!row) throw fail.notFound(CommLogMessages.recordNotFound);
    return row;
  }

  app.get('/service-command/devlogcommand/uploadDevLogResult', {
    config: { permission: DEVICE_LOG_PAGE },
    schema: { querystring: Strict({ recordId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    return ok(recordView(recordIn(ctx.scope, request.query.recordId), true), requestLang(request));
  });

  app.get('/service-command/devlogcommand/searchDevLog', {
    config: { permission: DEVICE_LOG_PAGE },
    schema: { querystring: Strict({ vehicleId: Type.Optional(Id), ...PageFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql, "r.fun = 'devlog'"];
    const params: unknown[] = [...cond.params];
    if (q.vehicleId !== undefined) {
      await vehicleIn(scope, q.vehicleId);
      where.push('r.vehicle_id = ?');
      params.push(q.vehicleId);
    }
    const sql = `FROM command_record r JOIN company c ON c.id = r.company_id WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`SELECT r.* ${sql} ORDER BY r.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as RecordRow[];
    return ok({ total, current: q.current, size: q.size, records: rows.map((r) => recordView(r, false)) }, requestLang(request));
  });

  app.post('/service-command/devlogcommand/searchDevLogResult', {
    config: { permission: DEVICE_LOG_PAGE, audit: false },
    schema: { body: Strict({ vehicleId: Id, from: EpochMs, to: EpochMs, ...PageFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const lang = requestLang(request);
    checkRange(b.from, b.to, MESSAGE_RANGE_MAX_MS);
    const v = await vehicleIn(ctx.scope, b.vehicleId);
    const log = requireLog();
    // Every device log answer that reached the gateway (also one that came after its request timed out).
    const all = await log.search({ from: b.from, to: b.to, vehicleId: v.vehicleId, phone: v.deviceNo ? phoneKey(v.deviceNo) : undefined, direction: 0, msgIds: [TRANSPARENT_MSG.UP], offset: 0, limit: 10_000 });
    const logs = all.rows.flatMap((r) => {
      const d = decodeFrame(r.raw);
      if (d.kind !== 'message' || d.message.msgId !== TRANSPARENT_MSG.UP || d.message.type !== DEVLOG_TYPE) return [];
      return [{ id: r.id, time: r.time, vehicleId: v.vehicleId, vehiidno: v.vehiidno, replySerial: d.message.replySerial ?? null, log: devlogText(d.message) }];
    });
    const start = (b.current - 1) * b.size;
    return ok({ total: logs.length, current: b.current, size: b.size, records: logs.slice(start, start + b.size) }, lang);
  });
}
