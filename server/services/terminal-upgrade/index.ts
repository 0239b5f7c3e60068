/**
 * Terminal upgrades over JT/T 808 (issue 17, screens hjwsUpdate / hjwsUpdate2; contract: ./api.md):
 * upgrade packages uploaded as multipart files (stored under the data dir by SHA-256, listed and
 * deleted by company), and pushing one to up to 500 vehicles as a command task (0x8108, sent as
 * sub-packages; each vehicle ends with the terminal's 0x0108 result). Offline terminals stay queued
 * and get the package when they authenticate again (server/services/command-tasks).
 *
 * Scoping: packages and vehicles are checked against the caller's subtree before anything is written
 * or sent; lists are by company inside the caller's scope.
 */
import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { encodeGbk } from '../../gateway/jt808/bytes.ts';
import { UPGRADE_MAKER_WIDTH, UPGRADE_MSG, UPGRADE_TYPES, type Retransmission, type UpgradePackage } from '../../gateway/jt808/upgrade.ts';
import type { Jt808Message } from '../../gateway/jt808/messages.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { readSingleFileUpload } from '../../http/single-file-upload.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { createCommandTasks, TASK_VEHICLES_MAX, type CommandUser } from '../command-tasks/index.ts';

export const PACKAGES_PAGE = '/information/params/hjwsUpdate';
export const PUSH_PAGE = '/information/params/hjwsUpdate2';
/**
 * Largest package: 0x8108 goes as at most 65535 sub-packages of ≤1023 bytes, so a body stays under
 * 64 MiB; 60 MiB leaves room for the header fields and is far above real firmware images.
 */
export const PACKAGE_MAX_BYTES = 60 * 1024 * 1024;
export const PACKAGE_NAME_MAX = 50;
export const VERSION_MAX = 32;
/**
 * How long a vehicle waits for its 0x0108: a minute to install plus the send itself at a slow
 * cellular 2 KiB/s (a 1 MiB package: ~9 minutes). Sized by the package so big ones never time out early.
 */
export function upgradeTimeoutMs(size: number): number {
  return 60_000 + Math.ceil(size / 2048) * 1000;
}

/**
 * JT/T 808 §4.4 retransmission of 0x8108 when the terminal's own 0x0002 (TCP answer timeout, s) and
 * 0x0003 (TCP retransmissions) are not known: 30 s after the last sub-package left the server (a slow
 * link may still be carrying the socket's buffered bytes), then 60 s and 180 s (T(n+1) = T(n) × (n+1)).
 */
export const DEFAULT_RETRANSMISSION: Retransmission = Object.freeze({ timeoutMs: 30_000, retries: 3 });
/** Bounds on a terminal's own values (a 0 or absurd setting does not make the platform spin or wait a day). */
const RETRANSMIT_TIMEOUT_S = { min: 1, max: 600 } as const;
const RETRANSMIT_RETRIES_MAX = 10;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const UpgradeMessages = {
  notMultipart: pair('请以 multipart/form-data 上传升级包（字段 file）', 'Upload the package as multipart/form-data (field "file")'),
  noFile: pair('请选择升级包文件', 'Choose the package file'),
  oneFile: pair('一次只能上传一个文件', 'Upload one file at a time'),
  tooBig: pair(`升级包不能超过 ${PACKAGE_MAX_BYTES / 1024 / 1024} MiB`, `The package must be at most ${PACKAGE_MAX_BYTES / 1024 / 1024} MiB`),
  unknownPart: (name: string): Message => pair(`未知字段 ${name}`, `Unknown field ${name}`),
  required: pair('必填', 'required'),
  nameLength: pair(`需为 1 到 ${PACKAGE_NAME_MAX} 个字符`, `must be 1 to ${PACKAGE_NAME_MAX} characters`),
  versionLength: pair(`需为 1 到 ${VERSION_MAX} 个字符（≤255 字节）`, `must be 1 to ${VERSION_MAX} characters (at most 255 bytes)`),
  upgradeType: pair('需为 0（终端）、12（IC 卡读卡器）或 52（GNSS 模块）', 'must be 0 (terminal), 12 (IC card reader) or 52 (GNSS module)'),
  makerId: pair(`需为 1 到 ${UPGRADE_MAKER_WIDTH} 个字母或数字`, `must be 1 to ${UPGRADE_MAKER_WIDTH} letters or digits`),
  packageNotFound: pair('升级包不存在', 'No such upgrade package'),
  taskNotFound: pair('任务不存在', 'No such task'),
  vehiclesOutOfScope: (list: string): Message => pair(`车辆不存在或不在您的管辖范围内：${list}`, `No such vehicle in your scope: ${list}`),
  noDevice: pair('车辆未安装终端', 'The vehicle has no terminal installed'),
  badUpload: pair('上传内容无法解析', 'The upload could not be read'),
  notInTask: (list: string): Message => pair(`车辆不在该任务中：${list}`, `Not in this task: ${list}`),
  notQueued: (list: string): Message => pair(`只能取消等待下发的车辆，以下车辆已下发或已结束：${list}`, `Only a vehicle still waiting can be cancelled; sent or finished already: ${list}`),
  nothingQueued: pair('该任务没有等待下发的车辆', 'No vehicle of this task is still waiting'),
} as const;

