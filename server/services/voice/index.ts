/**
 * Text and audio resources and batch voice dispatch (issue 19; screens /operation/entertainmentResources
 * text and audio, /operation/messageManagement batchTtsTask and batchTtsLog; contract: ./api.md).
 *
 * - Text templates (service-ops textManage): company-scoped texts a dispatch may start from.
 * - Audio resources (service-ops audioManage): one file per upload, its type read from its bytes
 *   (./audio-format.ts), stored under the data dir by SHA-256 and served back to the console's <audio>.
 * - Batch voice dispatch (service-command voice): one 0x8300 text with its display-type flags to up to
 *   500 vehicles as a command task (../command-tasks): online terminals at once, each settled by its
 *   0x0001; offline ones wait until their terminal authenticates again, within the validity window the
 *   sender chose; a vehicle still waiting when it closes is expired and never sent.
 *
 * Scoping: rows, templates and vehicles are checked against the caller's subtree before anything is
 * written or sent; an id outside it is not found.
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
import { MSG } from '../../gateway/jt808/messages.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { readSingleFileUpload } from '../../http/single-file-upload.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { createCommandTasks, TASK_VEHICLES_MAX, type CommandUser } from '../command-tasks/index.ts';
import { TEXT_FLAGS } from '../safe/alarms.ts';
import { AUDIO_MIME, AUDIO_SNIFF_BYTES, sniffAudio, type AudioFormat } from './audio-format.ts';

export const TEXT_PAGE = '/operation/entertainmentResources/text';
export const AUDIO_PAGE = '/operation/entertainmentResources/audio';
export const SEND_PAGE = '/operation/messageManagement/batchTtsTask';
export const LOG_PAGE = '/operation/messageManagement/batchTtsLog';

export const NAME_MAX = 50;
export const REMARK_MAX = 200;
/** Characters of a text; its GBK bytes must also fit one 0x8300 body (≤ 1023 bytes with the flag and type). */
export const TEXT_MAX = 500;
export const TEXT_BYTES_MAX = 1000;
/** An audio file: a minute of 44.1 kHz stereo WAV is ≈ 10 MiB; reminders and prompts are far shorter. */
export const AUDIO_MAX_BYTES = 10 * 1024 * 1024;
/** Validity window of a dispatch (minutes): 1 minute to 7 days; a day when not chosen. */
export const VALID_MINUTES_MAX = 7 * 24 * 60;
export const VALID_MINUTES_DEFAULT = 24 * 60;
/** Bounded far above the cap so the handler, not the schema, answers the count in words. */
const VEHICLE_IDS_SCHEMA_MAX = 20_000;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const VoiceMessages = {
  notMultipart: pair('请以 multipart/form-data 上传音频（字段 file）', 'Upload the audio as multipart/form-data (field "file")'),
  noFile: pair('请选择音频文件', 'Choose the audio file'),
  oneFile: pair('一次只能上传一个文件', 'Upload one file at a time'),
  tooBig: pair(`音频文件不能超过 ${AUDIO_MAX_BYTES / 1024 / 1024} MiB`, `The audio file must be at most ${AUDIO_MAX_BYTES / 1024 / 1024} MiB`),
  notAudio: pair('文件内容不是 MP3、WAV 或 OGG 音频', 'The file is not MP3, WAV or OGG audio (read from its content)'),
  unknownPart: (name: string): Message => pair(`未知字段 ${name}`, `Unknown field ${name}`),
  badUpload: pair('上传内容无法解析', 'The upload could not be read'),
  required: pair('必填', 'required'),
  nameLength: pair(`需为 1 到 ${NAME_MAX} 个字符`, `must be 1 to ${NAME_MAX} characters`),
  remarkLength: pair(`不能超过 ${REMARK_MAX} 个字符`, `must be at most ${REMARK_MAX} characters`),
  textRequired: pair('消息内容不能为空', 'The message content is required'),
  textBytes: pair(`内容过长：终端一条文本最多 ${TEXT_BYTES_MAX} 字节（约 ${TEXT_BYTES_MAX / 2} 个汉字）`, `Too long: a terminal text holds at most ${TEXT_BYTES_MAX} bytes (about ${TEXT_BYTES_MAX / 2} Chinese characters)`),
  textOrTemplate: pair('请输入消息内容或选择文本模板（二选一）', 'Type the message or choose a text template (one of the two)'),
  templateNotFound: pair('文本模板不存在', 'No such text template'),
  audioNotFound: pair('音频资源不存在', 'No such audio resource'),
  taskNotFound: pair('任务不存在', 'No such task'),
  tooManyVehicles: (n: number): Message => pair(`一次最多下发 ${TASK_VEHICLES_MAX} 辆车，已选择 ${n} 辆`, `At most ${TASK_VEHICLES_MAX} vehicles per dispatch; ${n} selected`),
  vehiclesOutOfScope: (list: string): Message => pair(`车辆不存在或不在您的管辖范围内：${list}`, `No such vehicle in your scope: ${list}`),
  noDevice: (list: string): Message => pair(`车辆未安装终端：${list}`, `No terminal installed: ${list}`),
  nothingWaiting: pair('该任务没有等待下发的车辆', 'No vehicle of this task is still waiting'),
} as const;

