/**
 * The /largeScreen walls' calls (issue 14; server/API.md "Walls"):
 * - wall data (`/service-monitor/screen/V3/*`, `/service-safesheet/screen/syn*`, `screenV2/realtimeAlarms`)
 *   and the preset read: GET, `config.display`, so a wall's display credential reads them (its
 *   company subtree) as well as a signed-in user who may see the walls;
 * - set-up (`/service-priv/wall/*`): display credentials (create, list, revoke) and presets (list,
 *   save, reset), for users only, behind the wallSetup screen's bits.
 * Figures come from the live store (states) and the stored alarms; nothing is made up.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { RISK_LEVELS } from '../../../domain/alarms/sources.ts';
import { isOnline } from '../../../domain/vehicle/state.ts';
import {
  describeProblem, GRID_COLUMNS, GRID_ROWS, MISSING_SOURCES, PANEL_KINDS, PANELS_MAX, presetProblems, TITLE_MAX, WALL_KEYS, ZOOM_MAX, ZOOM_MIN,
  type WallKey, type WallPreset,
} from '../../../domain/walls/preset.ts';
import { displayCredentials, displayScope } from '../../auth/display.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathInScope, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope, permits } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { LiveStore } from '../../live/store.ts';
import type { DashboardFigures } from '../dashboard/index.ts';
import { countStates, forEachInScope, onlineRate } from '../monitor/realtime.ts';
import { WallPresets } from './presets.ts';

const DAY_MS = 86_400_000;
const GMT8_MS = 8 * 3_600_000;
/** Start of the China day (GMT+8) holding `t`. */
export const chinaDayStart = (t: number): number => Math.floor((t + GMT8_MS) / DAY_MS) * DAY_MS - GMT8_MS;
/** `YYYY-MM-DD` of the China day holding `t`. */
export const chinaDate = (t: number): string => new Date(t + GMT8_MS).toISOString().slice(0, 10);

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const WallMessages = {
  noWall: pair('没有查看该大屏的权限', 'You may not open this wall'),
  alreadyRevoked: pair('该显示凭据已吊销', 'This display key is already revoked'),
};

/** Wall data calls: any wall user or a display credential. */
const WALL_READ = { permission: '/largeScreen' as const, display: true };

/** Rolling alarms a wall shows at once (and the first fill asks for). */
export const REALTIME_ALARMS_MAX = 50;
export const VEHICLE_LAST_MAX = 50;

export interface WallDeps {
  readonly storage: Storage;
  readonly store: LiveStore;
  /** The operation dashboard's figures (server/services/dashboard): the walls serve the same numbers behind display keys. */
  readonly dashboard?: Pick<DashboardFigures, 'risk' | 'dailyMile'>;
}

/** The scope a wall call reads: the display credential's or the user's, narrowed by `companyId`. */
export async function wallScope(request: FastifyRequest, storage: Storage, companyId: number | undefined): Promise<Scope> {
  if (request.displayContext) return displayScope(storage, request.displayContext, companyId);
  return narrowedScope(storage, auth(request), companyId);
}

const PresetBody = Type.Object({
  title: Type.Object({ zh: Type.String({ minLength: 1, maxLength: TITLE_MAX }), en: Type.String({ minLength: 1, maxLength: TITLE_MAX }) }, { additionalProperties: false }),
  companyId: Type.Union([Id, Type.Null()]),
  theme: Type.Union([Type.Literal('dark'), Type.Literal('light')]),
  map: Type.Object({
    center: Type.Tuple([Type.Number({ minimum: -180, maximum: 180 }), Type.Number({ minimum: -85, maximum: 85 })]),
    zoom: Type.Number({ minimum: ZOOM_MIN, maximum: ZOOM_MAX }),
    basemap: Type.Optional(Type.Union([Type.Literal('streets'), Type.Literal('outline')])),
  }, { additionalProperties: false }),
  panels: Type.Array(Type.Object({
    kind: Type.Union(PANEL_KINDS.map((k) => Type.Literal(k))),
    x: Type.Integer({ minimum: 0, maximum: GRID_COLUMNS - 1 }),
    y: Type.Integer({ minimum: 0, maximum: GRID_ROWS - 1 }),
    w: Type.Integer({ minimum: 1, maximum: GRID_COLUMNS }),
    h: Type.Integer({ minimum: 1, maximum: GRID_ROWS }),
    source: Type.Optional(Type.Union(MISSING_SOURCES.map((k) => Type.Literal(k)))),
  }, { additionalProperties: false }), { minItems: 1, maxItems: PANELS_MAX }),
}, { additionalProperties: false });

