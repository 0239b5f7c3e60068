/**
 * Issue 15: installation records (/information/vehicle_installed), contract in ./api/installations.md.
 * Page and detail are declared on the resource layer (server/resources/installations.ts); the writes are
 * here: the create changes the vehicle's device through `changeDevice` (binding.ts) and stores the photos
 * in the same transaction, then tells the live side; the edit changes the record's own fields and photos,
 * never a binding; the delete removes records only, never a binding; the photo bytes are read in scope.
 * Every write appends its operator-log rows (resource 'installation') in its own transaction.
 */
import { Type } from '@fastify/type-provider-typebox';
import { unchangedText } from '../../../domain/fleet/installation.ts';
import { DEVICE_NO_PATTERN } from '../../../domain/fleet/limits.ts';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { changedFields } from '../../db/change-log-types.ts';
import type { Installation } from '../../db/installation-types.ts';
import type { Repositories } from '../../db/repositories.ts';
import { pathInScope } from '../../db/scope.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Id, IdList, Strict, type App } from '../../http/route.ts';
import {
  INSTALLED_PAGE, InstallationMessages, PHOTO_BODY_LIMIT, PhotoIdList, PhotoList, checkInstallTime, checkPhotoCount, decodePhotos, installationResource, recordFields,
} from '../../resources/installations.ts';
import { registerResource } from '../../resources/resource.ts';
import { BindingMessages, changeDevice } from './binding.ts';
import type { FleetAssetDeps } from './deps.ts';

const CreateBody = Strict({
  vehicleId: Id,
  /** The device the vehicle has from now on; null: the device is removed. */
  deviceNo: Type.Union([Type.String({ pattern: DEVICE_NO_PATTERN }), Type.Null()]),
  ...recordFields,
  photos: Type.Optional(PhotoList),
});

const UpdateBody = Strict({
  id: Id,
  ...recordFields,
  addPhotos: Type.Optional(PhotoList),
  removePhotoIds: Type.Optional(PhotoIdList),
});

type PhotoBody = { name: string; type?: string; data: string }[];

const operator = (ctx: AuthContext) => ctx.user.realName || ctx.user.username;

/** What the operator log holds of a record: its own fields and its photos' names. */
async function logged(tx: Repositories, r: Installation): Promise<Record<string, unknown>> {
  return {
    kind: r.kind, oldDeviceNo: r.oldDeviceNo, newDeviceNo: r.newDeviceNo, installer: r.installer, installTime: r.installTime, remark: r.remark,
    photos: (await tx.installations.photos(r.id)).map((p) => p.name),
  };
}

