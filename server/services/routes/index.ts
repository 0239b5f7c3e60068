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
import { minutesOfDay } from '../../../domain/fence/geometry.ts';
import { DEFAULT_DEVIATION_SECONDS, ROUTE_LIMITS, type LngLat, type Route, type RouteKeyPoint, type RouteSection } from '../../../domain/route/types.ts';
import type { Storage } from '../../db/repositories.ts';
import { MAX_BODY_LENGTH } from '../../gateway/jt808/header.ts';
import { encodeBody } from '../../gateway/jt808/messages.ts';
import { routeDeleteMessage, routeSetMessage, type RouteMessage } from '../../gateway/jt808/routes.ts';
import { auth } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, Strict, Text, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { badField, pair, terminalHeld, VehicleIds } from '../terminal-held/index.ts';
import { routeOfRow, type RouteRow } from './store.ts';

export const ROUTE_PAGE = '/monitor/route_map';
export const REMARK_MAX = 200;

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
  timeFormat: pair('时间格式须为 HH:mm（00:00–23:59）', 'a time is HH:mm (00:00–23:59)'),
  windowPair: pair('开始时间与结束时间须同时填写或同时留空', 'give both the start and the end time, or neither'),
  windowEmpty: pair('开始时间与结束时间不能相同', 'the start and end times must differ'),
  nightNeedsMax: pair('设置夜间最高速度须先设置路段最高速度', 'a night max speed needs the section max speed'),
  nightOverMax: pair('夜间最高速度不能高于路段最高速度', 'the night max speed must not exceed the section max speed'),
  keyPointIndex: (n: number): Message => pair(`关键点须为第 1–${n} 个拐点之一`, `a key point is one of turning points 1–${n}`),
  keyPointRepeated: pair('同一拐点只能设一个关键点', 'one key point per turning point'),
} as const;

// ------------------------------------------------------------------ schemas

const Point = Type.Tuple([Type.Number({ minimum: -180, maximum: 180 }), Type.Number({ minimum: -90, maximum: 90 })]);
const Seconds = Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: ROUTE_LIMITS.secondsMax })]);
const SectionBody = Strict({
  width: Type.Integer({ minimum: ROUTE_LIMITS.widthMinM, maximum: ROUTE_LIMITS.widthMaxM }),
  maxSeconds: Seconds,
  minSeconds: Seconds,
  maxSpeed: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: ROUTE_LIMITS.maxSpeedKmh })]),
  overspeedSeconds: Type.Integer({ minimum: 0, maximum: ROUTE_LIMITS.overspeedSecondsMax }),
  nightMaxSpeed: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: ROUTE_LIMITS.maxSpeedKmh })])),
});
// Times are checked by checkPlan so the answer names the field in the caller's language, not Ajv's pattern.
const TimeOfDay = Type.Union([Type.Null(), Type.String({ maxLength: 8 })]);
const KeyPointBody = Strict({
  point: Type.Integer({ minimum: 0, maximum: 500 }),
  arriveFrom: Type.String({ maxLength: 8 }),
  arriveBy: Type.String({ maxLength: 8 }),
});
const RouteFields = {
  name: Name(ROUTE_LIMITS.nameMaxLength),
  // Bounded well past the limit so the rule's own message is the answer, not Ajv's.
  points: Type.Array(Point, { maxItems: 500 }),
  sections: Type.Array(SectionBody, { maxItems: 500 }),
  deviationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: ROUTE_LIMITS.deviationSecondsMax })),
  remark: Type.Optional(Text(REMARK_MAX)),
  startTime: Type.Optional(TimeOfDay),
  endTime: Type.Optional(TimeOfDay),
  keyPoints: Type.Optional(Type.Array(KeyPointBody, { maxItems: ROUTE_LIMITS.keyPointsMax })),
};

export interface RoutePlan {
  points: LngLat[];
  sections: RouteSection[];
  startTime: string | null;
  endTime: string | null;
  keyPoints: RouteKeyPoint[];
}

function checkTime(value: string, field: string): string {
  if (!Number.isFinite(minutesOfDay(value))) throw badField(field, RouteMessages.timeFormat, 'format');
  return value;
}