/** What a dispatch carries: the text as sent (a later template edit does not change it). */
export interface VoicePayload {
  text: string;
  types: (keyof typeof TEXT_FLAGS)[];
  flags: number;
  templateId: number | null;
}

/** A vehicle's state as the console shows it: queued is "waiting (offline)", or expired once the window closed. */
export type VoiceVehicleState = 'queued' | 'sent' | 'ok' | 'failed' | 'timeout' | 'cancelled' | 'expired';
export const VOICE_STATES: readonly VoiceVehicleState[] = ['queued', 'sent', 'ok', 'failed', 'timeout', 'cancelled', 'expired'];
const SHOWN_STATE = "CASE WHEN tv.state = 'queued' AND t.expire_time <= ? THEN 'expired' ELSE tv.state END";

interface TemplateRow { id: number; company_id: number; company_name: string; name: string; content: string; remark: string; created_by_name: string; create_time: number; update_time: number }
const templateView = (r: TemplateRow) => ({
  id: r.id, companyId: r.company_id, companyName: r.company_name, name: r.name, content: r.content, remark: r.remark,
  createdByName: r.created_by_name, createTime: r.create_time, updateTime: r.update_time,
});
interface AudioRow { id: number; company_id: number; company_name: string; name: string; file_name: string; format: AudioFormat; size: number; sha256: string; remark: string; created_by_name: string; create_time: number; update_time: number }
const audioView = (r: AudioRow) => ({
  id: r.id, companyId: r.company_id, companyName: r.company_name, name: r.name, fileName: r.file_name, format: r.format, size: r.size,
  remark: r.remark, createdByName: r.created_by_name, createTime: r.create_time, updateTime: r.update_time,
  /** Where the console fetches the bytes (with its token) for the row's player. */
  url: `/service-ops/audioManage/file?id=${r.id}`,
});

export interface VoiceDeps {
  readonly storage: Storage;
  readonly live: LiveRuntime;
  /** Where audio files are kept (config.ts `sharedFilesDirOf`: the shared mount in scale-out, so any node sends them). */
  readonly filesDir: string;
}

