/**
 * Fences (issue 17; contract: ./api.md): a company's circles, rectangles and polygons with their rule
 * (domain/fence/types.ts), the vehicles each applies to, and sending them to those vehicles' terminals
 * (JT/T 808 0x8600/0x8602/0x8604, deletes 0x8601/0x8603/0x8605) as command tasks with per-vehicle
 * state (the shared machinery: queued while a terminal is offline, sent when it authenticates again).
 * Every write tells the platform evaluation (AlarmService.fencesChanged) so group 13 alarms follow at once.
 *
 * Scoping: fences are listed and read inside the caller's subtree; bound vehicles must be in the
 * caller's subtree and under the fence's company. A 4xx writes nothing.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { FENCE_LIMITS, type Fence, type FenceGeometry, type FenceRule, type FenceShape, type LngLat } from '../../../domain/fence/types.ts';
import type { Storage } from '../../db/repositories.ts';
import { fenceOf, type FenceRow } from '../../db/sqlite/fences.ts';
import { MAX_BODY_LENGTH } from '../../gateway/jt808/header.ts';
import { AREA_ACTION, fenceDeleteMessage, fenceSetMessage, type DeleteAreas, type FenceMessage } from '../../gateway/jt808/fences.ts';
import { encodeBody } from '../../gateway/jt808/messages.ts';
import { auth } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, Strict, Text, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { badField, pair, terminalHeld, VehicleIds } from '../terminal-held/index.ts';

export const FENCE_PAGE = '/monitor/shape_map';
export const REMARK_MAX = 200;

export const FenceMessages = {
  notFound: pair('围栏不存在', 'No such fence'),
  taskNotFound: pair('任务不存在', 'No such task'),
  nameTaken: pair('同名围栏已存在', 'A fence of this name exists already'),
  vehiclesOutOfScope: (list: string): Message => pair(`车辆不存在或不在该围栏所属企业下：${list}`, `No such vehicle under the fence's company in your scope: ${list}`),
  notBound: (list: string): Message => pair(`车辆未绑定该围栏：${list}`, `Not bound to this fence: ${list}`),
  noVehicles: pair('围栏未绑定车辆', 'The fence has no vehicles bound'),
  noDevice: (list: string): Message => pair(`车辆未安装终端：${list}`, `No terminal installed: ${list}`),
  companyOutOfScope: pair('企业不存在或不在您的管辖范围内', 'No such company in your scope'),
  required: pair('必填', 'required'),
  notForShape: (shape: string): Message => pair(`${shape} 围栏没有该字段`, `not a field of a ${shape} fence`),
  radius: pair(`半径须为 ${FENCE_LIMITS.radiusMinM}–${FENCE_LIMITS.radiusMaxM} 米`, `the radius must be ${FENCE_LIMITS.radiusMinM}–${FENCE_LIMITS.radiusMaxM} m`),
  rectCorners: pair('西南角须在东北角的西南方', 'the south-west corner must lie south-west of the north-east corner'),
  pointCount: pair(`多边形须有 ${FENCE_LIMITS.polygonMinPoints}–${FENCE_LIMITS.polygonMaxPoints} 个顶点`, `a polygon has ${FENCE_LIMITS.polygonMinPoints}–${FENCE_LIMITS.polygonMaxPoints} vertices`),
  repeatedPoint: (i: number): Message => pair(`第 ${i + 1} 个顶点与前一个相同`, `vertex ${i + 1} repeats the one before`),
  selfIntersecting: pair('多边形的边不能相交', 'the polygon\'s edges must not cross'),
  tooLong: pair('围栏超出终端一帧可载的长度（1023 字节）：请减少顶点或缩短名称', 'the fence does not fit one terminal frame (1023 bytes): fewer vertices or a shorter name'),
  bothTimes: pair('开始时间与结束时间须同时填写或同时为空', 'give both start and end time, or neither'),
  sameTimes: pair('开始时间与结束时间不能相同', 'start and end time must differ'),
} as const;

// ------------------------------------------------------------------ schemas

const Lng = Type.Number({ minimum: -180, maximum: 180 });
const Lat = Type.Number({ minimum: -90, maximum: 90 });
const Point = Type.Tuple([Lng, Lat]);
const GeometryBody = Strict({
  shape: Type.Union([Type.Literal('circle'), Type.Literal('rect'), Type.Literal('polygon')]),
  center: Type.Optional(Point),
  radius: Type.Optional(Type.Number({ minimum: 0, maximum: 1e7 })),
  sw: Type.Optional(Point),
  ne: Type.Optional(Point),
  // Bounded well past the limit so the rule's own message (3..125) is the answer, not Ajv's.
  points: Type.Optional(Type.Array(Point, { maxItems: 1000 })),
});
const HHmm = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5 });
const RuleBody = Strict({
  alarmIn: Type.Boolean(),
  alarmOut: Type.Boolean(),
  forbidIn: Type.Boolean(),
  forbidOut: Type.Boolean(),
  maxSpeed: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: FENCE_LIMITS.maxSpeedKmh })]),
  overspeedSeconds: Type.Integer({ minimum: 0, maximum: 255 }),
  startTime: Type.Union([Type.Null(), HHmm]),
  endTime: Type.Union([Type.Null(), HHmm]),
});
const FenceFields = {
  name: Name(FENCE_LIMITS.nameMaxLength),
  geometry: GeometryBody,
  rule: RuleBody,
  remark: Type.Optional(Text(REMARK_MAX)),
};

// ------------------------------------------------------------------ validation

const same = (a: LngLat, b: LngLat) => a[0] === b[0] && a[1] === b[1];
function cross(o: LngLat, a: LngLat, b: LngLat): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}
function onSegment(p: LngLat, q: LngLat, r: LngLat): boolean {
  return Math.min(p[0], r[0]) <= q[0] && q[0] <= Math.max(p[0], r[0]) && Math.min(p[1], r[1]) <= q[1] && q[1] <= Math.max(p[1], r[1]);
}
function segmentsMeet(p1: LngLat, p2: LngLat, p3: LngLat, p4: LngLat): boolean {
  const d1 = cross(p3, p4, p1), d2 = cross(p3, p4, p2), d3 = cross(p1, p2, p3), d4 = cross(p1, p2, p4);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && onSegment(p3, p1, p4)) || (d2 === 0 && onSegment(p3, p2, p4)) || (d3 === 0 && onSegment(p1, p3, p2)) || (d4 === 0 && onSegment(p1, p4, p2));
}
/** Edges i and j of a closed ring cross (adjacent edges share only their vertex). O(n²), n ≤ 125. */
function selfIntersects(pts: readonly LngLat[]): boolean {
  const n = pts.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      if (segmentsMeet(pts[i]!, pts[(i + 1) % n]!, pts[j]!, pts[(j + 1) % n]!)) return true;
    }
  }
  return false;
}

