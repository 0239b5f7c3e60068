/**
 * Alarm records and their handling: the paged query (last 3 months, first 5,000), detail, batch
 * manual processing, invalid, typical, the audit log, confirmation with a 0x8203 to the terminal,
 * and the 0x8300 text (TTS) call. Every action writes one `alarm_deal_log` row per alarm.
 */
import { Type } from '@fastify/type-provider-typebox';
import { BOARD_RISK_LEVELS, BOARD_WINDOW_MS } from '../../../domain/alarms/board.ts';
import { alarmName, groupOf, PLATFORM_GENERATED_CODES } from '../../../domain/alarms/catalogue.ts';
import { ALARM_QUERY_CAP, alarmQueryEarliest, DEAL_STATUSES, DEAL_TYPES, DealStatus, type DealType } from '../../../domain/alarms/engine.ts';
import { manualConfirmMask, type RiskLevel } from '../../../domain/alarms/sources.ts';
import { ErrorCode, type Lang } from '../../../domain/errors/catalogue.ts';
import type { AlarmDealLogEntry, AlarmRecord } from '../../db/alarm-types.ts';
import type { Storage } from '../../db/repositories.ts';
import { ALL_COMPANIES, type Scope } from '../../db/scope.ts';
import type { SqliteDb } from '../../db/sqlite.ts';
import { MSG } from '../../gateway/jt808/index.ts';
import type { Jt808MessageInput } from '../../gateway/jt808/messages.ts';
import type { CommandOutcome, Jt808Gateway } from '../../gateway/server.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Code, EpochMs, Id, IdList, PageFields, Strict, Text, type App } from '../../http/route.ts';
import { commandRecordPage, sendRecorded } from '../command-tasks/index.ts';
import { alarmAddress } from './alarm-sheet.ts';
import { publishHandling, type HandledPublisher } from './handled.ts';
import { RiskLevelField } from './settings.ts';
import { SafeMessages, TERMINAL_NO_REPLY, TERMINAL_NOT_APPLICABLE, TERMINAL_OFFLINE, terminalResultText } from './messages.ts';

/** How long a call waits for the terminal's 0x0001. */
export const TERMINAL_REPLY_TIMEOUT_MS = 5000;

const DealStatusField = Type.Union(DEAL_STATUSES.map((s) => Type.Literal(s)));

/** The alarm filters of the processing list, its export and the statistics (server/API.md "Alarm statistics"). */
export const AlarmFilterFields = {
  startTime: EpochMs,
  endTime: EpochMs,
  vehicleIds: Type.Optional(Type.Array(Id, { maxItems: 500, uniqueItems: true })),
  alarmGroups: Type.Optional(Type.Array(Code, { maxItems: 50, uniqueItems: true })),
  alarmTypes: Type.Optional(Type.Array(Code, { maxItems: 500, uniqueItems: true })),
  riskLevels: Type.Optional(Type.Array(RiskLevelField, { maxItems: 4, uniqueItems: true })),
  dealStatuses: Type.Optional(Type.Array(DealStatusField, { maxItems: 4, uniqueItems: true })),
};
const DealTypeField = Type.Union(DEAL_TYPES.map((t) => Type.Literal(t)));

/** 0x8300 display types (catalogue §3 text-message display types) → flag bits. */
export const TEXT_FLAGS = { urgent: 1 << 0, display: 1 << 2, tts: 1 << 3, advertising: 1 << 4 } as const;
const TextTypeField = Type.Union(Object.keys(TEXT_FLAGS).map((k) => Type.Literal(k as keyof typeof TEXT_FLAGS)));

/**
 * An alarm as the console sees it. `withAddress` (the user's `geoInverse` setting, on by default for
 * new users) adds the place from the offline reverse geocoder (≈ 35 µs a position, so a 500-row page
 * costs ≈ 20 ms); '' when the alarm has no fix.
 */
