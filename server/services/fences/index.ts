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
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { FENCE_LIMITS, type Fence, type FenceGeometry, type FenceRule, type FenceShape, type LngLat } from '../../../domain/fence/types.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { ALL_COMPANIES, pathInScope, pathRange, scopeCondition, type Scope } from '../../db/scope.ts';
import { fenceOf, type FenceRow } from '../../db/sqlite/fences.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { MAX_BODY_LENGTH } from '../../gateway/jt808/header.ts';
import { AREA_ACTION, fenceDeleteMessage, fenceSetMessage, type DeleteAreas, type FenceMessage } from '../../gateway/jt808/fences.ts';
import { encodeBody } from '../../gateway/jt808/messages.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { createCommandTasks, TASK_VEHICLES_MAX, type CommandUser, type TaskVehicleState } from '../command-tasks/index.ts';

export const FENCE_PAGE = '/monitor/shape_map';
export const REMARK_MAX = 200;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
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

function badField(field: string, message: Message, code = 'rule'): AppError {
  return new AppError(ErrorCode.BadRequest, (lang) => `${field}: ${message(lang)}`, null, { [field]: { code } });
}

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
const VehicleIds = (min: number) => Type.Array(Id, { minItems: min, maxItems: TASK_VEHICLES_MAX, uniqueItems: true });
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
  readonly alarms?: () => { fencesChanged(): void } | undefined;
}

