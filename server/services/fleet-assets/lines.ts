/**
 * Issue 15: lines and stations (/information/lineManagement). The line itself is the resource
 * declaration of resources/lines.ts (page, create, update, delete); beside it, hand-written:
 *
 * - GET  /service-priv/line/:id        detail: the line, both directions' stations, its vehicles (page bit)
 * - PUT  /service-priv/line/stations   replaces one direction's stations in one transaction (update bit)
 * - POST /service-priv/line/vehicles   puts vehicles on the line, or takes them off with `remove` (update bit)
 *
 * Both writes leave their operator-log rows in their own transaction: 'line' rows for the stations
 * and the vehicle count, and one 'vehicle' row per vehicle whose line changed (before / after lineId).
 * Contract: ./api/lines.md.
 */
import { Type } from '@fastify/type-provider-typebox';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { LINE_LIMITS as L } from '../../../domain/fleet/limits.ts';
import { normalizeStation, sameStations, stationProblems, stationProblemText, type LineDirection, type Station } from '../../../domain/fleet/line.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { LineRecord } from '../../db/line-types.ts';
import { auth, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, Strict, type App } from '../../http/route.ts';
import { registerResource } from '../../resources/resource.ts';
import { LINE_PAGE, lineResource, LineMessages } from '../../resources/lines.ts';
import type { LiveStore } from '../../live/store.ts';
import type { FleetAssetDeps } from './deps.ts';

/** Vehicles put on or taken off a line in one call (spec §5: 500 at once). */
export const LINE_VEHICLES_MAX = 500;
/** Vehicles the detail lists (by plate); `vehicleCount` has them all. */
export const LINE_DETAIL_VEHICLES_MAX = 2000;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const LineCallMessages = {
  lineNotInVehicleCompany: (line: string, plates: readonly string[]): Message => pair(
    `线路「${line}」不属于车辆 ${plates.join('、')} 的所属公司或其下级公司`,
    `The line "${line}" is not in the company of vehicle(s) ${plates.join(', ')} or a company below it`),
  noSuchVehicle: pair('车辆不存在', 'No such vehicle'),
} as const;

const StationBody = Type.Object({
  name: Name(L.stationNameMax),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  lat: Type.Number({ minimum: -90, maximum: 90 }),
}, { additionalProperties: false });

const Direction = Type.Union([Type.Literal(0), Type.Literal(1)]);

const DIRECTION_FIELD: Record<LineDirection, 'upStations' | 'downStations'> = { 0: 'upStations', 1: 'downStations' };

/** The median of some numbers (an outlier, a drifting terminal, does not move it). */
function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

/**
 * Where the editor's map opens on a line without stations: the median latest position of the line's
 * vehicles, else of the vehicles of the line's company subtree (where its buses run), else null.
 */
export function mapHint(store: LiveStore, lineVehicleIds: ReadonlySet<number>, companyPath: string): { lng: number; lat: number } | null {
  const cols = store.columns;
  const pick = (accept: (slot: number) => boolean) => {
    const lngs: number[] = [];
    const lats: number[] = [];
    for (let slot = 0; slot < store.count; slot++) {
      const lng = cols.lng[slot]!;
      const lat = cols.lat[slot]!;
      if (!Number.isFinite(lng) || !Number.isFinite(lat) || (lng === 0 && lat === 0) || !accept(slot)) continue;
      lngs.push(lng);
      lats.push(lat);
    }
    return lngs.length ? { lng: median(lngs), lat: median(lats) } : null;
  };
  return (lineVehicleIds.size ? pick((slot) => lineVehicleIds.has(cols.vehicleId[slot]!)) : null)
    ?? pick((slot) => store.companyPathOf(slot).startsWith(companyPath));
}

function operator(ctx: AuthContext, ip: string) {
  return { userId: ctx.user.id, userName: ctx.user.realName || ctx.user.username, ip, time: Date.now() };
}

