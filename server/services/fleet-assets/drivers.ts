/**
 * Issue 15: drivers (/information/driver). The list, create, update, delete, import and export are the
 * resource declaration of server/resources/drivers.ts; here are the calls the layer does not cover:
 * the driver's photo (the face warehouse reads `driver_photo` later) and its 0x0702 sign-ins.
 * API: ./api/drivers.md.
 */
import { Type } from '@fastify/type-provider-typebox';
import { checkPhoto, photoMime } from '../../../domain/fleet/driver.ts';
import { DRIVER_LIMITS } from '../../../domain/fleet/limits.ts';
import { LIST_LIMITS } from '../../../domain/management/limits.ts';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import type { Driver } from '../../db/driver-types.ts';
import type { Repositories } from '../../db/repositories.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, Text, type App } from '../../http/route.ts';
import { driverResource } from '../../resources/drivers.ts';
import { registerResource } from '../../resources/resource.ts';
import type { FleetAssetDeps } from './deps.ts';

const page = '/information/driver' as const;
const BASE = '/service-priv/driver';

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
const MiB = DRIVER_LIMITS.photoMaxBytes / (1024 * 1024);
export const DriverPhotoMessages = {
  notFound: pair('司机不存在', 'The driver does not exist'),
  noPhoto: pair('该司机没有照片', 'The driver has no photo'),
  photoEmpty: pair('字段 file 不合法：文件为空', 'Field file is invalid: the file is empty'),
  photoTooLarge: pair(`字段 file 不合法：照片不能超过 ${MiB} MB`, `Field file is invalid: a photo may be at most ${MiB} MB`),
  photoType: pair('字段 file 不合法：只能上传 JPEG 或 PNG 图片', 'Field file is invalid: only JPEG or PNG images can be uploaded'),
} as const;

/** Base64 of at most photoMaxBytes (4 characters per 3 bytes, padding, and line breaks some encoders add). */
const PHOTO_BASE64_MAX = Math.ceil(DRIVER_LIMITS.photoMaxBytes / 3) * 4 + 4096;

async function driverInScope(repos: Repositories, ctx: AuthContext, id: number): Promise<Driver> {
  const driver = await repos.drivers.get(ctx.scope, id);
  if (!driver) throw fail.notFound(DriverPhotoMessages.notFound);
  return driver;
}

export function registerDriverCalls(app: App, deps: FleetAssetDeps): void {
  const { storage } = deps;
  registerResource(app, storage, driverResource);

  /** The operator-log row of a photo change, in the change's transaction (hand-written writes log themselves). */
  const logPhoto = (tx: Repositories, ctx: AuthContext, ip: string, driver: Driver, had: boolean, has: boolean) => tx.changeLog.append({
    resource: 'driver', recordId: driver.id, label: driverResource.changeLog!.label(driver), companyId: driver.companyId, operation: 'update',
    userId: ctx.user.id, userName: ctx.user.realName || ctx.user.username, ip, time: Date.now(), before: { photo: had }, after: { photo: has },
  });

  app.post(`${BASE}/photo`, {
    config: { permission: `${page}:update` },
    bodyLimit: PHOTO_BASE64_MAX + 1024,
    schema: { body: Strict({ id: Id, file: Type.String({ minLength: 1, maxLength: PHOTO_BASE64_MAX, pattern: '^[A-Za-z0-9+/=\\s]*$' }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const driver = await driverInScope(storage, ctx, request.body.id);
    const bytes = Buffer.from(request.body.file, 'base64');
    const problem = checkPhoto(bytes);
    if (problem) throw new AppError(ErrorCode.BadRequest, DriverPhotoMessages[problem.key], null, { file: { code: problem.key } });
    const mime = photoMime(bytes)!;
    await storage.transaction(async (tx) => {
      const had = driver.photoTime !== null;
      await tx.drivers.setPhoto(driver.id, mime, bytes);
      await logPhoto(tx, ctx, request.ip, driver, had, true);
    });
    return ok(await driverInScope(storage, ctx, driver.id), lang);
  });

  app.get(`${BASE}/photo`, {
    config: { permission: page },
    schema: { querystring: Strict({ id: Id, t: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })) }) },
  }, async (request, reply) => {
    const ctx = auth(request);
    await driverInScope(storage, ctx, request.query.id);
    const photo = await storage.drivers.photo(request.query.id);
    if (!photo) throw fail.notFound(DriverPhotoMessages.noPhoto);
    // `t` (the photo's time) lets the console cache a version; private: scoped to the caller.
    return reply.header('content-type', photo.mime).header('content-length', photo.bytes.length).header('cache-control', 'private, max-age=86400').send(photo.bytes);
  });

  app.delete(`${BASE}/photo`, {
    config: { permission: `${page}:update` },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const driver = await driverInScope(storage, ctx, request.query.id);
    if (driver.photoTime === null) throw fail.notFound(DriverPhotoMessages.noPhoto);
    await storage.transaction(async (tx) => {
      if (await tx.drivers.deletePhoto(driver.id)) await logPhoto(tx, ctx, request.ip, driver, true, false);
    });
    return ok(await driverInScope(storage, ctx, driver.id), lang);
  });

  // The form's vehicle picker: vehicles of the driver's company subtree (`companyId`, else the caller's), by plate.
  app.get(`${BASE}/vehicle_options`, {
    config: { permission: page },
    schema: { querystring: Strict({ keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)), size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, request.query.companyId);
    return ok(await storage.drivers.vehicleOptions(scope, (request.query.keyword ?? '').trim(), request.query.size ?? 50), requestLang(request));
  });

  app.get(`${BASE}/signins`, {
    config: { permission: page },
    schema: { querystring: Strict({ driverId: Id, ...PageFields }) },
  }, async (request) => {
    const ctx = auth(request);
    const { driverId, current, size } = request.query;
    await driverInScope(storage, ctx, driverId);
    return ok(await storage.drivers.signIns(ctx.scope, driverId, { current, size }), requestLang(request));
  });
}
