/**
 * Cargo box status of slag trucks (issue 17; contract: ./api.md). Every live 0x0200 passes here after
 * the alarm engine (the gateway's report listener is chained, not replaced): the box item 0xE1
 * (domain/box/status.ts) gives the box state; a change is kept in `box_state_change` (batched writes,
 * like server/obd), the state now in memory; the group 70 platform rules start and end alarms through
 * the alarm service (`app.alarms.platformStart/End`), so settings, pop-ups and merging are the usual.
 *
 * Slag trucks are the vehicles whose type is `muck` (domain/fleet, 渣土车); a vehicle of another type
 * that reports the item is still followed (rules and history) but not listed.
 */
import { Type } from '@fastify/type-provider-typebox';
import { chinaDayIndex, chinaDayStartMs, isOffline } from '../../../domain/track/days.ts';
import {
  BOX_ALARM_CODES, BOX_FILTERS, boxStateOf, boxViolations, insideSite, matchesFilter, type BoxFilter, type BoxState, type DisposalSite,
} from '../../../domain/box/status.ts';
import { BOX_EXTRA_ALARM_CODES, boxExtraViolations, loadDropped, RATED_LOAD_T } from '../../../domain/box/rules.ts';
import { truckLimitsOf, type TruckLimits } from '../../../domain/box/controller.ts';
import { PERMIT_ALARM, transportWithoutPermit, type PermitPeriod } from '../../../domain/box/permit.ts';
import { ControllerParams } from './controller-params.ts';
import { PLATFORM_RULES } from '../../../domain/alarms/sources.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathInScope, scopeCondition } from '../../db/scope.ts';
import type { SqliteDb } from '../../db/sqlite.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import type { LocationReport } from '../../gateway/jt808/index.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { EpochMs, Id, Name, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import type { RetentionTask } from '../../retention/scheduler.ts';
import { timeSweep } from '../../retention/time-sweep.ts';

export const BOX_PAGE = '/monitor/boxStatus';
/** Unsaved state changes are written this often (and at shutdown). */
export const BOX_FLUSH_MS = 2000;
const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
/** The rules' codes beyond the posture ones, started or ended on every report with the item. */
const EXTRA_CODES: readonly number[] = [...BOX_EXTRA_ALARM_CODES, PERMIT_ALARM];
const DEFAULT_TRUCK_LIMITS: TruckLimits = truckLimitsOf(undefined, RATED_LOAD_T);

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const BoxMessages = {
  vehicleNotFound: pair('车辆不存在或不在您的管辖范围内', 'No such vehicle in your scope'),
  siteNotFound: pair('消纳场不存在', 'No such disposal site'),
  badDay: pair('day：日期无效（YYYY-MM-DD）', 'day: not a valid date (YYYY-MM-DD)'),
  permitNotFound: pair('准运证不存在', 'No such transport permit'),
  permitPeriod: pair('validTo：有效期止须晚于有效期起', 'validTo: the end of validity must be after its start'),
  permitNoTaken: pair('permitNo：本单位已有同号准运证', 'permitNo: your company already has a permit of this number'),
  permitSite: pair('siteId：该消纳场不适用于此车辆', 'siteId: this disposal site does not apply to the vehicle'),
} as const;

export interface BoxNow extends BoxState {
  /** GPS time the state began (the first report with it). */
  since: number;
  /** GPS time of the latest report with the item. */
  time: number;
  speed: number;
  lng: number;
  lat: number;
}

interface ChangeRow { vehicleId: number; time: number; state: BoxState; speed: number; lng: number; lat: number }
interface SiteRow extends DisposalSite { id: number; companyId: number; companyPath: string; name: string }

/** What the service needs from the alarm service (server/alarms/service.ts). */
export interface PlatformAlarms {
  platformStart(vehicleId: number, code: number, place: { time: number; lng: number; lat: number; speed: number }): void;
  platformEnd(vehicleId: number, code: number, time: number): void;
  /** Which alarms the engine holds (70007 reads the route deviation 13010 the route watch raised for this report). */
  readonly engine: { isActive(vehicleId: number, code: number): boolean };
}

export class BoxStatusService {
  private readonly latest = new Map<number, BoxNow>();
  /** Vehicles whose load sensor has reported a load (70010 needs a fitted sensor; domain/box/rules.ts). */
  private readonly sensorSeen = new Set<number>();
  /** The latest 0x0200 odometer per vehicle (km): the OBD history stores it beside each CAN reading. */
  private readonly odometer = new Map<number, number>();
  private pending: ChangeRow[] = [];
  private sites: SiteRow[] = [];
  /** Transport permits by vehicle (70006), and the company paths that keep any (the register is in use there). */
  private permits = new Map<number, PermitPeriod[]>();
  private permitPaths = new Set<string>();
  /** Each permit holder's company path as `permitPaths` counted it: a holder moved since shows as a difference. */
  private permitHolders = new Map<number, string>();
  /** The 0xF3A0 block each truck last acknowledged (its limits for 70001/70002/70004/70005/70009). */
  private controller: ControllerParams | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  readonly stats = { reports: 0, changes: 0 };

  constructor(
    private readonly db: SqliteDb,
    private readonly pathOf: (vehicleId: number) => string,
    private readonly alarms: () => PlatformAlarms | undefined,
    private readonly log?: { warn(obj: object, msg: string): void },
  ) {}

  start(): void {
    // The state now of every vehicle: its newest change row.
    const rows = this.db.prepare(`SELECT b.* FROM box_state_change b JOIN (SELECT vehicle_id, max(time) AS t FROM box_state_change GROUP BY vehicle_id) m
      ON m.vehicle_id = b.vehicle_id AND m.t = b.time`).all() as Record<string, number | null>[];
    for (const r of rows) {
      const s = rowState(r);
      this.latest.set(r.vehicle_id!, { ...s, since: r.time!, time: r.time!, speed: r.speed!, lng: r.lng!, lat: r.lat! });
      if (s.loadT !== null) this.sensorSeen.add(r.vehicle_id!);
    }
    this.reloadSites();
    this.reloadPermits();
    this.controller = new ControllerParams(this.db);
    this.refreshControllerParams();
    this.timer ??= setInterval(() => {
      this.refreshControllerParams();
      this.followPermitHolders();
      void this.flush();
    }, BOX_FLUSH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  reloadSites(): void {
    this.sites = (this.db.prepare(`SELECT s.id, s.company_id AS companyId, c.path AS companyPath, s.name, s.lng, s.lat, s.radius_m AS radiusM
      FROM box_site s JOIN company c ON c.id = s.company_id`).all() as SiteRow[]);
  }

  reloadPermits(): void {
    const rows = this.db.prepare(`SELECT p.vehicle_id AS vehicleId, p.valid_from AS validFrom, p.valid_to AS validTo, c.path
      FROM box_permit p JOIN company c ON c.id = p.company_id`).all() as (PermitPeriod & { vehicleId: number; path: string })[];
    const permits = new Map<number, PermitPeriod[]>();
    for (const r of rows) {
      const list = permits.get(r.vehicleId) ?? [];
      list.push({ validFrom: r.validFrom, validTo: r.validTo });
      permits.set(r.vehicleId, list);
    }
    this.permits = permits;
    // A permit is its vehicle's: the register is in use where its holder stands now (the live company, which
    // a move changes before the next tick; the permit's stored company follows in the same move).
    this.permitHolders = new Map(rows.map((r) => [r.vehicleId, this.pathOf(r.vehicleId) || r.path]));
    this.permitPaths = new Set(this.permitHolders.values());
  }

  /**
   * A permit holder moved to another company (modifyVehiCompany) since the permits were loaded: reload, so
   * 70006 applies in the new company and no longer counts the old one's register (the 2 s timer calls it).
   */
  followPermitHolders(): void {
    for (const [vehicleId, path] of this.permitHolders) {
      const now = this.pathOf(vehicleId);
      if (now !== '' && now !== path) {
        this.reloadPermits();
        return;
      }
    }
  }

  /** Reads the controller blocks acknowledged since the last call (the flush timer calls it; tests may too). */
  refreshControllerParams(): void {
    try {
      this.controller?.refresh();
    } catch (err) {
      this.log?.warn({ err }, 'controller parameters not read');
    }
  }

  /** The limits the rules apply to a truck: its last acknowledged 0xF3A0 block, else the defaults. */
  limitsOf(vehicleId: number): TruckLimits {
    // Per report: most trucks were never set, and share one object.
    const block = this.controller?.of(vehicleId);
    return block ? truckLimitsOf(block, RATED_LOAD_T) : DEFAULT_TRUCK_LIMITS;
  }

  allSites(): readonly SiteRow[] {
    return this.sites;
  }

  /** The sites that apply to a vehicle: those of its company and the companies above it. */
  sitesFor(vehicleId: number): SiteRow[] {
    const path = this.pathOf(vehicleId);
    return path === '' ? [] : this.sites.filter((s) => path.startsWith(s.companyPath));
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => {
      if (this.pending.length === 0) return;
      const rows = this.pending;
      this.pending = [];
      try {
        const put = this.db.prepare('INSERT INTO box_state_change (vehicle_id, time, lifted, sealed, loaded, load_t, speed, lng, lat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
        this.db.transaction(() => {
          for (const r of rows) put.run(r.vehicleId, r.time, +r.state.lifted, +r.state.sealed, +r.state.loaded, r.state.loadT, r.speed, r.lng, r.lat);
        })();
      } catch (err) {
        this.pending = rows.concat(this.pending);
        this.log?.warn({ err }, 'box state changes not saved');
      }
    });
    return this.flushing;
  }

  /** The gateway's live report (after the alarm engine's). */
  onReport(vehicleId: number, loc: LocationReport): void {
    if (loc.mileage !== undefined) this.odometer.set(vehicleId, loc.mileage);
    const state = boxStateOf(loc.extras);
    if (state === undefined) return;
    this.stats.reports++;
    const before = this.latest.get(vehicleId);
    const changed = !before || before.lifted !== state.lifted || before.sealed !== state.sealed || before.loaded !== state.loaded;
    // Object.assign, not a spread plus fields: once per report (server/CONTEXT.md, Pitfalls).
    const now: BoxNow = Object.assign({}, state, { since: changed ? loc.time : before.since, time: loc.time, speed: loc.speed, lng: loc.lng, lat: loc.lat });
    this.latest.set(vehicleId, now);
    if (changed) {
      this.stats.changes++;
      this.pending.push({ vehicleId, time: loc.time, state, speed: loc.speed, lng: loc.lng, lat: loc.lat });
    }
    const alarms = this.alarms();
    if (!alarms) return;
    // Without any approved site for the vehicle there is nothing to unload outside of: 70004 needs sites.
    const sites = state.lifted && state.loaded ? this.sitesFor(vehicleId) : [];
    const atSite = sites.length === 0 || insideSite(sites, loc.lng, loc.lat);
    const limits = this.limitsOf(vehicleId);
    const holds = boxViolations(state, loc.speed, atSite, limits);
    // 70003 needs the sites only on the report where the load fell (rare): the hot path stays a few compares.
    const fitted = this.sensorSeen.has(vehicleId);
    const dropSites = loadDropped(before, state, fitted) ? this.sitesFor(vehicleId) : [];
    if (state.loadT !== null) this.sensorSeen.add(vehicleId);
    const extra = boxExtraViolations(before, state, {
      time: loc.time, speedKmh: loc.speed, atSite: dropSites.length === 0 || insideSite(dropSites, loc.lng, loc.lat), sensorFitted: fitted,
      // The alarm service handled this report first (the listener is chained), so 13010 is as of now.
      offRoute: state.loaded && alarms.engine.isActive(vehicleId, PLATFORM_RULES.routeDeviation),
    }, limits.ratedLoadT);
    // 70006 only where the company keeps its permits in the register (like the sites: with none
    // registered there is nothing to be without); the path is looked up only for a loaded moving truck
    // without a valid permit.
    if (transportWithoutPermit(state, loc.speed, loc.time, this.permits.get(vehicleId), limits.movingKmh) && this.permitPaths.has(this.pathOf(vehicleId))) {
      extra.add(PERMIT_ALARM);
    }
    const place = { time: loc.time, lng: loc.lng, lat: loc.lat, speed: loc.speed };
    for (const code of BOX_ALARM_CODES) {
      if (holds.has(code)) alarms.platformStart(vehicleId, code, place);
      else alarms.platformEnd(vehicleId, code, loc.time);
    }
    for (const code of EXTRA_CODES) {
      if (extra.has(code)) alarms.platformStart(vehicleId, code, place);
      else alarms.platformEnd(vehicleId, code, loc.time);
    }
  }

  of(vehicleId: number): BoxNow | undefined {
    return this.latest.get(vehicleId);
  }

  odometerOf(vehicleId: number): number | null {
    return this.odometer.get(vehicleId) ?? null;
  }

  /** A China day of one vehicle: the state at its start (the last change before) and its changes. */
  day(vehicleId: number, date: string): { start: number; end: number; initial: ReturnType<typeof changeJson> | null; changes: ReturnType<typeof changeJson>[] } {
    const start = chinaDayStartMs(chinaDayIndex(Date.parse(`${date}T12:00:00+08:00`)));
    const end = start + 86_400_000;
    const initial = this.db.prepare('SELECT * FROM box_state_change WHERE vehicle_id = ? AND time < ? ORDER BY time DESC LIMIT 1').get(vehicleId, start) as Record<string, number | null> | undefined;
    const rows = this.db.prepare('SELECT * FROM box_state_change WHERE vehicle_id = ? AND time >= ? AND time < ? ORDER BY time LIMIT 5000').all(vehicleId, start, end) as Record<string, number | null>[];
    // Changes not yet flushed belong to the day as well.
    const unsaved = this.pending.filter((p) => p.vehicleId === vehicleId && p.time >= start && p.time < end)
      .map((p) => ({ time: p.time, ...p.state, speed: p.speed, lng: p.lng, lat: p.lat }));
    return { start, end, initial: initial ? changeJson(initial) : null, changes: [...rows.map(changeJson), ...unsaved] };
  }

  /** Retention: changes older than `before` go in bounded steps. */
  retention(keepDays: () => number, clock: () => number): RetentionTask {
    return timeSweep(this.db, { name: 'box-state', table: 'box_state_change', timeColumn: 'time', counter: 'boxStateChanges', keepDays, clock });
  }
}

function rowState(r: Record<string, number | null>): BoxState {
  return { lifted: r.lifted === 1, sealed: r.sealed === 1, loaded: r.loaded === 1, loadT: r.load_t ?? null };
}

function changeJson(r: Record<string, number | null>) {
  return { time: r.time!, ...rowState(r), speed: r.speed!, lng: r.lng!, lat: r.lat! };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Cargo box state of slag trucks (tests read it; the OBD history takes the odometer from it). */
    boxStatus: BoxStatusService;
  }
}

export function boxStatusRoutes(app: App, deps: { storage: Storage; live: LiveRuntime; retentionDays: number }): BoxStatusService {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  const store = live.store;
  const service = new BoxStatusService(db, (vehicleId) => {
    const slot = store.slotOf(vehicleId);
    return slot < 0 ? '' : store.companyPathOf(slot);
  }, () => (app.hasDecorator('alarms') ? app.alarms : undefined), app.log);
  app.decorate('boxStatus', service);
  app.addHook('onReady', async () => service.start());
  app.addHook('preClose', async () => service.stop());
  app.retention.add(service.retention(() => deps.retentionDays, store.clock));
  // Chained behind the listener in place (alarm generation), so both see every live report.
  const previous = live.gateway.onReport;
  live.gateway.onReport = (vehicleId, report, edition) => {
    previous?.(vehicleId, report, edition);
    service.onReport(vehicleId, report);
  };

  app.get('/service-monitor/box/page', {
    config: { permission: BOX_PAGE },
    schema: {
      querystring: Strict({
        ...PageFields,
        state: Type.Optional(Type.Union(BOX_FILTERS.map((f) => Type.Literal(f)))),
        online: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
        keyword: Type.Optional(Text(30)),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const keyword = q.keyword?.trim() ?? '';
    const vehicles = db.prepare(`SELECT v.id, v.vehiidno, v.device_no AS deviceNo, c.id AS companyId, c.name AS companyName FROM vehicle v JOIN company c ON c.id = v.company_id
      WHERE v.vehicle_type = 'muck' AND ${cond.sql} ${keyword ? "AND v.vehiidno LIKE ? ESCAPE '\\'" : ''} ORDER BY v.vehiidno`)
      .all(...cond.params, ...(keyword ? [`%${keyword.replace(/[\\%_]/g, (m) => `\\${m}`)}%`] : [])) as { id: number; vehiidno: string; deviceNo: string | null; companyId: number; companyName: string }[];
    const now = store.clock();
    const rows = vehicles.map((v) => {
      const slot = store.slotOf(v.id);
      const contact = slot < 0 ? NaN : store.columns.lastContact[slot]!;
      const online = Number.isFinite(contact) && !isOffline(contact, now);
      const box = service.of(v.id) ?? null;
      return { id: v.id, vehicleId: v.id, vehiidno: v.vehiidno, deviceNo: v.deviceNo, companyId: v.companyId, companyName: v.companyName, online, box };
    }).filter((r) => (q.online === undefined || r.online === (q.online === 1)) && (q.state === undefined || (r.box !== null && matchesFilter(r.box, q.state as BoxFilter))));
    const records = rows.slice((q.current - 1) * q.size, q.current * q.size);
    return ok({ total: rows.length, current: q.current, size: q.size, records }, requestLang(request));
  });

  app.get('/service-monitor/box/history', {
    config: { permission: `${BOX_PAGE}:history` },
    schema: { querystring: Strict({ vehicleId: Id, day: Type.String({ pattern: DAY_PATTERN, maxLength: 10 }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const { vehicleId, day, companyId } = request.query;
    if (Number.isNaN(Date.parse(`${day}T00:00:00+08:00`))) throw fail.badRequest(BoxMessages.badDay);
    const scope = await narrowedScope(storage, ctx, companyId);
    if (!(await storage.fleet.getVehicle(scope, vehicleId))) throw fail.notFound(BoxMessages.vehicleNotFound);
    return ok({ vehicleId, day, ...service.day(vehicleId, day) }, requestLang(request));
  });

  app.get('/service-monitor/box/sites', {
    config: { permission: BOX_PAGE },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, request.query.companyId);
    // A vehicle in the scope obeys the sites of the companies above it too; those are listed read-only.
    const rows = service.allSites().filter((s) => pathInScope(scope, s.companyPath) || (!scope.all && scope.rootPath.startsWith(s.companyPath)));
    return ok(rows.map(({ companyPath, ...s }) => ({ ...s, inherited: !pathInScope(scope, companyPath) })), requestLang(request));
  });

  app.post('/service-monitor/box/site/save', {
    config: { permission: `${BOX_PAGE}:site` },
    schema: {
      body: Strict({
        id: Type.Optional(Id), name: Name(50),
        lng: Type.Number({ minimum: -180, maximum: 180 }), lat: Type.Number({ minimum: -90, maximum: 90 }),
        radiusM: Type.Integer({ minimum: 10, maximum: 10_000 }),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const companyId = b.companyId ?? ctx.user.companyId;
    const scope = await narrowedScope(storage, ctx, companyId);
    let id = b.id;
    if (id !== undefined) {
      const cond = scopeCondition(scope, 'c');
      const n = db.prepare(`UPDATE box_site SET name = ?, lng = ?, lat = ?, radius_m = ? WHERE id = ? AND company_id IN (SELECT c.id FROM company c WHERE ${cond.sql})`)
        .run(b.name.trim(), b.lng, b.lat, b.radiusM, id, ...cond.params).changes;
      if (n === 0) throw fail.notFound(BoxMessages.siteNotFound);
    } else {
      id = Number(db.prepare('INSERT INTO box_site (company_id, name, lng, lat, radius_m, create_time) VALUES (?, ?, ?, ?, ?, ?)')
        .run(companyId, b.name.trim(), b.lng, b.lat, b.radiusM, Date.now()).lastInsertRowid);
    }
    service.reloadSites();
    return ok({ id }, requestLang(request));
  });

  app.post('/service-monitor/box/site/delete', {
    config: { permission: `${BOX_PAGE}:site` },
    schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, request.body.companyId);
    const cond = scopeCondition(scope, 'c');
    const n = db.prepare(`DELETE FROM box_site WHERE id = ? AND company_id IN (SELECT c.id FROM company c WHERE ${cond.sql})`).run(request.body.id, ...cond.params).changes;
    if (n === 0) throw fail.notFound(BoxMessages.siteNotFound);
    service.reloadSites();
    return ok(null, requestLang(request));
  });

  // ------------------------------------------------------------------ transport permits (准运证, 70006)

  const permitSelect = `SELECT p.id, p.company_id AS companyId, c.name AS companyName, p.vehicle_id AS vehicleId, v.vehiidno, p.permit_no AS permitNo,
    p.valid_from AS validFrom, p.valid_to AS validTo, p.site_id AS siteId, s.name AS siteName, p.route, p.update_time AS updateTime
    FROM box_permit p JOIN vehicle v ON v.id = p.vehicle_id JOIN company c ON c.id = p.company_id LEFT JOIN box_site s ON s.id = p.site_id`;

  app.get('/service-monitor/box/permit/page', {
    config: { permission: BOX_PAGE },
    schema: {
      querystring: Strict({
        ...PageFields,
        vehicleId: Type.Optional(Id),
        keyword: Type.Optional(Text(30)),
        valid: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const now = store.clock();
    const where = [cond.sql];
    const params: (string | number)[] = [...cond.params];
    if (q.vehicleId !== undefined) { where.push('p.vehicle_id = ?'); params.push(q.vehicleId); }
    const keyword = q.keyword?.trim() ?? '';
    if (keyword) {
      where.push("(v.vehiidno LIKE ? ESCAPE '\\' OR p.permit_no LIKE ? ESCAPE '\\')");
      const like = `%${keyword.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      params.push(like, like);
    }
    if (q.valid !== undefined) {
      where.push(q.valid === 1 ? '(p.valid_from <= ? AND p.valid_to > ?)' : '(p.valid_from > ? OR p.valid_to <= ?)');
      params.push(now, now);
    }
    const sql = `${permitSelect} WHERE ${where.join(' AND ')}`;
    const total = (db.prepare(`SELECT count(*) AS n FROM (${sql})`).get(...params) as { n: number }).n;
    const rows = db.prepare(`${sql} ORDER BY v.vehiidno, p.valid_from DESC, p.id LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as { validFrom: number; validTo: number }[];
    const records = rows.map((r) => ({ ...r, valid: r.validFrom <= now && now < r.validTo }));
    return ok({ total, current: q.current, size: q.size, records }, requestLang(request));
  });

  app.post('/service-monitor/box/permit/save', {
    config: { permission: `${BOX_PAGE}:site` },
    schema: {
      body: Strict({
        id: Type.Optional(Id),
        vehicleId: Id,
        permitNo: Name(30),
        validFrom: EpochMs,
        validTo: EpochMs,
        siteId: Type.Optional(Type.Union([Id, Type.Null()])),
        route: Type.Optional(Text(200)),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const scope = await narrowedScope(storage, ctx, b.companyId);
    // Every check before the write: a refused request writes nothing. A permit outside the scope (another
    // company's, or one whose truck moved away) is 404 before anything else is looked at.
    const cond = scopeCondition(scope, 'c');
    if (b.id !== undefined && !db.prepare(`SELECT 1 FROM box_permit p JOIN company c ON c.id = p.company_id WHERE p.id = ? AND ${cond.sql}`).get(b.id, ...cond.params)) {
      throw fail.notFound(BoxMessages.permitNotFound);
    }
    const vehicle = await storage.fleet.getVehicle(scope, b.vehicleId);
    if (!vehicle) throw badField('vehicleId', BoxMessages.vehicleNotFound, 'outOfScope');
    if (b.validTo <= b.validFrom) throw badField('validTo', BoxMessages.permitPeriod, 'range');
    const siteId = b.siteId ?? null;
    // The site a permit names must be one the truck may unload at: its company's or above.
    if (siteId !== null && !service.allSites().some((s) => s.id === siteId && vehicle.path.startsWith(s.companyPath))) throw badField('siteId', BoxMessages.permitSite, 'outOfScope');
    const permitNo = b.permitNo.trim();
    if (db.prepare('SELECT 1 FROM box_permit WHERE company_id = ? AND permit_no = ? AND id IS NOT ?').get(vehicle.companyId, permitNo, b.id ?? null)) {
      throw badField('permitNo', BoxMessages.permitNoTaken, 'duplicate');
    }
    const now = Date.now();
    let id = b.id;
    if (id !== undefined) {
      db.prepare('UPDATE box_permit SET company_id = ?, vehicle_id = ?, permit_no = ?, valid_from = ?, valid_to = ?, site_id = ?, route = ?, update_time = ? WHERE id = ?')
        .run(vehicle.companyId, vehicle.id, permitNo, b.validFrom, b.validTo, siteId, (b.route ?? '').trim(), now, id);
    } else {
      id = Number(db.prepare('INSERT INTO box_permit (company_id, vehicle_id, permit_no, valid_from, valid_to, site_id, route, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(vehicle.companyId, vehicle.id, permitNo, b.validFrom, b.validTo, siteId, (b.route ?? '').trim(), now, now).lastInsertRowid);
    }
    service.reloadPermits();
    return ok({ id }, requestLang(request));
  });

  app.post('/service-monitor/box/permit/delete', {
    config: { permission: `${BOX_PAGE}:site` },
    schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, request.body.companyId);
    const cond = scopeCondition(scope, 'c');
    const n = db.prepare(`DELETE FROM box_permit WHERE id = ? AND company_id IN (SELECT c.id FROM company c WHERE ${cond.sql})`).run(request.body.id, ...cond.params).changes;
    if (n === 0) throw fail.notFound(BoxMessages.permitNotFound);
    service.reloadPermits();
    return ok(null, requestLang(request));
  });

  return service;
}
