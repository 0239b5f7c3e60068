/**
 * Face recognition (issue 19): /operation/faceRecognitionManagement/faceRecognitionResult and
 * /deviceSample. The terminal compares faces and reports 0x0E10 (stored here with its photo); the
 * platform binds faces (warehouse drivers) to vehicle terminals, pushes them (0x8E11 → 0x0E11), reads
 * what a terminal holds (0x8E12 → 0x0E12) and asks for a comparison now (0x8E10). Not in the call
 * catalogue: designed here; contract `api.md`. Migration 49 (`db/migration-face-recognition.ts`).
 */
import { Type } from '@fastify/type-provider-typebox';
import { LIST_LIMITS } from '../../../domain/management/limits.ts';
import type { Storage } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { FACE_MSG, FACE_OP, MAX_FACES_PER_PUSH, PHOTO_TYPE, type FaceSampleItem } from '../../gateway/jt808/face.ts';
import type { Jt808Gateway } from '../../gateway/server.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { EpochMs, Id, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { FaceRecognitionStore, RESULT_KINDS, type PushFace, type PushState } from './store.ts';

export const RESULT_PAGE = '/operation/faceRecognitionManagement/faceRecognitionResult' as const;
export const SAMPLE_PAGE = '/operation/faceRecognitionManagement/deviceSample' as const;
const B = (button: string) => `${SAMPLE_PAGE}:${button}` as const;

/** Devices one batch call (push, status) reaches: the monitoring selection's limit (spec: 100). */
export const FACE_BATCH_MAX = 100;
/** Faces bound or unbound in one call. */
const BIND_MAX = 50;
/** How long a terminal has to answer a push (the photos may take many sub-packages) or a query. */
const PUSH_TIMEOUT_MS = 30_000;
const QUERY_TIMEOUT_MS = 10_000;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
const NoVehicle = pair('车辆不存在或不在权限范围内', 'No such vehicle in your companies');
const NoResult = pair('识别记录不存在或不在权限范围内', 'No such recognition result in your companies');
const NoDriver = pair('司机不存在或不在权限范围内', 'No such driver in your companies');
const NoPhoto = (name: string) => pair(`司机 ${name} 没有照片，请先在司机管理上传照片`, `Driver ${name} has no photo: upload one on the driver page first`);
const NoCert = (name: string) => pair(`司机 ${name} 没有从业资格证号，终端以资格证号识别司机`, `Driver ${name} has no qualification certificate number: terminals identify drivers by it`);
const TimeOrder = pair('开始时间不能晚于结束时间', 'The start time must not be after the end time');
const ScoreOrder = pair('最低分不能高于最高分', 'The lowest score must not be above the highest');
const TooMany = pair(`一台设备最多绑定 ${MAX_FACES_PER_PUSH} 张人脸`, `A device holds at most ${MAX_FACES_PER_PUSH} faces`);

export const faceRecognitionStore = (storage: Storage) => new FaceRecognitionStore((storage as SqliteStorage).db);

const VehicleBody = Strict({ vehicleId: Id });
const VehiclesBody = Strict({ vehicleIds: Type.Array(Id, { minItems: 1, maxItems: FACE_BATCH_MAX, uniqueItems: true }) });
const BindBody = Strict({ vehicleId: Id, driverIds: Type.Array(Id, { minItems: 1, maxItems: BIND_MAX, uniqueItems: true }) });

const mimeOf = (photoType: number) => (photoType === PHOTO_TYPE.PNG ? 'image/png' : 'image/jpeg');
const photoTypeOf = (mime: string) => (mime === 'image/png' ? PHOTO_TYPE.PNG : PHOTO_TYPE.JPEG);

/** Stores every 0x0E10 the gateway receives (acknowledged OK once stored). */
export function installFaceResults(gateway: Jt808Gateway, storage: Storage, clock: () => number): void {
  const store = faceRecognitionStore(storage);
  gateway.handleTerminalMessage(FACE_MSG.RESULT, async ({ vehicleId, message }) => {
    if (message.msgId !== FACE_MSG.RESULT) return;
    const now = clock();
    // Inside a transaction: a write outside one would join another request's open transaction.
    await storage.transaction(async () => {
      store.addResult({
        vehicleId, time: Number.isFinite(message.time) ? message.time : now, receiveTime: now, result: message.result, similarity: message.similarity,
        threshold: message.threshold, trigger: message.trigger, lat: message.lat, lng: message.lng, faceId: message.faceId, name: message.name,
        photoMime: mimeOf(message.photoType), photo: message.photo,
      });
    });
  });
}