/** The route's shape in the domain's form, or 400 naming the field. */
export function checkPlan(b: {
  points: Static<typeof Point>[]; sections: Static<typeof SectionBody>[];
  startTime?: string | null; endTime?: string | null; keyPoints?: Static<typeof KeyPointBody>[];
}): RoutePlan {
  const points = b.points.map((p): LngLat => [p[0], p[1]]);
  if (points.length < ROUTE_LIMITS.minPoints || points.length > ROUTE_LIMITS.maxPoints) throw badField('points', RouteMessages.pointCount, 'range');
  for (let i = 1; i < points.length; i++) {
    if (points[i]![0] === points[i - 1]![0] && points[i]![1] === points[i - 1]![1]) throw badField(`points[${i}]`, RouteMessages.repeatedPoint(i), 'duplicate');
  }
  if (b.sections.length !== points.length - 1) throw badField('sections', RouteMessages.sectionCount(points.length - 1), 'range');
  b.sections.forEach((s, i) => {
    if (s.minSeconds !== null && s.maxSeconds !== null && s.minSeconds >= s.maxSeconds) throw badField(`sections[${i}].minSeconds`, RouteMessages.minOverMax, 'rule');
    const night = s.nightMaxSpeed ?? null;
    // 2019 carries the night limit only after a section's max speed (0x8606 table 71 bit 1).
    if (night !== null && s.maxSpeed === null) throw badField(`sections[${i}].nightMaxSpeed`, RouteMessages.nightNeedsMax, 'rule');
    if (night !== null && s.maxSpeed !== null && night > s.maxSpeed) throw badField(`sections[${i}].nightMaxSpeed`, RouteMessages.nightOverMax, 'rule');
  });
  const startTime = b.startTime ? checkTime(b.startTime, 'startTime') : null;
  const endTime = b.endTime ? checkTime(b.endTime, 'endTime') : null;
  if ((startTime === null) !== (endTime === null)) throw badField(startTime === null ? 'startTime' : 'endTime', RouteMessages.windowPair, 'required');
  if (startTime !== null && startTime === endTime) throw badField('endTime', RouteMessages.windowEmpty, 'rule');
  const seen = new Set<number>();
  const keyPoints = (b.keyPoints ?? []).map((k, i): RouteKeyPoint => {
    if (k.point >= points.length) throw badField(`keyPoints[${i}].point`, RouteMessages.keyPointIndex(points.length), 'range');
    if (seen.has(k.point)) throw badField(`keyPoints[${i}].point`, RouteMessages.keyPointRepeated, 'duplicate');
    seen.add(k.point);
    const arriveFrom = checkTime(k.arriveFrom, `keyPoints[${i}].arriveFrom`);
    const arriveBy = checkTime(k.arriveBy, `keyPoints[${i}].arriveBy`);
    if (arriveFrom === arriveBy) throw badField(`keyPoints[${i}].arriveBy`, RouteMessages.windowEmpty, 'rule');
    return { point: k.point, arriveFrom, arriveBy };
  });
  return { points, sections: b.sections.map((s) => ({ ...s, nightMaxSpeed: s.nightMaxSpeed ?? null })), startTime, endTime, keyPoints };
}