/** The geometry in the domain's form, or 400 naming the field. */
export function checkGeometry(g: Static<typeof GeometryBody>): FenceGeometry {
  const own: Record<FenceShape, readonly string[]> = { circle: ['center', 'radius'], rect: ['sw', 'ne'], polygon: ['points'] };
  for (const key of ['center', 'radius', 'sw', 'ne', 'points'] as const) {
    const wanted = own[g.shape].includes(key);
    if (wanted && g[key] === undefined) throw badField(`geometry.${key}`, FenceMessages.required, 'required');
    if (!wanted && g[key] !== undefined) throw badField(`geometry.${key}`, FenceMessages.notForShape(g.shape), 'unknown');
  }
  switch (g.shape) {
    case 'circle': {
      const radius = Math.round(g.radius!);
      if (radius < FENCE_LIMITS.radiusMinM || radius > FENCE_LIMITS.radiusMaxM) throw badField('geometry.radius', FenceMessages.radius, 'range');
      return { shape: 'circle', center: [g.center![0], g.center![1]], radius };
    }
    case 'rect': {
      const sw = g.sw!, ne = g.ne!;
      if (!(sw[0] < ne[0] && sw[1] < ne[1])) throw badField('geometry.ne', FenceMessages.rectCorners, 'rule');
      return { shape: 'rect', sw: [sw[0], sw[1]], ne: [ne[0], ne[1]] };
    }
    case 'polygon': {
      const pts = g.points!.map((p): LngLat => [p[0], p[1]]);
      // A closed ring from a drawing tool repeats its first vertex: drop it.
      if (pts.length > 1 && same(pts[0]!, pts[pts.length - 1]!)) pts.pop();
      if (pts.length < FENCE_LIMITS.polygonMinPoints || pts.length > FENCE_LIMITS.polygonMaxPoints) throw badField('geometry.points', FenceMessages.pointCount, 'range');
      for (let i = 1; i < pts.length; i++) if (same(pts[i]!, pts[i - 1]!)) throw badField(`geometry.points[${i}]`, FenceMessages.repeatedPoint(i), 'duplicate');
      if (selfIntersects(pts)) throw badField('geometry.points', FenceMessages.selfIntersecting, 'rule');
      return { shape: 'polygon', points: pts };
    }
  }
}

