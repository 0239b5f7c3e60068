/**
 * Accident analysis (issue 19): /safeManagement/accidentAnalysis/manualProcessing (file an accident for a
 * vehicle and a time, link that vehicle's stored alarms around it, see its photos, recordings and track) and
 * /accidentPublicity (publish a closed accident as a safety-education case to chosen companies, evidence files
 * uploaded one at a time, unpublish). Calls under service-crm `accident/*` (the catalogue names page, detail,
 * publish, upload; the rest are designed here); contract `api.md`, rules `domain/accidents/`, migration 50.
 *
 * Scoping: an accident belongs to the company of its vehicle when filed; only callers whose subtree holds it
 * read its alarms, media and track, edit, delete, publish or upload. A published case is also read (case,
 * summary, evidence) by the users of the companies it was published to, and of their sub-companies.
 */
import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import { Type } from '@fastify/type-provider-typebox';
import {
  ACCIDENT_LEVELS, ACCIDENT_LIMITS as L, ACCIDENT_STATES, ACCIDENT_TYPES, alarmWindow, canPublish, checkAccident, impliedLevel, problemText,
  RESPONSIBILITIES, type AccidentLevel, type AccidentState, type AccidentType, type Responsibility,
} from '../../../domain/accidents/rules.ts';
import { EVIDENCE_FILES_MAX, EVIDENCE_MAX_BYTES, EVIDENCE_MIME, EVIDENCE_SNIFF_BYTES, sniffEvidence, type EvidenceKind } from '../../../domain/accidents/evidence.ts';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { LIST_LIMITS } from '../../../domain/management/limits.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathRange, scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { readSingleFileUpload } from '../../http/single-file-upload.ts';
import { EpochMs, Id, PageFields, Strict, Text, type App } from '../../http/route.ts';

export const MANUAL_PAGE = '/safeManagement/accidentAnalysis/manualProcessing' as const;
export const PUBLICITY_PAGE = '/safeManagement/accidentAnalysis/accidentPublicity' as const;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const AccidentMessages = {
  notFound: pair('事故不存在或不在权限范围内', 'No such accident in your companies'),
  noVehicle: pair('车辆不存在或不在权限范围内', 'No such vehicle in your companies'),
  noDriver: pair('司机不存在或不在权限范围内', 'No such driver in your companies'),
  noCompany: pair('单位不存在或不在权限范围内', 'No such company in your companies'),
  noFile: pair('证据文件不存在', 'No such evidence file'),
  alarmNotLinked: (minutes: number) => pair(`告警不属于该车辆，或不在事故时间前后 ${minutes} 分钟内`, `An alarm is not this vehicle's or not within ${minutes} minutes of the accident time`),
  published: pair('事故已公示，请先取消公示再修改或删除', 'The accident is published: unpublish it before editing or deleting it'),
  notClosed: pair('只有已结案的事故可以公示', 'Only a closed accident can be published'),
  notPublished: pair('事故未公示', 'The accident is not published'),
  titleRequired: pair('请填写案例标题', 'Enter the case title'),
  summaryRequired: pair('请填写案例摘要', 'Enter the case summary'),
  tooManyFiles: pair(`一个事故最多上传 ${EVIDENCE_FILES_MAX} 个证据文件`, `At most ${EVIDENCE_FILES_MAX} evidence files per accident`),
  notMultipart: pair('请以 multipart/form-data 上传证据文件（字段 file）', 'Upload the file as multipart/form-data (field "file")'),
  noUpload: pair('请选择证据文件', 'Choose the evidence file'),
  oneFile: pair('一次只能上传一个文件', 'Upload one file at a time'),
  tooBig: pair(`证据文件不能超过 ${EVIDENCE_MAX_BYTES / 1024 / 1024} MiB`, `The evidence file must be at most ${EVIDENCE_MAX_BYTES / 1024 / 1024} MiB`),
  notEvidence: pair('文件内容不是 JPEG、PNG 图片、MP4 视频或 PDF 文档', 'The file is not a JPEG or PNG image, MP4 video or PDF document (read from its content)'),
  unknownPart: (name: string): Message => pair(`未知字段 ${name}`, `Unknown field ${name}`),
  badUpload: pair('上传内容无法解析', 'The upload could not be read'),
} as const;