function checkFrame(route: Pick<Route, 'id' | 'name' | 'points' | 'sections' | 'startTime' | 'endTime'>): void {
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
  const changed = () => deps.alarms?.()?.routesChanged();
  changed();

  // The list, detail, binding, delete, send and task calls are the shared ones (../terminal-held/).
  const held = terminalHeld<RouteRow, Route, RouteTaskPayload>(app, { storage: deps.storage, live: deps.live, changed }, {
    page: ROUTE_PAGE,
    path: '/service-monitor/route-plan',
    table: 'route_plan',
    alias: 'r',
    binding: 'route_plan_vehicle',
    key: 'route_id',
    taskTables: { task: 'route_task', vehicle: 'route_task_vehicle' },
    messages: RouteMessages,
    objectOf: routeOfRow,
    view(row) {
      const r = routeOfRow(row);
      return {
        id: r.id, companyId: r.companyId, companyName: row.company_name, name: r.name, points: r.points, sections: r.sections, deviationSeconds: r.deviationSeconds,
        startTime: r.startTime ?? null, endTime: r.endTime ?? null, keyPoints: r.keyPoints ?? [],
        remark: row.remark, vehicleCount: row.vehicle_count, createdByName: row.created_by_name, createTime: row.create_time, updateTime: row.update_time,
      };
    },
    vehicleExtra(row, vehicleId) {
      // The platform's view of the vehicle on this route: the section it is on (1-based), off the corridor, or not seen on it.
      const s = deps.alarms?.()?.routeWatch?.evaluator.stateOf(vehicleId).find((x) => x.routeId === row.id);
      const track = s === undefined ? 'unknown' : s.deviating ? 'deviating' : s.section >= 0 ? 'onRoute' : 'offRoute';
      return { track, section: s && s.section >= 0 ? s.section + 1 : null };
    },
    setPayload: (route) => ({ op: 'set', routeId: route.id, routeName: route.name, message: routeSetMessage(route) }),
    deletePayload: (route) => ({ op: 'delete', routeId: route.id, routeName: route.name, message: routeDeleteMessage([route.id]) }),
    objectIdOf: (p) => p.routeId,
    // The route as it is now (0x8606 replaces a route of the same id on the terminal).
    message: (p, _vehicleId, row) => (p.op === 'set' && row ? routeSetMessage(routeOfRow(row)) : p.message),
    fun: (p) => (p.op === 'set' ? 'routeSet' : 'routeDelete'),
    content: (p) => ({ routeId: p.routeId, routeName: p.routeName, msgId: p.message.msgId }),
    taskFields: (p) => ({ kind: p.op === 'set' ? 'routeSet' : 'routeDelete', routeId: p.routeId, routeName: p.routeName }),
  });
  const { db } = held;

  app.post('/service-monitor/route-plan', {
    config: { permission: `${ROUTE_PAGE}:create` },
    schema: { body: Strict({ companyId: Type.Optional(Id), ...RouteFields, vehicleIds: Type.Optional(VehicleIds(0)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const company = await held.companyFor(ctx, b.companyId);
    const name = b.name.trim();
    const plan = checkPlan(b);
    checkFrame({ id: 0xffffffff, name, ...plan });
    const answer = await held.create(ctx, company, name, b.vehicleIds ?? [], (user, now) => Number(db.prepare(`INSERT INTO route_plan
      (company_id, name, points, sections, deviation_seconds, start_time, end_time, key_points, remark, created_by, created_by_name, create_time, update_time)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(company.id, name, JSON.stringify(plan.points), JSON.stringify(plan.sections), b.deviationSeconds ?? DEFAULT_DEVIATION_SECONDS,
        plan.startTime, plan.endTime, JSON.stringify(plan.keyPoints), (b.remark ?? '').trim(), user.id, user.name, now, now).lastInsertRowid));
    return ok(answer, requestLang(request));
  });

  app.put('/service-monitor/route-plan', {
    config: { permission: `${ROUTE_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...RouteFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = held.objectIn(ctx.scope, b.id);
    const name = b.name.trim();
    const plan = checkPlan(b);
    checkFrame({ id: row.id, name, ...plan });
    held.nameFree(row.company_id, name, row.id);
    held.newVersion(row.id, () => {
      // Window and key points are part of the plan: absent in the body means none (the form always sends them).
      db.prepare('UPDATE route_plan SET name = ?, points = ?, sections = ?, deviation_seconds = ?, start_time = ?, end_time = ?, key_points = ?, remark = ?, update_time = ? WHERE id = ?')
        .run(name, JSON.stringify(plan.points), JSON.stringify(plan.sections), b.deviationSeconds ?? row.deviation_seconds,
          plan.startTime, plan.endTime, JSON.stringify(plan.keyPoints), b.remark === undefined ? row.remark : b.remark.trim(), Date.now(), row.id);
    });
    changed();
    return ok(held.detail(ctx.scope, row.id), requestLang(request));
  });
}