/** What a task carries: the package as it was when pushed (a later delete does not change a queued push). */
export interface UpgradePayload {
  packageId: number;
  name: string;
  version: string;
  upgradeType: number;
  makerId: string;
  size: number;
  sha256: string;
}

interface PackageRow {
  id: number; company_id: number; company_name: string; name: string; version: string; upgrade_type: number; maker_id: string;
  file_name: string; size: number; sha256: string; remark: string; created_by_name: string; create_time: number;
}
const packageView = (p: PackageRow) => ({
  id: p.id, companyId: p.company_id, companyName: p.company_name, name: p.name, version: p.version, upgradeType: p.upgrade_type,
  makerId: p.maker_id, fileName: p.file_name, size: p.size, sha256: p.sha256, remark: p.remark, createdByName: p.created_by_name, createTime: p.create_time,
});

export interface TerminalUpgradeDeps {
  readonly storage: Storage;
  readonly live: LiveRuntime;
  /** MEDIA_DIR/upgrade-packages, default DATA_DIR/upgrade-packages (`upgradePackagesDirOf`): shared in scale-out, the gateway node reads the package it sends. */
  readonly packagesDir: string;
}

const MULTIPART_LIMITS = { fileSize: PACKAGE_MAX_BYTES, files: 1, fields: 8, parts: 9, fieldNameSize: 64, fieldSize: 400, headerPairs: 20 } as const;