export function checkRule(r: Static<typeof RuleBody>): FenceRule {
  if ((r.startTime === null) !== (r.endTime === null)) throw badField(r.startTime === null ? 'rule.startTime' : 'rule.endTime', FenceMessages.bothTimes, 'required');
  if (r.startTime !== null && r.startTime === r.endTime) throw badField('rule.endTime', FenceMessages.sameTimes, 'rule');
  return { ...r };
}

/** The longest frame any edition needs (2019 adds night speed and name) must fit one 1023-byte body. */
function checkFrame(fence: Pick<Fence, 'id' | 'name' | 'geometry' | 'rule'>): void {
  if (encodeBody(fenceSetMessage(fence, AREA_ACTION.APPEND), 2019).length > MAX_BODY_LENGTH) {
    throw badField(fence.geometry.shape === 'polygon' ? 'geometry.points' : 'name', FenceMessages.tooLong, 'range');
  }
}

// ------------------------------------------------------------------ service

/** A fence task: set (built from the fence as it is when delivered) or delete (the ids as they were). */
interface FenceTaskPayload {
  op: 'set' | 'delete';
  fenceId: number;
  fenceName: string;
  shape: FenceShape;
  /** The message at task time: what a set sends if its fence is gone by delivery, what a delete sends. */
  message: FenceMessage;
  /** Set: the vehicles whose terminal held the fence when the task was made (sent as modify, not append). */
  modifyFor?: number[];
}

export interface FenceDeps {
  readonly storage: Storage;
  readonly live: LiveRuntime;
  /** The platform evaluation to reload after each write (AlarmService; absent in bare setups). */
  readonly alarms?: () => { fencesChanged(ids?: readonly number[]): void } | undefined;
}

