/**
 * The photo wall (issue 15; contract: ./api.md): named, saved sets of vehicles and camera channels an
 * operator watches as a grid of their latest photos from the media store (the 0x0801 uploads of
 * server/services/multimedia), with "snap now" (0x8801 through the multimedia service) and "this photo
 * shows a violation" (doAlarm: a manual alarm in the alarm processing list with the photo attached).
 *
 * Scoping: a wall belongs to a company (lists are scoped by it); what a wall SHOWS is scoped by each
 * vehicle's company against the reader's subtree, so a vehicle outside the reader's scope never
 * appears, even when a user with a wider scope saved it on the wall.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Type } from '@fastify/type-provider-typebox';
import { alarmName, byCode } from '../../../domain/alarms/catalogue.ts';
import { defaultRiskLevel } from '../../../domain/alarms/sources.ts';
import { ErrorCode, type Lang } from '../../../domain/errors/catalogue.ts';
import { isOnline } from '../../../domain/vehicle/state.ts';
import { videoChannels } from '../../../domain/video/channels.ts';
import { MAX_LOGICAL_CHANNEL } from '../../../domain/video/limits.ts';
import { alarmPushData } from '../../alarms/service.ts';
import type { Storage } from '../../db/repositories.ts';
import { ALL_COMPANIES, pathInScope, scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { MEDIA_TYPE } from '../../gateway/jt808/multimedia.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { CONTENT_TYPES } from '../multimedia/capture.ts';
import { mediaView } from '../multimedia/index.ts';
import { deviceChannels } from '../video/channels.ts';

/** The wall's screen and its buttons (domain/permissions/registry.ts, ids 350–355). */
export const PHOTOWALL_PAGE = '/monitor/photoWall';
/** Vehicles on one wall: a grid an operator can still read (64 × 4 channels = 256 tiles). */
export const WALL_VEHICLES_MAX = 64;
export const WALL_NAME_MAX = 50;
export const WALL_REMARK_MAX = 200;
export const REFRESH_MIN_S = 10;
export const REFRESH_MAX_S = 3600;
export const REFRESH_DEFAULT_S = 30;
/** Channels a wall may name; each vehicle's own cameras when it names none. */
export const WALL_CHANNELS_MAX = 16;
/** Channels a vehicle shows when nothing is known of its cameras (the common four). */
const FALLBACK_CHANNELS = [1, 2, 3, 4];
export const REASON_MAX = 200;
/**
 * Alarm types an operator may raise from a photo: the traffic violations (group 90) and the general
 * "illegal driving" and "accident" types; what a photo can show, never a terminal's sensor alarm.
 */
export const PHOTO_ALARM_TYPES: readonly number[] = [
  17003, 17007, 90001, 90002, 90003, 90004, 90005, 90006, 90007, 90008, 90009, 90010, 90011, 90012, 90013,
];
/** The deal-log action a photo alarm's first row carries (the alarm's own log shows who raised it and why). */
export const PHOTO_ALARM_ACTION = 'photoWallRaise';

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const PhotoWallMessages = {
  notFound: pair('照片墙不存在', 'No such photo wall'),
  photoNotFound: pair('照片不存在', 'No such photo'),
  notImage: pair('该媒体不是照片', 'This media item is not a photo'),
  fileMissing: pair('照片文件已不存在', 'The photo file is gone'),
  vehiclesOutOfScope: (plates: string): Message => pair(`车辆不存在或不在您的管辖范围内：${plates}`, `No such vehicle in your scope: ${plates}`),
  alarmType: pair('报警类型不能从照片发起', 'This alarm type cannot be raised from a photo'),
  alreadyAlarmed: (id: number): Message => pair(`该照片已关联报警 #${id}`, `This photo is already attached to alarm #${id}`),
  noOnline: pair('照片墙上没有在线车辆', 'No vehicle of this wall is online'),
  noWallVehicle: pair('照片不属于该照片墙的车辆', 'The photo is not of a vehicle of this wall'),
} as const;

interface WallRow {
  id: number; name: string; company_id: number; company_name: string; channels: string; refresh_seconds: number; remark: string;
  created_by: number | null; created_by_name: string; create_time: number; update_time: number; vehicle_count: number;
}

function wallView(r: WallRow) {
  return {
    id: r.id, name: r.name, companyId: r.company_id, companyName: r.company_name, channels: JSON.parse(r.channels) as number[],
    refreshSeconds: r.refresh_seconds, remark: r.remark, createdBy: r.created_by, createdByName: r.created_by_name,
    createTime: r.create_time, updateTime: r.update_time, vehicleCount: r.vehicle_count,
  };
}

