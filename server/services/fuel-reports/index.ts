/**
 * Fuel reports (issue 18; server/API.md "Fuel reports"): the calls of /report/vehicleOilAnalysis/{oilSummary,
 * oilDaily, oilChart, oilAddDetails, oilLeakageDetails}. The catalogue names no call for these screens, so they
 * are designed here under /service-onlinegps/oilreport (marked "not in the catalogue" in API.md).
 *
 * Summary, daily and the two detail lists read the report engine only (`days('fuel', …)`, `events('fuel', …,
 * 'refuel' | 'leak')`): the `fuel` day module (domain/report-day/fuel.ts) keeps them as positions are stored.
 * The chart is the one-vehicle drill-down: it reads that vehicle's positions of one China day and runs the same
 * rules (domain/fuel/rules.ts `analyzeFuel`) to draw raw and smoothed levels with the same markers.
 * Each list call: the caller's company subtree (narrowed by companyId), the selected vehicles (or all of the
 * subtree's) up to 500, a period of at most 31 China days; rows of a page with the totals of all; an export job
 * (.xlsx) behind the screen's export bit.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { analyzeFuel, fuelThresholds, type FuelSample } from '../../../domain/fuel/rules.ts';
import { fuelModule, type FuelRow } from '../../../domain/report-day/fuel.ts';
import type { DayEvent, DayModule } from '../../../domain/report-day/module.ts';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { pathInScope } from '../../db/scope.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, type App, type PermissionKey } from '../../http/route.ts';
import { ExportJobs } from '../export-jobs.ts';
import type { ReportEngine } from '../report-engine/api.ts';
import { chinaDateTime, REPORT_MAX_DAYS, ReportMessages } from '../reports/index.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';

/** Vehicles one report may cover (spec §5: at most 500 vehicles selectable at once). */
export const FUEL_REPORT_MAX_VEHICLES = 500;
/** Rows an export holds at most (the catalogue's positioning export cap); the status says when cut. */
export const FUEL_EXPORT_MAX_ROWS = 50_000;
/** Readings the chart reads for one vehicle-day (1 Hz all day is 86,400). */
const CHART_MAX_POINTS = 100_000;
export const OILREPORT_BASE = '/service-onlinegps/oilreport';

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);
export const FuelReportMessages = {
  tooManyVehicles: pair(`最多选择${FUEL_REPORT_MAX_VEHICLES}辆车，请缩小公司或勾选车辆`, `At most ${FUEL_REPORT_MAX_VEHICLES} vehicles can be selected; narrow the company or check vehicles`),
  engineDown: pair('报表引擎未启动，请稍后再试', 'The report engine is not running; try again later'),
  vehicleNotFound: pair('车辆不存在', 'Vehicle not found'),
  taskNotFound: pair('导出任务不存在或已过期', 'The export task does not exist or has expired'),
  exportFailed: pair('导出失败，请重试', 'The export failed; please try again'),
  taskNotDone: pair('导出尚未完成', 'The export is not finished yet'),
  firstOnly: (n: number): Message => pair(`数据量过大，仅导出前${n}条`, `Too many rows: only the first ${n} were exported`),
};

const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
// The schema's own bound is looser than the rule so that 501 selected vehicles get the spec's sentence, not a generic size message.
const VehicleList = Type.Array(Id, { minItems: 1, maxItems: 10_000, uniqueItems: true });
const QueryFields = { startDate: DateText, endDate: DateText, vehicleIds: Type.Optional(VehicleList) };
const ListSchema = Strict({ ...QueryFields, ...PageFields });
const ExportSchema = Strict(QueryFields);
const TaskQuery = Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) });
const ChartQuery = Strict({ vehicleId: Id, date: DateText });

interface Query { startDate: string; endDate: string; vehicleIds?: number[] | undefined; companyId?: number | undefined }
interface Period { firstDay: number; lastDay: number }