const WallField = Type.Union(WALL_KEYS.map((k) => Type.Literal(k)));

export function wallRoutes(app: App, deps: WallDeps): void {
  const { storage, store } = deps;
  const presets = new WallPresets((storage as SqliteStorage).db);
  const displays = displayCredentials(storage);

  // ---------------------------------------------------------------- wall data (display credential or user)

  app.get('/service-priv/wall/preset/get', { config: WALL_READ, schema: { querystring: Strict({ wall: WallField }) } }, async (request) => {
    const wall = request.query.wall as WallKey;
    const ctx = request.authContext;
    if (ctx && !permits(ctx, `/largeScreen/${wall}`)) throw fail.forbidden(WallMessages.noWall);
    const got = presets.get(wall);
    const display = request.displayContext;
    // The preset's company when the viewer may read it; otherwise the viewer's whole scope (the wall says so).
    let companyId = got.preset.companyId;
    if (companyId !== null) {
      const inside = display ? await storage.companies.get(display.scope, companyId) : await storage.companies.get(ctx!.scope, companyId);
      if (!inside) companyId = null;
    }
    return ok({
      wall, preset: got.preset, stored: got.stored, companyId, companyOutsideViewer: companyId !== got.preset.companyId,
      // What the wall shows as its source of identity (the credential's name, or the user's).
      viewer: display ? { kind: 'display', name: display.name, companyId: display.companyId } : { kind: 'user', name: ctx?.user.username ?? '', companyId: ctx?.user.companyId ?? 0 },
    }, requestLang(request));
  });

  app.get('/service-monitor/screen/V3/realtimestat', { config: WALL_READ, schema: { querystring: Strict({}) } }, async (request) => {
    const scope = await wallScope(request, storage, request.query.companyId);
    const c = countStates(store, scope, store.clock());
    return ok({
      vehicleTotal: c.total, vehicleOnline: c.online, vehicleTodayOnline: c.todayOnline, vehicleRunning: c.driving, vehicleStop: c.parking,
      vehicleIdle: c.idling, vehicleOffline: c.offline, vehicleNeverOnline: c.neverOnline, onlineRate: onlineRate(c.online, c.total),
    }, requestLang(request));
  });

  app.get('/service-monitor/screen/V3/getVehicleLast', {
    config: WALL_READ, schema: { querystring: Strict({ size: Type.Integer({ minimum: 1, maximum: VEHICLE_LAST_MAX, default: 10 }) }) },
  }, async (request) => {
    const scope = await wallScope(request, storage, request.query.companyId);
    const size = request.query.size;
    const contact = store.columns.lastContact;
    // Keep the `size` latest contacts in a small sorted array: O(n·size) with size ≤ 50, no fleet-sized sort.
    const top: number[] = [];
    forEachInScope(store, scope, (slot) => {
      const t = contact[slot]!;
      if (!Number.isFinite(t)) return;
      if (top.length === size && t <= contact[top[top.length - 1]!]!) return;
      let i = top.length;
      while (i > 0 && contact[top[i - 1]!]! < t) i--;
      top.splice(i, 0, slot);
      if (top.length > size) top.pop();
    });
    const now = store.clock();
    const ids = top.map((s) => store.columns.vehicleId[s]!);
    const labels = await storage.terminals.labels(scope, ids);
    const records = top.flatMap((slot) => {
      const id = store.columns.vehicleId[slot]!;
      const label = labels.get(id);
      if (!label) return [];
      const state = store.stateOf(slot, now);
      return [{ vehicleId: id, vehiidno: label.vehiidno, companyName: label.companyName, speed: Math.round(store.columns.speed[slot]! * 10) / 10, state, online: isOnline(state), lastContact: contact[slot]! }];
    });
    return ok({ records }, requestLang(request));
  });

  app.get('/service-monitor/screen/V3/getUserAlarmData', {
    config: WALL_READ, schema: { querystring: Strict({ top: Type.Integer({ minimum: 1, maximum: 20, default: 8 }) }) },
  }, async (request) => {
    const scope = await wallScope(request, storage, request.query.companyId);
    const lang = requestLang(request);
    const now = store.clock();
    const f = { startTime: chinaDayStart(now), endTime: now };
    const [types, days] = await Promise.all([storage.alarmStats.byType(scope, f), storage.alarmStats.byDate(scope, f)]);
    const today = days.find((d) => d.date === chinaDate(now));
    const sorted = [...types].sort((a, b) => b.count - a.count || a.alarmType - b.alarmType);
    return ok({
      date: chinaDate(now),
      total: today?.count ?? 0, unprocessed: today?.unprocessed ?? 0, vehicles: today?.vehicles ?? 0,
      types: sorted.slice(0, request.query.top).map((t) => ({ alarmType: t.alarmType, name: alarmName(t.alarmType, lang), count: t.count, unprocessed: t.unprocessed })),
      otherTypes: sorted.slice(request.query.top).reduce((n, t) => n + t.count, 0),
    }, lang);
  });

  app.get('/service-monitor/screen/V3/getWeekUserAlarmData', { config: WALL_READ, schema: { querystring: Strict({}) } }, async (request) => {
    const scope = await wallScope(request, storage, request.query.companyId);
    const now = store.clock();
    const first = chinaDayStart(now) - 7 * DAY_MS;
    const rows = await storage.alarmStats.byDate(scope, { startTime: first, endTime: now });
    const byDate = new Map(rows.map((r) => [r.date, r]));
    // The 7 days before today, then today so far (the wall's trend ends now).
    const days = Array.from({ length: 8 }, (_, i) => {
      const date = chinaDate(first + i * DAY_MS);
      const r = byDate.get(date);
      return { date, count: r?.count ?? 0, unprocessed: r?.unprocessed ?? 0, today: i === 7 };
    });
    return ok({ days }, requestLang(request));
  });

  app.get('/service-safesheet/screen/synplatformlevel', { config: WALL_READ, schema: { querystring: Strict({}) } }, async (request) => {
    const scope = await wallScope(request, storage, request.query.companyId);
    const now = store.clock();
    const f = { startTime: chinaDayStart(now), endTime: now };
    const levels = await Promise.all(RISK_LEVELS.map(async (level) => {
      const days = await storage.alarmStats.byDate(scope, { ...f, riskLevels: [level] });
      const count = days.reduce((n, d) => n + d.count, 0);
      const unprocessed = days.reduce((n, d) => n + d.unprocessed, 0);
      return { level, count, unprocessed };
    }));
    const total = levels.reduce((n, l) => n + l.count, 0);
    const unprocessed = levels.reduce((n, l) => n + l.unprocessed, 0);
    return ok({ date: chinaDate(now), levels, total, processedRate: total === 0 ? null : Math.round(((total - unprocessed) / total) * 1000) / 10 }, requestLang(request));
  });

  app.get('/service-safesheet/screen/synvehicle', {
    config: WALL_READ, schema: { querystring: Strict({ top: Type.Integer({ minimum: 1, maximum: 50, default: 10 }) }) },
  }, async (request) => {
    const scope = await wallScope(request, storage, request.query.companyId);
    const now = store.clock();
    // Counts per company once (one pass over the store), then rolled up into the scope's first level.
    const perCompany = new Map<number, { path: string; total: number; online: number }>();
    forEachInScope(store, scope, (slot) => {
      const id = store.columns.companyId[slot]!;
      let c = perCompany.get(id);
      if (!c) perCompany.set(id, (c = { path: store.companyPathOf(slot), total: 0, online: 0 }));
      c.total++;
      if (isOnline(store.stateOf(slot, now))) c.online++;
    });
    const rootId = scope.all ? null : scope.rootId;
    const children = await storage.companies.children(scope, rootId);
    const rows = children.map((co) => {
      let total = 0;
      let online = 0;
      for (const c of perCompany.values()) if (c.path.startsWith(co.path)) { total += c.total; online += c.online; }
      return { companyId: co.id, companyName: co.name, total, online, onlineRate: onlineRate(online, total) };
    });
    // The root's own vehicles (not under any child) are a row of their own.
    if (rootId !== null) {
      const own = [...perCompany.entries()].filter(([id]) => id === rootId).map(([, c]) => c)[0];
      const root = await storage.companies.get(scope, rootId);
      if (own && root) rows.push({ companyId: root.id, companyName: root.name, total: own.total, online: own.online, onlineRate: onlineRate(own.online, own.total) });
    }
    rows.sort((a, b) => b.total - a.total || a.companyId - b.companyId);
    return ok({ companies: rows.slice(0, request.query.top), more: Math.max(0, rows.length - request.query.top) }, requestLang(request));
  });

  // Today's live video of the scope's vehicles (the stream log, migration 6): read newest-first by id and
  // stopped at the first row before today, so the cost is today's rows, not the 180 days the log keeps.
  const todaysStreams = (storage as SqliteStorage).db.prepare('SELECT vehicle_id, started_at, ended_at, bytes FROM stream_log ORDER BY id DESC');
  app.get('/service-safesheet/screen/synvideo', { config: WALL_READ, schema: { querystring: Strict({}) } }, async (request) => {
    const scope = await wallScope(request, storage, request.query.companyId);
    const now = store.clock();
    const dayStart = chinaDayStart(now);
    const rows: { vehicle_id: number; ended_at: number | null; bytes: number }[] = [];
    for (const r of todaysStreams.iterate() as Iterable<{ vehicle_id: number; started_at: number; ended_at: number | null; bytes: number }>) {
      // Ids follow insertion; a few rows started a moment before a later id: allow a minute of disorder.
      if (r.started_at < dayStart - 60_000) break;
      if (r.started_at >= dayStart) rows.push(r);
    }
    const labels = await storage.terminals.labels(scope, [...new Set(rows.map((r) => r.vehicle_id))]);
    const mine = rows.filter((r) => labels.has(r.vehicle_id));
    return ok({
      date: chinaDate(now),
      connections: mine.length,
      vehicles: new Set(mine.map((r) => r.vehicle_id)).size,
      open: mine.filter((r) => r.ended_at === null).length,
      megabytes: Math.round(mine.reduce((n, r) => n + r.bytes, 0) / 104857.6) / 10,
    }, requestLang(request));
  });

  app.get('/service-safesheet/screenV2/realtimeAlarms', {
    config: WALL_READ, schema: { querystring: Strict({ size: Type.Integer({ minimum: 1, maximum: REALTIME_ALARMS_MAX, default: 20 }) }) },
  }, async (request) => {
    const scope = await wallScope(request, storage, request.query.companyId);
    const lang = requestLang(request);
    const now = store.clock();
    const r = await storage.alarms.query(scope, { startTime: now - DAY_MS, endTime: now }, 0, request.query.size);
    return ok({
      total: r.total,
      records: r.records.map((a) => ({
        id: a.id, alarmType: a.alarmType, alarmName: alarmName(a.alarmType, lang), vehicleId: a.vehicleId, vehiidno: a.vehiidno,
        companyId: a.companyId, companyName: a.companyName, gpsTime: a.startTime, speed: a.speed, riskLevel: a.riskLevel, dealStatus: a.dealStatus,
      })),
    }, lang);
  });

  // The dashboard's risk ranking and 7-day driving, for walls (same figures as /home/index, display keys allowed).
  const dashboard = deps.dashboard;
  if (dashboard) {
    app.get('/service-priv/wall/data/riskRanking', { config: WALL_READ, schema: { querystring: Strict({}) } }, async (request) => {
      const scope = await wallScope(request, storage, request.query.companyId);
      return ok(dashboard.risk(scope), requestLang(request));
    });
    app.get('/service-priv/wall/data/dailyMile', { config: WALL_READ, schema: { querystring: Strict({}) } }, async (request) => {
      const scope = await wallScope(request, storage, request.query.companyId);
      return ok(await dashboard.dailyMile(scope), requestLang(request));
    });
  }

  // ---------------------------------------------------------------- set-up (users only)

  app.get('/service-priv/wall/display/page', {
    config: { permission: '/largeScreen/wallSetup' }, schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Text(40)) }) },
  }, async (request) => {
    const scope = await narrowedScope(storage, auth(request), request.query.companyId);
    const { current, size } = request.query;
    const r = displays.list(scope, (current - 1) * size, size, request.query.keyword?.trim() ?? '');
    return ok({ current, size, total: r.total, records: r.records }, requestLang(request));
  });

  app.post('/service-priv/wall/display/create', {
    config: { permission: '/largeScreen/wallSetup:createDisplay' }, schema: { body: Strict({ name: Name(40) }) },
  }, async (request) => {
    const ctx = auth(request);
    // The credential's company: the one named (the console sends the selected company), else the user's own.
    const scope = await narrowedScope(storage, ctx, request.body.companyId ?? ctx.user.companyId);
    const companyId = scope.all ? ctx.user.companyId : scope.rootId;
    const created = displays.create({ name: request.body.name.trim(), companyId, createdBy: ctx.user.id, createdByName: ctx.user.username }, Date.now());
    request.log.info({ credentialId: created.id, companyId, by: ctx.user.id }, 'display credential created');
    return ok({ ...displays.get(created.id), key: created.key }, requestLang(request));
  });

  app.post('/service-priv/wall/display/revoke', {
    config: { permission: '/largeScreen/wallSetup:revokeDisplay' }, schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = displays.get(request.body.id);
    if (!row || row.companyPath === null || !pathInScope(ctx.scope, row.companyPath)) throw fail.notFound();
    if (!displays.revoke(row.id, ctx.user.username, Date.now())) throw fail.conflict(WallMessages.alreadyRevoked);
    request.log.info({ credentialId: row.id, by: ctx.user.id }, 'display credential revoked');
    return ok(displays.get(row.id), requestLang(request));
  });

  app.get('/service-priv/wall/preset/list', { config: { permission: '/largeScreen/wallSetup' }, schema: { querystring: Strict({}) } }, async (request) => {
    return ok(WALL_KEYS.map((wall) => ({ wall, ...presets.get(wall) })), requestLang(request));
  });

  app.post('/service-priv/wall/preset/save', {
    config: { permission: '/largeScreen/wallSetup:editPreset' }, schema: { body: Strict({ wall: WallField, preset: PresetBody }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const preset = request.body.preset as WallPreset;
    const problems = presetProblems(preset);
    if (problems.length > 0) throw new AppError(400, (l) => problems.map((p) => describeProblem(p, l)).join('；'), { problems });
    if (preset.companyId !== null) await narrowedScope(storage, ctx, preset.companyId);
    presets.save(request.body.wall as WallKey, preset, ctx.user.username, Date.now());
    return ok(presets.get(request.body.wall as WallKey), lang);
  });

  app.post('/service-priv/wall/preset/reset', {
    config: { permission: '/largeScreen/wallSetup:editPreset' }, schema: { body: Strict({ wall: WallField }) },
  }, async (request) => {
    presets.reset(request.body.wall as WallKey);
    return ok(presets.get(request.body.wall as WallKey), requestLang(request));
  });
}