export function fenceRoutes(app: App, deps: FenceDeps): void {
  const changed = (ids?: readonly number[]) => deps.alarms?.()?.fencesChanged(ids);
  // Prime the evaluation with what is stored (the alarm service starts before this module).
  changed();

  // The list, detail, binding, delete, send and task calls are the shared ones (../terminal-held/).
  const held = terminalHeld<FenceRow, Fence, FenceTaskPayload>(app, { storage: deps.storage, live: deps.live, changed }, {
    page: FENCE_PAGE,
    path: '/service-monitor/fence',
    table: 'fence',
    alias: 'f',
    binding: 'fence_vehicle',
    key: 'fence_id',
    taskTables: { task: 'fence_task', vehicle: 'fence_task_vehicle' },
    messages: FenceMessages,
    objectOf: fenceOf,
    view(r) {
      const f = fenceOf(r);
      return {
        id: f.id, companyId: f.companyId, companyName: r.company_name, name: f.name, shape: f.geometry.shape, geometry: f.geometry, rule: f.rule,
        remark: r.remark, vehicleCount: r.vehicle_count, createdByName: r.created_by_name, createTime: r.create_time, updateTime: r.update_time,
      };
    },
    pageQuery: { shape: Type.Optional(Type.Union([Type.Literal('circle'), Type.Literal('rect'), Type.Literal('polygon')])) },
    pageFilter(q, where, params) {
      if (q['shape']) { where.push('f.shape = ?'); params.push(q['shape']); }
    },
    setPayload: (fence, holding) => ({
      op: 'set', fenceId: fence.id, fenceName: fence.name, shape: fence.geometry.shape, message: fenceSetMessage(fence, AREA_ACTION.APPEND), modifyFor: holding,
    }),
    deletePayload: (fence) => {
      const message: DeleteAreas = fenceDeleteMessage(fence.geometry.shape, [fence.id]);
      return { op: 'delete', fenceId: fence.id, fenceName: fence.name, shape: fence.geometry.shape, message };
    },
    objectIdOf: (p) => p.fenceId,
    message(p, vehicleId, row) {
      if (p.op === 'delete' || !row) return p.message;
      // The fence as it is now; modify when the terminal holds an older version of it.
      return fenceSetMessage(fenceOf(row), p.modifyFor?.includes(vehicleId) ? AREA_ACTION.MODIFY : AREA_ACTION.APPEND);
    },
    fun: (p) => (p.op === 'set' ? 'fenceSet' : 'fenceDelete'),
    content: (p) => ({ fenceId: p.fenceId, fenceName: p.fenceName, shape: p.shape, msgId: p.message.msgId }),
    taskFields: (p) => ({ kind: p.op === 'set' ? 'fenceSet' : 'fenceDelete', fenceId: p.fenceId, fenceName: p.fenceName }),
  });
  const { db } = held;

  app.post('/service-monitor/fence', {
    config: { permission: `${FENCE_PAGE}:create` },
    schema: { body: Strict({ companyId: Type.Optional(Id), ...FenceFields, vehicleIds: Type.Optional(VehicleIds(0)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const company = await held.companyFor(ctx, b.companyId);
    const name = b.name.trim();
    const geometry = checkGeometry(b.geometry);
    const rule = checkRule(b.rule);
    checkFrame({ id: 0xffffffff, name, geometry, rule });
    const answer = await held.create(ctx, company, name, b.vehicleIds ?? [], (user, now) => Number(db.prepare(`INSERT INTO fence
      (company_id, name, shape, geometry, rule, remark, created_by, created_by_name, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(company.id, name, geometry.shape, JSON.stringify(geometry), JSON.stringify(rule), (b.remark ?? '').trim(), user.id, user.name, now, now).lastInsertRowid));
    return ok(answer, requestLang(request));
  });

  app.put('/service-monitor/fence', {
    config: { permission: `${FENCE_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...FenceFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = held.objectIn(ctx.scope, b.id);
    const name = b.name.trim();
    const geometry = checkGeometry(b.geometry);
    const rule = checkRule(b.rule);
    checkFrame({ id: row.id, name, geometry, rule });
    held.nameFree(row.company_id, name, row.id);
    const shapeChanged = geometry.shape !== row.shape;
    const holding = shapeChanged ? held.heldBy(row.id) : [];
    held.newVersion(row.id, () => {
      db.prepare('UPDATE fence SET name = ?, shape = ?, geometry = ?, rule = ?, remark = ?, update_time = ? WHERE id = ?')
        .run(name, geometry.shape, JSON.stringify(geometry), JSON.stringify(rule), b.remark === undefined ? row.remark : b.remark.trim(), Date.now(), row.id);
    });
    // A new shape is another kind of area on the terminal: the old one is deleted there (0x8601/3/5).
    if (shapeChanged) await held.sendDelete(fenceOf(row), holding, held.userOf(ctx));
    changed([row.id]);
    return ok(held.detail(ctx.scope, row.id), requestLang(request));
  });
}
