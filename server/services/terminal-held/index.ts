/**
 * An object a terminal holds (a fence area, a planned route; issue 17): a company's object bound to
 * vehicles with a per-vehicle send state, sent and deleted through the shared command tasks
 * (../command-tasks/). Fences and routes differ only in their own rules (shape/plan validation, the
 * frame-size check, what a change of shape means) and their messages; everything else is here once:
 * the list, the detail, binding vehicles (unbinding sends the terminal-side delete), the all-or-nothing
 * delete, sending, the task view, and the helpers create/update use (scope, name, vehicles, versions).
 *
 * Tables follow one layout: `<table>` (id, company_id, name, remark, created_by_name, create_time,
 * update_time, …), `<binding>` (`<key>`, vehicle_id, send_state, result, task_id, send_time) and the
 * task pair given to the command tasks.
 */
import { Type, type TSchema } from '@fastify/type-provider-typebox';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { ALL_COMPANIES, pathInScope, pathRange, scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import type { Jt808MessageInput } from '../../gateway/jt808/messages.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { createCommandTasks, TASK_VEHICLES_MAX, type CommandTasks, type CommandUser, type TaskVehicleState } from '../command-tasks/index.ts';

export const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);

export { badField };

export const VehicleIds = (min: number) => Type.Array(Id, { minItems: min, maxItems: TASK_VEHICLES_MAX, uniqueItems: true });

/** The answers both kinds share, in the kind's own words ("fence" / "route"). */
export interface HeldMessages {
  readonly notFound: Message;
  readonly taskNotFound: Message;
  readonly nameTaken: Message;
  vehiclesOutOfScope(list: string): Message;
  notBound(list: string): Message;
  readonly noVehicles: Message;
  noDevice(list: string): Message;
  readonly companyOutOfScope: Message;
}

/** The stored columns the shared part reads. */
export interface HeldRow {
  id: number;
  company_id: number;
  name: string;
  remark: string;
  created_by_name: string;
  create_time: number;
  update_time: number;
}
export type ViewRow<R extends HeldRow> = R & { company_name: string; vehicle_count: number };
export type InRow<R extends HeldRow> = ViewRow<R> & { company_path: string };

export interface HeldPayload { op: 'set' | 'delete' }
export interface HeldObject { id: number; companyId: number }

export interface TerminalHeldSpec<R extends HeldRow, O extends HeldObject, P extends HeldPayload> {
  /** The screen's permission key; `:create`, `:update`, `:delete`, `:send` follow it. */
  readonly page: `/${string}`;
  /** e.g. '/service-monitor/fence'. */
  readonly path: string;
  /** The object's table and its alias in queries ('fence', 'f'). */
  readonly table: string;
  readonly alias: string;
  /** The binding table and its column naming the object ('fence_vehicle', 'fence_id'). */
  readonly binding: string;
  readonly key: string;
  /** The command-task tables ('fence_task', 'fence_task_vehicle'). */
  readonly taskTables: { task: string; vehicle: string };
  readonly messages: HeldMessages;
  objectOf(row: R): O;
  /** The list and detail form of one object (without its vehicles). */
  view(row: ViewRow<R>): Record<string, unknown>;
  /** Extra fields of one bound vehicle in the detail (e.g. where the platform sees it on a route). */
  vehicleExtra?(row: InRow<R>, vehicleId: number): Record<string, unknown>;
  /** Extra list filters: their query schema and how they narrow the list. */
  readonly pageQuery?: Record<string, TSchema>;
  pageFilter?(query: Record<string, unknown>, where: string[], params: unknown[]): void;
  /** The set task for these vehicles; `holding` are those among them whose terminal has a version already. */
  setPayload(object: O, holding: number[]): P;
  deletePayload(object: O): P;
  objectIdOf(payload: P): number;
  /** The message one vehicle is sent (a set is built from the object as it is at delivery). */
  message(payload: P, vehicleId: number, current: R | undefined): Jt808MessageInput;
  fun(payload: P): string;
  content(payload: P): unknown;
  /** The task answer's own fields (kind, object id and name). */
  taskFields(payload: P): Record<string, unknown>;
}

