/**
 * A vehicle's terminal registration, for operators (issue 12 §2): whether it is registered, who ended
 * the last registration, and the refused re-registrations (0x8100 result 3: someone sent 0x0100 for a
 * registered terminal). An operator with device management resets the registration so a replaced or
 * wiped terminal can register again — by vehicle, or by device (issue 15: a device installed on no
 * vehicle has a registration too). A reset leaves its operator-log row. API.md "JT/T 808 gateway".
 */
import { Type } from '@fastify/type-provider-typebox';
import type { Lang } from '../../domain/errors/catalogue.ts';
import type { TerminalRegistrationView } from '../../domain/vehicle/registration.ts';
import type { Storage } from '../db/repositories.ts';
import type { FleetSync } from '../live/fleet-sync.ts';
import { auth } from '../http/auth.ts';
import { fail, ok } from '../http/envelope.ts';
import { requestLang } from '../http/lang.ts';
import type { Message } from '../http/messages.ts';
import { Id, Strict, type App } from '../http/route.ts';
import type { Jt808Gateway } from './server.ts';

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);

export const RegistrationMessages = {
  notFound: pair('车辆不存在或不在您的管辖范围内', 'The vehicle does not exist or is outside your scope'),
  deviceNotFound: pair('设备不存在或不在您的管辖范围内', 'The device does not exist or is outside your scope'),
};

/** What the calls answer: the stored state and whether the terminal is online now. */
export type RegistrationView = TerminalRegistrationView;

export function deviceRegistrationRoutes(app: App, deps: { readonly storage: Storage; readonly gateway: Jt808Gateway; readonly fleetSync: FleetSync }): void {
  const { storage, gateway, fleetSync } = deps;

  /**
   * This node's gateway released the terminal in `resetDeviceRegistration`; in scale-out (issue 20) its
   * connection may be on another gateway node: the fleet change reaches every node, whose directory finds
   * the code it cached void in the database and ends that authentication. On one node: one re-read.
   */
  const tellOtherNodes = (deviceNo: string) => fleetSync.devicesChanged([deviceNo]);

  /** The vehicle's registration inside the caller's scope; 404 outside it (no existence leak). */
  async function view(vehicleId: number, scope: Parameters<Storage['terminals']['labels']>[0]): Promise<RegistrationView> {
    const inScope = await storage.terminals.labels(scope, [vehicleId]);
    const state = inScope.has(vehicleId) ? await storage.terminals.registrationOf(vehicleId) : undefined;
    if (!state) throw fail.notFound(RegistrationMessages.notFound);
    return { ...state, online: gateway.isReachable(vehicleId) };
  }

  // Shown on the monitor's vehicle card, so it needs what the card needs.
  app.get('/service-priv/device/registration', {
    config: { permission: '/monitor/index' },
    schema: { querystring: Strict({ vehicleId: Id }) },
  }, async (request) => ok(await view(request.query.vehicleId, auth(request).scope), requestLang(request)));

  /** The operator-log row of a reset (issue 15: nothing on the device page changes without one). */
  async function logReset(ctx: ReturnType<typeof auth>, ip: string, device: { id: number; deviceNo: string; companyId: number }): Promise<void> {
    await storage.transaction(async (tx) => tx.changeLog.append({
      resource: 'device', recordId: device.id, label: device.deviceNo, companyId: device.companyId, operation: 'resetRegistration',
      userId: ctx.user.id, userName: ctx.user.realName || ctx.user.username, ip, time: Date.now(), before: { registered: true }, after: { registered: false },
    }));
  }

  // Device management: the one who may replace a vehicle's terminal may let a new one register.
  // By vehicle (the monitor's card, issue 12) or by device (issue 15: the device page, installed or not).
  app.post('/service-priv/device/resetRegistration', {
    config: { permission: '/information/device' },
    schema: { body: Type.Union([Strict({ vehicleId: Id }), Strict({ deviceId: Id })]) },
  }, async (request) => {
    const ctx = auth(request);
    const body = request.body as { vehicleId?: number; deviceId?: number };
    if (body.deviceId !== undefined) {
      const device = await storage.devices.get(ctx.scope, body.deviceId);
      if (!device) throw fail.notFound(RegistrationMessages.deviceNotFound);
      const reset = await gateway.resetDeviceRegistration(device.deviceNo, ctx.user.id);
      if (reset) await tellOtherNodes(device.deviceNo);
      request.log.warn({ deviceNo: device.deviceNo, userId: ctx.user.id, wasRegistered: reset },
        'terminal registration reset by an operator: the terminal must register again');
      if (reset) await logReset(ctx, request.ip, device);
      const after = await storage.devices.get(ctx.scope, device.id);
      return ok({ deviceId: device.id, deviceNo: device.deviceNo, registered: after?.registered ?? false, online: gateway.deviceOnline(device.deviceNo) }, requestLang(request));
    }
    const before = await view(body.vehicleId!, ctx.scope);
    // A vehicle without a device (issue 15) has no registration to reset.
    if (!before.deviceNo) return ok(before, requestLang(request));
    const reset = await gateway.resetRegistration(before.vehicleId, before.deviceNo, ctx.user.id);
    if (reset) await tellOtherNodes(before.deviceNo);
    request.log.warn({ vehicleId: before.vehicleId, deviceNo: before.deviceNo, userId: ctx.user.id, wasRegistered: reset },
      'terminal registration reset by an operator: the terminal must register again');
    if (reset) {
      const device = (await storage.devices.page(ctx.scope, { current: 1, size: 1, keyword: before.deviceNo })).records.find((d) => d.deviceNo === before.deviceNo);
      if (device) await logReset(ctx, request.ip, device);
    }
    return ok(await view(before.vehicleId, ctx.scope), requestLang(request));
  });
}
