/**
 * The safety board calls (`/service-safe/saftyBoard/*`, the spec's spelling; all GET with query
 * parameters as the spec lists them). A board item is a vehicle's open risk built from its unprocessed
 * high/medium alarms (levels after company settings); the transitions are domain/alarms/board.ts.
 * Every action is checked against its button bit (route config), the caller's company subtree and the
 * state machine, and logged (who, when, what). server/API.md "Safety board".
 */
import { Type } from '@fastify/type-provider-typebox';
import {
  allowedActions, BOARD_ACTION_BUTTON, BOARD_HANDLED_ELSEWHERE, BOARD_ACTION_NAMES, BOARD_NOTE_MAX, BOARD_RISK_LEVELS, BOARD_STATE_NAMES, BOARD_STATES, BOARD_WINDOW_MS,
  boardMessage, isOverdue, transition, UNPUSH_MUTE_MAX_MINUTES, type BoardAction, type BoardState,
} from '../../../domain/alarms/board.ts';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { DealStatus, DealType } from '../../../domain/alarms/engine.ts';
import type { RiskLevel } from '../../../domain/alarms/sources.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { BoardItemRecord, BoardLogEntry } from '../../db/board-types.ts';
import type { Storage } from '../../db/repositories.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { EpochMs, Id, PageFields, Strict, Text, type App } from '../../http/route.ts';
import { alarmView } from './alarms.ts';
import type { Message } from '../../http/messages.ts';
import { publishHandling, type HandledPublisher } from './handled.ts';

const PAGE = '/safeManagement/safetyBoardPage' as const;
/** Alarms shown in an item's detail (newest first); the item's alarmCount has the full number. */
export const DETAIL_ALARMS = 100;

const StateField = Type.Union(BOARD_STATES.map((s) => Type.Literal(s)));
const BoardRiskField = Type.Union(BOARD_RISK_LEVELS.map((l) => Type.Literal(l)));
const Note = Type.Optional(Text(BOARD_NOTE_MAX));
/** Follow-up times are epoch ms. */
const FollowTime = Type.Optional(EpochMs);

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);
export const BoardMessages = {
  itemNotFound: pair('看板事项不存在或不在您的管辖范围内', 'The board item does not exist or is outside your companies'),
  changedMeanwhile: pair('该事项刚被他人处理，请刷新后重试', 'Someone else changed this item just now: refresh and try again'),
};

export function boardItemView(i: BoardItemRecord, now: number, lang: Lang) {
  return {
    id: i.id, vehicleId: i.vehicleId, vehiidno: i.vehiidno, devidno: i.deviceNo, companyId: i.companyId, companyName: i.companyName,
    state: i.state, stateName: boardMessage(BOARD_STATE_NAMES[i.state], lang), riskLevel: i.riskLevel, alarmCount: i.alarmCount,
    firstAlarmTime: i.firstAlarmTime, lastAlarmTime: i.lastAlarmTime, lastAlarmType: i.lastAlarmType, lastAlarmName: alarmName(i.lastAlarmType, lang),
    note: i.note, nextFollowTime: i.nextFollowTime, overdue: isOverdue(i, now), followCount: i.followCount, reportTime: i.reportTime,
    closeTime: i.closeTime, muteUntil: i.muteUntil, handlerUserId: i.handlerUserId, handlerName: i.handlerName, createTime: i.createTime,
    updateTime: i.updateTime, actions: allowedActions(i),
  };
}

function logView(e: BoardLogEntry, lang: Lang) {
  const actionName = e.action === 'open' ? (lang === 'zh' ? '报警上榜' : 'Alarm opened the item')
    : e.action === 'alarm' ? (lang === 'zh' ? '新报警并入' : 'Alarm joined')
    : e.action === 'handled' ? boardMessage(BOARD_HANDLED_ELSEWHERE, lang)
    : boardMessage(BOARD_ACTION_NAMES[e.action], lang);
  return {
    id: e.id, itemId: e.itemId, userId: e.userId, username: e.username, action: e.action, actionName, fromState: e.fromState, toState: e.toState,
    note: e.note, nextFollowTime: e.nextFollowTime, alarmId: e.alarmId, alarmType: e.alarmType,
    alarmName: e.alarmType === null ? null : alarmName(e.alarmType, lang), createTime: e.createTime,
  };
}

const displayName = (ctx: AuthContext) => ctx.user.realName || ctx.user.username;

export interface BoardRouteDeps {
  readonly storage: Storage;
  readonly clock: () => number;
  /** Where board steps are announced to the other consoles (the push hub). */
  readonly push?: HandledPublisher;
}