const MULTIPART_LIMITS = { fileSize: AUDIO_MAX_BYTES, files: 2, fields: 4, parts: 6, fieldNameSize: 64, fieldSize: 400, headerPairs: 20 } as const;
const like = (kw: string) => `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function voiceRoutes(app: App, deps: VoiceDeps): void {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  const dir = deps.filesDir;
  const fileOf = (sha256: string) => path.join(dir, sha256);
  const userOf = (ctx: AuthContext): CommandUser => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });

  const tasks = createCommandTasks<VoicePayload>({ db, storage, gateway: live.gateway, log: app.log }, {
    tables: { task: 'voice_task', vehicle: 'voice_task_vehicle', payload: 'message' },
    // textType 1 (notice) for 2019 terminals; a 2013 terminal has no such byte and the codec leaves it out.
    message: (p) => ({ msgId: MSG.TEXT, flags: p.flags, textType: 1, text: p.text }),
    fun: () => 'tts',
    content: (p) => ({ text: p.text, types: p.types }),
  });

  /** The company a new row belongs to: the selected one (in the caller's subtree) or the caller's own. */
  async function targetCompany(ctx: AuthContext, companyId: number | undefined): Promise<number> {
    if (companyId === undefined) return ctx.user.companyId;
    await narrowedScope(storage, ctx, companyId);
    return companyId;
  }

  function checkText(field: string, raw: string): string {
    const text = raw.trim();
    if (text === '') throw badField(field, VoiceMessages.textRequired, 'required');
    if (encodeGbk(text).length > TEXT_BYTES_MAX) throw badField(field, VoiceMessages.textBytes);
    return text;
  }
  function checkName(raw: string): string {
    const name = raw.trim();
    if (name === '') throw badField('name', VoiceMessages.required, 'required');
    if ([...name].length > NAME_MAX) throw badField('name', VoiceMessages.nameLength);
    return name;
  }

  // ---- text templates -------------------------------------------------------------------------------
  function templateIn(scope: Scope, id: number, field: string | null): TemplateRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT x.*, c.name AS company_name FROM text_template x JOIN company c ON c.id = x.company_id WHERE x.id = ? AND ${cond.sql}`).get(id, ...cond.params) as TemplateRow | undefined;
    if (!row) throw field ? badField(field, VoiceMessages.templateNotFound, 'notFound') : fail.notFound(VoiceMessages.templateNotFound);
    return row;
  }
  function templatePage(scope: Scope, keyword: string | undefined, current: number, size: number) {
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    const kw = keyword?.trim();
    if (kw) { where.push("(x.name LIKE ? ESCAPE '\\' OR x.content LIKE ? ESCAPE '\\')"); params.push(like(kw), like(kw)); }
    const sql = `FROM text_template x JOIN company c ON c.id = x.company_id WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`SELECT x.*, c.name AS company_name ${sql} ORDER BY x.id DESC LIMIT ? OFFSET ?`).all(...params, size, (current - 1) * size) as TemplateRow[];
    return { records: rows.map(templateView), total, current, size };
  }
  const TemplateFields = { name: Type.String({ maxLength: NAME_MAX * 4 }), content: Type.String({ maxLength: TEXT_MAX }), remark: Type.Optional(Type.String({ maxLength: REMARK_MAX })) };

  app.post('/service-ops/textManage/page', {
    config: { permission: TEXT_PAGE, audit: false },
    schema: { body: Strict({ ...PageFields, keyword: Type.Optional(Type.String({ maxLength: 50 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    return ok(templatePage(await narrowedScope(storage, ctx, b.companyId), b.keyword, b.current, b.size), requestLang(request));
  });

  // The dispatch screen's template picker reads this too.
  app.post('/service-ops/textManage/list', {
    config: { permission: [TEXT_PAGE, SEND_PAGE], audit: false },
    schema: { body: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    return ok(templatePage(await narrowedScope(storage, ctx, request.body.companyId), undefined, 1, 500).records, requestLang(request));
  });

  app.post('/service-ops/textManage/add', {
    config: { permission: `${TEXT_PAGE}:create` },
    schema: { body: Strict(TemplateFields) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const name = checkName(b.name);
    const content = checkText('content', b.content);
    const companyId = await targetCompany(ctx, b.companyId);
    const now = Date.now();
    const id = Number(db.prepare('INSERT INTO text_template (company_id, name, content, remark, created_by_name, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(companyId, name, content, (b.remark ?? '').trim(), userOf(ctx).name, now, now).lastInsertRowid);
    return ok(templateView(templateIn(ctx.scope, id, null)), requestLang(request));
  });

  app.put('/service-ops/textManage/update', {
    config: { permission: `${TEXT_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...TemplateFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = templateIn(ctx.scope, b.id, null);
    const name = checkName(b.name);
    const content = checkText('content', b.content);
    db.prepare('UPDATE text_template SET name = ?, content = ?, remark = ?, update_time = ? WHERE id = ?').run(name, content, (b.remark ?? row.remark).trim(), Date.now(), row.id);
    return ok(templateView(templateIn(ctx.scope, row.id, null)), requestLang(request));
  });

  app.delete('/service-ops/textManage/delete', {
    config: { permission: `${TEXT_PAGE}:delete` },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const rows = request.body.ids.map((id) => templateIn(ctx.scope, id, null));
    db.transaction(() => { for (const r of rows) db.prepare('DELETE FROM text_template WHERE id = ?').run(r.id); })();
    return ok({ deleted: rows.length }, requestLang(request));
  });

  // ---- audio resources ------------------------------------------------------------------------------
  function audioIn(scope: Scope, id: number): AudioRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT a.*, c.name AS company_name FROM audio_resource a JOIN company c ON c.id = a.company_id WHERE a.id = ? AND ${cond.sql}`).get(id, ...cond.params) as AudioRow | undefined;
    if (!row) throw fail.notFound(VoiceMessages.audioNotFound);
    return row;
  }
  function audioPage(scope: Scope, keyword: string | undefined, current: number, size: number) {
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    const kw = keyword?.trim();
    if (kw) { where.push("(a.name LIKE ? ESCAPE '\\' OR a.file_name LIKE ? ESCAPE '\\')"); params.push(like(kw), like(kw)); }
    const sql = `FROM audio_resource a JOIN company c ON c.id = a.company_id WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`SELECT a.*, c.name AS company_name ${sql} ORDER BY a.id DESC LIMIT ? OFFSET ?`).all(...params, size, (current - 1) * size) as AudioRow[];
    return { records: rows.map(audioView), total, current, size };
  }

  /** The one file streamed to a temporary name, hashed, its first bytes kept to read its type; nothing is kept on a 400. */
  const readAudioUpload = (request: FastifyRequest) =>
    readSingleFileUpload(request, { dir, fields: ['name', 'remark', 'companyId'], limits: MULTIPART_LIMITS, defaultName: 'audio', headBytes: AUDIO_SNIFF_BYTES, messages: VoiceMessages });

  app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    scope.route({
      method: 'POST', url: '/service-ops/audioManage/add', config: { permission: `${AUDIO_PAGE}:upload` },
      schema: { querystring: Strict({}) },
      handler: async (request) => {
        const ctx = auth(request);
        const up = await readAudioUpload(request);
        let checked: { name: string; remark: string; format: AudioFormat; companyId: number };
        try {
          const format = sniffAudio(up.head);
          if (!format) throw badField('file', VoiceMessages.notAudio, 'notAudio');
          // Without a name the file's, less its extension.
          const name = checkName(up.fields.name || up.fileName.replace(/\.[^.]*$/, ''));
          const remark = up.fields.remark ?? '';
          if ([...remark].length > REMARK_MAX) throw badField('remark', VoiceMessages.remarkLength);
          const companyRaw = up.fields.companyId;
          const companyId = companyRaw === undefined || companyRaw === '' ? undefined : Number(companyRaw);
          if (companyId !== undefined && (!Number.isSafeInteger(companyId) || companyId < 1)) throw badField('companyId', VoiceMessages.required);
          checked = { name, remark, format, companyId: await targetCompany(ctx, companyId) };
        } catch (err) {
          fs.rmSync(up.tmp, { force: true });
          throw err;
        }
        // Same bytes, one file: the hash names it.
        const target = fileOf(up.sha256);
        if (fs.existsSync(target)) fs.rmSync(up.tmp, { force: true });
        else fs.renameSync(up.tmp, target);
        const now = Date.now();
        const id = Number(db.prepare(`INSERT INTO audio_resource (company_id, name, file_name, format, size, sha256, remark, created_by_name, create_time, update_time)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(checked.companyId, checked.name, up.fileName.slice(0, 200), checked.format, up.size, up.sha256, checked.remark, userOf(ctx).name, now, now).lastInsertRowid);
        return ok(audioView(audioIn(ctx.scope, id)), requestLang(request));
      },
    });
  });

  app.post('/service-ops/audioManage/page', {
    config: { permission: AUDIO_PAGE, audit: false },
    schema: { body: Strict({ ...PageFields, keyword: Type.Optional(Type.String({ maxLength: 50 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    return ok(audioPage(await narrowedScope(storage, ctx, b.companyId), b.keyword, b.current, b.size), requestLang(request));
  });

  app.post('/service-ops/audioManage/list', {
    config: { permission: [AUDIO_PAGE, '/global/alarm'], audit: false },
    schema: { body: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    return ok(audioPage(await narrowedScope(storage, ctx, request.body.companyId), undefined, 1, 500).records, requestLang(request));
  });

  app.put('/service-ops/audioManage/update', {
    config: { permission: `${AUDIO_PAGE}:update` },
    schema: { body: Strict({ id: Id, name: Type.String({ maxLength: NAME_MAX * 4 }), remark: Type.Optional(Type.String({ maxLength: REMARK_MAX })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = audioIn(ctx.scope, b.id);
    const name = checkName(b.name);
    db.prepare('UPDATE audio_resource SET name = ?, remark = ?, update_time = ? WHERE id = ?').run(name, (b.remark ?? row.remark).trim(), Date.now(), row.id);
    return ok(audioView(audioIn(ctx.scope, row.id)), requestLang(request));
  });

  app.delete('/service-ops/audioManage/delete', {
    config: { permission: `${AUDIO_PAGE}:delete` },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const rows = request.body.ids.map((id) => audioIn(ctx.scope, id));
    db.transaction(() => { for (const r of rows) db.prepare('DELETE FROM audio_resource WHERE id = ?').run(r.id); })();
    // A file goes when no row still names its bytes.
    for (const sha of new Set(rows.map((r) => r.sha256))) {
      if (!db.prepare('SELECT 1 FROM audio_resource WHERE sha256 = ? LIMIT 1').get(sha)) fs.rmSync(fileOf(sha), { force: true });
    }
    return ok({ deleted: rows.length }, requestLang(request));
  });

  // The bytes for the row's player and the alarm pop-up's chosen sound (fetched with the token).
  app.get('/service-ops/audioManage/file', {
    config: { permission: [AUDIO_PAGE, '/global/alarm'] },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request, reply) => {
    const ctx = auth(request);
    const row = audioIn(ctx.scope, request.query.id);
    const file = fileOf(row.sha256);
    if (!fs.existsSync(file)) throw fail.notFound(VoiceMessages.audioNotFound);
    reply.header('content-type', AUDIO_MIME[row.format]);
    reply.header('cache-control', 'private, max-age=3600');
    return reply.send(fs.createReadStream(file));
  });

  // ---- batch voice dispatch -------------------------------------------------------------------------
  async function vehiclesIn(scope: Scope, ids: readonly number[]): Promise<VehicleLabel[]> {
    const labels = await storage.terminals.labels(scope, ids);
    const missing = ids.filter((id) => !labels.has(id));
    if (missing.length > 0) throw badField('vehicleIds', VoiceMessages.vehiclesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
    const list = ids.map((id) => labels.get(id)!);
    const noDevice = list.filter((v) => !v.deviceNo);
    if (noDevice.length > 0) throw badField('vehicleIds', VoiceMessages.noDevice(noDevice.slice(0, 10).map((v) => v.vehiidno).join(', ')), 'noDevice');
    return list;
  }

  const TypeField = Type.Union(Object.keys(TEXT_FLAGS).map((k) => Type.Literal(k as keyof typeof TEXT_FLAGS)));
  const taskCounts = (taskId: number, now: number) => {
    const counts: Record<VoiceVehicleState, number> = { queued: 0, sent: 0, ok: 0, failed: 0, timeout: 0, cancelled: 0, expired: 0 };
    const rows = db.prepare(`SELECT ${SHOWN_STATE} AS state, count(*) AS n FROM voice_task_vehicle tv JOIN voice_task t ON t.id = tv.task_id WHERE tv.task_id = ? GROUP BY 1`).all(now, taskId) as { state: VoiceVehicleState; n: number }[];
    for (const r of rows) counts[r.state] = r.n;
    return counts;
  };
  type TaskRow = { id: number; company_id: number; company_name: string; message: string; created_by_name: string; create_time: number; expire_time: number };
  const taskView = (t: TaskRow, now: number) => {
    const p = JSON.parse(t.message) as VoicePayload;
    return {
      id: t.id, companyId: t.company_id, companyName: t.company_name, text: p.text, types: p.types, templateId: p.templateId,
      createdByName: t.created_by_name, createTime: t.create_time, expireTime: t.expire_time, expired: t.expire_time <= now, counts: taskCounts(t.id, now),
    };
  };
  function taskIn(scope: Scope, id: number): TaskRow {
    tasks.view(scope, id, VoiceMessages.taskNotFound); // 404 outside the scope
    return db.prepare('SELECT t.*, c.name AS company_name FROM voice_task t JOIN company c ON c.id = t.company_id WHERE t.id = ?').get(id) as TaskRow;
  }

  app.post('/service-command/voice/save', {
    config: { permission: `${SEND_PAGE}:send` },
    schema: {
      body: Strict({
        vehicleIds: Type.Array(Id, { minItems: 1, maxItems: VEHICLE_IDS_SCHEMA_MAX, uniqueItems: true }),
        text: Type.Optional(Type.String({ maxLength: TEXT_MAX })),
        templateId: Type.Optional(Id),
        types: Type.Array(TypeField, { minItems: 1, maxItems: 4, uniqueItems: true }),
        validMinutes: Type.Integer({ minimum: 1, maximum: VALID_MINUTES_MAX, default: VALID_MINUTES_DEFAULT }),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    if (b.vehicleIds.length > TASK_VEHICLES_MAX) throw badField('vehicleIds', VoiceMessages.tooManyVehicles(b.vehicleIds.length), 'maxItems');
    const typed = b.text?.trim() ?? '';
    if ((typed === '') === (b.templateId === undefined)) throw badField(b.templateId === undefined ? 'text' : 'templateId', VoiceMessages.textOrTemplate, 'required');
    const text = b.templateId !== undefined ? checkText('templateId', templateIn(ctx.scope, b.templateId, 'templateId').content) : checkText('text', typed);
    const vehicles = await vehiclesIn(ctx.scope, b.vehicleIds);
    const payload: VoicePayload = { text, types: b.types, flags: b.types.reduce((f, t) => f | TEXT_FLAGS[t], 0), templateId: b.templateId ?? null };
    const id = tasks.create(ctx.user.companyId, payload, vehicles, userOf(ctx), b.validMinutes * 60_000);
    return ok(taskView(taskIn(ctx.scope, id), Date.now()), requestLang(request));
  });

  app.get('/service-command/voice/searchBatchDistribute', {
    config: { permission: [LOG_PAGE, SEND_PAGE] },
    schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Type.String({ maxLength: 50 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const cond = scopeCondition(await narrowedScope(storage, ctx, q.companyId), 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    const kw = q.keyword?.trim();
    if (kw) { where.push("json_extract(t.message, '$.text') LIKE ? ESCAPE '\\'"); params.push(like(kw)); }
    const sql = `FROM voice_task t JOIN company c ON c.id = t.company_id WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`SELECT t.*, c.name AS company_name ${sql} ORDER BY t.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as TaskRow[];
    const now = Date.now();
    return ok({ records: rows.map((r) => taskView(r, now)), total, current: q.current, size: q.size }, requestLang(request));
  });

  const StateField = Type.Union(VOICE_STATES.map((s) => Type.Literal(s)));
  type VehicleRow = { taskId: number; vehicleId: number; vehiidno: string; state: VoiceVehicleState; result: number | null; updateTime: number; text: string; createTime: number; expireTime: number; createdByName: string; companyName: string };
  function vehicleRows(scope: Scope, filter: { taskId?: number; state?: VoiceVehicleState; keyword?: string }, current: number, size: number) {
    const now = Date.now();
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    if (filter.taskId !== undefined) { where.push('tv.task_id = ?'); params.push(filter.taskId); }
    if (filter.state) { where.push(`${SHOWN_STATE} = ?`); params.push(now, filter.state); }
    const kw = filter.keyword?.trim();
    if (kw) { where.push("tv.vehiidno LIKE ? ESCAPE '\\'"); params.push(like(kw)); }
    const sql = `FROM voice_task_vehicle tv JOIN voice_task t ON t.id = tv.task_id JOIN company c ON c.id = t.company_id WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
    const records = db.prepare(`SELECT tv.task_id AS taskId, tv.vehicle_id AS vehicleId, tv.vehiidno, ${SHOWN_STATE} AS state, tv.result, tv.update_time AS updateTime,
        json_extract(t.message, '$.text') AS text, t.create_time AS createTime, t.expire_time AS expireTime, t.created_by_name AS createdByName, c.name AS companyName
      ${sql} ORDER BY tv.task_id DESC, tv.rowid LIMIT ? OFFSET ?`).all(now, ...params, size, (current - 1) * size) as VehicleRow[];
    return { records, total, current, size };
  }

  // One task with its vehicles (the log's detail).
  app.get('/service-command/voice/searchBatchDistributeLog', {
    config: { permission: [LOG_PAGE, SEND_PAGE] },
    schema: { querystring: Strict({ id: Id, ...PageFields, state: Type.Optional(StateField) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const task = taskView(taskIn(ctx.scope, q.id), Date.now());
    return ok({ task, ...vehicleRows(ctx.scope, { taskId: q.id, state: q.state }, q.current, q.size) }, requestLang(request));
  });

  // Every vehicle row across tasks (by plate, by state).
  app.get('/service-command/voice/searchBatchDistributeLog2', {
    config: { permission: LOG_PAGE },
    schema: { querystring: Strict({ ...PageFields, state: Type.Optional(StateField), keyword: Type.Optional(Type.String({ maxLength: 50 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    return ok(vehicleRows(await narrowedScope(storage, ctx, q.companyId), { state: q.state, keyword: q.keyword }, q.current, q.size), requestLang(request));
  });

  /**
   * Withdraw a dispatch: its vehicles still waiting become cancelled and are never sent, also when their
   * terminal comes back (the queue delivers only 'queued' rows, read again before each send). Sent
   * vehicles are past withdrawing: the terminal has shown or spoken the text.
   */
  app.post('/service-command/voice/disable', {
    config: { permission: `${LOG_PAGE}:disable` },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const t = taskIn(ctx.scope, request.query.id);
    const now = Date.now();
    if (t.expire_time <= now) throw new AppError(ErrorCode.Conflict, VoiceMessages.nothingWaiting);
    const changed = db.prepare("UPDATE voice_task_vehicle SET state = 'cancelled', update_time = ? WHERE task_id = ? AND state = 'queued'").run(now, t.id).changes;
    if (changed === 0) throw new AppError(ErrorCode.Conflict, VoiceMessages.nothingWaiting);
    return ok(taskView(t, now), requestLang(request));
  });
}
