/**
 * Terminal parameters over JT/T 808 (issue 17; contract: ./api.md): read a vehicle's parameters from
 * its live terminal (0x8104 all / 0x8106 chosen → 0x0104), set parameters on up to 500 vehicles as a
 * task with per-vehicle state (queued while the terminal is offline and sent when it authenticates
 * again, until the task expires), the one-off terminal functions (0x8107 attributes, 0x8201 position,
 * 0x8202 temporary tracking, 0x8105 control), the command records of all of these, and named
 * parameter templates (paramconfig).
 *
 * Scoping: vehicles are checked against the caller's subtree before anything is sent or written;
 * records, tasks and templates are listed by company inside the caller's scope.
 */
import { Type } from '@fastify/type-provider-typebox';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { activeSafetyLayout, ADAS_PARAMS, blockFields, checkBlock, DSM_PARAMS } from '../../../domain/terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../../../domain/terminal-params/hjws.ts';
import { USUAL_IDS } from '../../../domain/terminal-params/usual.ts';
import { encodeGbk } from '../../gateway/jt808/bytes.ts';
import { PARAM, PARAM_MSG, parameterSpec, type ParameterSpec, type TerminalParameter } from '../../gateway/jt808/parameters.ts';
import type { Jt808MessageInput } from '../../gateway/jt808/messages.ts';
import { auth, narrowedScope, permits, type AuthContext } from '../../http/auth.ts';
import { AppError, badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, PageFields, Strict, Text, type App, type PermissionKey } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { ANSWER_TIMEOUT_MS, commandRecordPage, commandRecords, createCommandTasks, TASK_QUEUE_MS, TASK_VEHICLES_MAX, type CommandUser } from '../command-tasks/index.ts';

export const PARAMS_PAGE = '/information/params/baseParam';
export const ADAS_PAGE = '/information/params/adasParam';
export const DSM_PAGE = '/information/params/dsmParam';
export const HJWS_PAGE = '/information/params/hjwsParam';
export const USUAL_PAGE = '/information/params/usualParam';
/**
 * The screens that edit a part of the parameters with bits of their own: the active-safety blocks
 * (0xF364 / 0xF365, query / set / send 450–455), the slag-truck controller block (0xF3A0) and the usual
 * parameters (query / set 486–489; no send bit: sending to many stays the base screen's). A caller
 * holding the base screen's bit may touch every parameter; one holding only a screen's bit may touch
 * that screen's ids and nothing else (checked per item, see `blockRights`).
 */
const BLOCK_SCREENS: readonly { page: PermissionKey; ids: readonly number[]; send: boolean; zh: string; en: string }[] = [
  { page: ADAS_PAGE, ids: [ADAS_PARAMS.id], send: true, zh: ADAS_PARAMS.zh, en: ADAS_PARAMS.en },
  { page: DSM_PAGE, ids: [DSM_PARAMS.id], send: true, zh: DSM_PARAMS.zh, en: DSM_PARAMS.en },
  { page: HJWS_PAGE, ids: [HJWS_PARAMS.id], send: false, zh: HJWS_PARAMS.zh, en: HJWS_PARAMS.en },
  { page: USUAL_PAGE, ids: USUAL_IDS, send: false, zh: '常用参数', en: 'usual parameters' },
];
/** Screens whose pages read tasks, records and templates (the base screen and every screen above). */
const READ_SCREENS = [PARAMS_PAGE, ADAS_PAGE, DSM_PAGE, HJWS_PAGE, USUAL_PAGE] as const;
const keys = (button: string) => [`${PARAMS_PAGE}:${button}`, ...BLOCK_SCREENS.map((b) => `${b.page}:${button}`)] as [PermissionKey, ...PermissionKey[]];
// The task machinery and its limits are shared with the other device-facing services (fences).
export { ANSWER_TIMEOUT_MS, TASK_QUEUE_MS, TASK_VEHICLES_MAX };
export const TEMPLATE_NAME_MAX = 50;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const ParamMessages = {
  vehiclesOutOfScope: (list: string): Message => pair(`车辆不存在或不在您的管辖范围内：${list}`, `No such vehicle in your scope: ${list}`),
  noDevice: pair('车辆未安装终端', 'The vehicle has no terminal installed'),
  offline: pair('终端不在线', 'The terminal is offline'),
  timeout: pair('终端未在规定时间内应答', 'The terminal did not answer in time'),
  refused: (result: number): Message => pair(`终端应答失败（结果 ${result}）`, `The terminal refused (result ${result})`),
  unknownParam: (id: string): Message => pair(`未知参数 ${id}`, `Unknown parameter ${id}`),
  badValue: (id: string, need: string): Message => pair(`参数 ${id} 的值无效：需要${need === 'text' ? '文本（≤255 字节）' : need}`, `Parameter ${id}: the value must be ${need === 'text' ? 'text of at most 255 bytes' : need}`),
  taskNotFound: pair('任务不存在', 'No such task'),
  templateNotFound: pair('参数模板不存在', 'No such parameter template'),
  templateTaken: pair('同名参数模板已存在', 'A template of this name exists already'),
  badBlockField: (id: string, zh: string, en: string, min: number, max: number): Message => pair(`参数 ${id}：${zh}需为 ${min} 到 ${max} 的整数`, `Parameter ${id}: ${en} must be a whole number from ${min} to ${max}`),
  unknownBlockField: (id: string, key: string): Message => pair(`参数 ${id}：未知字段 ${key}`, `Parameter ${id}: unknown field ${key}`),
  queryAllForbidden: pair('无权查询全部参数（仅可查询本页的参数）', 'You may not query all parameters (only those of your parameter screens)'),
  paramForbidden: (id: string, zh: string, en: string): Message => pair(`无权${zh}参数 ${id}`, `You may not ${en} parameter ${id}`),
  batchForbidden: (zh: string, en: string): Message => pair(`无权批量下发${zh}（仅可设置一辆车）`, `You may not send ${en} to several vehicles (set one vehicle only)`),
} as const;