export function boardRoutes(app: App, deps: BoardRouteDeps): void {
  const { storage, clock, push } = deps;

  /** Brings the board up to date with the alarms stored since the last read (serialised with writes). */
  const sync = async () => {
    // A read-only check first: a quiet board never queues a write transaction behind alarm storage.
    if (!(await storage.board.behind())) return;
    await storage.transaction((tx) => tx.board.ingest(BOARD_RISK_LEVELS, clock() - BOARD_WINDOW_MS));
  };
  /** The caller's companies (narrowed to `companyId`) over a board brought up to date, and the time of reading. */
  const syncedScope = async (ctx: AuthContext, companyId: number | undefined) => {
    const scope = await narrowedScope(storage, ctx, companyId);
    await sync();
    return { scope, now: clock() };
  };

  app.get('/service-safe/saftyBoard/get', {
    config: { permission: PAGE },
    schema: {
      querystring: Strict({
        ...PageFields,
        states: Type.Optional(Type.Array(StateField, { maxItems: BOARD_STATES.length, uniqueItems: true })),
        riskLevels: Type.Optional(Type.Array(BoardRiskField, { maxItems: 2, uniqueItems: true })),
        vehicleIds: Type.Optional(Type.Array(Id, { maxItems: 500, uniqueItems: true })),
        overdue: Type.Optional(Type.Boolean()),
      }),
    },
  }, async (request) => {
    const lang = requestLang(request);
    const q = request.query;
    const { scope, now } = await syncedScope(auth(request), q.companyId);
    const { total, records } = await storage.board.page(scope, {
      states: q.states as BoardState[] | undefined, riskLevels: q.riskLevels as RiskLevel[] | undefined, vehicleIds: q.vehicleIds,
      overdueAt: q.overdue === true ? now : undefined,
    }, (q.current - 1) * q.size, q.size);
    return ok({ records: records.map((r) => boardItemView(r, now, lang)), total, current: q.current, size: q.size }, lang);
  });

  app.get('/service-safe/saftyBoard/stat', {
    config: { permission: PAGE },
    schema: { querystring: Strict({ since: Type.Optional(EpochMs) }) },
  }, async (request) => {
    const lang = requestLang(request);
    const q = request.query;
    const { scope, now } = await syncedScope(auth(request), q.companyId);
    // Closed items count from the start of today (China time) unless the caller says otherwise.
    const since = q.since ?? chinaDayStartMs(chinaDayIndex(now));
    const stat = await storage.board.stat(scope, now, since);
    return ok({ ...stat, open: stat.pending + stat.following + stat.reported, since, now }, lang);
  });

  app.get('/service-safe/saftyBoard/detail', {
    config: { permission: PAGE },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => {
    const lang = requestLang(request);
    const ctx = auth(request);
    await sync();
    const item = await storage.board.get(ctx.scope, request.query.id);
    if (!item) throw fail.notFound(BoardMessages.itemNotFound);
    const alarms = (await storage.alarms.getMany(ctx.scope, await storage.board.alarmIds(item.id, DETAIL_ALARMS))).map((a) => alarmView(a, lang));
    const log = (await storage.board.logs(item.id)).map((e) => logView(e, lang));
    return ok({ item: boardItemView(item, clock(), lang), alarms, log }, lang);
  });

  const action = (path: string, act: BoardAction, query: ReturnType<typeof Strict>) => {
    app.get(path, {
      config: { permission: `${PAGE}:${BOARD_ACTION_BUTTON[act]}` },
      schema: { querystring: query },
    }, async (request) => {
      const lang = requestLang(request);
      const ctx = auth(request);
      const q = request.query as { id: number; note?: string; nextFollowTime?: number; muteMinutes?: number };
      const item = await storage.board.get(ctx.scope, q.id);
      if (!item) throw fail.notFound(BoardMessages.itemNotFound);
      const now = clock();
      const note = (q.note ?? '').trim();
      const d = transition(item, { action: act, now, note, nextFollowTime: q.nextFollowTime, muteMinutes: q.muteMinutes });
      if (!d.ok) {
        const msg = (l: Lang) => boardMessage(d.error.message, l);
        throw d.error.kind === 'state' ? fail.conflict(msg) : fail.badRequest(msg);
      }
      const who = { userId: ctx.user.id, username: displayName(ctx) };
      const closedAlarms = await storage.transaction(async (tx) => {
        if (!(await tx.board.apply(item.id, item.state, d.change, note, who, now, act))) throw fail.conflict(BoardMessages.changedMeanwhile);
        if (act !== 'resolve' && act !== 'unpush') return [];
        // Closing the risk handles its alarms still waiting: resolve = risk release, unpush = no risk.
        const ids = await tx.board.unprocessedAlarmIds(item.id);
        const dealType = act === 'resolve' ? DealType.RiskRelease : DealType.NoRisk;
        const content = note || boardMessage(BOARD_ACTION_NAMES[act], 'zh');
        await tx.alarms.act(ids, { deal: { dealStatus: DealStatus.Manual, dealType, dealContent: content, dealUserId: who.userId, dealUsername: who.username, dealTime: now } },
          ids.map((alarmId) => ({ alarmId, ...who, action: 'handle', dealType, content, terminalResult: null, resultText: '', createTime: now })));
        return ids;
      });
      // Every step changes the board's counts, and resolve / unpush handle the item's waiting alarms.
      await publishHandling(push, storage, {
        alarmIds: closedAlarms, dealStatus: closedAlarms.length > 0 ? DealStatus.Manual : null, userId: who.userId, time: now,
        board: { itemId: item.id, companyPath: item.companyPath },
      }, app.log);
      const fresh = await storage.board.get(ctx.scope, item.id);
      if (!fresh) throw fail.notFound(BoardMessages.itemNotFound);
      return ok({ ...boardItemView(fresh, now, lang), closedAlarms: closedAlarms.length }, lang);
    });
  };
  const follow = Strict({ id: Id, note: Note, nextFollowTime: FollowTime });
  action('/service-safe/saftyBoard/follow', 'follow', follow);
  action('/service-safe/saftyBoard/continuefollow', 'continueFollow', follow);
  action('/service-safe/saftyBoard/cancelFollow', 'cancelFollow', Strict({ id: Id, note: Note }));
  action('/service-safe/saftyBoard/report', 'report', Strict({ id: Id, note: Note }));
  action('/service-safe/saftyBoard/resolved', 'resolve', Strict({ id: Id, note: Note }));
  action('/service-safe/saftyBoard/unpush', 'unpush', Strict({ id: Id, note: Note, muteMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: UNPUSH_MUTE_MAX_MINUTES })) }));
}
