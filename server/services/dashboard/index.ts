/**
 * The operation dashboard's calls (issue 14, spec §2 "/home/index", §3, §4, §9; server/API.md
 * "Operation dashboard"). Every figure is computed from what the server holds: the live store (states,
 * positions), stored alarms, terminal registrations, stored positions (7-day driving). Registered with
 * the dashboard's permission ('/home/index'); the figures themselves are `DashboardFigures` so the
 * large-screen walls can serve the same numbers behind their own credentials.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { DRIVER_FATIGUE_SET, VEHICLE_RISK_SET } from '../../../domain/alarms/sources.ts';
import {
  ALARM_COUNT_CODES, alarmCountKey, CAMERA_ERROR_CODES, CAMERA_OVER_CODES, chartDays, GUIDE_DONE_STEPS, GUIDE_VERSION, LAST_MONTH_DAYS,
  LOCATION_PAGE_SIZE, riskRanking, today, yesterday,
} from '../../../domain/dashboard/rules.ts';
import { CHINA_OFFSET_MS, chinaDateOfDay, chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import { isOnline } from '../../../domain/vehicle/state.ts';
import type { Storage } from '../../db/repositories.ts';
import type { Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Strict, Text, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import type { LiveStore } from '../../live/store.ts';
import { countStates, forEachInScope, onlineRate } from '../monitor/realtime.ts';
import type { ServiceDeps } from '../deps.ts';
import { DashboardStore } from './store.ts';
import { WeatherSource } from './weather.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The dashboard's figures (issue 14); the large-screen walls serve the same numbers. */
    dashboard: DashboardFigures;
  }
}

/** Running alarms listed at most (the panel shows the newest). */
export const RUNNING_ALARMS_MAX = 50;

/** The dashboard's figures for a scope: one object the dashboard routes and the walls share. */
/** How long the 7-day call waits for a computation in progress before answering with the days it has. */
export const DAILY_MILE_WAIT_MS = 2_000;

export class DashboardFigures {
  /** One computation of the 7-day days at a time; later callers wait for it. */
  private computing: Promise<void> | null = null;

  constructor(
    readonly store: DashboardStore,
    private readonly live: LiveStore,
    private readonly storage: Storage,
  ) {}

  private now(): number {
    return this.live.clock();
  }

  /** Spec §3 online monitor stats. */
  online(scope: Scope) {
    const now = this.now();
    const c = countStates(this.live, scope, now);
    const y = yesterday(now);
    const t = today(now);
    return {
      vehicleTotal: c.total, vehicleOnline: c.online, vehicleTodayOnline: c.todayOnline, vehicleRunning: c.driving,
      vehicleStop: c.parking, vehicleIdle: c.idling, vehicleOffline: c.offline, vehicleNeverOnline: c.neverOnline,
      vehicleYesterdayRegister: this.store.registrations(scope, y.startTime, y.endTime),
      riskTotal: this.store.riskVehicles(scope, t.startTime, t.endTime),
      onlineRate: onlineRate(c.online, c.total),
    };
  }

  /** The map's totals: fleet, yesterday's registrations, today's alarms. */
  mapTotals(scope: Scope) {
    const now = this.now();
    const y = yesterday(now);
    const t = today(now);
    let total = 0;
    forEachInScope(this.live, scope, () => total++);
    return {
      vehicleTotal: total,
      vehicleYesterdayRegister: this.store.registrations(scope, y.startTime, y.endTime),
      alarmToday: this.store.alarmCount(scope, t.startTime, t.endTime),
    };
  }

  /** Spec §4's paged locations (the baseline the dashboard does not use: it takes the push stream). */
  locations(scope: Scope, current: number, size: number) {
    const c = this.live.columns;
    const slots: number[] = [];
    forEachInScope(this.live, scope, (s) => {
      if (Number.isFinite(c.gpsTime[s]!)) slots.push(s);
    });
    const page = slots.slice((current - 1) * size, current * size);
    return { total: slots.length, current, size, records: page.map((s) => ({ vehicleId: c.vehicleId[s]!, lng: c.lng[s]!, lat: c.lat[s]!, online: isOnline(this.live.stateOf(s)) })) };
  }

