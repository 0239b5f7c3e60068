/**
 * Routes (issue 17; contract: ./api.md): a company's planned routes (turning points with a corridor,
 * time and speed limits per section; domain/route/types.ts), the vehicles each applies to, and sending
 * them to those vehicles' terminals (JT/T 808 0x8606, deletes 0x8607) as command tasks with per-vehicle
 * state (the shared machinery: queued while a terminal is offline, sent when it authenticates again).
 * Every write tells the platform evaluation (AlarmService.routesChanged) so 13010 / 13003 / 12006 follow.
 *
 * Scoping: routes are listed and read inside the caller's subtree; bound vehicles must be in the
 * caller's subtree and under the route's company. A 4xx writes nothing.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { DEFAULT_DEVIATION_SECONDS, ROUTE_LIMITS, type LngLat, type Route, type RouteSection } from '../../../domain/route/types.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { ALL_COMPANIES, pathInScope, pathRange, scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { MAX_BODY_LENGTH } from '../../gateway/jt808/header.ts';
import { encodeBody } from '../../gateway/jt808/messages.ts';
import { routeDeleteMessage, routeSetMessage, type RouteMessage } from '../../gateway/jt808/routes.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { createCommandTasks, TASK_VEHICLES_MAX, type CommandUser, type TaskVehicleState } from '../command-tasks/index.ts';
import { routeOfRow, type RouteRow } from './store.ts';

export const ROUTE_PAGE = '/monitor/route_map';
export const REMARK_MAX = 200;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const RouteMessages = {
  notFound: pair('路线不存在', 'No such route'),
  taskNotFound: pair('任务不存在', 'No such task'),
  nameTaken: pair('同名路线已存在', 'A route of this name exists already'),
  vehiclesOutOfScope: (list: string): Message => pair(`车辆不存在或不在该路线所属企业下：${list}`, `No such vehicle under the route's company in your scope: ${list}`),
  notBound: (list: string): Message => pair(`车辆未绑定该路线：${list}`, `Not bound to this route: ${list}`),
  noVehicles: pair('路线未绑定车辆', 'The route has no vehicles bound'),
  noDevice: (list: string): Message => pair(`车辆未安装终端：${list}`, `No terminal installed: ${list}`),
  companyOutOfScope: pair('企业不存在或不在您的管辖范围内', 'No such company in your scope'),
  pointCount: pair(`路线须有 ${ROUTE_LIMITS.minPoints}–${ROUTE_LIMITS.maxPoints} 个拐点`, `a route has ${ROUTE_LIMITS.minPoints}–${ROUTE_LIMITS.maxPoints} turning points`),
  repeatedPoint: (i: number): Message => pair(`第 ${i + 1} 个拐点与前一个相同`, `turning point ${i + 1} repeats the one before`),
  sectionCount: (n: number): Message => pair(`路段数须为拐点数减一（${n}）`, `one section per pair of turning points (${n})`),
  minOverMax: pair('行驶不足阈值须小于行驶过长阈值', 'the too-short threshold must be below the too-long one'),
  tooLong: pair('路线超出终端一帧可载的长度（1023 字节）：请减少拐点或缩短名称', 'the route does not fit one terminal frame (1023 bytes): fewer turning points or a shorter name'),
} as const;

function badField(field: string, message: Message, code = 'rule'): AppError {
  return new AppError(ErrorCode.BadRequest, (lang) => `${field}: ${message(lang)}`, null, { [field]: { code } });
}

// ------------------------------------------------------------------ schemas

const Point = Type.Tuple([Type.Number({ minimum: -180, maximum: 180 }), Type.Number({ minimum: -90, maximum: 90 })]);
const Seconds = Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: ROUTE_LIMITS.secondsMax })]);
const SectionBody = Strict({
  width: Type.Integer({ minimum: ROUTE_LIMITS.widthMinM, maximum: ROUTE_LIMITS.widthMaxM }),
  maxSeconds: Seconds,
  minSeconds: Seconds,
  maxSpeed: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: ROUTE_LIMITS.maxSpeedKmh })]),
  overspeedSeconds: Type.Integer({ minimum: 0, maximum: ROUTE_LIMITS.overspeedSecondsMax }),
});
const VehicleIds = (min: number) => Type.Array(Id, { minItems: min, maxItems: TASK_VEHICLES_MAX, uniqueItems: true });
const RouteFields = {
  name: Name(ROUTE_LIMITS.nameMaxLength),
  // Bounded well past the limit so the rule's own message is the answer, not Ajv's.
  points: Type.Array(Point, { maxItems: 500 }),
  sections: Type.Array(SectionBody, { maxItems: 500 }),
  deviationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: ROUTE_LIMITS.deviationSecondsMax })),
  remark: Type.Optional(Text(REMARK_MAX)),
};

/** The route's shape in the domain's form, or 400 naming the field. */
export function checkPlan(b: { points: Static<typeof Point>[]; sections: Static<typeof SectionBody>[] }): { points: LngLat[]; sections: RouteSection[] } {
  const points = b.points.map((p): LngLat => [p[0], p[1]]);
  if (points.length < ROUTE_LIMITS.minPoints || points.length > ROUTE_LIMITS.maxPoints) throw badField('points', RouteMessages.pointCount, 'range');
  for (let i = 1; i < points.length; i++) {
    if (points[i]![0] === points[i - 1]![0] && points[i]![1] === points[i - 1]![1]) throw badField(`points[${i}]`, RouteMessages.repeatedPoint(i), 'duplicate');
  }
  if (b.sections.length !== points.length - 1) throw badField('sections', RouteMessages.sectionCount(points.length - 1), 'range');
  b.sections.forEach((s, i) => {
    if (s.minSeconds !== null && s.maxSeconds !== null && s.minSeconds >= s.maxSeconds) throw badField(`sections[${i}].minSeconds`, RouteMessages.minOverMax, 'rule');
  });
  return { points, sections: b.sections.map((s) => ({ ...s })) };
}