export function terminalUpgradeRoutes(app: App, deps: TerminalUpgradeDeps): void {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  const dir = deps.packagesDir;
  const fileOf = (sha256: string) => path.join(dir, sha256);
  const userOf = (ctx: AuthContext): CommandUser => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });

  // The terminal's last known 0x0002 / 0x0003: from a parameter query it answered or a parameter set it accepted.
  // The JSON is read here, not in SQL: SQLite's json_each(x, '$.params') has no PostgreSQL equivalent the
  // translator knows, and a JSON number must stay a number (PG's ->> answers text).
  const paramRecords = db.prepare(`SELECT fun, content, answer FROM command_record
    WHERE vehicle_id = ? AND state = 'ok' AND fun IN ('setParams', 'queryAll', 'queryChosen') ORDER BY send_time DESC, id DESC`);
  /** The newest value of each wanted parameter (a later record without it leaves an earlier one's), integers only. */
  const paramsOf = (vehicleId: number, wanted: readonly number[]): Map<number, number> => {
    const found = new Map<number, number>();
    for (const r of paramRecords.iterate(vehicleId) as IterableIterator<{ fun: string; content: string | null; answer: string | null }>) {
      let params: unknown;
      try {
        params = (JSON.parse((r.fun === 'setParams' ? r.content : r.answer) ?? 'null') as { params?: unknown } | null)?.params;
      } catch {
        continue;
      }
      if (!Array.isArray(params)) continue;
      for (const p of params as { id?: unknown; value?: unknown }[]) {
        if (typeof p?.id === 'number' && wanted.includes(p.id) && !found.has(p.id)) found.set(p.id, p.value as number);
      }
      if (wanted.every((id) => found.has(id))) break;
    }
    for (const [id, v] of found) if (typeof v !== 'number' || !Number.isInteger(v)) found.delete(id);
    return found;
  };
  /** The retransmission of 0x8108 to this vehicle: its terminal's 0x0002 / 0x0003 where known (bounded), else the defaults. */
  function retransmissionFor(vehicleId: number): Retransmission {
    const known = paramsOf(vehicleId, [0x0002, 0x0003]);
    const seconds = known.get(0x0002) ?? null;
    const retries = known.get(0x0003) ?? null;
    return {
      timeoutMs: seconds === null || seconds < RETRANSMIT_TIMEOUT_S.min ? DEFAULT_RETRANSMISSION.timeoutMs : Math.min(seconds, RETRANSMIT_TIMEOUT_S.max) * 1000,
      retries: retries === null || retries < 0 ? DEFAULT_RETRANSMISSION.retries : Math.min(retries, RETRANSMIT_RETRIES_MAX),
    };
  }

  const tasks = createCommandTasks<UpgradePayload>({ db, storage, gateway: live.gateway, log: app.log }, {
    tables: { task: 'upgrade_task', vehicle: 'upgrade_task_vehicle', payload: 'package' },
    // The bytes are kept by hash, so the file is the one pushed even a day later. The gateway reads it
    // by offset per sub-package (and again for a terminal's 0x0005): never the whole package in memory.
    // Unanswered, it is sent again per JT/T 808 §4.4 and the vehicle ends failed (reason 'unanswered').
    message: (p, vehicleId): UpgradePackage => ({
      msgId: UPGRADE_MSG.ISSUE, upgradeType: p.upgradeType, makerId: p.makerId, version: p.version, data: new Uint8Array(0),
      file: { path: fileOf(p.sha256), size: p.size }, retransmit: retransmissionFor(vehicleId),
    }),
    fun: () => 'upgrade',
    content: (p) => ({ packageId: p.packageId, name: p.name, version: p.version, upgradeType: p.upgradeType, makerId: p.makerId, size: p.size }),
    answer: {
      id: UPGRADE_MSG.RESULT,
      result: (m: Jt808Message) => (m.msgId === UPGRADE_MSG.RESULT ? m.result : 1),
      timeoutMs: (p) => upgradeTimeoutMs(p.size),
    },
  });

  function packageIn(scope: Scope, id: number, field: string | null): PackageRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT p.*, c.name AS company_name FROM upgrade_package p JOIN company c ON c.id = p.company_id WHERE p.id = ? AND ${cond.sql}`).get(id, ...cond.params) as PackageRow | undefined;
    if (!row) throw field ? badField(field, UpgradeMessages.packageNotFound, 'notFound') : fail.notFound(UpgradeMessages.packageNotFound);
    return row;
  }

  async function vehiclesIn(scope: Scope, ids: readonly number[]): Promise<VehicleLabel[]> {
    const labels = await storage.terminals.labels(scope, ids);
    const missing = ids.filter((id) => !labels.has(id));
    if (missing.length > 0) throw badField('vehicleIds', UpgradeMessages.vehiclesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
    const list = ids.map((id) => labels.get(id)!);
    const noDevice = list.filter((v) => !v.deviceNo);
    if (noDevice.length > 0) throw badField('vehicleIds', (l) => `${UpgradeMessages.noDevice(l)}: ${noDevice.slice(0, 10).map((v) => v.vehiidno).join(', ')}`, 'noDevice');
    return list;
  }

  /** The one file streamed to a temporary name while hashed; the fields are checked after; nothing is kept on a 400. */
  const readUpload = (request: FastifyRequest) =>
    readSingleFileUpload(request, { dir, fields: ['name', 'version', 'upgradeType', 'makerId', 'remark', 'companyId'], limits: MULTIPART_LIMITS, defaultName: 'package.bin', messages: UpgradeMessages });

  /** The form's fields, each 400 naming itself. */
  function checkFields(f: Record<string, string>) {
    const name = f.name ?? '';
    if (name === '') throw badField('name', UpgradeMessages.required, 'required');
    if ([...name].length > PACKAGE_NAME_MAX) throw badField('name', UpgradeMessages.nameLength);
    const version = f.version ?? '';
    if (version === '') throw badField('version', UpgradeMessages.required, 'required');
    if ([...version].length > VERSION_MAX || encodeGbk(version).length > 255) throw badField('version', UpgradeMessages.versionLength);
    if (f.upgradeType === undefined || f.upgradeType === '') throw badField('upgradeType', UpgradeMessages.required, 'required');
    const upgradeType = Number(f.upgradeType);
    if (!/^\d+$/.test(f.upgradeType) || !UPGRADE_TYPES.includes(upgradeType)) throw badField('upgradeType', UpgradeMessages.upgradeType);
    const makerId = f.makerId ?? '';
    if (makerId === '') throw badField('makerId', UpgradeMessages.required, 'required');
    if (!/^[A-Za-z0-9]{1,5}$/.test(makerId)) throw badField('makerId', UpgradeMessages.makerId);
    const remark = (f.remark ?? '').slice(0, 200);
    return { name, version, upgradeType, makerId, remark };
  }

  app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    scope.route({
      method: 'POST', url: '/service-command/upgrade/package', config: { permission: `${PACKAGES_PAGE}:upload` },
      schema: { querystring: Strict({}) },
      handler: async (request) => {
        const ctx = auth(request);
        const up = await readUpload(request);
        let f: ReturnType<typeof checkFields>;
        try {
          f = checkFields(up.fields);
        } catch (err) {
          fs.rmSync(up.tmp, { force: true });
          throw err;
        }
        // Same bytes, one file: the hash names it.
        const target = fileOf(up.sha256);
        if (fs.existsSync(target)) fs.rmSync(up.tmp, { force: true });
        else fs.renameSync(up.tmp, target);
        const id = Number(db.prepare(`INSERT INTO upgrade_package (company_id, name, version, upgrade_type, maker_id, file_name, size, sha256, remark, created_by, created_by_name, create_time)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(ctx.user.companyId, f.name, f.version, f.upgradeType, f.makerId, up.fileName.slice(0, 200), up.size, up.sha256, f.remark, ctx.user.id, userOf(ctx).name, Date.now()).lastInsertRowid);
        return ok(packageView(packageIn(ctx.scope, id, null)), requestLang(request));
      },
    });
  });

  app.get('/service-command/upgrade/package', {
    config: { permission: PACKAGES_PAGE },
    schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Type.String({ maxLength: 50 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    const kw = q.keyword?.trim();
    if (kw) { where.push("(p.name LIKE ? ESCAPE '\\' OR p.version LIKE ? ESCAPE '\\')"); const like = `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`; params.push(like, like); }
    const sql = `FROM upgrade_package p JOIN company c ON c.id = p.company_id WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`SELECT p.*, c.name AS company_name ${sql} ORDER BY p.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as PackageRow[];
    return ok({ records: rows.map(packageView), total, current: q.current, size: q.size }, requestLang(request));
  });

  app.post('/service-command/upgrade/package/delete', {
    config: { permission: `${PACKAGES_PAGE}:delete` },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const rows = request.body.ids.map((id) => packageIn(ctx.scope, id, null));
    db.transaction(() => {
      const del = db.prepare('DELETE FROM upgrade_package WHERE id = ?');
      for (const r of rows) del.run(r.id);
    })();
    // A file goes when no package row and no unexpired queued push still needs its bytes.
    for (const sha of new Set(rows.map((r) => r.sha256))) {
      const used = db.prepare('SELECT 1 FROM upgrade_package WHERE sha256 = ? LIMIT 1').get(sha)
        ?? db.prepare(`SELECT 1 FROM upgrade_task t JOIN upgrade_task_vehicle tv ON tv.task_id = t.id WHERE tv.state IN ('queued', 'sent') AND t.expire_time > ? AND json_extract(t.package, '$.sha256') = ? LIMIT 1`).get(Date.now(), sha);
      if (!used) fs.rmSync(fileOf(sha), { force: true });
    }
    return ok({ deleted: rows.length }, requestLang(request));
  });

  /** Why a failed vehicle failed when the terminal gave no result: its record's answer ({reason: 'unanswered', retransmissions}). */
  // Parsed here: PG's json_extract translation (->>) answers text, and the count must stay a number.
  const answerOf = db.prepare('SELECT answer FROM command_record WHERE id = ?');
  const reasonOf = (recordId: number): { reason?: unknown; retransmissions?: unknown } | null => {
    const answer = (answerOf.get(recordId) as { answer: string | null } | undefined)?.answer;
    try {
      return answer ? JSON.parse(answer) as { reason?: unknown; retransmissions?: unknown } | null : null;
    } catch {
      return null;
    }
  };
  const taskView = (scope: Scope, id: number) => {
    const t = tasks.view(scope, id, UpgradeMessages.taskNotFound);
    const { payload, ...rest } = t;
    const vehicles = rest.vehicles.map((v) => {
      const r = v.state === 'failed' && v.result === null && v.recordId !== null ? reasonOf(v.recordId) : null;
      return { ...v, reason: r?.reason === 'unanswered' ? { code: 'unanswered' as const, retransmissions: typeof r.retransmissions === 'number' ? r.retransmissions : 0 } : null };
    });
    return { ...rest, vehicles, counts: { cancelled: 0, ...rest.counts }, package: payload, timeoutMs: upgradeTimeoutMs(payload.size) };
  };

  app.post('/service-command/upgrade/task', {
    config: { permission: `${PUSH_PAGE}:push` },
    schema: { body: Strict({ packageId: Id, vehicleIds: Type.Array(Id, { minItems: 1, maxItems: TASK_VEHICLES_MAX, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const p = packageIn(ctx.scope, request.body.packageId, 'packageId');
    const vehicles = await vehiclesIn(ctx.scope, request.body.vehicleIds);
    const payload: UpgradePayload = { packageId: p.id, name: p.name, version: p.version, upgradeType: p.upgrade_type, makerId: p.maker_id, size: p.size, sha256: p.sha256 };
    const taskId = tasks.create(ctx.user.companyId, payload, vehicles, userOf(ctx));
    return ok(taskView(ctx.scope, taskId), requestLang(request));
  });

  /**
   * Cancel: a vehicle still queued (its terminal offline) becomes 'cancelled' and is never sent, also
   * after its terminal returns (the queue only delivers 'queued' rows, read again before each send).
   * A vehicle already sent is past cancelling: 0x8108 has no "stop" and the terminal is installing.
   * Listed vehicles: all or nothing (one not queued is 409 naming it). No list: every queued vehicle.
   */
  app.post('/service-command/upgrade/task/cancel', {
    config: { permission: `${PUSH_PAGE}:cancel` },
    schema: { body: Strict({ id: Id, vehicleIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: TASK_VEHICLES_MAX, uniqueItems: true })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const view = taskView(ctx.scope, request.body.id);
    const byId = new Map(view.vehicles.map((v) => [v.vehicleId, v]));
    const asked = request.body.vehicleIds;
    if (asked) {
      const missing = asked.filter((id) => !byId.has(id));
      if (missing.length > 0) throw badField('vehicleIds', UpgradeMessages.notInTask(missing.slice(0, 10).join(', ')), 'notFound');
      const late = asked.map((id) => byId.get(id)!).filter((v) => v.state !== 'queued');
      if (late.length > 0) throw new AppError(ErrorCode.Conflict, UpgradeMessages.notQueued(late.slice(0, 10).map((v) => v.vehiidno).join(', ')));
    } else if (!view.vehicles.some((v) => v.state === 'queued')) {
      throw new AppError(ErrorCode.Conflict, UpgradeMessages.nothingQueued);
    }
    const now = Date.now();
    // Read and update run in one synchronous stretch, so no delivery can start between them; the
    // `state = 'queued'` condition still keeps a row that did from being overwritten.
    const cancel = db.prepare("UPDATE upgrade_task_vehicle SET state = 'cancelled', update_time = ? WHERE task_id = ? AND vehicle_id = ? AND state = 'queued'");
    const ids = asked ?? view.vehicles.filter((v) => v.state === 'queued').map((v) => v.vehicleId);
    db.transaction(() => { for (const id of ids) cancel.run(now, view.id, id); })();
    return ok(taskView(ctx.scope, view.id), requestLang(request));
  });

  app.get('/service-command/upgrade/task', {
    config: { permission: PUSH_PAGE },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => ok(taskView(auth(request).scope, request.query.id), requestLang(request)));

  app.get('/service-command/upgrade/tasks', {
    config: { permission: PUSH_PAGE },
    schema: { querystring: Strict({ ...PageFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const sql = `FROM upgrade_task t JOIN company c ON c.id = t.company_id WHERE ${cond.sql}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...cond.params) as { n: number }).n;
    const rows = db.prepare(`SELECT t.id, t.company_id, c.name AS company_name, t.package, t.created_by_name, t.create_time, t.expire_time
      ${sql} ORDER BY t.id DESC LIMIT ? OFFSET ?`).all(...cond.params, q.size, (q.current - 1) * q.size) as
      { id: number; company_id: number; company_name: string; package: string; created_by_name: string; create_time: number; expire_time: number }[];
    // Per-state counts of the page's tasks in one grouped query (SQLite's json_group_object has no PG translation).
    const counts = new Map(rows.map((r) => [r.id, { queued: 0, sent: 0, ok: 0, failed: 0, timeout: 0, cancelled: 0 } as Record<string, number>]));
    if (rows.length > 0) {
      const grouped = db.prepare(`SELECT task_id, state, count(*) AS n FROM upgrade_task_vehicle WHERE task_id IN (SELECT value FROM json_each(?)) GROUP BY task_id, state`)
        .all(JSON.stringify(rows.map((r) => r.id))) as { task_id: number; state: string; n: number }[];
      for (const g of grouped) counts.get(g.task_id)![g.state] = g.n;
    }
    const records = rows.map((r) => ({
      id: r.id, companyId: r.company_id, companyName: r.company_name, package: JSON.parse(r.package) as UpgradePayload, createdByName: r.created_by_name,
      createTime: r.create_time, expireTime: r.expire_time, counts: counts.get(r.id)!,
    }));
    return ok({ records, total, current: q.current, size: q.size }, requestLang(request));
  });
}