export function alarmView(a: AlarmRecord, lang: Lang, withAddress = false) {
  return {
    address: withAddress ? alarmAddress(a, lang) : undefined,
    id: a.id, alarmType: a.alarmType, alarmName: alarmName(a.alarmType, lang), alarmGroup: groupOf(a.alarmType) ?? null, source: a.source,
    vehicleId: a.vehicleId, vehiidno: a.vehiidno, devidno: a.deviceNo, companyId: a.companyId, companyName: a.companyName, channelId: a.channelId,
    gpsTime: a.startTime, startTime: a.startTime, endTime: a.endTime, lastTime: a.lastTime, count: a.count, lng: a.lng, lat: a.lat, speed: a.speed,
    riskLevel: a.riskLevel, dealStatus: a.dealStatus, dealType: a.dealType, dealContent: a.dealContent, dealUserId: a.dealUserId,
    dealUsername: a.dealUsername, dealTime: a.dealTime, typical: a.typical, createTime: a.createTime,
    content: a.content ?? '', // the platform's note: the fence of a fence alarm (issue 17)
  };
}

function logView(e: AlarmDealLogEntry, lang: Lang) {
  return {
    id: e.id, alarmId: e.alarmId, userId: e.userId, username: e.username, action: e.action, dealType: e.dealType, content: e.content,
    terminalResult: e.terminalResult, terminalResultText: terminalResultText(e.terminalResult, lang), createTime: e.createTime,
  };
}

const displayName = (ctx: AuthContext) => ctx.user.realName || ctx.user.username;

/** A command's outcome as the alarm log's terminalResult: the 0x0001 result, -1 offline, -2 no reply. */
export function outcomeCode(o: CommandOutcome): number {
  return o.kind === 'reply' ? o.result : o.kind === 'offline' ? TERMINAL_OFFLINE : TERMINAL_NO_REPLY;
}

export interface AlarmRouteDeps {
  readonly storage: Storage;
  readonly gateway: Jt808Gateway;
  /** The connection the command records (`command_record`) live in. */
  readonly db: SqliteDb;
  readonly clock: () => number;
  /** Where handlings are announced to the other consoles (the push hub); none in bare route tests. */
  readonly push?: HandledPublisher;
}