const ChannelList = Type.Array(Type.Integer({ minimum: 1, maximum: MAX_LOGICAL_CHANNEL }), { maxItems: WALL_CHANNELS_MAX, uniqueItems: true });
const WallFields = {
  name: Name(WALL_NAME_MAX),
  vehicleIds: Type.Array(Id, { minItems: 1, maxItems: WALL_VEHICLES_MAX, uniqueItems: true }),
  channels: Type.Optional(ChannelList),
  refreshSeconds: Type.Optional(Type.Integer({ minimum: REFRESH_MIN_S, maximum: REFRESH_MAX_S })),
  remark: Type.Optional(Text(WALL_REMARK_MAX)),
  /** The company the wall belongs to (inside the caller's scope); the caller's own company when absent. */
  ownerCompanyId: Type.Optional(Id),
};

/** A 400 about one field: the sentence starts with the field's name, `errors` carries it for the form. */
export interface PhotoWallDeps {
  readonly storage: Storage;
  readonly live: LiveRuntime;
}

export function photoWallRoutes(app: App, deps: PhotoWallDeps): void {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  const store = live.store;

  const WALL_SELECT = `
    SELECT w.*, c.name AS company_name, (SELECT count(*) FROM photo_wall_vehicle v WHERE v.wall_id = w.id) AS vehicle_count
    FROM photo_wall w JOIN company c ON c.id = w.company_id`;

  function wallIn(scope: Scope, id: number): WallRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`${WALL_SELECT} WHERE w.id = ? AND ${cond.sql}`).get(id, ...cond.params) as WallRow | undefined;
    if (!row) throw fail.notFound(PhotoWallMessages.notFound);
    return row;
  }

  /** The wall's vehicles inside `scope`, in the wall's order, and how many it holds outside. */
  function wallVehicles(scope: Scope, wallId: number): { vehicles: { id: number; vehiidno: string; companyId: number; companyName: string; deviceNo: string }[]; hidden: number } {
    const all = db.prepare(`
      SELECT v.id, v.vehiidno, v.company_id AS companyId, c.name AS companyName, v.device_no AS deviceNo, c.path
      FROM photo_wall_vehicle pv JOIN vehicle v ON v.id = pv.vehicle_id JOIN company c ON c.id = v.company_id
      WHERE pv.wall_id = ? ORDER BY pv.sort`).all(wallId) as { id: number; vehiidno: string; companyId: number; companyName: string; deviceNo: string; path: string }[];
    const vehicles = all.filter((v) => pathInScope(scope, v.path)).map(({ path: _p, ...v }) => v);
    return { vehicles, hidden: all.length - vehicles.length };
  }

  /** Every id must be a vehicle in the caller's scope; 400 naming `vehicleIds` otherwise, before anything is written. */
  async function checkVehicles(scope: Scope, ids: readonly number[]): Promise<void> {
    const labels = await storage.terminals.labels(scope, ids);
    const missing = ids.filter((id) => !labels.has(id));
    if (missing.length > 0) throw badField('vehicleIds', PhotoWallMessages.vehiclesOutOfScope(missing.slice(0, 10).join(', ')), 'outOfScope');
  }

  async function ownerCompany(ctx: AuthContext, id: number | undefined): Promise<number> {
    const companyId = id ?? ctx.user.companyId;
    const company = await storage.companies.get(ctx.scope, companyId);
    if (!company) throw badField('ownerCompanyId', pair('公司不存在或不在您的管辖范围内', 'No such company in your scope'), 'outOfScope');
    return company.id;
  }

  async function channelsOf(vehicleId: number, wallChannels: readonly number[]): Promise<number[]> {
    if (wallChannels.length > 0) return [...wallChannels];
    const known = await deviceChannels(storage, vehicleId);
    if (known.source === 'unknown') return FALLBACK_CHANNELS;
    return videoChannels(known).map((c) => c.channel);
  }

  function online(vehicleId: number): boolean {
    const slot = store.slotOf(vehicleId);
    return slot >= 0 && isOnline(store.stateOf(slot, store.clock()));
  }

  // ------------------------------------------------------------------ CRUD

  app.get('/service-priv/photowall', {
    config: { permission: PHOTOWALL_PAGE },
    schema: { querystring: Strict({ ...PageFields, name: Type.Optional(Text(WALL_NAME_MAX)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const name = q.name?.trim() ?? '';
    const where = `WHERE ${cond.sql}${name ? " AND w.name LIKE ? ESCAPE '\\'" : ''}`;
    const params: unknown[] = [...cond.params, ...(name ? [`%${name.replace(/[\\%_]/g, (m) => `\\${m}`)}%`] : [])];
    const total = (db.prepare(`SELECT count(*) AS n FROM photo_wall w JOIN company c ON c.id = w.company_id ${where}`).get(...params) as { n: number }).n;
    const rows = db.prepare(`${WALL_SELECT} ${where} ORDER BY w.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as WallRow[];
    return ok({ records: rows.map(wallView), total, current: q.current, size: q.size }, requestLang(request));
  });

  app.get('/service-priv/photowall/mylist', {
    config: { permission: PHOTOWALL_PAGE },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    const cond = scopeCondition(ctx.scope, 'c');
    // Bounded: a user's own walls, newest first; the picker lists them all.
    const rows = db.prepare(`${WALL_SELECT} WHERE w.created_by = ? AND ${cond.sql} ORDER BY w.id DESC LIMIT 200`).all(ctx.user.id, ...cond.params) as WallRow[];
    return ok(rows.map(wallView), requestLang(request));
  });

  app.post('/service-priv/photowall', {
    config: { permission: `${PHOTOWALL_PAGE}:create` },
    schema: { body: Strict(WallFields) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const companyId = await ownerCompany(ctx, b.ownerCompanyId);
    await checkVehicles(ctx.scope, b.vehicleIds);
    const now = Date.now();
    const id = db.transaction(() => {
      const r = db.prepare(`INSERT INTO photo_wall (name, company_id, channels, refresh_seconds, remark, created_by, created_by_name, create_time, update_time)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(b.name.trim(), companyId, JSON.stringify([...(b.channels ?? [])].sort((x, y) => x - y)),
        b.refreshSeconds ?? REFRESH_DEFAULT_S, (b.remark ?? '').trim(), ctx.user.id, ctx.user.realName || ctx.user.username, now, now);
      const wallId = Number(r.lastInsertRowid);
      const put = db.prepare('INSERT INTO photo_wall_vehicle (wall_id, vehicle_id, sort) VALUES (?, ?, ?)');
      b.vehicleIds.forEach((v, i) => put.run(wallId, v, i));
      return wallId;
    })();
    return ok(wallView(wallIn(ctx.scope, id)), requestLang(request));
  });

  app.put('/service-priv/photowall', {
    config: { permission: `${PHOTOWALL_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...WallFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const wall = wallIn(ctx.scope, b.id);
    const companyId = b.ownerCompanyId === undefined ? wall.company_id : await ownerCompany(ctx, b.ownerCompanyId);
    await checkVehicles(ctx.scope, b.vehicleIds);
    // Vehicles on the wall the editor cannot see stay on it (another user with a wider scope put them there).
    const hiddenIds = (db.prepare(`SELECT pv.vehicle_id AS id, c.path FROM photo_wall_vehicle pv JOIN vehicle v ON v.id = pv.vehicle_id
      JOIN company c ON c.id = v.company_id WHERE pv.wall_id = ? ORDER BY pv.sort`).all(wall.id) as { id: number; path: string }[])
      .filter((v) => !pathInScope(ctx.scope, v.path)).map((v) => v.id);
    if (hiddenIds.length + b.vehicleIds.length > WALL_VEHICLES_MAX) {
      throw badField('vehicleIds', pair(`照片墙最多 ${WALL_VEHICLES_MAX} 辆车（含您看不到的 ${hiddenIds.length} 辆）`,
        `A wall holds at most ${WALL_VEHICLES_MAX} vehicles (${hiddenIds.length} of them outside your scope)`), 'maxItems');
    }
    db.transaction(() => {
      db.prepare('UPDATE photo_wall SET name = ?, company_id = ?, channels = ?, refresh_seconds = ?, remark = ?, update_time = ? WHERE id = ?')
        .run(b.name.trim(), companyId, JSON.stringify([...(b.channels ?? [])].sort((x, y) => x - y)), b.refreshSeconds ?? wall.refresh_seconds,
          b.remark === undefined ? wall.remark : b.remark.trim(), Date.now(), wall.id);
      db.prepare('DELETE FROM photo_wall_vehicle WHERE wall_id = ?').run(wall.id);
      const put = db.prepare('INSERT INTO photo_wall_vehicle (wall_id, vehicle_id, sort) VALUES (?, ?, ?)');
      [...b.vehicleIds, ...hiddenIds].forEach((v, i) => put.run(wall.id, v, i));
    })();
    return ok(wallView(wallIn(ctx.scope, wall.id)), requestLang(request));
  });

  app.delete('/service-priv/photowall', {
    config: { permission: `${PHOTOWALL_PAGE}:delete` },
    schema: { body: Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const ids = request.body.ids;
    // All or nothing: one wall outside the scope (or gone) and nothing is deleted.
    for (const id of ids) wallIn(ctx.scope, id);
    db.transaction(() => {
      const del = db.prepare('DELETE FROM photo_wall WHERE id = ?');
      for (const id of ids) del.run(id);
    })();
    return ok({ deleted: ids.length }, requestLang(request));
  });

  // ------------------------------------------------------------------ what a wall shows

  app.get('/service-priv/photowall/vehicles', {
    config: { permission: PHOTOWALL_PAGE },
    schema: { querystring: Strict({ wallId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const wall = wallIn(ctx.scope, request.query.wallId);
    const { vehicles, hidden } = wallVehicles(ctx.scope, wall.id);
    const channels = JSON.parse(wall.channels) as number[];
    const records = await Promise.all(vehicles.map(async (v) => ({ ...v, online: online(v.id), channels: await channelsOf(v.id, channels) })));
    return ok({ wallId: wall.id, records, hidden }, requestLang(request));
  });

  app.get('/service-priv/photowall/snaps', {
    config: { permission: PHOTOWALL_PAGE },
    schema: { querystring: Strict({ wallId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const wall = wallIn(ctx.scope, request.query.wallId);
    const { vehicles, hidden } = wallVehicles(ctx.scope, wall.id);
    const wallChannels = JSON.parse(wall.channels) as number[];
    // The newest photo per (vehicle, channel): at most 64 vehicles, each read over its (vehicle_id, capture_time) index.
    const latest = new Map<string, number>();
    const newest = db.prepare(`SELECT channel, max(id) AS id FROM media_item WHERE vehicle_id = ? AND media_type = ${MEDIA_TYPE.IMAGE} GROUP BY channel`);
    for (const v of vehicles) {
      for (const r of newest.all(v.id) as { channel: number; id: number }[]) latest.set(`${v.id}:${r.channel}`, r.id);
    }
    const tiles = [];
    for (const v of vehicles) {
      const isOnline = online(v.id);
      for (const channel of await channelsOf(v.id, wallChannels)) {
        const id = latest.get(`${v.id}:${channel}`);
        const item = id === undefined ? undefined : await storage.media.get(ctx.scope, id);
        tiles.push({
          vehicleId: v.id, vehiidno: v.vehiidno, companyName: v.companyName, online: isOnline, channel,
          photo: item ? { ...mediaView(item, lang), url: `/service-priv/photowall/photo/${item.id}` } : null,
        });
      }
    }
    return ok({ wallId: wall.id, refreshSeconds: wall.refresh_seconds, tiles, hidden, time: Date.now() }, lang);
  });

  /** The photo file for the wall's screen (the wall's bit suffices; the media reports' bits are not needed). */
  app.get('/service-priv/photowall/photo/:id', {
    config: { permission: PHOTOWALL_PAGE },
    schema: { params: Type.Object({ id: Id }), querystring: Strict({}) },
  }, async (request, reply) => {
    const ctx = auth(request);
    const item = await storage.media.get(ctx.scope, request.params.id);
    if (!item || item.mediaType !== MEDIA_TYPE.IMAGE) throw fail.notFound(PhotoWallMessages.photoNotFound);
    const file = app.multimedia.fileOf(item);
    const size = await stat(file).then((s) => s.size, () => -1);
    if (size < 0) throw fail.notFound(PhotoWallMessages.fileMissing);
    return reply.header('content-type', CONTENT_TYPES[item.format] ?? 'application/octet-stream').header('content-length', size)
      .header('cache-control', 'private, max-age=86400').send(createReadStream(file));
  });

  // ------------------------------------------------------------------ actions

  app.post('/service-priv/photowall/snap', {
    config: { permission: `${PHOTOWALL_PAGE}:snap` },
    schema: { body: Strict({ wallId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const wall = wallIn(ctx.scope, request.body.wallId);
    const { vehicles } = wallVehicles(ctx.scope, wall.id);
    const reachable = vehicles.filter((v) => live.gateway.isReachable(v.id));
    if (reachable.length === 0) throw new AppError(ErrorCode.Conflict, PhotoWallMessages.noOnline);
    const wallChannels = JSON.parse(wall.channels) as number[];
    const results = await Promise.all(reachable.map(async (v) => {
      const channels = await channelsOf(v.id, wallChannels);
      const snaps = await app.multimedia.snap({ vehicleId: v.id, channels, count: 1, userId: ctx.user.id, alarmId: null });
      return { vehicleId: v.id, vehiidno: v.vehiidno, photos: snaps.reduce((n, s) => n + (s.ok ? s.items.length : 0), 0), failed: snaps.filter((s) => !s.ok).map((s) => s.channel) };
    }));
    return ok({ asked: reachable.length, offline: vehicles.length - reachable.length, photos: results.reduce((n, r) => n + r.photos, 0), results }, lang);
  });

  app.post('/service-priv/photowall/doAlarm', {
    config: { permission: `${PHOTOWALL_PAGE}:alarm` },
    schema: {
      body: Strict({
        mediaId: Id,
        alarmType: Type.Integer({ minimum: 1, maximum: 999_999 }),
        reason: Name(REASON_MAX),
        wallId: Type.Optional(Id),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const lang: Lang = requestLang(request);
    const b = request.body;
    if (!PHOTO_ALARM_TYPES.includes(b.alarmType)) throw badField('alarmType', PhotoWallMessages.alarmType, 'enum');
    const item = await storage.media.get(ctx.scope, b.mediaId);
    if (!item || item.mediaType !== MEDIA_TYPE.IMAGE) throw new AppError(ErrorCode.NotFound, PhotoWallMessages.photoNotFound, null, { mediaId: { code: 'notFound' } });
    if (b.wallId !== undefined) {
      const wall = wallIn(ctx.scope, b.wallId);
      if (!wallVehicles(ctx.scope, wall.id).vehicles.some((v) => v.id === item.vehicleId)) throw badField('mediaId', PhotoWallMessages.noWallVehicle);
    }
    if (item.alarmId !== null) throw new AppError(ErrorCode.Conflict, PhotoWallMessages.alreadyAlarmed(item.alarmId), null, { mediaId: { code: 'taken' } });
    const label = (await storage.terminals.labels(ctx.scope, [item.vehicleId])).get(item.vehicleId);
    if (!label) throw fail.notFound(PhotoWallMessages.photoNotFound);
    const now = Date.now();
    const reason = b.reason.trim();
    const username = ctx.user.realName || ctx.user.username;
    const alarmId = await storage.transaction(async (tx) => {
      const id = await tx.alarms.insert({
        vehicleId: item.vehicleId, deviceNo: label.deviceNo ?? '', companyId: label.companyId, alarmType: b.alarmType, source: 'platform',
        // At the photo's time and place (what the operator saw), not the moment of flagging.
        startTime: item.captureTime, lng: item.lng ?? 0, lat: item.lat ?? 0, speed: Math.round((item.speed ?? 0) * 10) / 10,
        riskLevel: defaultRiskLevel(b.alarmType) ?? 'medium', dealStatus: 0, createTime: now,
      });
      // Attached only if still free: a concurrent flag of the same photo loses here and rolls back.
      const attached = db.prepare('UPDATE media_item SET alarm_id = ? WHERE id = ? AND alarm_id IS NULL').run(id, item.id).changes;
      if (attached !== 1) throw new AppError(ErrorCode.Conflict, PhotoWallMessages.alreadyAlarmed(0));
      await tx.alarms.addLog({
        alarmId: id, userId: ctx.user.id, username, action: PHOTO_ALARM_ACTION, dealType: null,
        content: reason, terminalResult: null, resultText: '', createTime: now,
      });
      return id;
    });
    const record = (await storage.alarms.get(ALL_COMPANIES, alarmId))!;
    // Pushed like a generated alarm, so the processing list and the pop-ups of the company see it now.
    if (app.hasDecorator('alarms') && app.hasDecorator('push')) {
      app.push.publishAlarm(record.companyPath, alarmPushData(record, app.alarms.linkageOf(record.companyPath, record.alarmType)));
    }
    return ok({ alarmId, alarmType: b.alarmType, alarmName: alarmName(b.alarmType, lang), vehicleId: item.vehicleId, vehiidno: label.vehiidno, mediaId: item.id, startTime: record.startTime }, lang);
  });

  // Referenced so the catalogue stays honest: every allowed type exists.
  for (const code of PHOTO_ALARM_TYPES) if (!byCode(code)) throw new Error(`photo alarm type ${code} is not in the catalogue`);
}
