/**
 * The multimedia calls (issue 6): snapshots from the alarm pop-up and the snapshot report, the stored
 * photo download, the alarm-media and snapshot reports with their .xlsx exports, and the terminal's
 * stored-media search and uploads. server/API.md "Multimedia".
 */
import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Type } from '@fastify/type-provider-typebox';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { ErrorCode, type Lang } from '../../../domain/errors/catalogue.ts';
import { checkMediaPeriod, DEFAULT_SNAP_CHANNELS, MEDIA_REPORT_MAX_DAYS, mediaEventName, mediaSourceName, SNAP_MAX_COUNT } from '../../../domain/media/media.ts';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { videoChannels } from '../../../domain/video/channels.ts';
import { MAX_LOGICAL_CHANNEL } from '../../../domain/video/limits.ts';
import { mediaDirOf } from '../../config.ts';
import type { MediaFilter, MediaItem, MediaSource } from '../../db/media-types.ts';
import type { Scope } from '../../db/scope.ts';
import { MULTIMEDIA_MSG, type StoredMediaItem } from '../../gateway/jt808/multimedia.ts';
import type { CommandOutcome } from '../../gateway/server.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { EpochMs, Id, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import type { ServiceDeps } from '../deps.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';
import { deviceChannels } from '../video/channels.ts';
import { MediaRetention } from '../../media/retention.ts';
import { CONTENT_TYPES, MultimediaService, type ChannelSnap } from './capture.ts';
import { MediaMessages, snapProblemText } from './messages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Multimedia on the server (tests shorten its snapshot budget). */
    multimedia: MultimediaService;
    /** Deletes photos and pulled recordings past MEDIA_RETENTION_DAYS (tests call its sweep). */
    mediaRetention: MediaRetention;
  }
}

/** How long a search or upload command waits for the terminal. */
const TERMINAL_TIMEOUT_MS = 10_000;
/** Rows an export holds at most. */
export const MEDIA_EXPORT_MAX_ROWS = 10_000;
/** Permissions that let a user see stored photos. */
const VIEW_KEYS = ['/report/media/alarmMedia', '/report/media/snapMediaReport', '/global/alarm:photoSnap'] as const;
const SOURCES = ['snap', 'event', 'upload'] as const;

export function mediaView(m: MediaItem, lang: Lang) {
  return {
    id: m.id, vehicleId: m.vehicleId, vehiidno: m.vehiidno, companyId: m.companyId, companyName: m.companyName, channel: m.channel,
    deviceMediaId: m.deviceMediaId, mediaType: m.mediaType, format: m.format, eventCode: m.eventCode, eventName: mediaEventName(m.eventCode, lang),
    captureTime: m.captureTime, receivedTime: m.receivedTime, lng: m.lng, lat: m.lat, speed: m.speed, size: m.size, source: m.source,
    sourceName: mediaSourceName(m.source, lang), alarmId: m.alarmId, alarmType: m.alarmType, alarmName: m.alarmType === null ? null : alarmName(m.alarmType, lang),
    requestedBy: m.requestedBy, requestedByName: m.requestedByName, url: `/service-priv/media/file/${m.id}`,
  };
}

function storedView(it: StoredMediaItem, lang: Lang) {
  const fix = Number.isFinite(it.location.time);
  return {
    mediaId: it.mediaId, mediaType: it.mediaType, channel: it.channel, eventCode: it.eventCode, eventName: mediaEventName(it.eventCode, lang),
    time: fix ? it.location.time : null, lng: fix ? it.location.lng : null, lat: fix ? it.location.lat : null, speed: fix ? it.location.speed : null,
  };
}

function resultText(o: CommandOutcome, lang: Lang): string {
  if (o.kind === 'offline') return MediaMessages.deviceOffline(lang);
  if (o.kind === 'timeout') return MediaMessages.deviceNoReply(lang);
  const zh = ['终端应答成功', '终端应答失败', '终端应答：消息有误', '终端应答：不支持'];
  const en = ['The terminal acknowledged', 'The terminal answered: failed', 'The terminal answered: bad message', 'The terminal answered: not supported'];
  return (lang === 'zh' ? zh : en)[o.result] ?? (lang === 'zh' ? `终端应答结果 ${o.result}` : `The terminal answered with result ${o.result}`);
}