export function alarmRoutes(app: App, deps: AlarmRouteDeps): void {
  const { storage, gateway, db, clock, push } = deps;
  const page = '/safeManagement/alarmProcessingPage' as const;
  const deal = '/safeManagement/alarmProcessingPage:deal' as const;
  const confirm = '/safeManagement/alarmProcessingPage:confirm' as const;

  /** A command to the alarm's (or any scoped) vehicle, kept as a command record (issue 17). */
  async function sendAs(ctx: AuthContext, vehicleId: number, msg: Jt808MessageInput, fun: string, content: unknown, keepOffline: boolean): Promise<CommandOutcome> {
    const label = (await storage.terminals.labels(ALL_COMPANIES, [vehicleId])).get(vehicleId);
    if (!label) return gateway.sendCommand(vehicleId, msg, TERMINAL_REPLY_TIMEOUT_MS);
    return sendRecorded(db, gateway, label, msg, { fun, content, user: { id: ctx.user.id, name: displayName(ctx) }, keepOffline }, TERMINAL_REPLY_TIMEOUT_MS);
  }

  async function inScope(scope: Scope, ids: readonly number[]): Promise<number[]> {
    const found = await storage.alarms.inScope(scope, ids);
    // One id outside the scope fails the whole batch, as if it did not exist.
    if (found.length !== ids.length) throw fail.notFound(SafeMessages.alarmNotFound);
    return ids.slice();
  }

  app.post('/service-safe/alarmInfo', {
    config: { permission: page, audit: false },
    schema: {
      body: Strict({
        ...PageFields,
        ...AlarmFilterFields,
        typical: Type.Optional(Type.Boolean()),
      }),
    },
  }, async (request, reply) => {
    const lang = requestLang(request);
    const b = request.body;
    if (b.startTime > b.endTime) throw fail.badRequest(SafeMessages.startAfterEnd);
    if (b.startTime < alarmQueryEarliest(clock())) throw fail.badRequest(SafeMessages.lastThreeMonths);
    const scope = await narrowedScope(storage, auth(request), b.companyId);
    const offset = (b.current - 1) * b.size;
    const limit = Math.max(0, Math.min(b.size, ALARM_QUERY_CAP - offset));
    const { total, records } = await storage.alarms.query(scope, {
      startTime: b.startTime, endTime: b.endTime, vehicleIds: b.vehicleIds, groups: b.alarmGroups, types: b.alarmTypes,
      riskLevels: b.riskLevels as RiskLevel[] | undefined, dealStatuses: b.dealStatuses as DealStatus[] | undefined, typical: b.typical,
    }, offset, limit);
    const capped = total > ALARM_QUERY_CAP;
    const data = {
      records: records.map((r) => alarmView(r, lang, auth(request).user.geoInverse)), total: Math.min(total, ALARM_QUERY_CAP), current: b.current, size: b.size,
      capped, matched: total,
    };
    if (!capped) return ok(data, lang);
    return reply.send({ code: 200, msg: SafeMessages.firstOnly(lang), data });
  });

  app.get('/service-safe/alarmInfo/:id', {
    config: { permission: page },
    schema: { params: Type.Object({ id: Id }), querystring: Strict({}) },
  }, async (request) => {
    const lang = requestLang(request);
    const a = await storage.alarms.get(auth(request).scope, request.params.id);
    if (!a) throw fail.notFound(SafeMessages.alarmNotFound);
    return ok(alarmView(a, lang, auth(request).user.geoInverse), lang);
  });

  /**
   * Sets the processing state of alarms already checked to be in scope, logging each, and resolves the
   * pending board items this leaves without unprocessed alarms. Alarms someone else decided meanwhile
   * are left out; when none is left the call answers 409. Answers the ids changed.
   */
  async function setDeal(ctx: AuthContext, ids: readonly number[], action: string, status: DealStatus, dealType: DealType | null, content: string) {
    const now = clock();
    const who = { userId: ctx.user.id, username: displayName(ctx) };
    const changed = await storage.transaction(async (tx) => {
      const logs = ids.map((id) => ({ alarmId: id, ...who, action, dealType, content, terminalResult: null, resultText: '', createTime: now }));
      // The board reads the alarms it has not seen BEFORE they are handled: it takes only unprocessed
      // ones, so an alarm handled here before any board read used to bypass the board, and the board's
      // "resolved today" stayed 0 while the list showed it handled (issue 13). Read first, the alarm
      // opens or joins its vehicle's item, which the handling below then resolves; a newer alarm of
      // the vehicle keeps the item open.
      await tx.board.ingest(BOARD_RISK_LEVELS, now - BOARD_WINDOW_MS);
      const done = await tx.alarms.act(ids, { deal: { dealStatus: status, dealType, dealContent: content, dealUserId: who.userId, dealUsername: who.username, dealTime: now } }, logs);
      if (done.length > 0) await tx.board.closeHandled(done, who, now);
      return done;
    });
    if (changed.length === 0) throw fail.conflict(ids.length === 1 ? SafeMessages.alreadyHandled : SafeMessages.allAlreadyHandled);
    // Before the answer (and before a confirmation waits up to 5 s for the terminal): the other consoles
    // show the handling at once.
    await publishHandling(push, storage, { alarmIds: changed, dealStatus: status, userId: who.userId, time: now }, app.log);
    return changed;
  }

  app.put('/service-safe/alarmInfo/handle_status', {
    config: { permission: deal },
    schema: { body: Strict({ ids: IdList, dealType: DealTypeField, dealContent: Text(500) }) },
  }, async (request) => {
    const ctx = auth(request);
    const { ids, dealType, dealContent } = request.body;
    await inScope(ctx.scope, ids);
    const changed = await setDeal(ctx, ids, 'handle', DealStatus.Manual, dealType as DealType, dealContent.trim());
    return ok({ updated: changed.length, skipped: ids.length - changed.length }, requestLang(request));
  });

  app.post('/service-safe/alarmInfo/typical', {
    config: { permission: deal },
    schema: { body: Strict({ ids: IdList, typical: Type.Boolean() }) },
  }, async (request) => {
    const ctx = auth(request);
    const { ids, typical } = request.body;
    await inScope(ctx.scope, ids);
    const now = clock();
    await storage.alarms.act(ids, { typical }, ids.map((id) => ({
      alarmId: id, userId: ctx.user.id, username: displayName(ctx), action: typical ? 'typical' : 'untypical', dealType: null, content: '', terminalResult: null, resultText: '', createTime: now,
    })));
    return ok({ updated: ids.length }, requestLang(request));
  });

  app.post('/service-command/command/invalidAlarm', {
    config: { permission: deal },
    schema: { body: Strict({ ids: IdList, dealContent: Type.Optional(Text(500)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const { ids, dealContent } = request.body;
    await inScope(ctx.scope, ids);
    const changed = await setDeal(ctx, ids, 'invalid', DealStatus.Invalid, null, (dealContent ?? '').trim());
    return ok({ updated: changed.length, skipped: ids.length - changed.length }, requestLang(request));
  });

  app.get('/service-command/command_record/findAlarmDealLog', {
    config: { permission: page },
    schema: { querystring: Strict({ alarmId: Id }) },
  }, async (request) => {
    const lang = requestLang(request);
    const a = await storage.alarms.get(auth(request).scope, request.query.alarmId);
    if (!a) throw fail.notFound(SafeMessages.alarmNotFound);
    return ok((await storage.alarms.logs(a.id)).map((e) => logView(e, lang)), lang);
  });

  // Text (TTS) sent to terminals: by hand from the alarm pop-up or the 808 menu, and the alarm linkage's (user 平台).
  app.get('/service-command/command_record/tts', {
    config: { permission: page },
    schema: {
      querystring: Strict({
        ...PageFields, vehicleId: Type.Optional(Id), alarmId: Type.Optional(Id), startTime: Type.Optional(EpochMs), endTime: Type.Optional(EpochMs),
      }),
    },
  }, async (request) => {
    const q = request.query;
    const { records, total } = commandRecordPage(db, auth(request).scope, { funs: ['tts'], vehicleId: q.vehicleId, alarmId: q.alarmId, from: q.startTime, to: q.endTime }, q);
    return ok({ records, total, current: q.current, size: q.size }, requestLang(request));
  });

  // What the terminal was told about one alarm: the 0x8203 of each decision and the TTS sent for it, oldest first.
  app.get('/service-command/command_record/findAlarmDeal', {
    config: { permission: page },
    schema: { querystring: Strict({ alarmId: Id }) },
  }, async (request) => {
    const lang = requestLang(request);
    const ctx = auth(request);
    const a = await storage.alarms.get(ctx.scope, request.query.alarmId);
    if (!a) throw fail.notFound(SafeMessages.alarmNotFound);
    return ok(commandRecordPage(db, ALL_COMPANIES, { funs: ['alarmDeal', 'tts'], alarmId: a.id }).records.reverse(), lang);
  });

  /** Confirm or invalidate one alarm, then send the terminal a 0x8203 when one applies. */
  const replyDevice = (path: string, permission: typeof confirm | typeof deal, action: 'confirm' | 'invalid', status: DealStatus) => {
    app.get(path, {
      config: { permission },
      schema: { querystring: Strict({ alarmId: Id, dealType: Type.Optional(DealTypeField), dealContent: Type.Optional(Text(500)) }) },
    }, async (request) => {
      const lang = requestLang(request);
      const ctx = auth(request);
      const { alarmId, dealType, dealContent } = request.query;
      const a = await storage.alarms.get(ctx.scope, alarmId);
      if (!a) throw fail.notFound(SafeMessages.alarmNotFound);
      const type = (dealType ?? null) as DealType | null;
      const content = (dealContent ?? '').trim();
      const mask = PLATFORM_GENERATED_CODES.has(a.alarmType) ? 0 : manualConfirmMask(a.alarmType);
      // Claimed (and logged, answer pending) before the terminal is told: of two officers confirming at
      // once, only one sends 0x8203. A decision whose 0x8203 never reached the terminal (offline, no
      // answer) may be sent again by the same call: the terminal's alarm bit stays latched until it is.
      let resend = false;
      try {
        await setDeal(ctx, [a.id], action, status, type, content);
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== ErrorCode.Conflict || mask === 0 || a.dealStatus !== status) throw err;
        const last = (await storage.alarms.logs(a.id)).filter((e) => e.action === action).at(-1);
        if (last?.terminalResult !== TERMINAL_OFFLINE && last?.terminalResult !== TERMINAL_NO_REPLY) throw err;
        resend = true;
      }
      // The alarm is decided whatever the terminal does; the log says what the terminal answered.
      let terminal = TERMINAL_NOT_APPLICABLE;
      if (mask !== 0) {
        const msg = { msgId: MSG.ALARM_CONFIRM, alarmSerial: 0, alarmType: mask };
        terminal = outcomeCode(await sendAs(ctx, a.vehicleId, msg, 'alarmDeal', { alarmId: a.id, alarmType: a.alarmType, action, dealType: type, dealContent: content, mask }, true));
      }
      if (resend) {
        await storage.alarms.addLog({
          alarmId: a.id, userId: ctx.user.id, username: displayName(ctx), action, dealType: type, content, terminalResult: terminal, resultText: '', createTime: clock(),
        });
      } else {
        await storage.alarms.setLogResult(a.id, action, ctx.user.id, terminal);
      }
      return ok({ id: a.id, dealStatus: status, terminalResult: terminal, terminalResultText: terminalResultText(terminal, lang) }, lang);
    });
  };
  replyDevice('/service-command/command/confirmAlarmAndReplyDevice', confirm, 'confirm', DealStatus.Manual);
  replyDevice('/service-command/command/invalidAlarmAndReplyDevice', deal, 'invalid', DealStatus.Invalid);

  app.post('/service-command/command/startTts', {
    config: { permission: '/global/alarm:ttsReminder' },
    schema: {
      body: Strict({
        vehicleId: Id, text: Text(1000, 1),
        types: Type.Array(TextTypeField, { minItems: 1, maxItems: 4, uniqueItems: true, default: ['tts'] }),
        alarmId: Type.Optional(Id),
      }),
    },
  }, async (request) => {
    const lang = requestLang(request);
    const ctx = auth(request);
    const { vehicleId, text, types, alarmId } = request.body;
    const vehicle = await storage.fleet.getVehicle(ctx.scope, vehicleId);
    if (!vehicle) throw fail.notFound(SafeMessages.vehicleNotFound);
    const alarm = alarmId === undefined ? undefined : await storage.alarms.get(ctx.scope, alarmId);
    if (alarmId !== undefined && (!alarm || alarm.vehicleId !== vehicleId)) throw fail.notFound(SafeMessages.alarmNotFound);
    const flags = types.reduce((f, t) => f | TEXT_FLAGS[t as keyof typeof TEXT_FLAGS], 0);
    const outcome = await sendAs(ctx, vehicleId, { msgId: MSG.TEXT, flags, textType: 1, text }, 'tts', { text, types, alarmId: alarmId ?? null }, false); // offline: 409, nothing kept
    const code = outcomeCode(outcome);
    if (alarm) {
      await storage.alarms.addLog({
        alarmId: alarm.id, userId: ctx.user.id, username: displayName(ctx), action: 'tts', dealType: null, content: text, terminalResult: code, resultText: '', createTime: clock(),
      });
    }
    if (outcome.kind === 'offline') throw fail.conflict(SafeMessages.deviceOffline);
    if (outcome.kind === 'timeout') throw new AppError(504, SafeMessages.deviceNoReply);
    return ok({ vehicleId, flags, result: outcome.result, resultText: terminalResultText(outcome.result, lang) }, lang);
  });
}
