/**
 * The /service-monitor calls over the latest-state store: single and batch realtime records,
 * state statistics, frame (rectangle) query and the paged realtime list. Every call scans the
 * store's columns (no per-vehicle objects) and keeps only slots whose company path lies in the
 * caller's scope, narrowed by `companyId` when given.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { RealtimeRecord, RealtimeStats } from '../../../domain/vehicle/realtime.ts';
import { isOnline, VEHICLE_STATE_NAMES, VehicleState } from '../../../domain/vehicle/state.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { pathInScope, type Scope } from '../../db/scope.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { LiveStore } from '../../live/store.ts';

/** Spec §5: monitoring at most 100 vehicles at once. */
export const MONITOR_MAX_VEHICLES = 100;
/** Frame query answers at most this many records (with the full `total`). */
export const FRAME_DEFAULT_LIMIT = 5000;
const DAY_MS = 86_400_000;
const GMT8_MS = 8 * 3_600_000;

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);

export const MonitorMessages = {
  tooManyVehicles: pair(`最多只能同时监控${MONITOR_MAX_VEHICLES}辆车`, `At most ${MONITOR_MAX_VEHICLES} vehicles can be monitored at once`),
  incompleteRectangle: pair('请绘制完整的矩形后再按框查询', 'A complete rectangle must be drawn to query by frame'),
  notInMonitor: pair('车辆不存在或不在监控范围内', 'The vehicle does not exist or is outside your monitoring scope'),
  adminOnly: pair('仅管理员可查看网关统计', 'Only an administrator can see the gateway statistics'),
};

export type { RealtimeRecord, RealtimeStats } from '../../../domain/vehicle/realtime.ts';

/** Calls `fn` for each slot whose company lies in the scope (a per-company cache keeps it O(n)). */
export function forEachInScope(store: LiveStore, scope: Scope, fn: (slot: number) => void): void {
  const n = store.count;
  if (scope.all) {
    for (let s = 0; s < n; s++) fn(s);
    return;
  }
  const company = store.columns.companyId;
  const inScope = new Map<number, boolean>();
  for (let s = 0; s < n; s++) {
    const c = company[s]!;
    let yes = inScope.get(c);
    if (yes === undefined) {
      yes = pathInScope(scope, store.companyPathOf(s));
      inScope.set(c, yes);
    }
    if (yes) fn(s);
  }
}

export function countStates(store: LiveStore, scope: Scope, now: number): RealtimeStats {
  const counts: RealtimeStats = { total: 0, online: 0, driving: 0, parking: 0, idling: 0, offline: 0, neverOnline: 0, todayOnline: 0 };
  const todayStart = Math.floor((now + GMT8_MS) / DAY_MS) * DAY_MS - GMT8_MS;
  const contact = store.columns.lastContact;
  forEachInScope(store, scope, (slot) => {
    counts.total++;
    const state = store.stateOf(slot, now);
    switch (state) {
      case VehicleState.Driving: counts.driving++; break;
      case VehicleState.Parking: counts.parking++; break;
      case VehicleState.Idling: counts.idling++; break;
      case VehicleState.Offline: counts.offline++; break;
      default: counts.neverOnline++;
    }
    if (isOnline(state)) counts.online++;
    if (contact[slot]! >= todayStart) counts.todayOnline++;
  });
  return counts;
}

/** Online share in percent, two decimals. */
export function onlineRate(online: number, total: number): number {
  return total === 0 ? 0 : Math.round((online / total) * 10_000) / 100;
}

function record(store: LiveStore, slot: number, now: number, label: VehicleLabel): RealtimeRecord {
  const c = store.columns;
  const state = store.stateOf(slot, now);
  const gpsTime = c.gpsTime[slot]!;
  const lastContact = c.lastContact[slot]!;
  const hasFix = Number.isFinite(gpsTime);
  return {
    vehicleId: c.vehicleId[slot]!, vehiidno: label.vehiidno, deviceNo: label.deviceNo ?? '', companyId: label.companyId, companyName: label.companyName,
    lng: hasFix ? c.lng[slot]! : null, lat: hasFix ? c.lat[slot]! : null, speed: Math.round(c.speed[slot]! * 10) / 10,
    direction: c.heading[slot]!, altitude: c.altitude[slot]!, status: c.statusFlags[slot]!, alarm: c.alarmFlags[slot]!,
    gpsTime: hasFix ? gpsTime : null, lastContact: Number.isFinite(lastContact) ? lastContact : null,
    state, stateName: VEHICLE_STATE_NAMES[state], online: isOnline(state),
  };
}

/** Records of the given slots, labelled from the database (slots outside the scope are dropped there too). */
async function records(storage: Storage, store: LiveStore, scope: Scope, slots: readonly number[], now: number): Promise<RealtimeRecord[]> {
  const ids = slots.map((s) => store.columns.vehicleId[s]!);
  const labels = await storage.terminals.labels(scope, ids);
  const out: RealtimeRecord[] = [];
  for (const slot of slots) {
    const label = labels.get(store.columns.vehicleId[slot]!);
    if (label) out.push(record(store, slot, now, label));
  }
  return out;
}

const STATE_FILTERS = ['all', 'online', ...VEHICLE_STATE_NAMES] as const;
type StateFilter = (typeof STATE_FILTERS)[number];

function matches(filter: StateFilter, state: VehicleState): boolean {
  if (filter === 'all') return true;
  if (filter === 'online') return isOnline(state);
  return VEHICLE_STATE_NAMES[state] === filter;
}

export interface MonitorDeps {
  readonly storage: Storage;
  readonly store: LiveStore;
}