export function registerLineCalls(app: App, deps: FleetAssetDeps): void {
  const { storage } = deps;
  registerResource(app, storage, lineResource);

  async function lineInScope(ctx: AuthContext, id: number): Promise<LineRecord> {
    const line = await storage.lines.get(ctx.scope, id);
    if (!line) throw fail.notFound(LineMessages.notFound);
    return line;
  }

  app.get('/service-priv/line/:id', {
    config: { permission: LINE_PAGE },
    schema: { params: Type.Object({ id: Id }), querystring: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    const line = await lineInScope(ctx, request.params.id);
    const [stations, vehicles] = await Promise.all([storage.lines.stations(line.id), storage.lines.vehiclesOf(ctx.scope, line.id, LINE_DETAIL_VEHICLES_MAX)]);
    const empty = stations.up.length === 0 && stations.down.length === 0;
    const companyPath = empty ? await storage.lines.companyPath(line.companyId) : undefined;
    return ok({
      ...line, stations,
      mapHint: companyPath ? mapHint(deps.live.store, new Set(vehicles.map((v) => v.id)), companyPath) : null,
      vehicles: vehicles.map((v) => ({ id: v.id, vehiidno: v.vehiidno, companyId: v.companyId, companyName: v.companyName, deviceNo: v.deviceNo })),
    }, requestLang(request));
  });

  app.put('/service-priv/line/stations', {
    config: { permission: `${LINE_PAGE}:update` },
    schema: { body: Strict({ lineId: Id, direction: Direction, stations: Type.Array(StationBody, { maxItems: L.stationsMax }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const direction = request.body.direction as LineDirection;
    const stations: Station[] = request.body.stations.map(normalizeStation);
    const problem = stationProblems(stations)[0];
    if (problem) {
      const { code, ...params } = problem;
      throw new AppError(ErrorCode.BadRequest, (l) => stationProblemText(problem, l), null, { stations: { code, params } });
    }
    const line = await lineInScope(ctx, request.body.lineId);
    const field = DIRECTION_FIELD[direction];
    await app.resourceWrites.writeThrough(storage, { resource: 'line', operation: 'update', userId: ctx.user.id, sessionId: ctx.sessionId }, async (tx) => {
      const before = (await tx.lines.stations(line.id))[direction === 0 ? 'up' : 'down'];
      if (sameStations(before, stations)) return { ids: [], result: undefined };
      await tx.lines.replaceStations(line.id, direction, stations);
      await tx.lines.touch(line.id);
      await tx.changeLog.append({
        resource: 'line', recordId: line.id, label: line.name, companyId: line.companyId, operation: 'update', ...operator(ctx, request.ip),
        before: { [field]: before }, after: { [field]: stations },
      });
      return { ids: [line.id], result: undefined };
    });
    const after = await lineInScope(ctx, line.id);
    return ok({ ...after, stations: await storage.lines.stations(line.id) }, lang);
  });

  app.post('/service-priv/line/vehicles', {
    config: { permission: `${LINE_PAGE}:update` },
    schema: { body: Strict({ lineId: Id, vehicleIds: Type.Array(Id, { minItems: 1, maxItems: LINE_VEHICLES_MAX, uniqueItems: true }), remove: Type.Optional(Type.Boolean()) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const { lineId, vehicleIds } = request.body;
    const remove = request.body.remove === true;
    const line = await lineInScope(ctx, lineId);
    const vehicles = await storage.lines.vehiclesByIds(ctx.scope, vehicleIds);
    // Every vehicle in the caller's scope, or nothing is written (an id outside it reads as missing).
    if (vehicles.length !== vehicleIds.length) throw fail.notFound(LineCallMessages.noSuchVehicle);
    if (!remove) {
      // The vehicle form's rule for the same field (resources/vehicles.ts): the line is of the vehicle's
      // company or a company below it, so the vehicle shows under the line in its owner's company tree.
      const linePath = await storage.lines.companyPath(line.companyId);
      const outside = vehicles.filter((v) => !linePath || !linePath.startsWith(v.companyPath)).map((v) => v.vehiidno).sort();
      if (outside.length > 0) {
        const shown = outside.slice(0, 5).concat(outside.length > 5 ? ['…'] : []);
        throw new AppError(ErrorCode.BadRequest, LineCallMessages.lineNotInVehicleCompany(line.name, shown), null, { vehicleIds: { code: 'lineNotInVehicleCompany', params: { plates: outside.slice(0, 20) } } });
      }
    }
    const changed = vehicles.filter((v) => (remove ? v.lineId === line.id : v.lineId !== line.id)).sort((a, b) => a.vehiidno.localeCompare(b.vehiidno));
    const who = operator(ctx, request.ip);
    const count = await app.resourceWrites.writeThrough(storage, { resource: 'line', operation: 'update', userId: ctx.user.id, sessionId: ctx.sessionId }, async (tx: Repositories) => {
      const before = await tx.lines.vehicleCount(line.id);
      if (changed.length === 0) return { ids: [], result: before };
      const to = remove ? null : line.id;
      await tx.lines.setVehiclesLine(changed.map((v) => v.id), to);
      for (const v of changed) {
        await tx.changeLog.append({
          resource: 'vehicle', recordId: v.id, label: v.vehiidno, companyId: v.companyId, operation: 'update', ...who,
          before: { lineId: v.lineId }, after: { lineId: to },
        });
      }
      const after = await tx.lines.vehicleCount(line.id);
      await tx.lines.touch(line.id);
      await tx.changeLog.append({
        resource: 'line', recordId: line.id, label: line.name, companyId: line.companyId, operation: 'update', ...who,
        before: { vehicleCount: before }, after: { vehicleCount: after, [remove ? 'removed' : 'added']: changed.map((v) => v.vehiidno) },
      });
      return { ids: [line.id], result: after };
    });
    return ok({ changed: changed.length, vehicleCount: count }, lang);
  });
}