const hexId = (id: number) => `0x${id.toString(16).padStart(4, '0')}`;
const RANGE = { dword: 0xffffffff, word: 0xffff, byte: 0xff } as const;

/** The parameter table as the console shows it (ids, types, units). */
export function parameterTable() {
  return Object.entries(PARAM).map(([key, s]: [string, ParameterSpec]) => ({ key, id: s.id, type: s.type, zh: s.zh, unit: s.unit ?? null, since: s.since ?? 2013 }));
}

/** A value: a number, text, or the fields of an active-safety block (0xF364 / 0xF365, checked by checkParams). */
const ParamValue = Type.Union([
  Type.Integer({ minimum: 0, maximum: 0xffffffff }),
  Type.String({ maxLength: 255 }),
  Type.Record(Type.String({ maxLength: 40 }), Type.Integer({ minimum: 0, maximum: 0xffffffff }), { maxProperties: 64 }),
]);
const ParamItem = Type.Object({ id: Type.Integer({ minimum: 0, maximum: 0xffffffff }), value: ParamValue }, { additionalProperties: false });
const ParamList = Type.Array(ParamItem, { minItems: 1, maxItems: 255 });

/** Checks every item against the table: 400 naming `params[i].value` (or `.id`) before anything is sent. */
export function checkParams(params: readonly { id: number; value: number | string | Record<string, number> }[]): TerminalParameter[] {
  const seen = new Set<number>();
  return params.map((p, i) => {
    const layout = activeSafetyLayout(p.id);
    if (layout) {
      // An active-safety block: every field of the standard's layout, each inside its range.
      if (seen.has(p.id)) throw badField(`params[${i}].id`, ParamMessages.unknownParam(hexId(p.id)), 'duplicate');
      seen.add(p.id);
      if (typeof p.value !== 'object') throw badField(`params[${i}].value`, ParamMessages.badValue(hexId(p.id), `${layout.zh}`), 'type');
      const bad = checkBlock(layout, p.value);
      if (bad) {
        const field = blockFields(layout).find((x) => x.key === bad.key);
        if (!field) throw badField(`params[${i}].value.${bad.key}`, ParamMessages.unknownBlockField(hexId(p.id), bad.key), 'unknown');
        throw badField(`params[${i}].value.${bad.key}`, ParamMessages.badBlockField(hexId(p.id), field.zh, field.en, field.min, field.max), 'range');
      }
      return { id: p.id, value: { ...p.value } };
    }
    const spec = parameterSpec(p.id);
    if (!spec || seen.has(p.id)) throw badField(`params[${i}].id`, ParamMessages.unknownParam(hexId(p.id)), spec ? 'duplicate' : 'unknown');
    seen.add(p.id);
    if (spec.type === 'string') {
      if (typeof p.value !== 'string' || encodeGbk(p.value).length > 255) throw badField(`params[${i}].value`, ParamMessages.badValue(hexId(p.id), 'text'), 'type');
    } else if (typeof p.value !== 'number' || !Number.isInteger(p.value) || p.value < 0 || p.value > RANGE[spec.type]) {
      throw badField(`params[${i}].value`, ParamMessages.badValue(hexId(p.id), `0..${RANGE[spec.type]}`), 'range');
    }
    return { id: p.id, value: p.value };
  });
}