const MULTIPART_LIMITS = { fileSize: EVIDENCE_MAX_BYTES, files: 2, fields: 2, parts: 4, fieldNameSize: 64, fieldSize: 200, headerPairs: 20 } as const;
const like = (kw: string) => `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const union = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const People = Type.Integer({ minimum: 0, maximum: L.peopleMax });

/** The fields of a save and an update (the vehicle is chosen once, at filing). */
const Fields = {
  time: EpochMs,
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  place: Text(L.placeMax),
  type: union(ACCIDENT_TYPES),
  level: Type.Optional(union(ACCIDENT_LEVELS)),
  lightInjuries: Type.Optional(People),
  seriousInjuries: Type.Optional(People),
  deaths: Type.Optional(People),
  propertyLoss: Type.Optional(Type.Integer({ minimum: 0, maximum: L.lossMax })),
  responsibility: Type.Optional(union(RESPONSIBILITIES)),
  state: Type.Optional(union(ACCIDENT_STATES)),
  description: Type.Optional(Text(L.descriptionMax)),
  driverId: Type.Optional(Id),
  driverName: Type.Optional(Text(L.textMax)),
  frameNo: Type.Optional(Text(L.vinMax)),
  sourceProject: Type.Optional(Text(L.textMax)),
  windowMinutes: Type.Optional(Type.Integer({ minimum: L.windowMinutesMin, maximum: L.windowMinutesMax })),
  alarmIds: Type.Optional(Type.Array(Id, { maxItems: L.linkedAlarmsMax, uniqueItems: true })),
};
interface FieldValues {
  time: number; lng: number; lat: number; place: string; type: AccidentType; level?: AccidentLevel;
  lightInjuries?: number; seriousInjuries?: number; deaths?: number; propertyLoss?: number;
  responsibility?: Responsibility; state?: AccidentState; description?: string; driverId?: number; driverName?: string;
  frameNo?: string; sourceProject?: string; windowMinutes?: number; alarmIds?: number[];
}

interface AccidentRow {
  id: number; company_id: number; company_name: string; company_path: string; vehicle_id: number | null; plate: string; vin: string; frame_no: string;
  source_project: string; driver_id: number | null; driver_name: string; time: number; lng: number; lat: number; place: string; type: AccidentType;
  level: AccidentLevel; light_injuries: number; serious_injuries: number; deaths: number; property_loss: number; responsibility: Responsibility;
  description: string; state: AccidentState; window_minutes: number; created_by_name: string; create_time: number; updated_by_name: string;
  update_time: number; alarm_count: number; file_count: number; published: number;
}
const SELECT = `SELECT a.*, c.name AS company_name, c.path AS company_path,
  (SELECT count(*) FROM accident_alarm aa WHERE aa.accident_id = a.id) AS alarm_count,
  (SELECT count(*) FROM accident_file f WHERE f.accident_id = a.id) AS file_count,
  EXISTS (SELECT 1 FROM accident_publicity p WHERE p.accident_id = a.id) AS published
  FROM accident a JOIN company c ON c.id = a.company_id`;

const view = (r: AccidentRow) => ({
  id: r.id, companyId: r.company_id, companyName: r.company_name, vehicleId: r.vehicle_id, plate: r.plate, vin: r.vin, frameNo: r.frame_no,
  sourceProject: r.source_project, driverId: r.driver_id, driverName: r.driver_name, time: r.time, lng: r.lng, lat: r.lat, place: r.place,
  type: r.type, level: r.level, impliedLevel: impliedLevel({ lightInjuries: r.light_injuries, seriousInjuries: r.serious_injuries, deaths: r.deaths, propertyLoss: r.property_loss }),
  lightInjuries: r.light_injuries, seriousInjuries: r.serious_injuries, deaths: r.deaths, propertyLoss: r.property_loss,
  responsibility: r.responsibility, description: r.description, state: r.state, windowMinutes: r.window_minutes,
  alarmCount: r.alarm_count, fileCount: r.file_count, published: r.published === 1,
  createdByName: r.created_by_name, createTime: r.create_time, updatedByName: r.updated_by_name, updateTime: r.update_time,
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Evidence files no accident names any more, removed (answers how many). */
    accidentFiles: { sweep(): number };
  }
}

/** On a shared folder, how long an evidence file no row names yet is left alone by the sweep (an upload on another node). */
export const UNNAMED_GRACE_MS = 10 * 60_000;

export interface AccidentDeps {
  readonly storage: Storage;
  /** Where evidence files are kept (config.ts `sharedFilesDirOf`: the shared mount in scale-out). */
  readonly filesDir: string;
  /**
   * Several nodes share the folder (issue 20): the sweep leaves an unnamed file younger than UNNAMED_GRACE_MS, which
   * may be another node's upload between its rename and its row. @default false
   */
  readonly shared?: boolean;
  /** The server's clock (tests pin it). */
  readonly clock?: () => number;
}

export function accidentRoutes(app: App, deps: AccidentDeps): void {
  const db = (deps.storage as SqliteStorage).db;
  const { storage } = deps;
  const clock = deps.clock ?? Date.now;
  const dir = deps.filesDir;
  const fileOf = (sha256: string) => path.join(dir, sha256);
  const who = (ctx: AuthContext) => ctx.user.realName || ctx.user.username;

  /** An accident of the caller's subtree (edit, delete, publish, its alarms and media), else 404. */
  function own(scope: Scope, id: number): AccidentRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`${SELECT} WHERE a.id = ? AND ${cond.sql}`).get(id, ...cond.params) as AccidentRow | undefined;
    if (!row) throw fail.notFound(AccidentMessages.notFound);
    return row;
  }
  /** Whether a published case reaches the caller: a chosen company holds the caller's, or lies in the caller's subtree. */
  const sharedCond = (scope: Scope): { sql: string; params: string[] } => {
    if (scope.all) return { sql: 'EXISTS (SELECT 1 FROM accident_publicity p WHERE p.accident_id = a.id)', params: [] };
    // The caller's subtree range from the shared helper (db/scope.ts), never a hand-built one.
    const [lo, hi] = pathRange(scope.rootPath);
    return {
      sql: `EXISTS (SELECT 1 FROM accident_publicity_company pc JOIN company pcc ON pcc.id = pc.company_id WHERE pc.accident_id = a.id
        AND (substr(?, 1, length(pcc.path)) = pcc.path OR (pcc.path >= ? AND pcc.path < ?)))`,
      params: [scope.rootPath, lo, hi],
    };
  };
  /** An accident the caller reads: its own, or a case published to it. */
  function visible(scope: Scope, id: number): { row: AccidentRow; own: boolean } {
    const cond = scopeCondition(scope, 'c');
    const shared = sharedCond(scope);
    const row = db.prepare(`SELECT x.*, (${cond.sql}) AS own_row FROM (${SELECT} WHERE a.id = ? AND (${cond.sql} OR ${shared.sql})) x JOIN company c ON c.id = x.company_id`)
      .get(...cond.params, id, ...cond.params, ...shared.params) as (AccidentRow & { own_row: number }) | undefined;
    if (!row) throw fail.notFound(AccidentMessages.notFound);
    return { row, own: row.own_row === 1 };
  }

  function vehicleIn(scope: Scope, vehicleId: number) {
    const cond = scopeCondition(scope, 'c');
    const v = db.prepare(`SELECT v.id, v.vehiidno, v.vin, v.company_id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.id = ? AND ${cond.sql}`)
      .get(vehicleId, ...cond.params) as { id: number; vehiidno: string; vin: string; company_id: number } | undefined;
    if (!v) throw fail.notFound(AccidentMessages.noVehicle);
    return v;
  }

  /** Stored alarms of the vehicle overlapping the window (raised before its end, not ended before its start). */
  function alarmsAround(vehicleId: number, time: number, minutes: number, lang: 'zh' | 'en') {
    const w = alarmWindow(time, minutes);
    const rows = db.prepare(`SELECT id, alarm_type, source, start_time, end_time, lng, lat, speed, risk_level, driver_name, deal_status FROM alarm
      WHERE vehicle_id = ? AND start_time <= ? AND COALESCE(end_time, last_time) >= ? ORDER BY start_time LIMIT 500`).all(vehicleId, w.to, w.from) as
      { id: number; alarm_type: number; source: string; start_time: number; end_time: number | null; lng: number; lat: number; speed: number; risk_level: string; driver_name: string; deal_status: number }[];
    return rows.map((r) => ({
      id: r.id, alarmType: r.alarm_type, alarmName: alarmName(r.alarm_type, lang), source: r.source, startTime: r.start_time, endTime: r.end_time,
      lng: r.lng, lat: r.lat, speed: r.speed, riskLevel: r.risk_level, driverName: r.driver_name, dealStatus: r.deal_status,
    }));
  }

  /** Checks a save's fields against the domain rules; answers the values to store. */
  function checked(ctx: AuthContext, b: FieldValues, vehicleId: number, previous: AccidentRow | undefined) {
    const values = {
      time: b.time, lng: b.lng, lat: b.lat, place: b.place.trim(), type: b.type,
      lightInjuries: b.lightInjuries ?? 0, seriousInjuries: b.seriousInjuries ?? 0, deaths: b.deaths ?? 0, propertyLoss: b.propertyLoss ?? 0,
      responsibility: b.responsibility ?? 'pending', state: b.state ?? previous?.state ?? 'reported', description: (b.description ?? '').trim(),
      frameNo: (b.frameNo ?? '').trim().toUpperCase(), sourceProject: (b.sourceProject ?? '').trim(),
      windowMinutes: b.windowMinutes ?? L.windowMinutesDefault,
      level: 'minor' as AccidentLevel, driverId: null as number | null, driverName: (b.driverName ?? '').trim(),
    };
    // Without a level the counts decide it; with one it may not be below them.
    values.level = b.level ?? impliedLevel(values);
    const problems = checkAccident(values, clock(), previous?.state);
    if (problems.length > 0) {
      const first = problems[0]!;
      throw badField(first.field, (lang) => problemText(first, lang), first.code);
    }
    if (b.driverId !== undefined) {
      const cond = scopeCondition(ctx.scope, 'c');
      const d = db.prepare(`SELECT d.id, d.name FROM driver d JOIN company c ON c.id = d.company_id WHERE d.id = ? AND ${cond.sql}`).get(b.driverId, ...cond.params) as { id: number; name: string } | undefined;
      if (!d) throw badField('driverId', AccidentMessages.noDriver, 'notFound');
      values.driverId = d.id;
      values.driverName = d.name;
    }
    const alarmIds = b.alarmIds ?? [];
    if (alarmIds.length > 0) {
      const w = alarmWindow(values.time, values.windowMinutes);
      const ok = new Set((db.prepare(`SELECT id FROM alarm WHERE vehicle_id = ? AND start_time <= ? AND COALESCE(end_time, last_time) >= ? AND id IN (${alarmIds.map(() => '?').join(',')})`)
        .all(vehicleId, w.to, w.from, ...alarmIds) as { id: number }[]).map((r) => r.id));
      if (alarmIds.some((id) => !ok.has(id))) throw badField('alarmIds', AccidentMessages.alarmNotLinked(values.windowMinutes), 'outsideWindow');
    }
    return { values, alarmIds };
  }

  function linkAlarms(accidentId: number, alarmIds: readonly number[]) {
    db.prepare('DELETE FROM accident_alarm WHERE accident_id = ?').run(accidentId);
    const insert = db.prepare('INSERT INTO accident_alarm (accident_id, alarm_id) VALUES (?, ?)');
    for (const id of alarmIds) insert.run(accidentId, id);
  }

  // ---- Manual processing ---------------------------------------------------------------------
  app.post('/service-crm/accident/page', {
    config: { permission: MANUAL_PAGE },
    schema: { body: Strict({
      ...PageFields,
      keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)),
      type: Type.Optional(union(ACCIDENT_TYPES)),
      level: Type.Optional(union(ACCIDENT_LEVELS)),
      state: Type.Optional(union(ACCIDENT_STATES)),
      vehicleId: Type.Optional(Id),
      /** Accidents that link this alarm (the demo officer asks before filing one, so a restart never refiles it). */
      alarmId: Type.Optional(Id),
      startTime: Type.Optional(EpochMs),
      endTime: Type.Optional(EpochMs),
    }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body as { current: number; size: number; keyword?: string; type?: string; level?: string; state?: string; vehicleId?: number; alarmId?: number; startTime?: number; endTime?: number; companyId?: number };
    const scope = await narrowedScope(storage, ctx, b.companyId);
    const cond = scopeCondition(scope, 'c');
    const where = [cond.sql];
    const params: unknown[] = [...cond.params];
    const kw = b.keyword?.trim();
    if (kw) { where.push("(a.plate LIKE ? ESCAPE '\\' OR a.place LIKE ? ESCAPE '\\' OR a.driver_name LIKE ? ESCAPE '\\')"); params.push(like(kw), like(kw), like(kw)); }
    for (const [col, v] of [['a.type', b.type], ['a.level', b.level], ['a.state', b.state], ['a.vehicle_id', b.vehicleId]] as const) {
      if (v !== undefined) { where.push(`${col} = ?`); params.push(v); }
    }
    if (b.alarmId !== undefined) { where.push('EXISTS (SELECT 1 FROM accident_alarm aa WHERE aa.accident_id = a.id AND aa.alarm_id = ?)'); params.push(b.alarmId); }
    if (b.startTime !== undefined) { where.push('a.time >= ?'); params.push(b.startTime); }
    if (b.endTime !== undefined) { where.push('a.time <= ?'); params.push(b.endTime); }
    const sql = `${SELECT} WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n FROM accident a JOIN company c ON c.id = a.company_id WHERE ${where.join(' AND ')}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`${sql} ORDER BY a.time DESC, a.id DESC LIMIT ? OFFSET ?`).all(...params, b.size, (b.current - 1) * b.size) as AccidentRow[];
    return ok({ records: rows.map(view), total, current: b.current, size: b.size }, requestLang(request));
  });

  // The alarms an officer may link: that vehicle's, overlapping ± windowMinutes around the time.
  app.get('/service-crm/accident/alarms', {
    config: { permission: [`${MANUAL_PAGE}:create`, `${MANUAL_PAGE}:update`] },
    schema: { querystring: Strict({ vehicleId: Id, time: EpochMs, windowMinutes: Type.Optional(Type.Integer({ minimum: L.windowMinutesMin, maximum: L.windowMinutesMax })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query as { vehicleId: number; time: number; windowMinutes?: number };
    const v = vehicleIn(ctx.scope, q.vehicleId);
    const minutes = q.windowMinutes ?? L.windowMinutesDefault;
    return ok({ vehicleId: v.id, plate: v.vehiidno, ...alarmWindow(q.time, minutes), alarms: alarmsAround(v.id, q.time, minutes, requestLang(request)) }, requestLang(request));
  });

  app.get('/service-crm/accident/detail', {
    config: { permission: [MANUAL_PAGE, PUBLICITY_PAGE] },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const { row, own: mine } = visible(ctx.scope, (request.query as { id: number }).id);
    const pub = db.prepare('SELECT * FROM accident_publicity WHERE accident_id = ?').get(row.id) as { title: string; summary: string; published_by_name: string; publish_time: number } | undefined;
    const companies = pub ? db.prepare('SELECT c.id, c.name FROM accident_publicity_company pc JOIN company c ON c.id = pc.company_id WHERE pc.accident_id = ? ORDER BY c.path').all(row.id) as { id: number; name: string }[] : [];
    const files = (db.prepare('SELECT * FROM accident_file WHERE accident_id = ? ORDER BY id').all(row.id) as { id: number; file_name: string; kind: EvidenceKind; size: number; uploaded_by_name: string; upload_time: number }[])
      .map((f) => ({ id: f.id, fileName: f.file_name, kind: f.kind, size: f.size, uploadedByName: f.uploaded_by_name, uploadTime: f.upload_time, url: `/service-crm/accident/file?id=${f.id}` }));
    const publicity = pub ? { title: pub.title, summary: pub.summary, publishedByName: pub.published_by_name, publishTime: pub.publish_time, companies } : null;
    // A case published to another company shows the case, not the owner's alarms, media or track.
    if (!mine) return ok({ ...view(row), own: false, publicity, files, alarms: [], media: [], recordings: [], track: null }, lang);
    const w = alarmWindow(row.time, row.window_minutes);
    const linked = new Set((db.prepare('SELECT alarm_id FROM accident_alarm WHERE accident_id = ?').all(row.id) as { alarm_id: number }[]).map((r) => r.alarm_id));
    const linkedRows = linked.size === 0 ? [] : (db.prepare(`SELECT id, alarm_type, source, start_time, end_time, lng, lat, speed, risk_level, driver_name, deal_status FROM alarm WHERE id IN (${[...linked].map(() => '?').join(',')}) ORDER BY start_time`)
      .all(...linked) as { id: number; alarm_type: number; source: string; start_time: number; end_time: number | null; lng: number; lat: number; speed: number; risk_level: string; driver_name: string; deal_status: number }[])
      .map((r) => ({ id: r.id, alarmType: r.alarm_type, alarmName: alarmName(r.alarm_type, lang), source: r.source, startTime: r.start_time, endTime: r.end_time, lng: r.lng, lat: r.lat, speed: r.speed, riskLevel: r.risk_level, driverName: r.driver_name, dealStatus: r.deal_status }));
    const media = row.vehicle_id === null ? [] : (db.prepare('SELECT id, media_type, format, channel, capture_time, alarm_id, event_code FROM media_item WHERE vehicle_id = ? AND capture_time BETWEEN ? AND ? ORDER BY capture_time LIMIT 200')
      .all(row.vehicle_id, w.from, w.to) as { id: number; media_type: number; format: number; channel: number; capture_time: number; alarm_id: number | null; event_code: number }[])
      .map((m) => ({ id: m.id, mediaType: m.media_type, format: m.format, channel: m.channel, captureTime: m.capture_time, alarmId: m.alarm_id, eventCode: m.event_code, url: `/service-priv/media/file/${m.id}` }));
    const recordings = row.vehicle_id === null ? [] : (db.prepare(`SELECT r.id, r.channel, r.start_time, r.end_time, r.state, (SELECT count(*) FROM recording_upload_file f WHERE f.task_id = r.id) AS files
      FROM recording_upload r WHERE r.vehicle_id = ? AND r.start_time <= ? AND r.end_time >= ? ORDER BY r.start_time LIMIT 200`).all(row.vehicle_id, w.to, w.from) as { id: number; channel: number; start_time: number; end_time: number; state: string; files: number }[])
      .map((r) => ({ id: r.id, channel: r.channel, startTime: r.start_time, endTime: r.end_time, state: r.state, files: r.files }));
    const track = row.vehicle_id === null ? null : { vehicleId: row.vehicle_id, plate: row.plate, startTime: w.from, endTime: w.to };
    return ok({ ...view(row), own: true, publicity, files, alarms: linkedRows, media, recordings, track }, lang);
  });

  app.post('/service-crm/accident/save', {
    config: { permission: `${MANUAL_PAGE}:create` },
    schema: { body: Strict({ vehicleId: Id, ...Fields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body as FieldValues & { vehicleId: number };
    const v = vehicleIn(ctx.scope, b.vehicleId);
    const { values: x, alarmIds } = checked(ctx, b, v.id, undefined);
    const now = clock();
    const id = await storage.transaction(async () => {
      const id = Number(db.prepare(`INSERT INTO accident (company_id, vehicle_id, plate, vin, frame_no, source_project, driver_id, driver_name, time, lng, lat, place, type, level,
        light_injuries, serious_injuries, deaths, property_loss, responsibility, description, state, window_minutes, created_by_id, created_by_name, create_time, updated_by_name, update_time)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        v.company_id, v.id, v.vehiidno, v.vin, x.frameNo || v.vin, x.sourceProject, x.driverId, x.driverName, x.time, x.lng, x.lat, x.place, x.type, x.level,
        x.lightInjuries, x.seriousInjuries, x.deaths, x.propertyLoss, x.responsibility, x.description, x.state, x.windowMinutes, ctx.user.id, who(ctx), now, who(ctx), now,
      ).lastInsertRowid);
      linkAlarms(id, alarmIds);
      return id;
    });
    return ok(view(own(ctx.scope, id)), requestLang(request));
  });

  app.put('/service-crm/accident/update', {
    config: { permission: `${MANUAL_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...Fields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body as FieldValues & { id: number };
    const row = own(ctx.scope, b.id);
    if (row.published === 1) throw fail.badRequest(AccidentMessages.published);
    const { values: x, alarmIds } = checked(ctx, b, row.vehicle_id ?? 0, row);
    await storage.transaction(async () => {
      db.prepare(`UPDATE accident SET frame_no = ?, source_project = ?, driver_id = ?, driver_name = ?, time = ?, lng = ?, lat = ?, place = ?, type = ?, level = ?,
        light_injuries = ?, serious_injuries = ?, deaths = ?, property_loss = ?, responsibility = ?, description = ?, state = ?, window_minutes = ?, updated_by_name = ?, update_time = ? WHERE id = ?`).run(
        x.frameNo || row.frame_no, x.sourceProject, x.driverId ?? (x.driverName === row.driver_name ? row.driver_id : null), x.driverName, x.time, x.lng, x.lat, x.place, x.type, x.level,
        x.lightInjuries, x.seriousInjuries, x.deaths, x.propertyLoss, x.responsibility, x.description, x.state, x.windowMinutes, who(ctx), clock(), row.id,
      );
      // Without alarmIds the links stay; with them (even empty) they are the officer's new choice.
      if (b.alarmIds !== undefined) linkAlarms(row.id, alarmIds);
    });
    return ok(view(own(ctx.scope, row.id)), requestLang(request));
  });

  app.delete('/service-crm/accident/delete', {
    config: { permission: `${MANUAL_PAGE}:delete` },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 100, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    // Every id is checked before anything is deleted: one refusal deletes none.
    const rows = (request.body as { ids: number[] }).ids.map((id) => own(ctx.scope, id));
    if (rows.some((r) => r.published === 1)) throw fail.badRequest(AccidentMessages.published);
    const shas = rows.flatMap((r) => (db.prepare('SELECT sha256 FROM accident_file WHERE accident_id = ?').all(r.id) as { sha256: string }[]).map((f) => f.sha256));
    await storage.transaction(async () => { for (const r of rows) db.prepare('DELETE FROM accident WHERE id = ?').run(r.id); });
    removeUnusedFiles(shas);
    return ok({ deleted: rows.length }, requestLang(request));
  });

  // ---- Publicity -----------------------------------------------------------------------------
  // Closed accidents of the caller's subtree (published or not: the ones it may publish) and the cases
  // published to it by others.
  app.post('/service-crm/accident/publicity/page', {
    config: { permission: PUBLICITY_PAGE },
    schema: { body: Strict({ ...PageFields, keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)), published: Type.Optional(Type.Boolean()) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body as { current: number; size: number; keyword?: string; published?: boolean; companyId?: number };
    const scope = await narrowedScope(storage, ctx, b.companyId);
    const cond = scopeCondition(scope, 'c');
    const shared = sharedCond(scope);
    const where = [`((${cond.sql} AND a.state = 'closed') OR ${shared.sql})`];
    const params: unknown[] = [...cond.params, ...shared.params];
    const kw = b.keyword?.trim();
    if (kw) { where.push("(a.plate LIKE ? ESCAPE '\\' OR a.place LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM accident_publicity p WHERE p.accident_id = a.id AND p.title LIKE ? ESCAPE '\\'))"); params.push(like(kw), like(kw), like(kw)); }
    if (b.published !== undefined) where.push(`${b.published ? '' : 'NOT '}EXISTS (SELECT 1 FROM accident_publicity p WHERE p.accident_id = a.id)`);
    const total = (db.prepare(`SELECT count(*) AS n FROM accident a JOIN company c ON c.id = a.company_id WHERE ${where.join(' AND ')}`).get(...params) as { n: number }).n;
    // One query for the page: the case's publicity and whether the caller owns it come with each row.
    const ownCond = scopeCondition(ctx.scope, 'c');
    const rows = db.prepare(`SELECT x.*, pub.title AS pub_title, pub.summary AS pub_summary, pub.published_by_name AS pub_by, pub.publish_time AS pub_time, (${ownCond.sql}) AS own_row
      FROM (${SELECT} WHERE ${where.join(' AND ')} ORDER BY a.time DESC, a.id DESC LIMIT ? OFFSET ?) x
      JOIN company c ON c.id = x.company_id LEFT JOIN accident_publicity pub ON pub.accident_id = x.id ORDER BY x.time DESC, x.id DESC`)
      .all(...ownCond.params, ...params, b.size, (b.current - 1) * b.size) as (AccidentRow & { pub_title: string | null; pub_summary: string | null; pub_by: string | null; pub_time: number | null; own_row: number })[];
    const records = rows.map((r) => ({
      ...view(r), own: r.own_row === 1, title: r.pub_title ?? '', summary: r.pub_summary ?? '', publishedByName: r.pub_by ?? '', publishTime: r.pub_time,
    }));
    return ok({ records, total, current: b.current, size: b.size }, requestLang(request));
  });

  app.post('/service-crm/accident/publish', {
    config: { permission: `${PUBLICITY_PAGE}:publish` },
    schema: { body: Strict({ id: Id, title: Text(L.titleMax), summary: Text(L.summaryMax), companyIds: Type.Array(Id, { minItems: 1, maxItems: L.publishCompaniesMax, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body as { id: number; title: string; summary: string; companyIds: number[] };
    const row = own(ctx.scope, b.id);
    if (!canPublish(row.state)) throw badField('state', AccidentMessages.notClosed, 'notClosed');
    const title = b.title.trim();
    const summary = b.summary.trim();
    if (!title) throw badField('title', AccidentMessages.titleRequired, 'required');
    if (!summary) throw badField('summary', AccidentMessages.summaryRequired, 'required');
    const cond = scopeCondition(ctx.scope, 'c');
    for (const cid of b.companyIds) {
      if (!db.prepare(`SELECT 1 FROM company c WHERE c.id = ? AND ${cond.sql}`).get(cid, ...cond.params)) throw badField('companyIds', AccidentMessages.noCompany, 'notFound');
    }
    await storage.transaction(async () => {
      db.prepare(`INSERT INTO accident_publicity (accident_id, title, summary, published_by_name, publish_time) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (accident_id) DO UPDATE SET title = excluded.title, summary = excluded.summary, published_by_name = excluded.published_by_name, publish_time = excluded.publish_time`)
        .run(row.id, title, summary, who(ctx), clock());
      db.prepare('DELETE FROM accident_publicity_company WHERE accident_id = ?').run(row.id);
      const insert = db.prepare('INSERT INTO accident_publicity_company (accident_id, company_id) VALUES (?, ?)');
      for (const cid of b.companyIds) insert.run(row.id, cid);
    });
    return ok(view(own(ctx.scope, row.id)), requestLang(request));
  });

  app.post('/service-crm/accident/unpublish', {
    config: { permission: `${PUBLICITY_PAGE}:unpublish` },
    schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = own(ctx.scope, (request.body as { id: number }).id);
    if (row.published !== 1) throw fail.badRequest(AccidentMessages.notPublished);
    await storage.transaction(async () => { db.prepare('DELETE FROM accident_publicity WHERE accident_id = ?').run(row.id); });
    return ok(view(own(ctx.scope, row.id)), requestLang(request));
  });

  function removeUnusedFiles(shas: readonly string[]) {
    for (const sha of new Set(shas)) {
      if (!db.prepare('SELECT 1 FROM accident_file WHERE sha256 = ? LIMIT 1').get(sha)) fs.rmSync(fileOf(sha), { force: true });
    }
  }

  /**
   * Removes stored evidence no row names any more. Rows also go without this module (a deleted company cascades
   * to its accidents and their files), so the sweep runs after a company is deleted, at start and hourly. Only
   * finished files (64 hex digits) are looked at: `.upload-*` files are uploads in progress.
   */
  function sweepFiles(): number {
    let names: string[];
    try { names = fs.readdirSync(dir); } catch { return 0; }
    const used = db.prepare('SELECT 1 FROM accident_file WHERE sha256 = ? LIMIT 1');
    let removed = 0;
    const youngerThan = clock() - UNNAMED_GRACE_MS;
    for (const name of names) {
      if (!/^[0-9a-f]{64}$/.test(name) || used.get(name)) continue;
      if (deps.shared && (fs.statSync(fileOf(name), { throwIfNoEntry: false })?.mtimeMs ?? 0) > youngerThan) continue;
      fs.rmSync(fileOf(name), { force: true });
      removed++;
    }
    return removed;
  }
  app.decorate('accidentFiles', { sweep: sweepFiles });
  app.addHook('onReady', async () => { sweepFiles(); });
  const sweepTimer = setInterval(sweepFiles, 3_600_000);
  sweepTimer.unref();
  app.addHook('onClose', async () => { clearInterval(sweepTimer); });
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'DELETE' && request.routeOptions.url === '/service-priv/company' && reply.statusCode === 200) sweepFiles();
  });

  app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    // One evidence file per call (spec §5), the accident named in the query (`?id=`, the audit trail's target).
    scope.route({
      method: 'POST', url: '/service-crm/accident/upload', config: { permission: `${PUBLICITY_PAGE}:upload` },
      schema: { querystring: Strict({ id: Id }) },
      handler: async (request) => {
        const ctx = auth(request);
        const row = own(ctx.scope, (request.query as { id: number }).id);
        const count = (db.prepare('SELECT count(*) AS n FROM accident_file WHERE accident_id = ?').get(row.id) as { n: number }).n;
        if (count >= EVIDENCE_FILES_MAX) throw badField('file', AccidentMessages.tooManyFiles, 'tooMany');
        const up = await readSingleFileUpload(request, {
          dir, fields: [], limits: MULTIPART_LIMITS, defaultName: 'evidence', headBytes: EVIDENCE_SNIFF_BYTES,
          messages: { notMultipart: AccidentMessages.notMultipart, noFile: AccidentMessages.noUpload, oneFile: AccidentMessages.oneFile, tooBig: AccidentMessages.tooBig, unknownPart: AccidentMessages.unknownPart, badUpload: AccidentMessages.badUpload },
        });
        const kind = sniffEvidence(up.head);
        if (!kind) {
          fs.rmSync(up.tmp, { force: true });
          throw badField('file', AccidentMessages.notEvidence, 'notEvidence');
        }
        const target = fileOf(up.sha256);
        if (fs.existsSync(target)) fs.rmSync(up.tmp, { force: true });
        else fs.renameSync(up.tmp, target);
        // Counted again in the insert's transaction: two uploads at once both passed the count above while their
        // bodies streamed in, and the limit must hold for the second to commit.
        const id = db.transaction(() => {
          const n = (db.prepare('SELECT count(*) AS n FROM accident_file WHERE accident_id = ?').get(row.id) as { n: number }).n;
          if (n >= EVIDENCE_FILES_MAX) return undefined;
          return Number(db.prepare('INSERT INTO accident_file (accident_id, file_name, kind, size, sha256, uploaded_by_name, upload_time) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(row.id, up.fileName.slice(0, 200), kind, up.size, up.sha256, who(ctx), clock()).lastInsertRowid);
        }).immediate();
        if (id === undefined) {
          removeUnusedFiles([up.sha256]);
          throw badField('file', AccidentMessages.tooManyFiles, 'tooMany');
        }
        return ok({ id, accidentId: row.id, fileName: up.fileName.slice(0, 200), kind, size: up.size, url: `/service-crm/accident/file?id=${id}` }, requestLang(request));
      },
    });
  });

  app.get('/service-crm/accident/file', {
    config: { permission: [MANUAL_PAGE, PUBLICITY_PAGE] },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request, reply) => {
    const ctx = auth(request);
    const f = db.prepare('SELECT * FROM accident_file WHERE id = ?').get((request.query as { id: number }).id) as { accident_id: number; kind: EvidenceKind; sha256: string; file_name: string } | undefined;
    if (!f) throw fail.notFound(AccidentMessages.noFile);
    try {
      visible(ctx.scope, f.accident_id);
    } catch (err) {
      if (err instanceof AppError) throw fail.notFound(AccidentMessages.noFile);
      throw err;
    }
    const file = fileOf(f.sha256);
    if (!fs.existsSync(file)) throw fail.notFound(AccidentMessages.noFile);
    return reply.header('content-type', EVIDENCE_MIME[f.kind]).header('content-length', fs.statSync(file).size)
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(f.file_name)}`)
      .header('cache-control', 'no-store').send(fs.createReadStream(file));
  });

  app.delete('/service-crm/accident/file/delete', {
    config: { permission: `${PUBLICITY_PAGE}:deleteFile` },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: EVIDENCE_FILES_MAX, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const files = (request.body as { ids: number[] }).ids.map((id) => {
      const f = db.prepare('SELECT id, accident_id, sha256 FROM accident_file WHERE id = ?').get(id) as { id: number; accident_id: number; sha256: string } | undefined;
      if (!f) throw fail.notFound(AccidentMessages.noFile);
      own(ctx.scope, f.accident_id);
      return f;
    });
    await storage.transaction(async () => { for (const f of files) db.prepare('DELETE FROM accident_file WHERE id = ?').run(f.id); });
    removeUnusedFiles(files.map((f) => f.sha256));
    return ok({ deleted: files.length }, requestLang(request));
  });
}
