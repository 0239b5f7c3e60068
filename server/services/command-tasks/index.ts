/**
 * Commands to terminals on behalf of an operator, shared by every device-facing service (terminal
 * parameters, fences, ...; issue 17):
 *
 * - `commandRecords(db)`: every message sent is a `command_record` row (who, when, what) settled with
 *   what came back (ok, failed with the 0x0001 result, timeout, offline).
 * - `createCommandTasks(...)`: one message to up to 500 vehicles as a task with per-vehicle state.
 *   Online terminals are sent at once; offline ones stay `queued` and are sent when their terminal
 *   authenticates again (gateway `onAuthenticated`), until the task expires. A link lost before the
 *   answer puts the vehicle back to `queued`. Queued tasks of one vehicle go out in task order, one at a
 *   time, so a later task (a fence delete) never overtakes an earlier one (its set).
 *
 * Each kind of task keeps its own pair of tables of the same shape (task: id, company_id, <payload>,
 * created_by, created_by_name, create_time, expire_time; task vehicle: task_id, vehicle_id, vehiidno,
 * state, result, record_id, update_time), named in `TaskTables`.
 */
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { ALL_COMPANIES, scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteDb } from '../../db/sqlite.ts';
import type { Jt808Message, Jt808MessageInput } from '../../gateway/jt808/messages.ts';
import type { CommandOutcome, RequestOutcome } from '../../gateway/types.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { fail } from '../../http/envelope.ts';
import type { Message } from '../../http/messages.ts';

/** A queued vehicle waits this long for its terminal to come back. */
export const TASK_QUEUE_MS = 24 * 3600_000;
export const ANSWER_TIMEOUT_MS = 10_000;
/** Vehicles of one task (spec §5: at most 500 selected at once). */
export const TASK_VEHICLES_MAX = 500;

export type RecordState = 'queued' | 'sent' | 'ok' | 'failed' | 'timeout' | 'offline';
export type TaskVehicleState = Exclude<RecordState, 'offline'>;
export interface CommandUser { readonly id: number | null; readonly name: string }

type Gateway = LiveRuntime['gateway'];