  /** Online rate of each company directly under the scope's root (the roots for the whole forest). */
  async onlineRates(scope: Scope) {
    const children = await this.storage.companies.children(scope, scope.all ? null : scope.rootId);
    const rows = children.map((co) => ({ companyId: co.id, companyName: co.name, path: co.path, total: 0, online: 0 }));
    // The root's own vehicles (not under any child) form a row of their own, first.
    if (!scope.all) {
      const root = await this.storage.companies.get(scope, scope.rootId);
      if (root) rows.unshift({ companyId: root.id, companyName: root.name, path: '', total: 0, online: 0 });
    }
    const now = this.now();
    const byPath = new Map<string, (typeof rows)[number] | null>();
    forEachInScope(this.live, scope, (s) => {
      const p = this.live.companyPathOf(s);
      let row = byPath.get(p);
      if (row === undefined) {
        row = rows.find((r) => r.path !== '' && p.startsWith(r.path)) ?? rows.find((r) => r.path === '') ?? null;
        byPath.set(p, row);
      }
      if (!row) return;
      row.total++;
      if (isOnline(this.live.stateOf(s, now))) row.online++;
    });
    return { records: rows.filter((r) => r.path !== '' || r.total > 0).map((r) => ({ companyId: r.companyId, companyName: r.companyName, total: r.total, online: r.online, onlineRate: onlineRate(r.online, r.total) })) };
  }

  /**
   * Computes the chart's finished days not computed yet (one at a time for the whole server). Runs in the
   * background after start and after each China midnight, so a user's first login of the day finds the
   * rows ready; a request that still finds a day missing waits for the running computation.
   */
  ensureDays(): Promise<void> {
    const now = this.now();
    const { first, last } = chartDays(now);
    if (this.store.missingDays(first, last).length === 0) return this.computing ?? Promise.resolve();
    this.computing ??= (async () => {
      const missing = this.store.missingDays(first, last);
      if (missing.length > 0) await this.store.computeDays(missing[0]!, missing[missing.length - 1]!, now, first);
    })().finally(() => {
      this.computing = null;
    });
    return this.computing;
  }

  /** The 7 days before today: km and driving minutes per China day (computed once per day for the fleet). */
  async dailyMile(scope: Scope) {
    const { first, last } = chartDays(this.now());
    // The first computation of a day reads every vehicle's history: seconds for the demo, far longer for a
    // large fleet. The panel is answered within DAILY_MILE_WAIT_MS whatever happens; a day not computed yet
    // comes back `pending` (the panel says it is being counted) instead of as a zero or a held dashboard.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.ensureDays(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, DAILY_MILE_WAIT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    const pending = new Set(this.store.missingDays(first, last).map(chinaDateOfDay));
    return this.store.driving(scope, first, last).map((d) => ({
      _id: d.date, aliveMile: Math.round(d.mileageKm * 10) / 10, aliveMinutes: Math.round(d.drivingMinutes), vehicles: d.vehicles,
      ...(pending.has(d.date) ? { pending: true } : {}),
    }));
  }

  /** Spec §3 device ops: devices, vehicles with occlusion or camera error (t1), camera over (t2), today. */
  deviceHealth(scope: Scope) {
    const t = today(this.now());
    return {
      deviceCount: this.store.vehicleCount(scope),
      t1Count: [{ t1: this.store.vehiclesWithAlarms(scope, CAMERA_ERROR_CODES, t.startTime, t.endTime) }],
      t2Count: [{ t2: this.store.vehiclesWithAlarms(scope, CAMERA_OVER_CODES, t.startTime, t.endTime) }],
    };
  }

  /** Alarm counts keyed a10001… over the last 30 China days up to now, and the period. */
  async lastMonthAlarms(scope: Scope) {
    const now = this.now();
    const startTime = chinaDayStartMs(chinaDayIndex(now) - (LAST_MONTH_DAYS - 1));
    const codes = [...new Set([...ALARM_COUNT_CODES, ...DRIVER_FATIGUE_SET, ...VEHICLE_RISK_SET])];
    const byType = new Map((await this.storage.alarmStats.byType(scope, { startTime, endTime: now, types: codes })).map((r) => [r.alarmType, r.count]));
    const counts: Record<string, number> = {};
    for (const code of codes) counts[alarmCountKey(code)] = byType.get(code) ?? 0;
    return { startTime, endTime: now, ...counts };
  }

  /** Risk ranking over the last 30 China days: top 5, the riskiest scaled to 100. */
  risk(scope: Scope) {
    const now = this.now();
    const startTime = chinaDayStartMs(chinaDayIndex(now) - (LAST_MONTH_DAYS - 1));
    return { startTime, endTime: now, records: riskRanking(this.store.riskPoints(scope, startTime, now)) };
  }

  /** Today's newest alarms (running alarms). */
  runningAlarms(scope: Scope, lang: Lang) {
    const t = today(this.now());
    return { records: this.store.recentAlarms(scope, t.startTime, RUNNING_ALARMS_MAX).map((a) => ({ ...a, alarmName: alarmName(a.alarmType, lang) })) };
  }
}