function dayOf(field: string, text: string): number {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const day = Date.UTC(y, m - 1, d) / 86_400_000;
  if (chinaDateOfDay(day) !== text) throw fail.badRequest(ReportMessages.invalidDate(field));
  return day;
}

/** The period's China days, at most 31, cut at today (later days have no data yet). */
function periodOf(q: { startDate: string; endDate: string }, now: number): Period {
  const firstDay = dayOf('startDate', q.startDate);
  const endDay = dayOf('endDate', q.endDate);
  if (firstDay > endDay) throw fail.badRequest(ReportMessages.startAfterEnd);
  if (endDay - firstDay + 1 > REPORT_MAX_DAYS) throw fail.badRequest(ReportMessages.periodTooLong);
  return { firstDay, lastDay: Math.min(endDay, chinaDayIndex(now)) };
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const per100 = (litres: number, km: number) => (km >= 1 ? r1((litres / km) * 100) : null);

function vehicleFields(v: VehicleLabel) {
  return { vehicleId: v.vehicleId, vehiidno: v.vehiidno, companyId: v.companyId, companyName: v.companyName };
}
type VehicleFields = ReturnType<typeof vehicleFields>;

// --- rows ---

function summaryRow(v: VehicleLabel, days: { day: number; row: FuelRow }[]) {
  const withData = days.filter((d) => d.row.samples > 0);
  const sum = (pick: (r: FuelRow) => number) => days.reduce((s, d) => s + pick(d.row), 0);
  const km = r2(sum((r) => r.km));
  const consumed = r1(sum((r) => r.consumed));
  return {
    ...vehicleFields(v),
    days: withData.length,
    startLevel: withData[0]?.row.startLevel ?? null,
    endLevel: withData.at(-1)?.row.endLevel ?? null,
    refuels: sum((r) => r.refuels),
    refuelled: r1(sum((r) => r.refuelled)),
    leaks: sum((r) => r.leaks),
    leaked: r1(sum((r) => r.leaked)),
    consumed,
    km,
    per100km: withData.length > 0 ? per100(consumed, km) : null,
    samples: sum((r) => r.samples),
  };
}
type SummaryRow = ReturnType<typeof summaryRow>;

function dailyRow(v: VehicleLabel, day: number, r: FuelRow) {
  return { ...vehicleFields(v), date: chinaDateOfDay(day), ...r };
}
type DailyRow = ReturnType<typeof dailyRow>;

function eventRow(v: VehicleLabel, day: number, e: DayEvent) {
  return {
    ...vehicleFields(v), date: chinaDateOfDay(day), start: e.start, end: e.end, lng: e.lng, lat: e.lat,
    before: e.value.before ?? 0, after: e.value.after ?? 0, litres: e.value.litres ?? 0,
  };
}
type EventRow = ReturnType<typeof eventRow>;

function totalsOf(rows: readonly { refuelled: number; leaked: number; consumed: number; km: number; refuels: number; leaks: number }[]) {
  const t = { refuels: 0, refuelled: 0, leaks: 0, leaked: 0, consumed: 0, km: 0 };
  for (const r of rows) {
    t.refuels += r.refuels;
    t.refuelled += r.refuelled;
    t.leaks += r.leaks;
    t.leaked += r.leaked;
    t.consumed += r.consumed;
    t.km += r.km;
  }
  return { ...t, refuelled: r1(t.refuelled), leaked: r1(t.leaked), consumed: r1(t.consumed), km: r2(t.km), per100km: per100(t.consumed, t.km) };
}

// --- sheets ---

type Col<T> = (lang: Lang) => SheetColumn<T>;
function col<T>(zh: string, en: string, value: SheetColumn<T>['value'], width?: number): Col<T> {
  return () => (width === undefined ? { header: [zh, en], value } : { header: [zh, en], value, width });
}
const sheet = <T>(...cols: Col<T>[]) => (lang: Lang) => cols.map((c) => c(lang));
const VEHICLE_COLS = <T extends VehicleFields>(): Col<T>[] => [col<T>('车牌号', 'Plate', (r) => r.vehiidno, 14), col<T>('所属公司', 'Company', (r) => r.companyName, 20)];
const orBlank = (x: number | null) => x ?? '';
const FIGURE_COLS = <T extends { refuels: number; refuelled: number; leaks: number; leaked: number; consumed: number; km: number; per100km: number | null }>(): Col<T>[] => [
  col<T>('加油次数', 'Refuels', (r) => r.refuels), col<T>('加油量(L)', 'Refuelled (L)', (r) => r.refuelled),
  col<T>('漏油次数', 'Leaks', (r) => r.leaks), col<T>('漏油量(L)', 'Leaked (L)', (r) => r.leaked),
  col<T>('耗油量(L)', 'Consumed (L)', (r) => r.consumed), col<T>('里程(km)', 'Distance (km)', (r) => r.km),
  col<T>('百公里油耗(L)', 'L/100 km', (r) => orBlank(r.per100km)),
];

interface ReportDecl<T> {
  readonly path: string;
  readonly screen: PermissionKey;
  readonly file: readonly [zh: string, en: string];
  readonly build: (engine: ReportEngine, vehicles: VehicleLabel[], period: Period) => Promise<{ rows: T[]; totals: Record<string, number | null> }>;
  readonly columns: (lang: Lang) => SheetColumn<T>[];
}

async function eventRows(engine: ReportEngine, vehicles: VehicleLabel[], period: Period, kind: 'refuel' | 'leak') {
  const byId = new Map(vehicles.map((v) => [v.vehicleId, v]));
  const list = await engine.events(fuelModule.key, [...byId.keys()], period.firstDay, period.lastDay, kind);
  const rows = list.map((x) => eventRow(byId.get(x.vehicleId)!, x.day, x.event));
  // By plate, then time (the engine orders by vehicle id).
  rows.sort((a, b) => a.vehiidno.localeCompare(b.vehiidno) || a.vehicleId - b.vehicleId || a.start - b.start);
  return { rows, totals: { count: rows.length, litres: r1(rows.reduce((s, r) => s + r.litres, 0)) } };
}

const EVENT_COLS = (): Col<EventRow>[] => [
  ...VEHICLE_COLS<EventRow>(), col<EventRow>('开始时间', 'Start', (r) => chinaDateTime(r.start), 20), col<EventRow>('结束时间', 'End', (r) => chinaDateTime(r.end), 20),
  col<EventRow>('之前油量(L)', 'Level before (L)', (r) => r.before), col<EventRow>('之后油量(L)', 'Level after (L)', (r) => r.after),
  col<EventRow>('油量(L)', 'Litres', (r) => r.litres), col<EventRow>('位置', 'Position', (r) => `${r.lng.toFixed(6)},${r.lat.toFixed(6)}`, 24),
];

const REPORTS = {
  summary: {
    path: '/summary', screen: '/report/vehicleOilAnalysis/oilSummary', file: ['油耗汇总', 'fuel-summary'],
    async build(engine, vehicles, period) {
      const days = await engine.days<FuelRow>(fuelModule.key, vehicles.map((v) => v.vehicleId), period.firstDay, period.lastDay);
      const rows = vehicles.map((v) => summaryRow(v, days.get(v.vehicleId) ?? []));
      return { rows, totals: totalsOf(rows) };
    },
    columns: sheet<SummaryRow>(
      ...VEHICLE_COLS<SummaryRow>(), col('有数据天数', 'Days with data', (r) => r.days),
      col('期初油量(L)', 'Start level (L)', (r) => orBlank(r.startLevel)), col('期末油量(L)', 'End level (L)', (r) => orBlank(r.endLevel)),
      ...FIGURE_COLS<SummaryRow>(),
    ),
  } satisfies ReportDecl<SummaryRow>,
  daily: {
    path: '/daily', screen: '/report/vehicleOilAnalysis/oilDaily', file: ['油耗日报', 'fuel-daily'],
    async build(engine, vehicles, period) {
      const days = await engine.days<FuelRow>(fuelModule.key, vehicles.map((v) => v.vehicleId), period.firstDay, period.lastDay);
      const rows: DailyRow[] = [];
      for (const v of vehicles) for (const d of days.get(v.vehicleId) ?? []) if (d.row.samples > 0 || d.row.km > 0) rows.push(dailyRow(v, d.day, d.row));
      return { rows, totals: totalsOf(rows) };
    },
    columns: sheet<DailyRow>(
      ...VEHICLE_COLS<DailyRow>(), col('日期', 'Date', (r) => r.date, 12),
      col('期初油量(L)', 'Start level (L)', (r) => orBlank(r.startLevel)), col('期末油量(L)', 'End level (L)', (r) => orBlank(r.endLevel)),
      ...FIGURE_COLS<DailyRow>(), col('油量读数', 'Readings', (r) => r.samples),
    ),
  } satisfies ReportDecl<DailyRow>,
  refuels: {
    path: '/refuels', screen: '/report/vehicleOilAnalysis/oilAddDetails', file: ['加油明细', 'refuelling-details'],
    build: (engine, vehicles, period) => eventRows(engine, vehicles, period, 'refuel'),
    columns: sheet<EventRow>(...EVENT_COLS()),
  } satisfies ReportDecl<EventRow>,
  leaks: {
    path: '/leaks', screen: '/report/vehicleOilAnalysis/oilLeakageDetails', file: ['漏油明细', 'fuel-leakage-details'],
    build: (engine, vehicles, period) => eventRows(engine, vehicles, period, 'leak'),
    columns: sheet<EventRow>(...EVENT_COLS()),
  } satisfies ReportDecl<EventRow>,
};

export interface FuelReportDeps {
  readonly storage: Storage;
  readonly clock: () => number;
  /** The report engine, once installed (app.reportEngine). */
  readonly engine: () => ReportEngine | undefined;
}

export function fuelReportRoutes(app: App, deps: FuelReportDeps): void {
  const { storage } = deps;
  // The module registers with the engine at app build, before ingest starts.
  deps.engine()?.register(fuelModule as DayModule<unknown, unknown>);

  function engineOf(): ReportEngine {
    const engine = deps.engine();
    if (!engine) throw new AppError(503, FuelReportMessages.engineDown);
    return engine;
  }

  /** The selected vehicles inside the caller's (narrowed) subtree, or all of it; others are simply not there. */
  async function vehiclesOf(request: FastifyRequest, q: Query): Promise<VehicleLabel[]> {
    if (q.vehicleIds && q.vehicleIds.length > FUEL_REPORT_MAX_VEHICLES) throw fail.badRequest(FuelReportMessages.tooManyVehicles);
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const ids = q.vehicleIds ?? (await storage.terminals.allVehicles()).filter((v) => pathInScope(scope, v.companyPath)).map((v) => v.vehicleId);
    if (ids.length > FUEL_REPORT_MAX_VEHICLES) throw fail.badRequest(FuelReportMessages.tooManyVehicles);
    const labels = await storage.terminals.labels(scope, ids);
    return [...labels.values()].sort((a, b) => a.vehiidno.localeCompare(b.vehiidno) || a.vehicleId - b.vehicleId);
  }

  async function run<T>(decl: ReportDecl<T>, request: FastifyRequest, q: Query) {
    const period = periodOf(q, deps.clock());
    const vehicles = await vehiclesOf(request, q);
    if (vehicles.length === 0 || period.lastDay < period.firstDay) return { rows: [] as T[], totals: {} };
    return decl.build(engineOf(), vehicles, period);
  }

  function register<T>(decl: ReportDecl<T>): void {
    const base = `${OILREPORT_BASE}${decl.path}`;
    const permission = decl.screen;
    app.post(base, { config: { permission }, schema: { body: ListSchema } }, async (request) => {
      const q = request.body;
      const { rows, totals } = await run(decl, request, q);
      const records = rows.slice((q.current - 1) * q.size, q.current * q.size);
      return ok({ records, total: rows.length, current: q.current, size: q.size, totals }, requestLang(request));
    });

    const exportBit = `${decl.screen}:export` as PermissionKey;
    const jobs = new ExportJobs(app.exportFiles, `oilreport:${decl.path}`, {
      notFound: FuelReportMessages.taskNotFound, failed: FuelReportMessages.exportFailed, notDone: FuelReportMessages.taskNotDone,
    }, `oilreport ${decl.path} export`);
    app.post(`${base}/excel`, { config: { permission: exportBit }, schema: { body: ExportSchema } }, async (request) => {
      const lang = requestLang(request);
      const q = request.body;
      // Checked before the job starts, so a bad period or selection is the answer, not a failed job.
      periodOf(q, deps.clock());
      await vehiclesOf(request, q);
      engineOf();
      const job = await jobs.start({ userId: auth(request).user.id, fileName: decl.file, asciiName: decl.file[1], log: request.log }, async () => {
        const { rows } = await run(decl, request, q);
        const kept = rows.slice(0, FUEL_EXPORT_MAX_ROWS);
        return { total: rows.length, exported: kept.length, file: await xlsxBuffer(decl.file[lang === 'zh' ? 0 : 1], decl.columns(lang), kept, lang) };
      });
      return ok({ taskId: job.id }, lang);
    });
    app.get(`${base}/export_status`, { config: { permission: exportBit }, schema: { querystring: TaskQuery } }, async (request) => {
      const lang = requestLang(request);
      const job = await jobs.own(auth(request).user.id, request.query.taskId);
      const message = job.status === 'failed' ? FuelReportMessages.exportFailed(lang)
        : job.total > FUEL_EXPORT_MAX_ROWS ? FuelReportMessages.firstOnly(FUEL_EXPORT_MAX_ROWS)(lang) : undefined;
      return ok({ status: job.status, total: job.total, exported: job.exported, ...(message === undefined ? {} : { message }) }, lang);
    });
    app.get(`${base}/excel_file`, { config: { permission: exportBit }, schema: { querystring: TaskQuery } }, async (request, reply) => {
      const f = await jobs.file(auth(request).user.id, request.query.taskId, requestLang(request));
      return sendXlsx(reply, f.body, f.name, f.asciiName);
    });
  }

  for (const decl of Object.values(REPORTS)) register(decl as ReportDecl<unknown>);

  // The one-vehicle drill-down: one China day of readings through the same rules, raw and smoothed.
  app.get(`${OILREPORT_BASE}/chart`, { config: { permission: '/report/vehicleOilAnalysis/oilChart' }, schema: { querystring: ChartQuery } }, async (request) => {
    const lang = requestLang(request);
    const q = request.query;
    const day = dayOf('date', q.date);
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const label = (await storage.terminals.labels(scope, [q.vehicleId])).get(q.vehicleId);
    if (!label) throw fail.notFound(FuelReportMessages.vehicleNotFound);
    const settings = await (deps.engine()?.settings(label.companyId) ?? Promise.resolve({}));
    const th = fuelThresholds(settings);
    const from = chinaDayStartMs(day);
    const rows = await storage.positions.range(q.vehicleId, from, from + DAY_MS, CHART_MAX_POINTS);
    const samples: FuelSample[] = rows.map((r) => ({ t: r.gpsTime, lng: r.lng, lat: r.lat, speed: r.speed, mileage: r.mileage, fuel: r.fuel ?? null }));
    const a = analyzeFuel(samples, th);
    return ok({ ...vehicleFields(label), date: q.date, thresholds: th, t: a.t, raw: a.raw, smooth: a.smooth, events: a.events, figures: a.figures }, lang);
  });
}
