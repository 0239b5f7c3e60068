/**
 * Issue 15: vehicles (/information/vehicle), the service-priv vehicle calls. The table calls (page,
 * create, update, delete, import, export) are the declaration in resources/vehicles.ts; the others are
 * here: modifyVehiCompany (move with history), license_plate, status, device, photoList, syncToCab, and
 * updateVehicleToFacewarehouse with the face warehouse's own reads (services/face-warehouse).
 * Contract: ./api/vehicles.md.
 */
import { Type } from '@fastify/type-provider-typebox';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { VEHICLE_LIMITS } from '../../../domain/fleet/limits.ts';
import type { VehicleRecord } from '../../db/vehicle-record-types.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, Strict, type App } from '../../http/route.ts';
import { MSG, RESULT } from '../../gateway/jt808/messages.ts';
import { PARAM, parameter } from '../../gateway/jt808/parameters.ts';
import { registerResource } from '../../resources/resource.ts';
import { PendingVehicleSync, vehicleResource } from '../../resources/vehicles.ts';
import { countStates } from '../monitor/realtime.ts';
import { TERMINAL_REPLY_TIMEOUT_MS } from '../safe/alarms.ts';
import { terminalResultText } from '../safe/messages.ts';
import type { FleetAssetDeps } from './deps.ts';
import { registerFaceWarehouseCalls } from '../face-warehouse/index.ts';

const page = '/information/vehicle' as const;
const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);

export const VehicleCallMessages = {
  noSuchVehicle: pair('车辆不存在', 'No such vehicle'),
  notOnline: pair('车辆不在线', 'The vehicle is not online'),
  /** syncToCab: the terminal answered 0x8103 with a result other than 0 (`answer` is its result in words). */
  plateRefused: (answer: string): Message => pair(`终端未接受车牌设置（${answer}）`, `The terminal did not accept the plate (${answer})`),
  plateNoReply: pair('已下发车牌，终端未应答，请稍后重试', 'The plate was sent but the terminal did not reply: try again later'),
  /** modifyVehiCompany: a permit moving with its vehicle would give the target company a number twice. */
  permitClash: (plate: string, permitNo: string): Message =>
    pair(`车辆「${plate}」的准运证「${permitNo}」与目标单位已有的准运证同号，请先修改或删除其中一张再转移`,
      `Vehicle ${plate}'s transport permit ${permitNo} has the number of one the target company already holds: change or delete one of them, then move`),
} as const;

const MoveBody = Type.Object({
  ids: Type.Array(Id, { minItems: 1, maxItems: VEHICLE_LIMITS.moveMax, uniqueItems: true }),
  /** The company the vehicles move to (not the tree selection: required here). */
  companyId: Id,
}, { additionalProperties: false });
const PhotoBody = Strict({ ids: Type.Array(Id, { minItems: 1, maxItems: VEHICLE_LIMITS.moveMax, uniqueItems: true }) });