export function realtimeRoutes(app: App, deps: MonitorDeps): void {
  const { storage, store } = deps;
  const permission = '/monitor/index' as const;

  app.get('/service-monitor/monitor/realtime', {
    config: { permission },
    schema: { querystring: Strict({ vehicleId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, request.query.companyId);
    const slot = store.slotOf(request.query.vehicleId);
    if (slot < 0 || !pathInScope(scope, store.companyPathOf(slot))) throw fail.notFound(MonitorMessages.notInMonitor);
    const [rec] = await records(storage, store, scope, [slot], store.clock());
    if (!rec) throw fail.notFound(MonitorMessages.notInMonitor);
    return ok(rec, requestLang(request));
  });

  app.get('/service-monitor/monitor/realtimestat', {
    config: { permission },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const scope = await narrowedScope(storage, auth(request), request.query.companyId);
    const c = countStates(store, scope, store.clock());
    return ok({
      vehicleTotal: c.total, vehicleOnline: c.online, vehicleTodayOnline: c.todayOnline, vehicleRunning: c.driving,
      vehicleStop: c.parking, vehicleIdle: c.idling, vehicleOffline: c.offline, vehicleNeverOnline: c.neverOnline,
      onlineRate: onlineRate(c.online, c.total),
    }, requestLang(request));
  });

  app.get('/service-monitor/monitor/getOnline', {
    config: { permission },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const scope = await narrowedScope(storage, auth(request), request.query.companyId);
    const c = countStates(store, scope, store.clock());
    return ok({ vehicleTotal: c.total, vehicleOnline: c.online, vehicleTodayOnline: c.todayOnline, onlineRate: onlineRate(c.online, c.total) }, requestLang(request));
  });

  app.post('/service-monitor/monitor/batchrealtime', {
    config: { permission, audit: false },
    // The array may be long in the schema so the handler can answer the spec's own limit message.
    schema: { body: Strict({ vehicleIds: Type.Array(Id, { minItems: 1, maxItems: 100_000, uniqueItems: true }) }) },
  }, async (request) => {
    const { vehicleIds, companyId } = request.body;
    if (vehicleIds.length > MONITOR_MAX_VEHICLES) throw fail.badRequest(MonitorMessages.tooManyVehicles);
    const scope = await narrowedScope(storage, auth(request), companyId);
    const slots = vehicleIds.map((id) => store.slotOf(id)).filter((s) => s >= 0 && pathInScope(scope, store.companyPathOf(s)));
    return ok(await records(storage, store, scope, slots, store.clock()), requestLang(request));
  });

  const Coordinate = (max: number) => Type.Optional(Type.Number({ minimum: -max, maximum: max }));
  app.post('/service-monitor/monitor/searchFrameVehicles', {
    config: { permission, audit: false },
    schema: {
      body: Strict({
        minLng: Coordinate(180), minLat: Coordinate(90), maxLng: Coordinate(180), maxLat: Coordinate(90),
        limit: Type.Integer({ minimum: 1, maximum: 20_000, default: FRAME_DEFAULT_LIMIT }),
      }),
    },
  }, async (request) => {
    const { minLng, minLat, maxLng, maxLat, limit, companyId } = request.body;
    if (minLng === undefined || minLat === undefined || maxLng === undefined || maxLat === undefined || !(minLng < maxLng) || !(minLat < maxLat)) {
      throw fail.badRequest(MonitorMessages.incompleteRectangle);
    }
    const scope = await narrowedScope(storage, auth(request), companyId);
    const { lng, lat } = store.columns;
    const slots: number[] = [];
    let total = 0;
    forEachInScope(store, scope, (s) => {
      const x = lng[s]!, y = lat[s]!;
      if (x >= minLng && x <= maxLng && y >= minLat && y <= maxLat) {
        total++;
        if (slots.length < limit) slots.push(s);
      }
    });
    return ok({ total, records: await records(storage, store, scope, slots, store.clock()) }, requestLang(request));
  });

  app.post('/service-monitor/monitor/v3/selectreal', {
    config: { permission, audit: false },
    schema: {
      body: Strict({
        ...PageFields,
        state: Type.Union(STATE_FILTERS.map((s) => Type.Literal(s)), { default: 'all' }),
        keyword: Type.Optional(Text(64)),
      }),
    },
  }, async (request) => {
    const { current, size, state, keyword, companyId } = request.body;
    const scope = await narrowedScope(storage, auth(request), companyId);
    const now = store.clock();
    let only: Set<number> | undefined;
    const kw = keyword?.trim();
    if (kw) only = new Set((await storage.fleet.searchVehicles(scope, kw, 500)).map((v) => v.id));
    const ids = store.columns.vehicleId;
    const matched: number[] = [];
    forEachInScope(store, scope, (s) => {
      if ((only === undefined || only.has(ids[s]!)) && matches(state, store.stateOf(s, now))) matched.push(s);
    });
    // Stable order for paging: by vehicle id.
    matched.sort((a, b) => ids[a]! - ids[b]!);
    const page = matched.slice((current - 1) * size, current * size);
    return ok({ records: await records(storage, store, scope, page, now), total: matched.length, current, size }, requestLang(request));
  });

  app.post('/service-monitor/monitor/v3/selectrealstat', {
    config: { permission, audit: false },
    schema: { body: Type.Optional(Strict({})) },
  }, async (request) => {
    const scope = await narrowedScope(storage, auth(request), request.body?.companyId);
    const c = countStates(store, scope, store.clock());
    return ok({ ...c, onlineRate: onlineRate(c.online, c.total) }, requestLang(request));
  });
}