const ChannelList = Type.Array(Type.Integer({ minimum: 1, maximum: MAX_LOGICAL_CHANNEL }), { minItems: 1, maxItems: 16, uniqueItems: true });
const SnapFields = {
  vehicleId: Id,
  channels: Type.Optional(ChannelList),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: SNAP_MAX_COUNT })),
};
const ReportFields = {
  ...PageFields,
  startTime: EpochMs,
  endTime: EpochMs,
  vehicleIds: Type.Optional(Type.Array(Id, { maxItems: 500, uniqueItems: true })),
  channels: Type.Optional(ChannelList),
};
const Time = Type.Integer({ minimum: Date.UTC(2000, 0, 1) - 8 * 3_600_000, maximum: Date.UTC(2099, 11, 31) });

/**
 * A MEDIA_DIR set explicitly must be a writable directory when the node starts: it is not created, since in
 * scale-out it is a shared mount, and writing into an empty mount point would keep the files on this node.
 */
export function checkMediaDir(dir: string): void {
  let problem: string | undefined;
  try {
    if (!statSync(dir).isDirectory()) problem = 'is not a directory';
    else accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problem = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' || code === 'EPERM' ? 'is not writable by this process' : `cannot be used (${code ?? String(err)})`;
  }
  if (problem) throw new Error(`MEDIA_DIR ${dir} ${problem}: create it (in scale-out, mount the shared media directory there on every node) and give the server's user write access`);
}