function checkFrame(route: Pick<Route, 'id' | 'name' | 'points' | 'sections'>): void {
  if (encodeBody(routeSetMessage(route), 2019).length > MAX_BODY_LENGTH) throw badField('points', RouteMessages.tooLong, 'range');
}

// ------------------------------------------------------------------ service

interface RouteTaskPayload {
  op: 'set' | 'delete';
  routeId: number;
  routeName: string;
  /** The message at task time: what a set sends if its route is gone by delivery, what a delete sends. */
  message: RouteMessage;
}

export interface RouteDeps {
  readonly storage: Storage;
  readonly live: LiveRuntime;
  readonly alarms?: () => { routesChanged(): void; routeWatch?: { evaluator: { stateOf(vehicleId: number): { routeId: number; section: number; deviating: boolean }[] } } } | undefined;
}

export function routePlanRoutes(app: App, deps: RouteDeps): void {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  const gateway = live.gateway;
  const changed = () => deps.alarms?.()?.routesChanged();
  changed();

  const userOf = (ctx: AuthContext): CommandUser => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });
  const routeById = db.prepare('SELECT * FROM route_plan WHERE id = ?');
  const setState = db.prepare(`UPDATE route_plan_vehicle SET send_state = ?, result = ?, task_id = ?, send_time = ?
    WHERE route_id = ? AND vehicle_id = ? AND (task_id IS NULL OR task_id <= ?)`);

  const tasks = createCommandTasks<RouteTaskPayload>({ db, storage, gateway }, {
    tables: { task: 'route_task', vehicle: 'route_task_vehicle', payload: 'payload' },
    message(p) {
      if (p.op === 'delete') return p.message;
      const row = routeById.get(p.routeId) as RouteRow | undefined;
      // The route as it is now (0x8606 replaces a route of the same id on the terminal).
      return row ? routeSetMessage(routeOfRow(row)) : p.message;
    },
    fun: (p) => (p.op === 'set' ? 'routeSet' : 'routeDelete'),
    content: (p) => ({ routeId: p.routeId, routeName: p.routeName, msgId: p.message.msgId }),
    onState(taskId, p, vehicleId, state: TaskVehicleState, result) {
      if (p.op === 'set') setState.run(state, result, taskId, Date.now(), p.routeId, vehicleId, taskId);
    },
  });

  function taskView(scope: Scope, id: number) {
    const { payload, ...t } = tasks.view(scope, id, RouteMessages.taskNotFound);
    return { ...t, kind: payload.op === 'set' ? 'routeSet' : 'routeDelete', routeId: payload.routeId, routeName: payload.routeName };
  }

  async function sendDelete(route: Route, vehicleIds: readonly number[], user: CommandUser): Promise<number | null> {
    if (vehicleIds.length === 0) return null;
    const labels = [...(await storage.terminals.labels(ALL_COMPANIES, vehicleIds)).values()].filter((v) => v.deviceNo);
    if (labels.length === 0) return null;
    return tasks.create(route.companyId, { op: 'delete', routeId: route.id, routeName: route.name, message: routeDeleteMessage([route.id]) }, labels, user);
  }

  interface ViewRow extends RouteRow { company_name: string; vehicle_count: number }
  const viewSelect = `SELECT r.*, c.name AS company_name, (SELECT count(*) FROM route_plan_vehicle rv WHERE rv.route_id = r.id) AS vehicle_count
    FROM route_plan r JOIN company c ON c.id = r.company_id`;
  const routeView = (row: ViewRow) => {
    const r = routeOfRow(row);
    return {
      id: r.id, companyId: r.companyId, companyName: row.company_name, name: r.name, points: r.points, sections: r.sections, deviationSeconds: r.deviationSeconds,
      remark: row.remark, vehicleCount: row.vehicle_count, createdByName: row.created_by_name, createTime: row.create_time, updateTime: row.update_time,
    };
  };

  function routeIn(scope: Scope, id: number): ViewRow & { company_path: string } {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT r.*, c.name AS company_name, c.path AS company_path, (SELECT count(*) FROM route_plan_vehicle rv WHERE rv.route_id = r.id) AS vehicle_count
      FROM route_plan r JOIN company c ON c.id = r.company_id WHERE r.id = ? AND ${cond.sql}`).get(id, ...cond.params) as (ViewRow & { company_path: string }) | undefined;
    if (!row) throw fail.notFound(RouteMessages.notFound);
    return row;
  }

  function detail(scope: Scope, id: number) {
    const row = routeIn(scope, id);
    const evaluator = deps.alarms?.()?.routeWatch?.evaluator;
    const vehicles = (db.prepare(`SELECT rv.vehicle_id AS vehicleId, v.vehiidno, c.name AS companyName, rv.send_state AS sendState, rv.send_time AS sendTime,
        rv.result, rv.task_id AS taskId
      FROM route_plan_vehicle rv JOIN vehicle v ON v.id = rv.vehicle_id JOIN company c ON c.id = v.company_id WHERE rv.route_id = ? ORDER BY v.vehiidno`).all(id) as { vehicleId: number }[])
      .map((v) => {
        // The platform's view of the vehicle on this route: the section it is on (1-based), off the corridor, or not seen on it.
        const s = evaluator?.stateOf(v.vehicleId).find((x) => x.routeId === row.id);
        const track = s === undefined ? 'unknown' : s.deviating ? 'deviating' : s.section >= 0 ? 'onRoute' : 'offRoute';
        return { ...v, online: gateway.isReachable(v.vehicleId), track, section: s && s.section >= 0 ? s.section + 1 : null };
      });
    return { ...routeView(row), vehicles };
  }

  async function vehiclesFor(scope: Scope, companyPath: string, ids: readonly number[]): Promise<VehicleLabel[]> {
    if (ids.length === 0) return [];
    const labels = await storage.terminals.labels(scope, ids);
    const [from, to] = pathRange(companyPath);
    const under = new Set((db.prepare(`SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE c.path >= ? AND c.path < ? AND v.id IN (${ids.map(() => '?').join(',')})`)
      .all(from, to, ...ids) as { id: number }[]).map((r) => r.id));
    const missing = ids.filter((id) => !labels.has(id) || !under.has(id));
    if (missing.length > 0) throw badField('vehicleIds', RouteMessages.vehiclesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
    return ids.map((id) => labels.get(id)!);
  }

  function nameFree(companyId: number, name: string, except = 0): void {
    if (db.prepare('SELECT 1 FROM route_plan WHERE company_id = ? AND name = ? AND id <> ?').get(companyId, name, except)) throw badField('name', RouteMessages.nameTaken, 'duplicate');
  }

  const heldBy = (routeId: number) =>
    (db.prepare("SELECT vehicle_id AS id FROM route_plan_vehicle WHERE route_id = ? AND send_state <> 'none'").all(routeId) as { id: number }[]).map((r) => r.id);

  // ------------------------------------------------------------------ routes

  app.get('/service-monitor/route-plan/page', {
    config: { permission: ROUTE_PAGE },
    schema: { querystring: Strict({ ...PageFields, name: Type.Optional(Type.String({ maxLength: 64 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    const name = q.name?.trim();
    if (name) { where.push('instr(r.name, ?) > 0'); params.push(name); }
    const total = (db.prepare(`SELECT count(*) AS n FROM route_plan r JOIN company c ON c.id = r.company_id WHERE ${where.join(' AND ')}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`${viewSelect} WHERE ${where.join(' AND ')} ORDER BY r.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as ViewRow[];
    return ok({ records: rows.map(routeView), total, current: q.current, size: q.size }, requestLang(request));
  });

  app.get('/service-monitor/route-plan', {
    config: { permission: ROUTE_PAGE },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => ok(detail(auth(request).scope, request.query.id), requestLang(request)));

  app.post('/service-monitor/route-plan', {
    config: { permission: `${ROUTE_PAGE}:create` },
    schema: { body: Strict({ companyId: Type.Optional(Id), ...RouteFields, vehicleIds: Type.Optional(VehicleIds(0)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const companyId = b.companyId ?? ctx.user.companyId;
    const company = await storage.companies.get(ALL_COMPANIES, companyId);
    if (!company || !pathInScope(ctx.scope, company.path)) throw badField('companyId', RouteMessages.companyOutOfScope, 'outOfScope');
    const name = b.name.trim();
    const plan = checkPlan(b);
    checkFrame({ id: 0xffffffff, name, ...plan });
    nameFree(companyId, name);
    const vehicles = await vehiclesFor(ctx.scope, company.path, b.vehicleIds ?? []);
    const now = Date.now();
    const user = userOf(ctx);
    const id = db.transaction(() => {
      const routeId = Number(db.prepare(`INSERT INTO route_plan (company_id, name, points, sections, deviation_seconds, remark, created_by, created_by_name, create_time, update_time)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(companyId, name, JSON.stringify(plan.points), JSON.stringify(plan.sections), b.deviationSeconds ?? DEFAULT_DEVIATION_SECONDS,
        (b.remark ?? '').trim(), user.id, user.name, now, now).lastInsertRowid);
      const bind = db.prepare('INSERT INTO route_plan_vehicle (route_id, vehicle_id) VALUES (?, ?)');
      for (const v of vehicles) bind.run(routeId, v.vehicleId);
      return routeId;
    })();
    changed();
    return ok(detail(ctx.scope, id), requestLang(request));
  });

  app.put('/service-monitor/route-plan', {
    config: { permission: `${ROUTE_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...RouteFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = routeIn(ctx.scope, b.id);
    const name = b.name.trim();
    const plan = checkPlan(b);
    checkFrame({ id: row.id, name, ...plan });
    nameFree(row.company_id, name, row.id);
    db.transaction(() => {
      db.prepare('UPDATE route_plan SET name = ?, points = ?, sections = ?, deviation_seconds = ?, remark = ?, update_time = ? WHERE id = ?')
        .run(name, JSON.stringify(plan.points), JSON.stringify(plan.sections), b.deviationSeconds ?? row.deviation_seconds,
          b.remark === undefined ? row.remark : b.remark.trim(), Date.now(), row.id);
      // Terminals holding it have the old version until it is sent again.
      db.prepare("UPDATE route_plan_vehicle SET send_state = 'outdated' WHERE route_id = ? AND send_state <> 'none'").run(row.id);
    })();
    changed();
    return ok(detail(ctx.scope, row.id), requestLang(request));
  });

  app.put('/service-monitor/route-plan/vehicles', {
    config: { permission: `${ROUTE_PAGE}:update` },
    schema: { body: Strict({ id: Id, vehicleIds: VehicleIds(0) }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = routeIn(ctx.scope, request.body.id);
    const vehicles = await vehiclesFor(ctx.scope, row.company_path, request.body.vehicleIds);
    const keep = new Set(vehicles.map((v) => v.vehicleId));
    const before = db.prepare('SELECT vehicle_id AS id, send_state AS state FROM route_plan_vehicle WHERE route_id = ?').all(row.id) as { id: number; state: string }[];
    const removed = before.filter((r) => !keep.has(r.id));
    const had = new Set(before.map((r) => r.id));
    db.transaction(() => {
      const unbind = db.prepare('DELETE FROM route_plan_vehicle WHERE route_id = ? AND vehicle_id = ?');
      for (const r of removed) unbind.run(row.id, r.id);
      const bind = db.prepare('INSERT INTO route_plan_vehicle (route_id, vehicle_id) VALUES (?, ?)');
      for (const v of vehicles) if (!had.has(v.vehicleId)) bind.run(row.id, v.vehicleId);
    })();
    const deleteTaskId = await sendDelete(routeOfRow(row), removed.filter((r) => r.state !== 'none').map((r) => r.id), userOf(ctx));
    changed();
    return ok({ ...detail(ctx.scope, row.id), deleteTaskId }, requestLang(request));
  });

  app.delete('/service-monitor/route-plan', {
    config: { permission: `${ROUTE_PAGE}:delete` },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    // All or nothing: every id is checked before anything is deleted.
    const rows = request.body.ids.map((id) => routeIn(ctx.scope, id));
    const held = rows.map((r) => heldBy(r.id));
    db.transaction(() => {
      const del = db.prepare('DELETE FROM route_plan WHERE id = ?');
      for (const r of rows) del.run(r.id);
    })();
    const user = userOf(ctx);
    const deleteTaskIds: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const taskId = await sendDelete(routeOfRow(rows[i]!), held[i]!, user);
      if (taskId !== null) deleteTaskIds.push(taskId);
    }
    changed();
    return ok({ deleted: rows.length, deleteTaskIds }, requestLang(request));
  });

  app.post('/service-monitor/route-plan/send', {
    config: { permission: `${ROUTE_PAGE}:send` },
    schema: { body: Strict({ id: Id, vehicleIds: Type.Optional(VehicleIds(1)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = routeIn(ctx.scope, request.body.id);
    const bound = (db.prepare('SELECT vehicle_id AS id FROM route_plan_vehicle WHERE route_id = ?').all(row.id) as { id: number }[]).map((r) => r.id);
    const boundSet = new Set(bound);
    const wanted = request.body.vehicleIds ?? bound;
    if (wanted.length === 0) throw badField('vehicleIds', RouteMessages.noVehicles, 'required');
    const notBound = wanted.filter((id) => !boundSet.has(id));
    if (notBound.length > 0) throw badField('vehicleIds', RouteMessages.notBound(notBound.slice(0, 10).join(', ')), 'notBound');
    const vehicles = await vehiclesFor(ctx.scope, row.company_path, wanted);
    const noDevice = vehicles.filter((v) => !v.deviceNo);
    if (noDevice.length > 0) throw badField('vehicleIds', RouteMessages.noDevice(noDevice.slice(0, 10).map((v) => v.vehiidno).join(', ')), 'noDevice');
    const route = routeOfRow(row);
    const taskId = tasks.create(route.companyId, { op: 'set', routeId: route.id, routeName: route.name, message: routeSetMessage(route) }, vehicles, userOf(ctx));
    return ok(taskView(ctx.scope, taskId), requestLang(request));
  });

  app.get('/service-monitor/route-plan/task', {
    config: { permission: ROUTE_PAGE },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => ok(taskView(auth(request).scope, request.query.id), requestLang(request)));
}