/** JSON form of items (raw bytes as hex). */
function itemsView(params: readonly TerminalParameter[]) {
  return params.map(({ id, value }) => {
    const spec = parameterSpec(id);
    return { id, value: value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value, raw: value instanceof Uint8Array, zh: spec?.zh ?? activeSafetyLayout(id)?.zh ?? null, unit: spec?.unit ?? null };
  });
}

/**
 * Whether the caller may query (`query`) or send (`set`) these parameter ids to `vehicles` vehicles;
 * throws 403 naming the first id it may not touch. The base screen's bit covers every id; a block
 * screen's bit covers its block only, and its `set` covers one vehicle (the screen's 设置), `send` many
 * (批量下发). Run before anything is sent or written.
 */
export function blockRights(ctx: AuthContext, action: 'query' | 'set', ids: readonly number[] | undefined, vehicles = 1): void {
  if (permits(ctx, `${PARAMS_PAGE}:${action}`)) return;
  if (ids === undefined) throw fail.forbidden(ParamMessages.queryAllForbidden);
  const verb = action === 'query' ? { zh: '查询', en: 'query' } : { zh: '设置', en: 'set' };
  for (const id of ids) {
    const screens = BLOCK_SCREENS.filter((b) => b.ids.includes(id));
    const refused = () => fail.forbidden(ParamMessages.paramForbidden(hexId(id), verb.zh, verb.en));
    if (action === 'query') {
      if (!screens.some((s) => permits(ctx, `${s.page}:query`))) throw refused();
    } else if (!screens.some((s) => s.send && permits(ctx, `${s.page}:send`))) {
      const screen = screens.find((s) => permits(ctx, `${s.page}:set`));
      if (!screen) throw refused();
      if (vehicles > 1) throw fail.forbidden(ParamMessages.batchForbidden(screen.zh, screen.en));
    }
  }
}

export interface TerminalParamsDeps {
  readonly storage: Storage;
  readonly live: LiveRuntime;
}

