/**
 * The face warehouse: `POST /service-priv/vehicle/updateVehicleToFacewarehouse` (call catalogue) enrols
 * the drivers bound to vehicles, and the screen /operation/faceRecognitionManagement/faceWarehouse reads
 * `GET /service-priv/facewarehouse` and its thumbnails (not in the catalogue: designed here).
 * Contract: ../fleet-assets/api/vehicles.md, section "Face warehouse".
 */
import { Type } from '@fastify/type-provider-typebox';
import { LIST_LIMITS } from '../../../domain/management/limits.ts';
import { VEHICLE_LIMITS } from '../../../domain/fleet/limits.ts';
import type { Repositories, Storage } from '../../db/repositories.ts';
import type { Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, Text, type App } from '../../http/route.ts';
import { FACE_STATES, FaceWarehouseStore, type Enroller, type FaceSkipReason, type VehicleFaceResult } from './store.ts';

export const FACE_WAREHOUSE_PAGE = '/operation/faceRecognitionManagement/faceWarehouse' as const;
export const FACE_SYNC_BUTTON = '/information/vehicle:faceWarehouse' as const;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const FaceSkipMessages: Record<FaceSkipReason, Message> = {
  notInScope: pair('车辆不存在或不在权限范围内', 'No such vehicle in your companies'),
  noDriver: pair('车辆未绑定司机', 'No driver is bound to the vehicle'),
  noPhoto: pair('司机没有照片', 'The driver has no photo'),
};
const NoSample = pair('该司机不在人脸库中', 'The driver is not in the face library');

const SyncBody = Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: VEHICLE_LIMITS.moveMax, uniqueItems: true }) });

/** The store over the storage's one SQLite connection (the only backend). */
export const faceStore = (storage: Storage | Repositories) => new FaceWarehouseStore((storage as SqliteStorage).db);

/**
 * Enrols the vehicles' drivers and appends one operator-log row ('faceSync') per vehicle whose
 * enrolled faces changed. Must run inside a transaction (`tx`): the call and the demo seed share it.
 */
export async function syncVehiclesToFaceWarehouse(tx: Repositories, scope: Scope, vehicleIds: readonly number[], who: Enroller & { ip: string }): Promise<VehicleFaceResult[]> {
  const results = faceStore(tx).enrolVehicles(scope, vehicleIds, who);
  for (const r of results) {
    if (r.vehiidno === null || r.companyId === null || !r.enrolled.some((e) => e.change !== 'unchanged')) continue;
    await tx.changeLog.append({
      resource: 'vehicle', recordId: r.vehicleId, label: r.vehiidno, companyId: r.companyId, operation: 'faceSync',
      userId: who.userId, userName: who.userName, ip: who.ip, time: who.time,
      before: { faceDriverIds: r.before }, after: { faceDriverIds: r.after },
    });
  }
  return results;
}

/** The per-vehicle answer in the caller's language (the log's before/after stay out of it). */
function answer(r: VehicleFaceResult, lang: Lang) {
  return {
    vehicleId: r.vehicleId, vehiidno: r.vehiidno, enrolled: r.enrolled,
    skipped: r.skipped.map((s) => ({ ...s, message: FaceSkipMessages[s.reason](lang) })),
  };
}

export function registerFaceWarehouseCalls(app: App, storage: Storage): void {
  const store = faceStore(storage);

  app.post('/service-priv/vehicle/updateVehicleToFacewarehouse', {
    config: { permission: FACE_SYNC_BUTTON },
    schema: { body: SyncBody },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const { ids } = request.body as { ids: number[] };
    const scope = await narrowedScope(storage, ctx, (request.body as { companyId?: number }).companyId);
    const who = { userId: ctx.user.id, userName: ctx.user.realName || ctx.user.username, ip: request.ip, time: Date.now() };
    const results = await storage.transaction((tx) => syncVehiclesToFaceWarehouse(tx, scope, ids, who));
    const vehicles = results.map((r) => answer(r, lang));
    return ok({
      vehicles,
      enrolled: results.reduce((n, r) => n + r.enrolled.filter((e) => e.change !== 'unchanged').length, 0),
      unchanged: results.reduce((n, r) => n + r.enrolled.filter((e) => e.change === 'unchanged').length, 0),
      skipped: results.reduce((n, r) => n + r.skipped.length, 0),
    }, lang);
  });

  app.get('/service-priv/facewarehouse', {
    config: { permission: FACE_WAREHOUSE_PAGE },
    schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)), state: Type.Optional(Type.Union(FACE_STATES.map((s) => Type.Literal(s)))) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query as { current: number; size: number; keyword?: string; state?: (typeof FACE_STATES)[number]; companyId?: number };
    const scope = await narrowedScope(storage, ctx, q.companyId);
    return ok(store.page(scope, q), requestLang(request));
  });

  // The thumbnail: the driver's photo for a reader of the warehouse (who may not hold /information/driver).
  app.get('/service-priv/facewarehouse/photo', {
    config: { permission: FACE_WAREHOUSE_PAGE },
    schema: { querystring: Strict({ driverId: Id, t: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })) }) },
  }, async (request, reply) => {
    const ctx = auth(request);
    const { driverId } = request.query as { driverId: number };
    if (!store.inScope(ctx.scope, driverId)) throw fail.notFound(NoSample);
    const photo = await storage.drivers.photo(driverId);
    if (!photo) throw fail.notFound(NoSample);
    // `t` (the photo's time) lets the console cache a version; private: scoped to the caller.
    return reply.header('content-type', photo.mime).header('content-length', photo.bytes.length).header('cache-control', 'private, max-age=86400').send(photo.bytes);
  });
}
