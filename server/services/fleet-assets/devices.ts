/**
 * Issue 15: devices (/information/device): the resource (page, create, update, delete, import, export;
 * server/resources/devices.ts), the pickers' search (`device/pp/search`) and the refused registrations
 * (`device/error`). Contract: api/devices.md.
 */
import { Type } from '@fastify/type-provider-typebox';
import { ALL_COMPANIES } from '../../db/scope.ts';
import { auth, narrowedScope, permits, type AuthContext } from '../../http/auth.ts';
import { AppError, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { LIST_LIMITS } from '../../../domain/management/limits.ts';
import { PageFields, Strict, Text, type App } from '../../http/route.ts';
import { DeviceMessages, deviceResource } from '../../resources/devices.ts';
import { registerResource } from '../../resources/resource.ts';
import type { Storage } from '../../db/repositories.ts';
import type { FleetAssetDeps } from './deps.ts';

/** Options one picker search answers at most. */
export const DEVICE_SEARCH_MAX = 50;

/**
 * Refused registrations carry numbers no company owns (or devices without a vehicle, whose terminal
 * may be anyone's): they are shown to whoever may create devices at the root — an administrator, or a
 * user with the device create bit whose company is a root company (its scope is the whole tree).
 */
async function mayReadRefusals(storage: Storage, ctx: AuthContext): Promise<boolean> {
  if (ctx.isAdmin) return true;
  if (!permits(ctx, '/information/device:create')) return false;
  const company = await storage.companies.get(ALL_COMPANIES, ctx.user.companyId);
  return company !== undefined && company.pid === 0;
}

export function registerDeviceCalls(app: App, deps: FleetAssetDeps): void {
  const { storage, live, fleetSync } = deps;
  registerResource(app, storage, deviceResource(live, fleetSync));

  // The device pickers (vehicle form, installation records): devices of the caller's subtree (or of `companyId` in it).
  app.post('/service-priv/device/pp/search', {
    config: { permission: '/information', audit: false },
    schema: {
      body: Strict({
        keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)),
        unbound: Type.Optional(Type.Boolean()),
        size: Type.Optional(Type.Integer({ minimum: 1, maximum: DEVICE_SEARCH_MAX })),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const body = request.body;
    const scope = await narrowedScope(storage, ctx, body.companyId as number | undefined);
    const keyword = body.keyword?.trim();
    const options = await storage.devices.search(scope, { keyword: keyword || undefined, unbound: body.unbound, size: body.size ?? 20 });
    return ok(options, requestLang(request));
  });

  app.get('/service-priv/device/error', {
    config: { permission: '/information/device' },
    schema: {
      querystring: Strict({
        ...PageFields,
        keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)),
        result: Type.Optional(Type.Union([Type.Literal(2), Type.Literal(4)])),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    if (!(await mayReadRefusals(storage, ctx))) throw new AppError(ErrorCode.Forbidden, DeviceMessages.refusalsForbidden);
    const q = request.query;
    const keyword = q.keyword?.trim();
    const page = await storage.devices.refusals({ current: q.current, size: q.size, keyword: keyword || undefined, result: q.result });
    return ok(page, requestLang(request));
  });
}