export function terminalParamsRoutes(app: App, deps: TerminalParamsDeps): void {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  const gateway = live.gateway;

  async function vehiclesIn(scope: Scope, ids: readonly number[], field: string): Promise<VehicleLabel[]> {
    const labels = await storage.terminals.labels(scope, ids);
    const missing = ids.filter((id) => !labels.has(id));
    if (missing.length > 0) throw badField(field, ParamMessages.vehiclesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
    return ids.map((id) => labels.get(id)!);
  }

  const { record, settle } = commandRecords(db);

  const userOf = (ctx: AuthContext): CommandUser => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });

  /** One command with an answer to one vehicle: record, send, settle; 409/504 for offline/timeout/refused. */
  async function oneOff(ctx: AuthContext, vehicleId: number, fun: string, msg: Jt808MessageInput, answerId: number | null, content: unknown) {
    const [v] = await vehiclesIn(ctx.scope, [vehicleId], 'vehicleId');
    if (!v!.deviceNo) throw new AppError(ErrorCode.Conflict, ParamMessages.noDevice);
    // Offline: 409 and nothing written (a 4xx writes nothing; http/fuzz.test.ts).
    if (!gateway.isReachable(v!.vehicleId)) throw new AppError(ErrorCode.Conflict, ParamMessages.offline);
    const id = record(v!, msg, fun, content, userOf(ctx), 'sent');
    const outcome = answerId === null ? await gateway.sendCommand(v!.vehicleId, msg, ANSWER_TIMEOUT_MS) : await gateway.request(v!.vehicleId, msg, answerId, ANSWER_TIMEOUT_MS);
    const answer = outcome.kind === 'answer' ? outcome.message : null;
    const view = answer && 'params' in answer ? { params: itemsView(answer.params) } : answer;
    settle(id, outcome, view);
    if (outcome.kind === 'offline') throw new AppError(ErrorCode.Conflict, ParamMessages.offline);
    if (outcome.kind === 'timeout') throw new AppError(ErrorCode.GatewayTimeout, ParamMessages.timeout);
    // A refusal is the terminal's answer: 200 with its result (and the record says failed).
    return { recordId: id, vehicleId: v!.vehicleId, vehiidno: v!.vehiidno, result: outcome.kind === 'reply' ? outcome.result : 0, answer: view };
  }

  // ------------------------------------------------------------------ tasks

  const tasks = createCommandTasks<TerminalParameter[]>({ db, storage, gateway, log: app.log }, {
    tables: { task: 'param_task', vehicle: 'param_task_vehicle', payload: 'params' },
    message: (params) => ({ msgId: PARAM_MSG.SET, params }),
    fun: () => 'setParams',
    content: (params) => ({ params: itemsView(params) }),
  });

  function taskView(scope: Scope, id: number) {
    const { payload, ...t } = tasks.view(scope, id, ParamMessages.taskNotFound);
    return { ...t, params: itemsView(payload) };
  }

  // ------------------------------------------------------------------ routes

  app.get('/service-command/params/table', { config: { permission: [PARAMS_PAGE, USUAL_PAGE] }, schema: { querystring: Strict({}) } }, async (request) => ok(parameterTable(), requestLang(request)));

  app.post('/service-command/params/query', {
    config: { permission: keys('query') },
    schema: { body: Strict({ vehicleId: Id, ids: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 0xffffffff }), { minItems: 1, maxItems: 255, uniqueItems: true })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const { vehicleId, ids } = request.body;
    blockRights(ctx, 'query', ids);
    const msg: Jt808MessageInput = ids ? { msgId: PARAM_MSG.QUERY_CHOSEN, ids } : { msgId: PARAM_MSG.QUERY_ALL };
    return ok(await oneOff(ctx, vehicleId, ids ? 'queryChosen' : 'queryAll', msg, PARAM_MSG.ANSWER, ids ? { ids } : {}), requestLang(request));
  });

  app.post('/service-command/command/terminalFun', {
    config: { permission: `${PARAMS_PAGE}:control` },
    schema: {
      body: Strict({
        vehicleId: Id,
        fun: Type.Union([Type.Literal('attributes'), Type.Literal('position'), Type.Literal('tracking'), Type.Literal('control')]),
        interval: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffff })),
        validity: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffffffff })),
        command: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 })),
        args: Type.Optional(Text(200)),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const lang = requestLang(request);
    switch (b.fun) {
      case 'attributes':
        return ok(await oneOff(ctx, b.vehicleId, b.fun, { msgId: PARAM_MSG.QUERY_ATTRIBUTES }, PARAM_MSG.ATTRIBUTES, {}), lang);
      case 'position':
        return ok(await oneOff(ctx, b.vehicleId, b.fun, { msgId: PARAM_MSG.POSITION_QUERY }, PARAM_MSG.POSITION_ANSWER, {}), lang);
      case 'tracking': {
        if (b.interval === undefined) throw badField('interval', pair('必填', 'required'), 'required');
        if (b.validity === undefined) throw badField('validity', pair('必填', 'required'), 'required');
        const msg = { msgId: PARAM_MSG.TEMPORARY_TRACKING, interval: b.interval, validity: b.validity } as const;
        return ok(await oneOff(ctx, b.vehicleId, b.fun, msg, null, { interval: b.interval, validity: b.validity }), lang);
      }
      case 'control': {
        if (b.command === undefined) throw badField('command', pair('必填', 'required'), 'required');
        const msg = { msgId: PARAM_MSG.CONTROL, command: b.command, args: b.args ?? '' } as const;
        return ok(await oneOff(ctx, b.vehicleId, b.fun, msg, null, { command: b.command, args: b.args ?? '' }), lang);
      }
    }
  });

  app.post('/service-command/params/task', {
    config: { permission: [...keys('set'), ...BLOCK_SCREENS.filter((b) => b.send).map((b) => `${b.page}:send` as const)] },
    schema: { body: Strict({ vehicleIds: Type.Array(Id, { minItems: 1, maxItems: TASK_VEHICLES_MAX, uniqueItems: true }), params: ParamList }) },
  }, async (request) => {
    const ctx = auth(request);
    blockRights(ctx, 'set', request.body.params.map((p) => p.id), request.body.vehicleIds.length);
    const params = checkParams(request.body.params);
    const vehicles = await vehiclesIn(ctx.scope, request.body.vehicleIds, 'vehicleIds');
    const noDevice = vehicles.filter((v) => !v.deviceNo);
    if (noDevice.length > 0) throw badField('vehicleIds', (l) => `${ParamMessages.noDevice(l)}: ${noDevice.slice(0, 10).map((v) => v.vehiidno).join(', ')}`, 'noDevice');
    const taskId = tasks.create(ctx.user.companyId, params, vehicles, userOf(ctx));
    return ok(taskView(ctx.scope, taskId), requestLang(request));
  });

  app.get('/service-command/params/task', {
    config: { permission: READ_SCREENS },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => ok(taskView(auth(request).scope, request.query.id), requestLang(request)));

  app.get('/service-command/command_record/fun', {
    config: { permission: READ_SCREENS },
    schema: { querystring: Strict({ ...PageFields, vehicleId: Type.Optional(Id), taskId: Type.Optional(Id) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const { records, total } = commandRecordPage(db, scope, { vehicleId: q.vehicleId, taskId: q.taskId }, q);
    return ok({ records, total, current: q.current, size: q.size }, requestLang(request));
  });

  // ------------------------------------------------------------------ paramconfig (templates)

  interface TemplateRow { id: number; company_id: number; company_name: string; name: string; params: string; remark: string; created_by_name: string; create_time: number; update_time: number }
  const templateView = (t: TemplateRow) => ({
    id: t.id, companyId: t.company_id, companyName: t.company_name, name: t.name, params: itemsView(JSON.parse(t.params) as TerminalParameter[]),
    remark: t.remark, createdByName: t.created_by_name, createTime: t.create_time, updateTime: t.update_time,
  });
  function templateIn(scope: Scope, id: number): TemplateRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT t.*, c.name AS company_name FROM param_template t JOIN company c ON c.id = t.company_id WHERE t.id = ? AND ${cond.sql}`).get(id, ...cond.params) as TemplateRow | undefined;
    if (!row) throw fail.notFound(ParamMessages.templateNotFound);
    return row;
  }
  function nameFree(companyId: number, name: string, except = 0): void {
    if (db.prepare('SELECT 1 FROM param_template WHERE company_id = ? AND name = ? AND id <> ?').get(companyId, name, except)) throw badField('name', ParamMessages.templateTaken, 'duplicate');
  }

  // The catalogue's names (001 call catalogue: GET findAll, POST save, POST update, GET remove).
  app.get('/service-priv/paramconfig/findAll', {
    config: { permission: READ_SCREENS },
    schema: { querystring: Strict({ ...PageFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const sql = `FROM param_template t JOIN company c ON c.id = t.company_id WHERE ${cond.sql}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...cond.params) as { n: number }).n;
    const rows = db.prepare(`SELECT t.*, c.name AS company_name ${sql} ORDER BY t.id DESC LIMIT ? OFFSET ?`).all(...cond.params, q.size, (q.current - 1) * q.size) as TemplateRow[];
    return ok({ records: rows.map(templateView), total, current: q.current, size: q.size }, requestLang(request));
  });

  app.post('/service-priv/paramconfig/save', {
    config: { permission: `${PARAMS_PAGE}:template` },
    schema: { body: Strict({ name: Name(TEMPLATE_NAME_MAX), params: ParamList, remark: Type.Optional(Text(200)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const params = checkParams(b.params);
    const name = b.name.trim();
    nameFree(ctx.user.companyId, name);
    const now = Date.now();
    const id = Number(db.prepare('INSERT INTO param_template (company_id, name, params, remark, created_by, created_by_name, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(ctx.user.companyId, name, JSON.stringify(params), (b.remark ?? '').trim(), ctx.user.id, userOf(ctx).name, now, now).lastInsertRowid);
    return ok(templateView(templateIn(ctx.scope, id)), requestLang(request));
  });

  app.post('/service-priv/paramconfig/update', {
    config: { permission: `${PARAMS_PAGE}:template` },
    schema: { body: Strict({ id: Id, name: Name(TEMPLATE_NAME_MAX), params: ParamList, remark: Type.Optional(Text(200)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const t = templateIn(ctx.scope, b.id);
    const params = checkParams(b.params);
    const name = b.name.trim();
    nameFree(t.company_id, name, t.id);
    db.prepare('UPDATE param_template SET name = ?, params = ?, remark = ?, update_time = ? WHERE id = ?').run(name, JSON.stringify(params), b.remark === undefined ? t.remark : b.remark.trim(), Date.now(), t.id);
    return ok(templateView(templateIn(ctx.scope, t.id)), requestLang(request));
  });

  app.get('/service-priv/paramconfig/remove', {
    config: { permission: `${PARAMS_PAGE}:template` },
    schema: { querystring: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const ids = request.query.ids;
    for (const id of ids) templateIn(ctx.scope, id);
    db.transaction(() => {
      const del = db.prepare('DELETE FROM param_template WHERE id = ?');
      for (const id of ids) del.run(id);
    })();
    return ok({ deleted: ids.length }, requestLang(request));
  });
}