export function fenceRoutes(app: App, deps: FenceDeps): void {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  const gateway = live.gateway;
  const changed = () => deps.alarms?.()?.fencesChanged();
  // Prime the evaluation with what is stored (the alarm service starts before this module).
  changed();

  const userOf = (ctx: AuthContext): CommandUser => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });
  const fenceById = db.prepare('SELECT * FROM fence WHERE id = ?');
  const setState = db.prepare(`UPDATE fence_vehicle SET send_state = ?, result = ?, task_id = ?, send_time = ?
    WHERE fence_id = ? AND vehicle_id = ? AND (task_id IS NULL OR task_id <= ?)`);

  const tasks = createCommandTasks<FenceTaskPayload>({ db, storage, gateway }, {
    tables: { task: 'fence_task', vehicle: 'fence_task_vehicle', payload: 'payload' },
    message(p, vehicleId) {
      if (p.op === 'delete') return p.message;
      const row = fenceById.get(p.fenceId) as FenceRow | undefined;
      if (!row) return p.message;
      // The fence as it is now; modify when the terminal holds an older version of it.
      return fenceSetMessage(fenceOf(row), p.modifyFor?.includes(vehicleId) ? AREA_ACTION.MODIFY : AREA_ACTION.APPEND);
    },
    fun: (p) => (p.op === 'set' ? 'fenceSet' : 'fenceDelete'),
    content: (p) => ({ fenceId: p.fenceId, fenceName: p.fenceName, shape: p.shape, msgId: p.message.msgId }),
    onState(taskId, p, vehicleId, state: TaskVehicleState, result) {
      // A later task's state is never overwritten by an earlier one still finishing.
      if (p.op === 'set') setState.run(state, result, taskId, Date.now(), p.fenceId, vehicleId, taskId);
    },
  });

  function taskView(scope: Scope, id: number) {
    const { payload, ...t } = tasks.view(scope, id, FenceMessages.taskNotFound);
    return { ...t, kind: payload.op === 'set' ? 'fenceSet' : 'fenceDelete', fenceId: payload.fenceId, fenceName: payload.fenceName };
  }

  /** Sends the delete to these vehicles' terminals as one task; null when none has a terminal. */
  async function sendDelete(fence: Fence, vehicleIds: readonly number[], user: CommandUser): Promise<number | null> {
    if (vehicleIds.length === 0) return null;
    const labels = [...(await storage.terminals.labels(ALL_COMPANIES, vehicleIds)).values()].filter((v) => v.deviceNo);
    if (labels.length === 0) return null;
    const message: DeleteAreas = fenceDeleteMessage(fence.geometry.shape, [fence.id]);
    return tasks.create(fence.companyId, { op: 'delete', fenceId: fence.id, fenceName: fence.name, shape: fence.geometry.shape, message }, labels, user);
  }

  interface ViewRow extends FenceRow { company_name: string; vehicle_count: number }
  const viewSelect = `SELECT f.*, c.name AS company_name, (SELECT count(*) FROM fence_vehicle fv WHERE fv.fence_id = f.id) AS vehicle_count
    FROM fence f JOIN company c ON c.id = f.company_id`;
  const fenceView = (r: ViewRow) => {
    const f = fenceOf(r);
    return {
      id: f.id, companyId: f.companyId, companyName: r.company_name, name: f.name, shape: f.geometry.shape, geometry: f.geometry, rule: f.rule,
      remark: r.remark, vehicleCount: r.vehicle_count, createdByName: r.created_by_name, createTime: r.create_time, updateTime: r.update_time,
    };
  };

  function fenceIn(scope: Scope, id: number): ViewRow & { company_path: string } {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT f.*, c.name AS company_name, c.path AS company_path, (SELECT count(*) FROM fence_vehicle fv WHERE fv.fence_id = f.id) AS vehicle_count
      FROM fence f JOIN company c ON c.id = f.company_id WHERE f.id = ? AND ${cond.sql}`).get(id, ...cond.params) as (ViewRow & { company_path: string }) | undefined;
    if (!row) throw fail.notFound(FenceMessages.notFound);
    return row;
  }

  function detail(scope: Scope, id: number) {
    const row = fenceIn(scope, id);
    const vehicles = (db.prepare(`SELECT fv.vehicle_id AS vehicleId, v.vehiidno, c.name AS companyName, fv.send_state AS sendState, fv.send_time AS sendTime,
        fv.result, fv.task_id AS taskId
      FROM fence_vehicle fv JOIN vehicle v ON v.id = fv.vehicle_id JOIN company c ON c.id = v.company_id WHERE fv.fence_id = ? ORDER BY v.vehiidno`).all(id) as { vehicleId: number }[])
      .map((v) => ({ ...v, online: gateway.isReachable(v.vehicleId) }));
    return { ...fenceView(row), vehicles };
  }

  /** Vehicles in the caller's scope and under the fence's company, or 400 `vehicleIds` listing the others. */
  async function vehiclesFor(scope: Scope, companyPath: string, ids: readonly number[]): Promise<VehicleLabel[]> {
    if (ids.length === 0) return [];
    const labels = await storage.terminals.labels(scope, ids);
    const [from, to] = pathRange(companyPath);
    const under = new Set((db.prepare(`SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE c.path >= ? AND c.path < ? AND v.id IN (${ids.map(() => '?').join(',')})`)
      .all(from, to, ...ids) as { id: number }[]).map((r) => r.id));
    const missing = ids.filter((id) => !labels.has(id) || !under.has(id));
    if (missing.length > 0) throw badField('vehicleIds', FenceMessages.vehiclesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
    return ids.map((id) => labels.get(id)!);
  }

  function nameFree(companyId: number, name: string, except = 0): void {
    if (db.prepare('SELECT 1 FROM fence WHERE company_id = ? AND name = ? AND id <> ?').get(companyId, name, except)) throw badField('name', FenceMessages.nameTaken, 'duplicate');
  }

  // ------------------------------------------------------------------ routes

  app.get('/service-monitor/fence/page', {
    config: { permission: FENCE_PAGE },
    schema: {
      querystring: Strict({
        ...PageFields,
        name: Type.Optional(Type.String({ maxLength: 64 })),
        shape: Type.Optional(Type.Union([Type.Literal('circle'), Type.Literal('rect'), Type.Literal('polygon')])),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    const name = q.name?.trim();
    if (name) { where.push("instr(f.name, ?) > 0"); params.push(name); }
    if (q.shape) { where.push('f.shape = ?'); params.push(q.shape); }
    const sql = `FROM fence f JOIN company c ON c.id = f.company_id WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`${viewSelect} WHERE ${where.join(' AND ')} ORDER BY f.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as ViewRow[];
    return ok({ records: rows.map(fenceView), total, current: q.current, size: q.size }, requestLang(request));
  });

  app.get('/service-monitor/fence', {
    config: { permission: FENCE_PAGE },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => ok(detail(auth(request).scope, request.query.id), requestLang(request)));

  app.post('/service-monitor/fence', {
    config: { permission: `${FENCE_PAGE}:create` },
    schema: { body: Strict({ companyId: Type.Optional(Id), ...FenceFields, vehicleIds: Type.Optional(VehicleIds(0)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const companyId = b.companyId ?? ctx.user.companyId;
    const company = await storage.companies.get(ALL_COMPANIES, companyId);
    if (!company || !pathInScope(ctx.scope, company.path)) throw badField('companyId', FenceMessages.companyOutOfScope, 'outOfScope');
    const name = b.name.trim();
    const geometry = checkGeometry(b.geometry);
    const rule = checkRule(b.rule);
    checkFrame({ id: 0xffffffff, name, geometry, rule });
    nameFree(companyId, name);
    const vehicles = await vehiclesFor(ctx.scope, company.path, b.vehicleIds ?? []);
    const now = Date.now();
    const user = userOf(ctx);
    const id = db.transaction(() => {
      const fenceId = Number(db.prepare(`INSERT INTO fence (company_id, name, shape, geometry, rule, remark, created_by, created_by_name, create_time, update_time)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(companyId, name, geometry.shape, JSON.stringify(geometry), JSON.stringify(rule), (b.remark ?? '').trim(), user.id, user.name, now, now).lastInsertRowid);
      const bind = db.prepare('INSERT INTO fence_vehicle (fence_id, vehicle_id) VALUES (?, ?)');
      for (const v of vehicles) bind.run(fenceId, v.vehicleId);
      return fenceId;
    })();
    changed();
    return ok(detail(ctx.scope, id), requestLang(request));
  });

  app.put('/service-monitor/fence', {
    config: { permission: `${FENCE_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...FenceFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = fenceIn(ctx.scope, b.id);
    const name = b.name.trim();
    const geometry = checkGeometry(b.geometry);
    const rule = checkRule(b.rule);
    checkFrame({ id: row.id, name, geometry, rule });
    nameFree(row.company_id, name, row.id);
    const shapeChanged = geometry.shape !== row.shape;
    const held = shapeChanged
      ? (db.prepare("SELECT vehicle_id AS id FROM fence_vehicle WHERE fence_id = ? AND send_state <> 'none'").all(row.id) as { id: number }[]).map((r) => r.id)
      : [];
    db.transaction(() => {
      db.prepare('UPDATE fence SET name = ?, shape = ?, geometry = ?, rule = ?, remark = ?, update_time = ? WHERE id = ?')
        .run(name, geometry.shape, JSON.stringify(geometry), JSON.stringify(rule), b.remark === undefined ? row.remark : b.remark.trim(), Date.now(), row.id);
      // Terminals holding it have the old version until it is sent again.
      db.prepare("UPDATE fence_vehicle SET send_state = 'outdated' WHERE fence_id = ? AND send_state <> 'none'").run(row.id);
    })();
    // A new shape is another kind of area on the terminal: the old one is deleted there (0x8601/3/5).
    if (shapeChanged) await sendDelete(fenceOf(row), held, userOf(ctx));
    changed();
    return ok(detail(ctx.scope, row.id), requestLang(request));
  });

  app.put('/service-monitor/fence/vehicles', {
    config: { permission: `${FENCE_PAGE}:update` },
    schema: { body: Strict({ id: Id, vehicleIds: VehicleIds(0) }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = fenceIn(ctx.scope, request.body.id);
    const vehicles = await vehiclesFor(ctx.scope, row.company_path, request.body.vehicleIds);
    const keep = new Set(vehicles.map((v) => v.vehicleId));
    const before = db.prepare('SELECT vehicle_id AS id, send_state AS state FROM fence_vehicle WHERE fence_id = ?').all(row.id) as { id: number; state: string }[];
    const removed = before.filter((r) => !keep.has(r.id));
    const had = new Set(before.map((r) => r.id));
    db.transaction(() => {
      const unbind = db.prepare('DELETE FROM fence_vehicle WHERE fence_id = ? AND vehicle_id = ?');
      for (const r of removed) unbind.run(row.id, r.id);
      const bind = db.prepare('INSERT INTO fence_vehicle (fence_id, vehicle_id) VALUES (?, ?)');
      for (const v of vehicles) if (!had.has(v.vehicleId)) bind.run(row.id, v.vehicleId);
    })();
    const deleteTaskId = await sendDelete(fenceOf(row), removed.filter((r) => r.state !== 'none').map((r) => r.id), userOf(ctx));
    changed();
    return ok({ ...detail(ctx.scope, row.id), deleteTaskId }, requestLang(request));
  });

  app.delete('/service-monitor/fence', {
    config: { permission: `${FENCE_PAGE}:delete` },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    // All or nothing: every id is checked before anything is deleted.
    const rows = request.body.ids.map((id) => fenceIn(ctx.scope, id));
    const held = rows.map((r) => (db.prepare("SELECT vehicle_id AS id FROM fence_vehicle WHERE fence_id = ? AND send_state <> 'none'").all(r.id) as { id: number }[]).map((x) => x.id));
    db.transaction(() => {
      const del = db.prepare('DELETE FROM fence WHERE id = ?');
      for (const r of rows) del.run(r.id);
    })();
    const user = userOf(ctx);
    const deleteTaskIds: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const taskId = await sendDelete(fenceOf(rows[i]!), held[i]!, user);
      if (taskId !== null) deleteTaskIds.push(taskId);
    }
    changed();
    return ok({ deleted: rows.length, deleteTaskIds }, requestLang(request));
  });

  app.post('/service-monitor/fence/send', {
    config: { permission: `${FENCE_PAGE}:send` },
    schema: { body: Strict({ id: Id, vehicleIds: Type.Optional(VehicleIds(1)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = fenceIn(ctx.scope, request.body.id);
    const bound = (db.prepare('SELECT vehicle_id AS id FROM fence_vehicle WHERE fence_id = ?').all(row.id) as { id: number }[]).map((r) => r.id);
    const boundSet = new Set(bound);
    const wanted = request.body.vehicleIds ?? bound;
    if (wanted.length === 0) throw badField('vehicleIds', FenceMessages.noVehicles, 'required');
    const notBound = wanted.filter((id) => !boundSet.has(id));
    if (notBound.length > 0) throw badField('vehicleIds', FenceMessages.notBound(notBound.slice(0, 10).join(', ')), 'notBound');
    const vehicles = await vehiclesFor(ctx.scope, row.company_path, wanted);
    const noDevice = vehicles.filter((v) => !v.deviceNo);
    if (noDevice.length > 0) throw badField('vehicleIds', FenceMessages.noDevice(noDevice.slice(0, 10).map((v) => v.vehiidno).join(', ')), 'noDevice');
    const fence = fenceOf(row);
    const message = fenceSetMessage(fence, AREA_ACTION.APPEND);
    const modifyFor = (db.prepare("SELECT vehicle_id AS id FROM fence_vehicle WHERE fence_id = ? AND send_state IN ('ok', 'outdated')").all(row.id) as { id: number }[])
      .map((r) => r.id).filter((id) => wanted.includes(id));
    const taskId = tasks.create(fence.companyId, { op: 'set', fenceId: fence.id, fenceName: fence.name, shape: fence.geometry.shape, message, modifyFor }, vehicles, userOf(ctx));
    return ok(taskView(ctx.scope, taskId), requestLang(request));
  });

  app.get('/service-monitor/fence/task', {
    config: { permission: FENCE_PAGE },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => ok(taskView(auth(request).scope, request.query.id), requestLang(request)));
}