export function faceRecognitionRoutes(app: App, deps: { storage: Storage; live: LiveRuntime }): void {
  const { storage, live } = deps;
  const gateway = live.gateway;
  const store = faceRecognitionStore(storage);
  installFaceResults(gateway, storage, live.store.clock);
  const who = (ctx: ReturnType<typeof auth>) => ({ userId: ctx.user.id, userName: ctx.user.realName || ctx.user.username, time: Date.now() });

  // ---- Recognition results -------------------------------------------------------------------
  app.get('/service-priv/facerecognition/result', {
    config: { permission: RESULT_PAGE },
    schema: { querystring: Strict({
      ...PageFields,
      plate: Type.Optional(Text(LIST_LIMITS.keywordMax)),
      driver: Type.Optional(Text(LIST_LIMITS.keywordMax)),
      startTime: Type.Optional(EpochMs),
      endTime: Type.Optional(EpochMs),
      result: Type.Optional(Type.Union(RESULT_KINDS.map((k) => Type.Literal(k)))),
      minScore: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
      maxScore: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
      mistake: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
    }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query as Parameters<FaceRecognitionStore['results']>[1] & { companyId?: number };
    if (q.startTime !== undefined && q.endTime !== undefined && q.startTime > q.endTime) throw fail.badRequest(TimeOrder);
    if (q.minScore !== undefined && q.maxScore !== undefined && q.minScore > q.maxScore) throw fail.badRequest(ScoreOrder);
    const scope = await narrowedScope(storage, ctx, q.companyId);
    return ok(store.results(scope, q), requestLang(request));
  });

  // The photo the terminal took at the comparison.
  app.get('/service-priv/facerecognition/result/photo', {
    config: { permission: RESULT_PAGE },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request, reply) => {
    const ctx = auth(request);
    const photo = store.photo(ctx.scope, (request.query as { id: number }).id);
    if (!photo) throw fail.notFound(NoResult);
    return reply.header('content-type', photo.mime).header('content-length', photo.bytes.length).header('cache-control', 'private, max-age=86400').send(photo.bytes);
  });

  // A bound or recognised driver's warehouse photo, for readers of either screen (who may not hold the
  // face warehouse's or the driver page's bit).
  app.get('/service-priv/facerecognition/face', {
    config: { permission: [RESULT_PAGE, SAMPLE_PAGE] },
    schema: { querystring: Strict({ driverId: Id, t: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })) }) },
  }, async (request, reply) => {
    const ctx = auth(request);
    const { driverId } = request.query as { driverId: number };
    if (!store.driver(ctx.scope, driverId)) throw fail.notFound(NoDriver);
    const photo = await storage.drivers.photo(driverId);
    if (!photo) throw fail.notFound(NoDriver);
    return reply.header('content-type', photo.mime).header('content-length', photo.bytes.length).header('cache-control', 'private, max-age=86400').send(photo.bytes);
  });

  // 误报: a user marks a result as misrecognised (or takes the mark back), with who and when.
  app.post('/service-priv/facerecognition/result/mistake', {
    config: { permission: `${RESULT_PAGE}:mistake` },
    schema: { body: Strict({ id: Id, mistake: Type.Boolean(), remark: Type.Optional(Text(200)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const { id, mistake, remark } = request.body as { id: number; mistake: boolean; remark?: string };
    const row = store.result(ctx.scope, id);
    if (!row) throw fail.notFound(NoResult);
    await storage.transaction(async () => store.setMistake(id, mistake, who(ctx), remark?.trim() ?? ''));
    return ok(store.result(ctx.scope, id), requestLang(request));
  });

  // ---- Device samples ------------------------------------------------------------------------
  const vehicleOr404 = (ctx: ReturnType<typeof auth>, vehicleId: number) => {
    const v = store.vehicle(ctx.scope, vehicleId);
    if (!v) throw fail.notFound(NoVehicle);
    return v;
  };

  app.get('/service-priv/facerecognition/device', {
    config: { permission: SAMPLE_PAGE },
    schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)), filter: Type.Optional(Type.Union([Type.Literal('bound'), Type.Literal('pending')])) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query as { current: number; size: number; keyword?: string; filter?: 'bound' | 'pending'; companyId?: number };
    const scope = await narrowedScope(storage, ctx, q.companyId);
    return ok(store.devices(scope, q, (id) => gateway.isReachable(id)), requestLang(request));
  });

  // 查看司机: the faces bound to the device and whether the terminal holds each.
  app.get('/service-priv/facerecognition/device/faces', {
    config: { permission: B('showDriver') },
    schema: { querystring: Strict({ vehicleId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const v = vehicleOr404(ctx, (request.query as { vehicleId: number }).vehicleId);
    return ok({ vehicleId: v.id, plate: v.plate, faces: store.boundFaces(v.id) }, requestLang(request));
  });

  // The bind dialog's driver search (drivers of the caller's companies).
  app.get('/service-priv/facerecognition/device/candidates', {
    config: { permission: B('bind') },
    schema: { querystring: Strict({ vehicleId: Id, keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query as { vehicleId: number; keyword?: string };
    const v = vehicleOr404(ctx, q.vehicleId);
    return ok(store.candidates(ctx.scope, v.id, q.keyword ?? '', 50), requestLang(request));
  });

  app.post('/service-priv/facerecognition/device/bind', {
    config: { permission: B('bind') },
    schema: { body: BindBody },
  }, async (request) => {
    const ctx = auth(request);
    const { vehicleId, driverIds } = request.body as { vehicleId: number; driverIds: number[] };
    const v = vehicleOr404(ctx, vehicleId);
    // Every driver is checked before anything is written: one refusal binds none.
    const drivers = driverIds.map((id) => {
      const d = store.driver(ctx.scope, id);
      if (!d) throw fail.notFound(NoDriver);
      if (!d.photo) throw fail.badRequest(NoPhoto(d.name));
      if (d.certNo === '') throw fail.badRequest(NoCert(d.name));
      return { ...d, photo: d.photo };
    });
    const already = new Set(store.boundDriverIds(v.id));
    if (new Set([...already, ...driverIds]).size > MAX_FACES_PER_PUSH) throw fail.badRequest(TooMany);
    const w = who(ctx);
    const changed = await storage.transaction(async () => drivers.filter((d) => store.bind(v.id, d, w)).length);
    return ok({ changed, faces: store.boundFaces(v.id) }, requestLang(request));
  });

  app.post('/service-priv/facerecognition/device/unbind', {
    config: { permission: B('unbind') },
    schema: { body: BindBody },
  }, async (request) => {
    const ctx = auth(request);
    const { vehicleId, driverIds } = request.body as { vehicleId: number; driverIds: number[] };
    const v = vehicleOr404(ctx, vehicleId);
    const changed = await storage.transaction(async () => driverIds.filter((id) => store.unbind(v.id, id)).length);
    return ok({ changed, faces: store.boundFaces(v.id) }, requestLang(request));
  });

  // 修改 (update): the devices' bound faces take their drivers' current photos (then 添加样本 pushes them).
  app.post('/service-priv/facerecognition/device/update', {
    config: { permission: B('update') },
    schema: { body: VehiclesBody },
  }, async (request) => {
    const ctx = auth(request);
    const vehicles = (request.body as { vehicleIds: number[] }).vehicleIds.map((id) => vehicleOr404(ctx, id));
    const w = who(ctx);
    const changed = await storage.transaction(async () => {
      let n = 0;
      for (const v of vehicles) {
        for (const driverId of store.boundDriverIds(v.id)) {
          const d = store.driver(ctx.scope, driverId);
          if (d?.photo && store.bind(v.id, { id: d.id, photo: d.photo }, w)) n++;
        }
      }
      return n;
    });
    return ok({ changed }, requestLang(request));
  });

  // 更新设备: the device's pass threshold (sent with the next sample push).
  app.post('/service-priv/facerecognition/device/updateDevice', {
    config: { permission: B('updateDevice') },
    schema: { body: Strict({ vehicleId: Id, threshold: Type.Integer({ minimum: 1, maximum: 100 }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const { vehicleId, threshold } = request.body as { vehicleId: number; threshold: number };
    const v = vehicleOr404(ctx, vehicleId);
    await storage.transaction(async () => store.setThreshold(v.id, threshold));
    return ok({ vehicleId: v.id, threshold }, requestLang(request));
  });

  // 添加样本: pushes each device's bound faces (replace all, 0x8E11) and waits for its 0x0E11.
  app.post('/service-priv/facerecognition/device/addSample', {
    config: { permission: B('addSample') },
    schema: { body: VehiclesBody },
  }, async (request) => {
    const ctx = auth(request);
    const vehicles = (request.body as { vehicleIds: number[] }).vehicleIds.map((id) => vehicleOr404(ctx, id));
    const w = who(ctx);
    const outcomes = await Promise.all(vehicles.map(async (v) => {
      const faces = store.pushFaces(v.id);
      const items: FaceSampleItem[] = faces.map((f) => ({ faceId: f.faceId, name: f.name, photoType: photoTypeOf(f.mime), photo: f.photo }));
      const out = await gateway.request(v.id, { msgId: FACE_MSG.SAMPLES, op: FACE_OP.REPLACE, threshold: store.threshold(v.id), faces: items }, FACE_MSG.SAMPLES_ANSWER, PUSH_TIMEOUT_MS);
      let state: PushState;
      let held: string[] | null = null;
      if (out.kind === 'answer' && out.message.msgId === FACE_MSG.SAMPLES_ANSWER) {
        state = out.message.result === 0 ? 'ok' : 'failed';
        held = out.message.faceIds;
      } else state = out.kind === 'offline' ? 'offline' : out.kind === 'timeout' ? 'timeout' : 'failed';
      return { v, faces, state, held };
    }));
    await storage.transaction(async () => {
      for (const o of outcomes) store.recordPush(o.v.id, o.state, w, o.faces as PushFace[], o.held);
    });
    return ok({ devices: outcomes.map((o) => ({ vehicleId: o.v.id, plate: o.v.plate, state: o.state, faces: o.faces.length, held: o.held })) }, requestLang(request));
  });

  const readStatus = async (vehicleId: number) => {
    const out = await gateway.request(vehicleId, { msgId: FACE_MSG.QUERY }, FACE_MSG.QUERY_ANSWER, QUERY_TIMEOUT_MS);
    if (out.kind === 'answer' && out.message.msgId === FACE_MSG.QUERY_ANSWER) return { state: 'ok' as const, held: out.message.faceIds };
    return { state: out.kind === 'offline' ? 'offline' as const : out.kind === 'timeout' ? 'timeout' as const : 'failed' as const, held: null };
  };

  // 获取状态: asks one terminal which faces it holds (0x8E12 → 0x0E12) and compares with the bindings.
  app.post('/service-priv/facerecognition/device/getStatus', {
    config: { permission: B('getStatus') },
    schema: { body: VehicleBody },
  }, async (request) => {
    const ctx = auth(request);
    const v = vehicleOr404(ctx, (request.body as { vehicleId: number }).vehicleId);
    const s = await readStatus(v.id);
    const time = Date.now();
    await storage.transaction(async () => store.recordStatus(v.id, s.state, time, s.held));
    const faces = store.boundFaces(v.id);
    const bound = new Set(faces.map((f) => f.certNo));
    return ok({ vehicleId: v.id, plate: v.plate, state: s.state, time, held: s.held, faces, extra: s.held?.filter((id) => !bound.has(id)) ?? [] }, requestLang(request));
  });

  // 更新状态: the same read for several devices at once.
  app.post('/service-priv/facerecognition/device/updateStatus', {
    config: { permission: B('updateStatus') },
    schema: { body: VehiclesBody },
  }, async (request) => {
    const ctx = auth(request);
    const vehicles = (request.body as { vehicleIds: number[] }).vehicleIds.map((id) => vehicleOr404(ctx, id));
    const reads = await Promise.all(vehicles.map(async (v) => ({ v, ...(await readStatus(v.id)) })));
    const time = Date.now();
    await storage.transaction(async () => {
      for (const r of reads) store.recordStatus(r.v.id, r.state, time, r.held);
    });
    return ok({ devices: reads.map((r) => ({ vehicleId: r.v.id, plate: r.v.plate, state: r.state, held: r.held })) }, requestLang(request));
  });

  // 识别: the terminal compares the driver now (0x8E10); its 0x0E10 lists on the results page.
  app.post('/service-priv/facerecognition/device/recognition', {
    config: { permission: B('recognition') },
    schema: { body: VehicleBody },
  }, async (request) => {
    const ctx = auth(request);
    const v = vehicleOr404(ctx, (request.body as { vehicleId: number }).vehicleId);
    const out = await gateway.sendCommand(v.id, { msgId: FACE_MSG.RECOGNISE, channel: 0 });
    const state = out.kind === 'reply' ? (out.result === 0 ? 'ok' : 'failed') : out.kind;
    return ok({ vehicleId: v.id, plate: v.plate, state }, requestLang(request));
  });

  // 获取司机: the driver the terminal identified last (a result marked as a mistake does not count).
  app.get('/service-priv/facerecognition/device/driver', {
    config: { permission: B('getDriver') },
    schema: { querystring: Strict({ vehicleId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const v = vehicleOr404(ctx, (request.query as { vehicleId: number }).vehicleId);
    const last = store.lastResult(v.id);
    return ok({ vehicleId: v.id, plate: v.plate, online: gateway.isReachable(v.id), last: last ? store.result(ctx.scope, last.id) : null }, requestLang(request));
  });
}