/** Command records: insert one per message sent, settle it with the outcome. */
export function commandRecords(db: SqliteDb) {
  const insertRecord = db.prepare(`INSERT INTO command_record (company_id, vehicle_id, vehiidno, device_no, msg_id, fun, content, task_id, user_id, user_name, send_time, state)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const finishRecord = db.prepare('UPDATE command_record SET state = ?, result = ?, answer = ?, answer_time = ? WHERE id = ?');
  const dropRecord = db.prepare('DELETE FROM command_record WHERE id = ?');
  return {
    /** Removes a record whose command was never sent and whose call was refused. */
    drop(id: number): void {
      dropRecord.run(id);
    },
    record(v: VehicleLabel, msg: Jt808MessageInput, fun: string, content: unknown, user: CommandUser, state: RecordState, taskId: number | null = null): number {
      return Number(insertRecord.run(v.companyId, v.vehicleId, v.vehiidno, v.deviceNo ?? '', msg.msgId, fun, JSON.stringify(content), taskId, user.id, user.name, Date.now(), state).lastInsertRowid);
    },
    settle(id: number, outcome: CommandOutcome | RequestOutcome, answer: unknown = null): { state: RecordState; result: number | null } {
      // Sent again N times without an answer (JT/T 808 §4.4): failed, the reason kept as the record's answer.
      if (outcome.kind === 'timeout' && outcome.retransmissions !== undefined) {
        finishRecord.run('failed', null, JSON.stringify({ reason: 'unanswered', retransmissions: outcome.retransmissions }), Date.now(), id);
        return { state: 'failed', result: null };
      }
      const state: RecordState = outcome.kind === 'answer' ? 'ok' : outcome.kind === 'reply' ? (outcome.result === 0 ? 'ok' : 'failed') : outcome.kind;
      const result = outcome.kind === 'reply' ? outcome.result : outcome.kind === 'answer' ? 0 : null;
      finishRecord.run(state, result, answer === null ? null : JSON.stringify(answer), Date.now(), id);
      return { state, result };
    },
  };
}

/**
 * A one-off command for an operator (or for the platform: user id null), as a command record: written
 * 'sent' before the frame goes out, settled with what came back (ok, failed with the 0x0001 result,
 * timeout, offline). TTS from the alarm pop-up, linkage TTS and the 0x8203 of an alarm decision go
 * through here, so `command_record/tts` and `command_record/findAlarmDeal` list them.
 */
export async function sendRecorded(
  db: SqliteDb, gateway: Pick<Gateway, 'sendCommand'>, v: VehicleLabel, msg: Jt808MessageInput,
  what: { readonly fun: string; readonly content: unknown; readonly user: CommandUser; readonly keepOffline?: boolean }, timeoutMs = ANSWER_TIMEOUT_MS,
): Promise<CommandOutcome> {
  const records = recordsOf(db);
  const id = records.record(v, msg, what.fun, what.content, what.user, 'sent');
  const outcome = await gateway.sendCommand(v.vehicleId, msg, timeoutMs);
  // keepOffline false: the caller refuses an offline terminal (a 4xx), and a refused call writes nothing.
  if (outcome.kind === 'offline' && what.keepOffline === false) records.drop(id);
  else records.settle(id, outcome);
  return outcome;
}

const recordsByDb = new WeakMap<SqliteDb, ReturnType<typeof commandRecords>>();
/** The record statements of one connection, prepared once. */
function recordsOf(db: SqliteDb): ReturnType<typeof commandRecords> {
  let r = recordsByDb.get(db);
  if (r === undefined) recordsByDb.set(db, (r = commandRecords(db)));
  return r;
}

/** Which command records a listing wants (all optional, ANDed). */
export interface RecordFilter {
  readonly vehicleId?: number;
  readonly taskId?: number;
  /** `fun` values (e.g. ['tts']). */
  readonly funs?: readonly string[];
  /** Records whose content names this alarm (`content.alarmId`). */
  readonly alarmId?: number;
  /** Send time range, epoch ms, inclusive. */
  readonly from?: number;
  readonly to?: number;
}

interface RecordRowDb {
  id: number; vehicle_id: number | null; vehiidno: string; device_no: string; msg_id: number; fun: string; content: string; task_id: number | null;
  user_id: number | null; user_name: string; send_time: number; answer_time: number | null; state: RecordState; result: number | null; answer: string | null;
}

export const commandRecordView = (r: RecordRowDb) => ({
  id: r.id, vehicleId: r.vehicle_id, vehiidno: r.vehiidno, deviceNo: r.device_no, msgId: r.msg_id, fun: r.fun, content: JSON.parse(r.content) as unknown,
  taskId: r.task_id, userName: r.user_name, sendTime: r.send_time, answerTime: r.answer_time, state: r.state, result: r.result,
  answer: r.answer === null ? null : JSON.parse(r.answer) as unknown,
});

/** Command records in `scope` (by the vehicle's company when sent), newest first; `page` absent: all of them. */
export function commandRecordPage(db: SqliteDb, scope: Scope, f: RecordFilter, page?: { readonly current: number; readonly size: number }) {
  const cond = scopeCondition(scope, 'c');
  const where = [cond.sql];
  const params: unknown[] = [...cond.params];
  if (f.vehicleId !== undefined) { where.push('r.vehicle_id = ?'); params.push(f.vehicleId); }
  if (f.taskId !== undefined) { where.push('r.task_id = ?'); params.push(f.taskId); }
  if (f.funs !== undefined) { where.push(`r.fun IN (${f.funs.map(() => '?').join(', ')})`); params.push(...f.funs); }
  if (f.alarmId !== undefined) { where.push("json_extract(r.content, '$.alarmId') = ?"); params.push(f.alarmId); }
  if (f.from !== undefined) { where.push('r.send_time >= ?'); params.push(f.from); }
  if (f.to !== undefined) { where.push('r.send_time <= ?'); params.push(f.to); }
  const sql = `FROM command_record r JOIN company c ON c.id = r.company_id WHERE ${where.join(' AND ')}`;
  const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
  const rows = page === undefined
    ? db.prepare(`SELECT r.* ${sql} ORDER BY r.id DESC`).all(...params) as RecordRowDb[]
    : db.prepare(`SELECT r.* ${sql} ORDER BY r.id DESC LIMIT ? OFFSET ?`).all(...params, page.size, (page.current - 1) * page.size) as RecordRowDb[];
  return { records: rows.map(commandRecordView), total };
}

export interface TaskTables {
  /** e.g. 'param_task' */
  readonly task: string;
  /** e.g. 'param_task_vehicle' */
  readonly vehicle: string;
  /** The task table's JSON column holding the payload (e.g. 'params'). */
  readonly payload: string;
}

export interface TaskKind<P> {
  readonly tables: TaskTables;
  /** The message one vehicle is sent for this payload (built when it is delivered, so it can follow later changes). */
  message(payload: P, vehicleId: number): Jt808MessageInput;
  /** The command record's `fun` and `content`. */
  fun(payload: P): string;
  content(payload: P): unknown;
  /**
   * For a message the terminal answers with a message of its own (0x8108 → 0x0108): its id, the
   * answer's result (0 ok, else failed with it) and the wait, which may depend on the payload (a big
   * upgrade package takes long to send). Without it the 0x0001 settles the vehicle within 10 s.
   */
  readonly answer?: { id: number; result(message: Jt808Message): number; timeoutMs(payload: P): number };
  /** After each state change of one vehicle (sent, then its outcome; queued again on a lost link). */
  onState?(taskId: number, payload: P, vehicleId: number, state: TaskVehicleState, result: number | null): void;
}

export interface TaskBase<P> {
  id: number;
  companyId: number;
  companyName: string;
  payload: P;
  createdByName: string;
  createTime: number;
  expireTime: number;
  counts: Record<string, number>;
  vehicles: { vehicleId: number; vehiidno: string; state: TaskVehicleState; result: number | null; recordId: number | null; updateTime: number }[];
}

export interface CommandTasks<P> {
  /**
   * Stores the task (all vehicles `queued`) and sends it at once to the online ones. Answers its id.
   * `queueMs`: how long an offline vehicle waits for its terminal (the sender's validity window; default a day).
   */
  create(companyId: number, payload: P, vehicles: readonly VehicleLabel[], user: CommandUser, queueMs?: number): number;
  /** The task with per-vehicle state, or 404 (`notFound`) outside the scope. */
  view(scope: Scope, id: number, notFound: Message): TaskBase<P>;
}

export function createCommandTasks<P>(
  deps: { db: SqliteDb; storage: Storage; gateway: Gateway; log?: { error(obj: object, msg: string): void } },
  kind: TaskKind<P>,
): CommandTasks<P> {
  const { db, storage, gateway } = deps;
  const { task: T, vehicle: TV, payload: PAYLOAD } = kind.tables;
  const records = commandRecords(db);
  const taskRow = db.prepare(`UPDATE ${TV} SET state = ?, result = ?, record_id = ?, update_time = ? WHERE task_id = ? AND vehicle_id = ?`);
  // Issue 20: a queued vehicle is claimed before it is sent, so two gateways draining it during a reconnect never both send it.
  const claimRow = db.prepare(`UPDATE ${TV} SET state = 'sent', update_time = ? WHERE task_id = ? AND vehicle_id = ? AND state = 'queued'`);

  function setState(taskId: number, payload: P, vehicleId: number, state: TaskVehicleState, result: number | null, recordId: number): void {
    taskRow.run(state, result, recordId, Date.now(), taskId, vehicleId);
    kind.onState?.(taskId, payload, vehicleId, state, result);
  }

  /** Sends a task's message to one vehicle now (it is online) and keeps its row up to date. */
  async function deliver(taskId: number, v: VehicleLabel, payload: P, user: CommandUser): Promise<void> {
    const msg = kind.message(payload, v.vehicleId);
    if (claimRow.run(Date.now(), taskId, v.vehicleId).changes === 0) return; // another node took it (or it is no longer queued)
    const recordId = records.record(v, msg, kind.fun(payload), kind.content(payload), user, 'sent', taskId);
    setState(taskId, payload, v.vehicleId, 'sent', null, recordId);
    const a = kind.answer;
    const outcome = a
      ? await gateway.request(v.vehicleId, msg, a.id, a.timeoutMs(payload)).then((o) => (o.kind === 'answer' ? { kind: 'reply' as const, result: a.result(o.message), answer: o.message } : o))
      : await gateway.sendCommand(v.vehicleId, msg, ANSWER_TIMEOUT_MS);
    const { state, result } = records.settle(recordId, outcome, 'answer' in outcome ? outcome.answer : null);
    // An offline outcome (the link dropped before the answer) puts the vehicle back in the queue.
    setState(taskId, payload, v.vehicleId, state === 'offline' ? 'queued' : state, result, recordId);
  }

  const queuedFor = db.prepare(`SELECT t.id, t.${PAYLOAD} AS payload, t.created_by, t.created_by_name FROM ${TV} tv JOIN ${T} t ON t.id = tv.task_id
    WHERE tv.vehicle_id = ? AND tv.state = 'queued' AND t.expire_time > ? ORDER BY t.id`);
  type QueuedRow = { id: number; payload: string; created_by: number | null; created_by_name: string };

  /** In flight per vehicle, so a reconnect storm never sends one task twice at once. */
  const delivering = new Set<number>();
  /** Delivers every queued task of one (online) vehicle in task order; tasks queued meanwhile too. */
  function drain(vehicleId: number, label?: VehicleLabel): void {
    if (delivering.has(vehicleId)) return;
    if ((queuedFor.all(vehicleId, Date.now()) as QueuedRow[]).length === 0) return;
    delivering.add(vehicleId);
    void (async () => {
      try {
        const v = label ?? [...(await storage.terminals.labels(ALL_COMPANIES, [vehicleId])).values()][0];
        if (!v) return;
        const tried = new Set<number>();
        for (;;) {
          if (!gateway.isReachable(vehicleId)) return;
          const next = (queuedFor.all(vehicleId, Date.now()) as QueuedRow[]).find((r) => !tried.has(r.id));
          if (!next) return;
          tried.add(next.id);
          await deliver(next.id, v, JSON.parse(next.payload) as P, { id: next.created_by, name: next.created_by_name });
        }
      } finally {
        delivering.delete(vehicleId);
      }
    })().catch((err: unknown) => {
      // The vehicle stays queued (its next authentication tries again); said, so a failing delivery is not silent.
      deps.log?.error({ err, vehicleId }, 'command tasks: delivering a queued task failed; the vehicle stays queued');
    });
  }
  gateway.onAuthenticated((vehicleId) => drain(vehicleId));

  return {
    create(companyId, payload, vehicles, user, queueMs = TASK_QUEUE_MS) {
      const now = Date.now();
      const taskId = db.transaction(() => {
        const id = Number(db.prepare(`INSERT INTO ${T} (company_id, ${PAYLOAD}, created_by, created_by_name, create_time, expire_time) VALUES (?, ?, ?, ?, ?, ?)`)
          .run(companyId, JSON.stringify(payload), user.id, user.name, now, now + queueMs).lastInsertRowid);
        const put = db.prepare(`INSERT INTO ${TV} (task_id, vehicle_id, vehiidno, state, update_time) VALUES (?, ?, ?, 'queued', ?)`);
        for (const v of vehicles) put.run(id, v.vehicleId, v.vehiidno, now);
        return id;
      })();
      for (const v of vehicles) kind.onState?.(taskId, payload, v.vehicleId, 'queued', null);
      // Online terminals get it now; the others stay queued until they authenticate again.
      for (const v of vehicles) if (gateway.isReachable(v.vehicleId)) drain(v.vehicleId, v);
      return taskId;
    },

    view(scope, id, notFound) {
      const cond = scopeCondition(scope, 'c');
      const t = db.prepare(`SELECT t.*, t.${PAYLOAD} AS payload_json, c.name AS company_name FROM ${T} t JOIN company c ON c.id = t.company_id WHERE t.id = ? AND ${cond.sql}`).get(id, ...cond.params) as
        { id: number; company_id: number; company_name: string; payload_json: string; created_by_name: string; create_time: number; expire_time: number } | undefined;
      if (!t) throw fail.notFound(notFound);
      const vehicles = db.prepare(`SELECT tv.vehicle_id AS vehicleId, tv.vehiidno, tv.state, tv.result, tv.record_id AS recordId, tv.update_time AS updateTime
        FROM ${TV} tv WHERE tv.task_id = ? ORDER BY tv.rowid`).all(t.id) as TaskBase<P>['vehicles'];
      const counts: Record<string, number> = { queued: 0, sent: 0, ok: 0, failed: 0, timeout: 0 };
      for (const v of vehicles) counts[v.state] = (counts[v.state] ?? 0) + 1;
      return {
        id: t.id, companyId: t.company_id, companyName: t.company_name, payload: JSON.parse(t.payload_json) as P,
        createdByName: t.created_by_name, createTime: t.create_time, expireTime: t.expire_time, counts, vehicles,
      };
    },
  };
}