export interface TerminalHeldDeps {
  readonly storage: Storage;
  readonly live: LiveRuntime;
  /** Tells the platform evaluation after each write, naming the objects written (it re-reads only those). */
  changed(ids?: readonly number[]): void;
}

export function terminalHeld<R extends HeldRow, O extends HeldObject, P extends HeldPayload>(app: App, deps: TerminalHeldDeps, spec: TerminalHeldSpec<R, O, P>) {
  const { storage, live, changed } = deps;
  const db = (storage as SqliteStorage).db;
  const gateway = live.gateway;
  const { page, table: T, alias: a, binding: B, key: K, messages: M } = spec;

  const userOf = (ctx: AuthContext): CommandUser => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });
  const byId = db.prepare(`SELECT * FROM ${T} WHERE id = ?`);
  // An answer to a set sent before the object was edited (send_state 'outdated' and the edit at or after
  // the send) confirms the old version: it stays 'outdated' (send again), never 'ok' with the old one held.
  const setState = db.prepare(`UPDATE ${B} SET
      send_state = CASE WHEN @state = 'ok' AND send_state = 'outdated' AND send_time IS NOT NULL
        AND (SELECT o.update_time FROM ${T} o WHERE o.id = @object) >= send_time THEN 'outdated' ELSE @state END,
      result = @result, task_id = @task, send_time = @now
    WHERE ${K} = @object AND vehicle_id = @vehicle AND (task_id IS NULL OR task_id <= @task)`);

  const tasks: CommandTasks<P> = createCommandTasks<P>({ db, storage, gateway, log: app.log }, {
    tables: { ...spec.taskTables, payload: 'payload' },
    message: (p, vehicleId) => spec.message(p, vehicleId, p.op === 'set' ? byId.get(spec.objectIdOf(p)) as R | undefined : undefined),
    fun: (p) => spec.fun(p),
    content: (p) => spec.content(p),
    onState(taskId, p, vehicleId, state: TaskVehicleState, result) {
      // A later task's state is never overwritten by an earlier one still finishing.
      if (p.op === 'set') setState.run({ state, result, task: taskId, now: Date.now(), object: spec.objectIdOf(p), vehicle: vehicleId });
    },
  });

  function taskView(scope: Scope, id: number) {
    const { payload, ...t } = tasks.view(scope, id, M.taskNotFound);
    return { ...t, ...spec.taskFields(payload) };
  }

  /** Sends the delete to these vehicles' terminals as one task; null when none has a terminal. */
  async function sendDelete(object: O, vehicleIds: readonly number[], user: CommandUser): Promise<number | null> {
    if (vehicleIds.length === 0) return null;
    const labels = [...(await storage.terminals.labels(ALL_COMPANIES, vehicleIds)).values()].filter((v) => v.deviceNo);
    if (labels.length === 0) return null;
    return tasks.create(object.companyId, spec.deletePayload(object), labels, user);
  }

  const countSql = `(SELECT count(*) FROM ${B} b WHERE b.${K} = ${a}.id) AS vehicle_count`;
  const viewSelect = `SELECT ${a}.*, c.name AS company_name, ${countSql} FROM ${T} ${a} JOIN company c ON c.id = ${a}.company_id`;

  /** The object in the caller's scope, or 404. */
  function objectIn(scope: Scope, id: number): InRow<R> {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT ${a}.*, c.name AS company_name, c.path AS company_path, ${countSql}
      FROM ${T} ${a} JOIN company c ON c.id = ${a}.company_id WHERE ${a}.id = ? AND ${cond.sql}`).get(id, ...cond.params) as InRow<R> | undefined;
    if (!row) throw fail.notFound(M.notFound);
    return row;
  }

  function detail(scope: Scope, id: number) {
    const row = objectIn(scope, id);
    const vehicles = (db.prepare(`SELECT b.vehicle_id AS vehicleId, v.vehiidno, c.name AS companyName, b.send_state AS sendState, b.send_time AS sendTime,
        b.result, b.task_id AS taskId
      FROM ${B} b JOIN vehicle v ON v.id = b.vehicle_id JOIN company c ON c.id = v.company_id WHERE b.${K} = ? ORDER BY v.vehiidno`).all(id) as { vehicleId: number }[])
      .map((v) => ({ ...v, online: gateway.isReachable(v.vehicleId), ...spec.vehicleExtra?.(row, v.vehicleId) }));
    return { ...spec.view(row), vehicles };
  }

  /** Vehicles in the caller's scope and under the object's company, or 400 `vehicleIds` listing the others. */
  async function vehiclesFor(scope: Scope, companyPath: string, ids: readonly number[]): Promise<VehicleLabel[]> {
    if (ids.length === 0) return [];
    const labels = await storage.terminals.labels(scope, ids);
    const [from, to] = pathRange(companyPath);
    const under = new Set((db.prepare(`SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE c.path >= ? AND c.path < ? AND v.id IN (${ids.map(() => '?').join(',')})`)
      .all(from, to, ...ids) as { id: number }[]).map((r) => r.id));
    const missing = ids.filter((id) => !labels.has(id) || !under.has(id));
    if (missing.length > 0) throw badField('vehicleIds', M.vehiclesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
    return ids.map((id) => labels.get(id)!);
  }

  function nameFree(companyId: number, name: string, except = 0): void {
    if (db.prepare(`SELECT 1 FROM ${T} WHERE company_id = ? AND name = ? AND id <> ?`).get(companyId, name, except)) throw badField('name', M.nameTaken, 'duplicate');
  }

  /** The vehicles whose terminal holds some version of the object. */
  const heldBy = (id: number) => (db.prepare(`SELECT vehicle_id AS id FROM ${B} WHERE ${K} = ? AND send_state <> 'none'`).all(id) as { id: number }[]).map((r) => r.id);

  /** The company a new object goes under (the caller's own when absent), or 400 `companyId`. */
  async function companyFor(ctx: AuthContext, companyId: number | undefined): Promise<{ id: number; path: string }> {
    const id = companyId ?? ctx.user.companyId;
    const company = await storage.companies.get(ALL_COMPANIES, id);
    if (!company || !pathInScope(ctx.scope, company.path)) throw badField('companyId', M.companyOutOfScope, 'outOfScope');
    return { id, path: company.path };
  }

  /** Stores a new object (its own row by `insert`) bound to these vehicles; answers its detail. */
  async function create(ctx: AuthContext, company: { id: number; path: string }, name: string, vehicleIds: readonly number[],
    insert: (user: CommandUser, now: number) => number) {
    nameFree(company.id, name);
    const vehicles = await vehiclesFor(ctx.scope, company.path, vehicleIds);
    const user = userOf(ctx);
    const now = Date.now();
    const id = db.transaction(() => {
      const newId = insert(user, now);
      const bind = db.prepare(`INSERT INTO ${B} (${K}, vehicle_id) VALUES (?, ?)`);
      for (const v of vehicles) bind.run(newId, v.vehicleId);
      return newId;
    })();
    changed([id]);
    return detail(ctx.scope, id);
  }

  /** Writes a new version (its own columns by `write`): terminals holding it have the old one until it is sent again. */
  function newVersion(id: number, write: () => void): void {
    db.transaction(() => {
      write();
      db.prepare(`UPDATE ${B} SET send_state = 'outdated' WHERE ${K} = ? AND send_state <> 'none'`).run(id);
    })();
  }

  // ------------------------------------------------------------------ routes

  app.get(`${spec.path}/page`, {
    config: { permission: page },
    schema: { querystring: Strict({ ...PageFields, name: Type.Optional(Type.String({ maxLength: 64 })), ...spec.pageQuery }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query as { companyId?: number; current: number; size: number; name?: string } & Record<string, unknown>;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    const name = q.name?.trim();
    if (name) { where.push(`instr(${a}.name, ?) > 0`); params.push(name); }
    spec.pageFilter?.(q, where, params);
    const total = (db.prepare(`SELECT count(*) AS n FROM ${T} ${a} JOIN company c ON c.id = ${a}.company_id WHERE ${where.join(' AND ')}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`${viewSelect} WHERE ${where.join(' AND ')} ORDER BY ${a}.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as ViewRow<R>[];
    return ok({ records: rows.map((r) => spec.view(r)), total, current: q.current, size: q.size }, requestLang(request));
  });

  app.get(spec.path, {
    config: { permission: page },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => ok(detail(auth(request).scope, request.query.id), requestLang(request)));

  app.put(`${spec.path}/vehicles`, {
    config: { permission: `${page}:update` as const },
    schema: { body: Strict({ id: Id, vehicleIds: VehicleIds(0) }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = objectIn(ctx.scope, request.body.id);
    const vehicles = await vehiclesFor(ctx.scope, row.company_path, request.body.vehicleIds);
    const keep = new Set(vehicles.map((v) => v.vehicleId));
    const before = db.prepare(`SELECT vehicle_id AS id, send_state AS state FROM ${B} WHERE ${K} = ?`).all(row.id) as { id: number; state: string }[];
    const removed = before.filter((r) => !keep.has(r.id));
    const had = new Set(before.map((r) => r.id));
    db.transaction(() => {
      const unbind = db.prepare(`DELETE FROM ${B} WHERE ${K} = ? AND vehicle_id = ?`);
      for (const r of removed) unbind.run(row.id, r.id);
      const bind = db.prepare(`INSERT INTO ${B} (${K}, vehicle_id) VALUES (?, ?)`);
      for (const v of vehicles) if (!had.has(v.vehicleId)) bind.run(row.id, v.vehicleId);
    })();
    // An unbound vehicle's terminal should no longer hold it.
    const deleteTaskId = await sendDelete(spec.objectOf(row), removed.filter((r) => r.state !== 'none').map((r) => r.id), userOf(ctx));
    changed([row.id]);
    return ok({ ...detail(ctx.scope, row.id), deleteTaskId }, requestLang(request));
  });

  app.delete(spec.path, {
    config: { permission: `${page}:delete` as const },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    // All or nothing: every id is checked before anything is deleted.
    const rows = request.body.ids.map((id) => objectIn(ctx.scope, id));
    const held = rows.map((r) => heldBy(r.id));
    db.transaction(() => {
      const del = db.prepare(`DELETE FROM ${T} WHERE id = ?`);
      for (const r of rows) del.run(r.id);
    })();
    const user = userOf(ctx);
    const deleteTaskIds: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const taskId = await sendDelete(spec.objectOf(rows[i]!), held[i]!, user);
      if (taskId !== null) deleteTaskIds.push(taskId);
    }
    changed(rows.map((r) => r.id));
    return ok({ deleted: rows.length, deleteTaskIds }, requestLang(request));
  });

  app.post(`${spec.path}/send`, {
    config: { permission: `${page}:send` as const },
    schema: { body: Strict({ id: Id, vehicleIds: Type.Optional(VehicleIds(1)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = objectIn(ctx.scope, request.body.id);
    const bound = (db.prepare(`SELECT vehicle_id AS id FROM ${B} WHERE ${K} = ?`).all(row.id) as { id: number }[]).map((r) => r.id);
    const boundSet = new Set(bound);
    const wanted = request.body.vehicleIds ?? bound;
    if (wanted.length === 0) throw badField('vehicleIds', M.noVehicles, 'required');
    const notBound = wanted.filter((id) => !boundSet.has(id));
    if (notBound.length > 0) throw badField('vehicleIds', M.notBound(notBound.slice(0, 10).join(', ')), 'notBound');
    const vehicles = await vehiclesFor(ctx.scope, row.company_path, wanted);
    const noDevice = vehicles.filter((v) => !v.deviceNo);
    if (noDevice.length > 0) throw badField('vehicleIds', M.noDevice(noDevice.slice(0, 10).map((v) => v.vehiidno).join(', ')), 'noDevice');
    const object = spec.objectOf(row);
    const holding = (db.prepare(`SELECT vehicle_id AS id FROM ${B} WHERE ${K} = ? AND send_state IN ('ok', 'outdated')`).all(row.id) as { id: number }[])
      .map((r) => r.id).filter((id) => wanted.includes(id));
    const taskId = tasks.create(object.companyId, spec.setPayload(object, holding), vehicles, userOf(ctx));
    return ok(taskView(ctx.scope, taskId), requestLang(request));
  });

  app.get(`${spec.path}/task`, {
    config: { permission: page },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => ok(taskView(auth(request).scope, request.query.id), requestLang(request)));

  return { db, userOf, objectIn, detail, nameFree, heldBy, companyFor, create, newVersion, sendDelete };
}