export function dashboardRoutes(app: App, deps: ServiceDeps & { readonly live: LiveRuntime }): DashboardFigures {
  const { storage, live } = deps;
  const store = new DashboardStore((storage as SqliteStorage).db);
  const figures = new DashboardFigures(store, live.store, storage);
  const weather = new WeatherSource(deps.config.weatherUrl, app.log);
  const permission = '/home/index' as const;

  // The 7-day rows in the background: 10 s after start (a user opening / right after `npm start` should
  // not wait for them), then 5 minutes after each China midnight. In a cluster the leader computes them
  // (issue 20: every node reading every vehicle's history once a day is the same work N times); a node's
  // own request for a day still missing computes it as before.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      (app.leadership.isLeader ? figures.ensureDays() : Promise.resolve()).catch((err: unknown) => app.log.warn({ err: String(err) }, 'dashboard: 7-day driving rows failed'))
        .finally(() => schedule(DAY_MS - ((Date.now() + CHINA_OFFSET_MS) % DAY_MS) + 5 * 60_000));
    }, ms);
    timer.unref();
  };
  app.addHook('onReady', async () => schedule(10_000));
  app.addHook('preClose', async () => clearTimeout(timer));
  const scopeOf = (request: Parameters<typeof auth>[0], companyId: number | undefined) => narrowedScope(storage, auth(request), companyId);

  app.get('/service-monitor/monitor/getDashboard', { config: { permission }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(figures.online(await scopeOf(request, request.query.companyId)), requestLang(request)));

  app.get('/service-monitor/dashboard/mapTotals', { config: { permission }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(figures.mapTotals(await scopeOf(request, request.query.companyId)), requestLang(request)));

  app.get('/service-monitor/dashboard/locations', {
    config: { permission },
    schema: { querystring: Strict({ current: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }), size: Type.Integer({ minimum: 1, maximum: LOCATION_PAGE_SIZE, default: LOCATION_PAGE_SIZE }) }) },
  }, async (request) => {
    const q = request.query;
    return ok(figures.locations(await scopeOf(request, q.companyId), q.current, q.size), requestLang(request));
  });

  app.get('/service-monitor/dashboard/onlineRate', { config: { permission }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(await figures.onlineRates(await scopeOf(request, request.query.companyId)), requestLang(request)));

  app.get('/service-onlinegps/geography/getVehicleDailyMile', { config: { permission }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(await figures.dailyMile(await scopeOf(request, request.query.companyId)), requestLang(request)));

  app.post('/service-safe/devstatus/errorcount', { config: { permission, audit: false }, schema: { body: Type.Optional(Strict({})) } }, async (request) =>
    ok(figures.deviceHealth(await scopeOf(request, request.body?.companyId)), requestLang(request)));

  app.get('/service-safesheet/screenV2/lastMonthAlarmStat', { config: { permission }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(await figures.lastMonthAlarms(await scopeOf(request, request.query.companyId)), requestLang(request)));

  app.get('/service-monitor/dashboard/runningAlarms', { config: { permission }, schema: { querystring: Strict({}) } }, async (request) => {
    const lang = requestLang(request);
    return ok(figures.runningAlarms(await scopeOf(request, request.query.companyId), lang), lang);
  });

  app.get('/service-monitor/dashboard/riskRanking', { config: { permission }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(figures.risk(await scopeOf(request, request.query.companyId)), requestLang(request)));

  // Weather (Chinese only, spec §2): the operator's configured source, else `configured: false` and the slot is hidden.
  app.get('/service-ops/weather', { config: { permission: 'session' }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(await weather.current(), requestLang(request)));

  // The first-time guide (spec §2, §3 guide record, §9 version 3.2.1): every signed-in user has their own steps.
  const GuideQuery = Strict({ guideModule: Text(32, 1), version: Type.Optional(Text(16, 1)) });
  app.get('/service-priv/guide/fetch', { config: { permission: 'session' }, schema: { querystring: GuideQuery } }, async (request) => {
    const { guideModule, version = GUIDE_VERSION } = request.query;
    const steps = store.guideSteps(auth(request).user.id, guideModule, version);
    const done = steps.some((s) => (GUIDE_DONE_STEPS as readonly string[]).includes(s.stepName));
    return ok({ guideModule, version, done, steps }, requestLang(request));
  });
  app.post('/service-priv/guide/add', {
    config: { permission: 'session' },
    schema: { body: Strict({ guideModule: Text(32, 1), version: Type.Optional(Text(16, 1)), step: Type.Integer({ minimum: 0, maximum: 100 }), stepName: Text(32, 1) }) },
  }, async (request) => {
    const b = request.body;
    const userId = auth(request).user.id;
    const version = b.version ?? GUIDE_VERSION;
    store.addGuideStep(userId, { guideModule: b.guideModule, version, step: b.step, stepName: b.stepName }, Date.now());
    const steps = store.guideSteps(userId, b.guideModule, version);
    return ok({ guideModule: b.guideModule, version, done: steps.some((s) => (GUIDE_DONE_STEPS as readonly string[]).includes(s.stepName)), steps }, requestLang(request));
  });

  return figures;
}