export function multimediaRoutes(app: App, deps: ServiceDeps & { readonly live: LiveRuntime; readonly snapTimeoutMs?: number }): MultimediaService {
  const { storage, live, config } = deps;
  const gateway = live.gateway;
  const mediaDir = mediaDirOf(config);
  if (config.mediaDir !== undefined) checkMediaDir(config.mediaDir);
  else if (config.natsUrl && !(config.roles.has('gateway') && config.roles.has('api'))) {
    app.log.warn({ mediaDir }, 'scale-out (NATS_URL) without MEDIA_DIR: photos, recordings and upgrade packages stay in this node\'s DATA_DIR; mount one shared directory at the same path on every node and set MEDIA_DIR');
  }
  const service = new MultimediaService(storage, gateway, live.store.clock, {
    mediaDir, snapTimeoutMs: deps.snapTimeoutMs, log: app.log,
    // Registered after the safety-alarm service (server/app.ts), whose queue holds alarms of earlier reports.
    alarmsSettled: app.hasDecorator('alarms') ? () => app.alarms.idle() : undefined,
  });
  service.install();
  app.decorate('multimedia', service);
  app.addHook('preClose', async () => service.close());
  // Photos and pulled recordings past MEDIA_RETENTION_DAYS (the data directory would only grow).
  const retention = new MediaRetention({
    storage, mediaDir, days: config.mediaRetentionDays, clock: live.store.clock, log: app.log,
  });
  app.decorate('mediaRetention', retention);
  // Swept by the app's one retention scheduler (server/retention/), at start and hourly.
  app.retention.add(retention);

  async function vehicleIn(scope: Scope, vehicleId: number) {
    const v = await storage.fleet.getVehicle(scope, vehicleId);
    if (!v) throw fail.notFound(MediaMessages.vehicleNotFound);
    return v;
  }

  /** The caller's vehicle, online: 409 when its terminal is not connected. */
  async function reachableVehicle(ctx: AuthContext, vehicleId: number, companyId: number | undefined): Promise<void> {
    await vehicleIn(await narrowedScope(storage, ctx, companyId), vehicleId);
    if (!gateway.isReachable(vehicleId)) throw new AppError(ErrorCode.Conflict, MediaMessages.deviceOffline);
  }

  /**
   * Channels a snapshot asks when the caller names none: the device's cameras as its record or its
   * terminal's 0x1003 lists them (services/video/channels.ts); the common four only while nothing is
   * known, and then each channel's own 0x0805 result says whether that camera exists.
   */
  async function defaultSnapChannels(vehicleId: number): Promise<readonly number[]> {
    const known = await deviceChannels(storage, vehicleId);
    return known.source === 'unknown' ? DEFAULT_SNAP_CHANNELS : videoChannels(known).map((c) => c.channel);
  }

  async function snap(ctx: AuthContext, lang: Lang, b: { vehicleId: number; channels?: number[]; count?: number; companyId?: number }, alarmId: number | null) {
    await reachableVehicle(ctx, b.vehicleId, b.companyId);
    const channels = b.channels ?? (await defaultSnapChannels(b.vehicleId));
    if (channels.length === 0) throw fail.badRequest(MediaMessages.noCamera);
    const results = await service.snap({ vehicleId: b.vehicleId, channels, count: b.count ?? 1, userId: ctx.user.id, alarmId });
    const items = results.flatMap((r) => (r.ok ? r.items : []));
    if (items.length === 0) throw snapFailure(results);
    return ok({
      vehicleId: b.vehicleId, alarmId,
      items: items.map((m) => mediaView(m, lang)),
      channels: results.map((r) => (r.ok ? { channel: r.channel, ok: true, count: r.items.length } : { channel: r.channel, ok: false, message: snapProblemText(r.problem, lang) })),
    }, lang);
  }

  app.post('/service-command/command/photoSnap', {
    config: { permission: '/global/alarm:photoSnap' },
    schema: { body: Strict({ ...SnapFields, alarmId: Type.Optional(Id) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const b = request.body;
    let alarmId: number | null = null;
    if (b.alarmId !== undefined) {
      const alarm = await storage.alarms.get(ctx.scope, b.alarmId);
      if (!alarm) throw fail.notFound(MediaMessages.alarmNotFound);
      if (alarm.vehicleId !== b.vehicleId) throw fail.badRequest(MediaMessages.alarmOfOtherVehicle);
      alarmId = alarm.id;
    }
    return snap(ctx, lang, b, alarmId);
  });

  app.post('/service-command/command/snapMedia', {
    config: { permission: '/report/media/snapMediaReport' },
    schema: { body: Strict(SnapFields) },
  }, async (request) => snap(auth(request), requestLang(request), request.body, null));

  app.get('/service-priv/media/file/:id', {
    config: { permission: 'session' },
    schema: { params: Type.Object({ id: Id }), querystring: Strict({}) },
  }, async (request, reply) => {
    const ctx = auth(request);
    if (!ctx.isAdmin && !VIEW_KEYS.some((k) => ctx.access.hasId(entryByKey(k)!.id))) throw fail.forbidden(MediaMessages.noMediaPermission);
    const item = await storage.media.get(ctx.scope, request.params.id);
    if (!item) throw fail.notFound(MediaMessages.mediaNotFound);
    const file = service.fileOf(item);
    const size = await stat(file).then((s) => s.size, () => -1);
    if (size < 0) throw fail.notFound(MediaMessages.fileMissing);
    return reply
      .header('content-type', CONTENT_TYPES[item.format] ?? 'application/octet-stream')
      .header('content-length', size)
      // Photos never change; private: they are scoped to the caller.
      .header('cache-control', 'private, max-age=86400')
      .send(createReadStream(file));
  });

  type ReportBody = { startTime: number; endTime: number; vehicleIds?: number[]; channels?: number[]; companyId?: number };
  async function reportQuery(ctx: AuthContext, b: ReportBody, extra: Partial<MediaFilter>): Promise<{ scope: Scope; filter: MediaFilter }> {
    const problem = checkMediaPeriod(b.startTime, b.endTime);
    if (problem === 'startAfterEnd') throw fail.badRequest(MediaMessages.startAfterEnd);
    if (problem === 'tooLong') throw fail.badRequest(MediaMessages.periodTooLong(MEDIA_REPORT_MAX_DAYS));
    const scope = await narrowedScope(storage, ctx, b.companyId);
    return { scope, filter: { from: b.startTime, to: b.endTime, vehicleIds: b.vehicleIds, channels: b.channels, ...extra } };
  }

  const columns = (alarm: boolean): SheetColumn<ReturnType<typeof mediaView>>[] => [
    { header: ['拍摄时间', 'Capture time'], width: 20, value: (r) => chinaTime(r.captureTime) },
    { header: ['车牌号', 'Plate'], width: 14, value: (r) => r.vehiidno },
    { header: ['所属企业', 'Company'], width: 20, value: (r) => r.companyName },
    { header: ['通道', 'Channel'], width: 8, value: (r) => r.channel },
    ...(alarm ? [{ header: ['报警类型', 'Alarm type'] as const, width: 18, value: (r: ReturnType<typeof mediaView>) => r.alarmName ?? '' }] : []),
    { header: ['触发事件', 'Event'], width: 18, value: (r) => r.eventName },
    { header: ['来源', 'Source'], width: 16, value: (r) => r.sourceName },
    { header: ['请求人', 'Requested by'], width: 14, value: (r) => r.requestedByName ?? '' },
    { header: ['经度', 'Longitude'], width: 12, value: (r) => r.lng },
    { header: ['纬度', 'Latitude'], width: 12, value: (r) => r.lat },
    { header: ['速度(km/h)', 'Speed (km/h)'], width: 10, value: (r) => r.speed },
    { header: ['大小(字节)', 'Size (bytes)'], width: 12, value: (r) => r.size },
  ];

  const reports = [
    { path: '/service-report/media/alarmMedia', permission: '/report/media/alarmMedia' as const, alarm: true, zh: '报警多媒体', en: 'alarm-media' },
    { path: '/service-report/media/snapMediaReport', permission: '/report/media/snapMediaReport' as const, alarm: false, zh: '抓拍报表', en: 'snapshot-report' },
  ];
  for (const r of reports) {
    const body = r.alarm
      ? Strict({ ...ReportFields, alarmIds: Type.Optional(Type.Array(Id, { maxItems: 500, uniqueItems: true })) })
      : Strict({ ...ReportFields, sources: Type.Optional(Type.Array(Type.Union(SOURCES.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true })) });
    const extraOf = (b: { alarmIds?: number[]; sources?: MediaSource[] }): Partial<MediaFilter> =>
      r.alarm ? { linkedToAlarm: true, alarmIds: b.alarmIds } : { sources: b.sources };

    app.post(r.path, { config: { permission: r.permission, audit: false }, schema: { body } }, async (request) => {
      const lang = requestLang(request);
      const b = request.body as ReportBody & { current: number; size: number; alarmIds?: number[]; sources?: MediaSource[] };
      const { scope, filter } = await reportQuery(auth(request), b, extraOf(b));
      const { total, records } = await storage.media.query(scope, filter, (b.current - 1) * b.size, b.size);
      return ok({ records: records.map((m) => mediaView(m, lang)), total, current: b.current, size: b.size }, lang);
    });

    app.post(`${r.path}/export`, { config: { permission: r.permission }, schema: { body } }, async (request, reply) => {
      const lang = requestLang(request);
      const b = request.body as ReportBody & { alarmIds?: number[]; sources?: MediaSource[] };
      const { scope, filter } = await reportQuery(auth(request), b, extraOf(b));
      const { records } = await storage.media.query(scope, filter, 0, MEDIA_EXPORT_MAX_ROWS);
      const rows = records.map((m) => mediaView(m, lang));
      const name = lang === 'zh' ? r.zh : r.en;
      return sendXlsx(reply, await xlsxBuffer(name, columns(r.alarm), rows, lang), name, r.en);
    });
  }

  // Stored media on the terminal (catalogue: searchDeviceMedia, uploadDeviceMediaByMediaId, uploadDeviceMediaByTime).
  const storedPermission = '/report/media/snapMediaReport' as const;
  /** Which stored media (0x8802 / 0x8803): channel 0 and event code 0 mean all. */
  const StoredFields = {
    vehicleId: Id,
    channel: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_LOGICAL_CHANNEL })),
    eventCode: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
  };
  const MediaId = Type.Integer({ minimum: 0, maximum: 0xffffffff });

  app.post('/service-command/command/searchDeviceMedia', {
    config: { permission: storedPermission },
    schema: {
      body: Strict({
        ...StoredFields,
        startTime: Type.Optional(Time),
        endTime: Type.Optional(Time),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const b = request.body;
    if (b.startTime !== undefined && b.endTime !== undefined && b.startTime > b.endTime) throw fail.badRequest(MediaMessages.startAfterEnd);
    await vehicleIn(await narrowedScope(storage, ctx, b.companyId), b.vehicleId);
    const r = await service.search(ctx.user.id, b.vehicleId, {
      mediaType: 0, channel: b.channel ?? 0, eventCode: b.eventCode ?? 0, startTime: b.startTime ?? NaN, endTime: b.endTime ?? NaN,
    }, TERMINAL_TIMEOUT_MS);
    if (r.kind === 'offline') throw new AppError(ErrorCode.Conflict, MediaMessages.deviceOffline);
    if (r.kind === 'noReply') throw new AppError(ErrorCode.GatewayTimeout, MediaMessages.deviceNoReply);
    return ok({ vehicleId: b.vehicleId, searchTime: r.at, items: r.items.map((it) => storedView(it, lang)) }, lang);
  });

  app.post('/service-command/command/searchDeviceMediaResult', {
    config: { permission: storedPermission, audit: false },
    schema: { body: Strict({ vehicleId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const q = request.body;
    await vehicleIn(await narrowedScope(storage, ctx, q.companyId), q.vehicleId);
    const last = await service.lastSearch(ctx.user.id, q.vehicleId);
    if (!last) throw fail.notFound(MediaMessages.noSearch);
    return ok({ vehicleId: q.vehicleId, searchTime: last.at, items: last.items.map((it) => storedView(it, lang)) }, lang);
  });

  app.post('/service-command/command/uploadDeviceMediaByMediaId', {
    config: { permission: storedPermission },
    schema: {
      body: Strict({
        vehicleId: Id,
        mediaIds: Type.Array(MediaId, { minItems: 1, maxItems: 50, uniqueItems: true }),
        deleteAfter: Type.Optional(Type.Boolean()),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const b = request.body;
    await reachableVehicle(ctx, b.vehicleId, b.companyId);
    service.expectUpload(b.vehicleId, ctx.user.id);
    const results = [];
    // One at a time: a terminal uploads one item per 0x8805, and its link is the bottleneck anyway.
    for (const mediaId of b.mediaIds) {
      const o = await gateway.sendCommand(b.vehicleId, { msgId: MULTIMEDIA_MSG.SINGLE_UPLOAD, mediaId, deleteFlag: b.deleteAfter ? 1 : 0 }, TERMINAL_TIMEOUT_MS);
      results.push({ mediaId, result: o.kind === 'reply' ? o.result : o.kind, resultText: resultText(o, lang) });
      // A terminal gone or silent answers none of the rest: 50 × 10 s would hold the call for minutes.
      if (o.kind !== 'reply') {
        for (const rest of b.mediaIds.slice(results.length)) results.push({ mediaId: rest, result: o.kind, resultText: resultText(o, lang) });
        break;
      }
    }
    return ok({ vehicleId: b.vehicleId, results }, lang);
  });

  app.post('/service-command/command/uploadDeviceMediaByMediaIdResult', {
    config: { permission: storedPermission },
    schema: { body: Strict({ vehicleId: Id, mediaIds: Type.Array(MediaId, { minItems: 1, maxItems: 50 }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const q = request.body;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    await vehicleIn(scope, q.vehicleId);
    const now = live.store.clock();
    // Stored items keep their capture time, which may be long ago: look back as far as a report may.
    const { records } = await storage.media.query(scope, {
      from: now - 366 * 86_400_000, to: now + 86_400_000, vehicleIds: [q.vehicleId], deviceMediaIds: q.mediaIds,
    }, 0, 500);
    return ok({ vehicleId: q.vehicleId, items: records.map((m) => mediaView(m, lang)), missing: q.mediaIds.filter((id) => !records.some((m) => m.deviceMediaId === id)) }, lang);
  });

  app.post('/service-command/command/uploadDeviceMediaByTime', {
    config: { permission: storedPermission },
    schema: {
      body: Strict({
        ...StoredFields,
        startTime: Time,
        endTime: Time,
        deleteAfter: Type.Optional(Type.Boolean()),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const b = request.body;
    if (b.startTime > b.endTime) throw fail.badRequest(MediaMessages.startAfterEnd);
    await reachableVehicle(ctx, b.vehicleId, b.companyId);
    service.expectUpload(b.vehicleId, ctx.user.id);
    const o = await gateway.sendCommand(b.vehicleId, {
      msgId: MULTIMEDIA_MSG.STORED_UPLOAD, mediaType: 0, channel: b.channel ?? 0, eventCode: b.eventCode ?? 0, startTime: b.startTime, endTime: b.endTime,
      deleteFlag: b.deleteAfter ? 1 : 0,
    }, TERMINAL_TIMEOUT_MS);
    return ok({ vehicleId: b.vehicleId, result: o.kind === 'reply' ? o.result : o.kind, resultText: resultText(o, lang) }, lang);
  });

  return service;
}

/** The error of a snapshot that gave no photo: offline, else no camera, else capture failed. */
function snapFailure(results: readonly ChannelSnap[]): AppError {
  const problems = results.flatMap((r) => (r.ok ? [] : [r.problem]));
  if (problems.every((p) => p === 'offline')) return new AppError(ErrorCode.Conflict, MediaMessages.deviceOffline);
  if (problems.every((p) => p === 'noCamera')) return fail.badRequest(MediaMessages.noCamera);
  return new AppError(ErrorCode.GatewayTimeout, MediaMessages.captureFailed);
}

function chinaTime(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}