export function registerVehicleCalls(app: App, deps: FleetAssetDeps): void {
  const { storage, live, fleetSync } = deps;
  const pending = new PendingVehicleSync();

  /** After a vehicle write's answer (committed or not: a rolled-back id only makes the live side re-read it), the live side follows. */
  const flush = async () => {
    if (pending.vehicles.size === 0 && pending.devices.size === 0) return;
    const vehicles = [...pending.vehicles];
    const devices = [...pending.devices];
    pending.vehicles.clear();
    pending.devices.clear();
    if (devices.length) await fleetSync.devicesChanged(devices);
    if (vehicles.length) await fleetSync.vehiclesChanged(vehicles);
  };
  registerResource(app, storage, vehicleResource(pending, flush));
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.routeOptions.url?.startsWith('/service-priv/vehicle')) await flush();
  });

  const inScope = async (scope: Parameters<typeof storage.vehicles.get>[0], ids: readonly number[]): Promise<VehicleRecord[]> => {
    const out: VehicleRecord[] = [];
    for (const id of ids) {
      const v = await storage.vehicles.get(scope, id);
      if (!v) throw fail.notFound(VehicleCallMessages.noSuchVehicle);
      out.push(v);
    }
    return out;
  };

  app.post('/service-priv/vehicle/modifyVehiCompany', {
    config: { permission: `${page}:move` },
    schema: { body: MoveBody },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const { ids, companyId } = request.body as { ids: number[]; companyId: number };
    const target = await narrowedScope(storage, ctx, companyId);
    if (target.all) throw fail.forbidden();
    const vehicles = (await inScope(ctx.scope, ids)).filter((v) => v.companyId !== companyId);
    const moving = vehicles.map((v) => v.id);
    const devices: string[] = [];
    if (moving.length) {
      await storage.transaction(async (tx) => {
        // Permits follow their vehicles; a number the target would then hold twice stops the move (nothing written).
        const clash = await tx.vehicles.permitClash(moving, companyId);
        if (clash) throw fail.conflict(VehicleCallMessages.permitClash(clash.vehiidno, clash.permitNo));
        const r = await tx.vehicles.moveToCompany(moving, companyId, target.rootPath);
        const who = { userId: ctx.user.id, userName: ctx.user.realName || ctx.user.username, ip: request.ip, time: Date.now() };
        for (const v of vehicles) {
          const b = r.before.get(v.id)!;
          await tx.changeLog.moveRecord('vehicle', v.id, companyId);
          const dropped = r.droppedDrivers.get(v.id) ?? [];
          await tx.changeLog.append({
            resource: 'vehicle', recordId: v.id, label: v.vehiidno, companyId, operation: 'move', ...who,
            before: { companyId: b.companyId, ...(r.clearedLines.has(v.id) ? { lineId: b.lineId } : {}), ...(dropped.length ? { driverIds: dropped } : {}) },
            after: { companyId, ...(r.clearedLines.has(v.id) ? { lineId: null } : {}), ...(dropped.length ? { driverIds: [] } : {}) },
          });
          if (b.device) {
            devices.push(b.device.deviceNo);
            await tx.changeLog.moveRecord('device', b.device.id, companyId);
            if (b.device.companyId !== companyId) {
              await tx.changeLog.append({
                resource: 'device', recordId: b.device.id, label: b.device.deviceNo, companyId, operation: 'move', ...who,
                before: { companyId: b.device.companyId }, after: { companyId },
              });
            }
          }
        }
        for (const id of r.installationIds) await tx.changeLog.moveRecord('installation', id, companyId);
      });
      if (devices.length) await fleetSync.devicesChanged(devices);
      await fleetSync.vehiclesChanged(moving);
    }
    return ok({ moved: moving.length }, lang);
  });

  app.get('/service-priv/vehicle/license_plate', {
    config: { permission: page },
    schema: { querystring: Strict({ plate: Name(VEHICLE_LIMITS.plateMax), id: Type.Optional(Id) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query as { plate: string; id?: number };
    const owner = await storage.vehicles.plateOwner(q.plate.trim(), q.id);
    // The id only when the caller could open that vehicle: another branch's vehicle stays anonymous.
    const visible = owner && (await storage.vehicles.get(ctx.scope, owner.id));
    return ok({ taken: !!owner, ...(visible ? { vehicleId: owner.id } : {}) }, requestLang(request));
  });

  app.get('/service-priv/vehicle/status', {
    config: { permission: page },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, (request.query as { companyId?: number }).companyId);
    const now = Date.now();
    const counts = await storage.vehicles.statusCounts(scope, now);
    const live = countStates(deps.live.store, scope, now);
    return ok({ ...counts, online: live.online, offline: counts.total - live.online }, requestLang(request));
  });

  app.get('/service-priv/vehicle/device', {
    config: { permission: page },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const [v] = await inScope(ctx.scope, [(request.query as { id: number }).id]);
    const device = v!.deviceNo === null ? null : (await storage.vehicles.deviceOf(v!.id)) ?? null;
    const registration = device ? (await storage.terminals.registrationOf(v!.id)) ?? null : null;
    return ok({ vehicleId: v!.id, vehiidno: v!.vehiidno, deviceNo: v!.deviceNo, device, registration, online: live.gateway.isReachable(v!.id) }, requestLang(request));
  });

  app.post('/service-priv/vehicle/photoList', {
    config: { permission: page, audit: false },
    schema: { body: PhotoBody },
  }, async (request) => {
    const ctx = auth(request);
    const vehicles = await inScope(ctx.scope, (request.body as { ids: number[] }).ids);
    const plates = new Map(vehicles.map((v) => [v.id, v.vehiidno]));
    const photos = await storage.vehicles.latestPhotos(vehicles.map((v) => v.id));
    return ok(photos.map((p) => ({ ...p, vehiidno: plates.get(p.vehicleId), url: `/service-priv/media/file/${p.mediaId}` })), requestLang(request));
  });

  app.get('/service-priv/vehicle/syncToCab', {
    config: { permission: `${page}:update` },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const [v] = await inScope(ctx.scope, [(request.query as { id: number }).id]);
    if (v!.deviceNo === null || !live.gateway.isReachable(v!.id)) throw new AppError(ErrorCode.Conflict, VehicleCallMessages.notOnline);
    // 0x8103 with the plate (0x0083) and its colour (0x0084); the terminal's 0x0001 decides the answer.
    // Nothing of the record changes, so no operator-log row (api/vehicles.md).
    const outcome = await live.gateway.sendCommand(v!.id, {
      msgId: MSG.SET_PARAMETERS,
      params: [parameter(PARAM.plate, v!.vehiidno), parameter(PARAM.plateColor, v!.plateColor)],
    }, TERMINAL_REPLY_TIMEOUT_MS);
    if (outcome.kind === 'offline') throw new AppError(ErrorCode.Conflict, VehicleCallMessages.notOnline);
    if (outcome.kind === 'timeout') throw new AppError(ErrorCode.GatewayTimeout, VehicleCallMessages.plateNoReply);
    if (outcome.result !== RESULT.OK) throw new AppError(ErrorCode.Conflict, VehicleCallMessages.plateRefused(terminalResultText(outcome.result, lang)));
    return ok({ result: 'ok' as const, vehicleId: v!.id, vehiidno: v!.vehiidno, plateColor: v!.plateColor }, lang);
  });

  // The face warehouse: enrol the vehicles' drivers (a vehicle call of the catalogue) and the warehouse's list.
  registerFaceWarehouseCalls(app, storage);

}