export function registerInstallationCalls(app: App, deps: FleetAssetDeps): void {
  const { storage, fleetSync } = deps;
  registerResource(app, storage, installationResource);
  const writes = app.resourceWrites;

  async function view(id: number, ctx: AuthContext): Promise<unknown> {
    const record = await storage.installations.get(ctx.scope, id);
    if (!record) throw fail.notFound(InstallationMessages.notFound);
    return { ...record, photos: await storage.installations.photos(id) };
  }

  app.post('/service-priv/vehicle/installed_record', {
    config: { permission: `${INSTALLED_PAGE}:create` },
    bodyLimit: PHOTO_BODY_LIMIT,
    schema: { body: CreateBody },
    handler: async (request) => {
      const ctx = auth(request);
      const lang = requestLang(request);
      const body = request.body as { vehicleId: number; deviceNo: string | null; installer?: string; installTime?: number; remark?: string; photos?: PhotoBody; companyId?: number };
      // `companyId` is the console's tree selection: it must lie in the caller's subtree (403); the vehicle decides the record's company.
      await narrowedScope(storage, ctx, body.companyId);
      const vehicle = await storage.installations.bindingVehicle(body.vehicleId);
      if (!vehicle || !pathInScope(ctx.scope, vehicle.companyPath)) throw fail.notFound(BindingMessages.noSuchVehicle);
      checkInstallTime(body.installTime);
      const photos = decodePhotos(body.photos);
      const unchanged = (no: string | null) => new AppError(ErrorCode.BadRequest, (l) => unchangedText(no, l), null, { deviceNo: { code: 'unchanged' } });
      if (body.deviceNo === vehicle.deviceNo) throw unchanged(vehicle.deviceNo);

      const result = await writes.writeThrough(storage, { resource: 'installation', operation: 'create', userId: ctx.user.id, sessionId: ctx.sessionId }, async (tx) => {
        const r = await changeDevice(tx, {
          vehicleId: vehicle.id, deviceNo: body.deviceNo, userId: ctx.user.id, userName: operator(ctx), ip: request.ip,
          installer: body.installer, time: body.installTime, remark: body.remark, scope: ctx.scope, photos,
        });
        // Another call changed the binding since the check above.
        if (r.installationId === undefined) throw unchanged(body.deviceNo);
        return { ids: [r.installationId], result: r };
      });
      await syncLive(request.log, result.devices, vehicle.id);
      return ok(await view(result.installationId!, ctx), lang);
    },
  });

  /** The live side follows the new binding (gateway directory, push scopes); the change is committed whatever happens here. */
  async function syncLive(log: { error(o: object, msg: string): void }, devices: readonly string[], vehicleId: number): Promise<void> {
    try {
      await fleetSync.devicesChanged(devices);
      await fleetSync.vehiclesChanged([vehicleId]);
    } catch (err) {
      log.error({ err, devices, vehicleId }, 'installation: live sync after a binding change failed');
    }
  }

  app.post('/service-priv/vehicle/installed_records/update', {
    config: { permission: `${INSTALLED_PAGE}:update` },
    bodyLimit: PHOTO_BODY_LIMIT,
    schema: { body: UpdateBody },
    handler: async (request) => {
      const ctx = auth(request);
      const lang = requestLang(request);
      const body = request.body as { id: number; installer?: string; installTime?: number; remark?: string; addPhotos?: PhotoBody; removePhotoIds?: number[]; companyId?: number };
      await narrowedScope(storage, ctx, body.companyId);
      const record = await storage.installations.get(ctx.scope, body.id);
      if (!record) throw fail.notFound(InstallationMessages.notFound);
      checkInstallTime(body.installTime);
      const added = decodePhotos(body.addPhotos);
      const removing = body.removePhotoIds ?? [];

      await writes.writeThrough(storage, { resource: 'installation', operation: 'update', userId: ctx.user.id, sessionId: ctx.sessionId }, async (tx) => {
        const have = await tx.installations.photos(record.id);
        const own = new Set(have.map((p) => p.id));
        const foreign = removing.find((id) => !own.has(id));
        if (foreign !== undefined) {
          throw new AppError(ErrorCode.BadRequest, InstallationMessages.noSuchPhoto(foreign), null, { removePhotoIds: { code: 'noSuchPhoto', params: { id: foreign } } });
        }
        checkPhotoCount(have.length - removing.length + added.length);
        const before = await logged(tx, record);
        await tx.installations.update(record.id, { installer: body.installer?.trim(), installTime: body.installTime, remark: body.remark?.trim() });
        await tx.installations.removePhotos(record.id, removing);
        await tx.installations.addPhotos(record.id, added);
        const after = await tx.installations.get(ctx.scope, record.id);
        const diff = changedFields(before, await logged(tx, after!));
        if (Object.keys(diff.after).length > 0) {
          await tx.changeLog.append({
            resource: 'installation', recordId: record.id, label: record.plate, companyId: record.companyId, operation: 'update',
            userId: ctx.user.id, userName: operator(ctx), ip: request.ip, time: Date.now(), before: diff.before, after: diff.after,
          });
        }
        return { ids: [record.id], result: undefined };
      });
      return ok(await view(record.id, ctx), lang);
    },
  });

  // The spec's DELETE carries `{ids}` in its body; the console's shared client sends DELETE parameters in the
  // query (as for `DELETE /role?ids=`), so ids there stand for the body when there is none.
  const DeleteQuery = Strict({ ids: Type.Optional(IdList) });
  app.delete('/service-priv/vehicle/installed_record', {
    config: { permission: `${INSTALLED_PAGE}:delete` },
    schema: { body: Strict({ ids: IdList }), querystring: DeleteQuery },
    preValidation: async (request) => {
      if (request.body !== undefined && request.body !== null) return;
      const q = request.query as { ids?: unknown };
      if (q.ids === undefined) return;
      const ids = (Array.isArray(q.ids) ? q.ids : [q.ids]).map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v));
      request.body = { ids };
    },
    handler: async (request) => {
      const ctx = auth(request);
      const lang = requestLang(request);
      const { ids } = request.body as { ids: number[] };
      const records: Installation[] = [];
      for (const id of ids) {
        const r = await storage.installations.get(ctx.scope, id);
        if (!r) throw fail.notFound(InstallationMessages.notFound);
        records.push(r);
      }
      await writes.writeThrough(storage, { resource: 'installation', operation: 'delete', userId: ctx.user.id, sessionId: ctx.sessionId }, async (tx) => {
        for (const r of records) {
          await tx.changeLog.append({
            resource: 'installation', recordId: r.id, label: r.plate, companyId: r.companyId, operation: 'delete',
            userId: ctx.user.id, userName: operator(ctx), ip: request.ip, time: Date.now(), before: await logged(tx, r), after: null,
          });
          await tx.installations.delete(r.id);
        }
        return { ids, result: undefined };
      });
      // Records only: every vehicle keeps the device it has.
      return ok({ deleted: records.length }, lang);
    },
  });

  app.get('/service-priv/vehicle/installed_records/photo', {
    config: { permission: INSTALLED_PAGE },
    schema: { querystring: Strict({ id: Id }) },
    handler: async (request, reply) => {
      const photo = await storage.installations.photo(auth(request).scope, (request.query as { id: number }).id);
      if (!photo) throw fail.notFound(InstallationMessages.notFound);
      const ext = photo.mime === 'image/png' ? 'png' : 'jpg';
      return reply
        .type(photo.mime)
        .header('cache-control', 'private, max-age=3600')
        .header('content-disposition', `inline; filename="photo-${photo.id}.${ext}"; filename*=UTF-8''${encodeURIComponent(photo.name)}`)
        .send(photo.bytes);
    },
  });
}
