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
import { analyzeFuel, fuelThresholds, type FuelSample } from '../../../domain/fuel/rules.ts';
import { fuelModule, type FuelRow } from '../../../domain/report-day/fuel.ts';
import type { DayEvent, DayModule } from '../../../domain/report-day/module.ts';
import { chinaDateOfDay, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { VehicleLabel } from '../../db/repositories.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Id, Strict, type App } from '../../http/route.ts';
import type { ReportEngine } from '../report-engine/api.ts';
import {
  col, dayOf, DateText, pair, REPORT_EXPORT_MAX_ROWS, REPORT_MAX_VEHICLES, ReportRouteMessages, reportRoutes, sheet, VEHICLE_COLS, vehicleFields,
  type Col, type Period, type ReportDecl, type ReportRouteDeps,
} from '../report-engine/report-routes.ts';
import { chinaDateTime } from '../reports/index.ts';

/** Vehicles one report may cover (spec §5: at most 500 vehicles selectable at once). */
export const FUEL_REPORT_MAX_VEHICLES = REPORT_MAX_VEHICLES;
/** Rows an export holds at most (the catalogue's positioning export cap); the status says when cut. */
export const FUEL_EXPORT_MAX_ROWS = REPORT_EXPORT_MAX_ROWS;
/** Readings the chart reads for one vehicle-day (1 Hz all day is 86,400). */
const CHART_MAX_POINTS = 100_000;
export const OILREPORT_BASE = '/service-onlinegps/oilreport';

export const FuelReportMessages = {
  tooManyVehicles: pair(`最多选择${FUEL_REPORT_MAX_VEHICLES}辆车，请缩小公司或勾选车辆`, `At most ${FUEL_REPORT_MAX_VEHICLES} vehicles can be selected; narrow the company or check vehicles`),
  vehicleNotFound: pair('车辆不存在', 'Vehicle not found'),
  ...ReportRouteMessages,
};

const ChartQuery = Strict({ vehicleId: Id, date: DateText });

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const per100 = (litres: number, km: number) => (km >= 1 ? r1((litres / km) * 100) : null);

// --- rows ---

function summaryRow(v: VehicleLabel, days: { day: number; row: FuelRow }[]) {
  const withData = days.filter((d) => d.row.samples > 0);
  const sum = (pick: (r: FuelRow) => number) => days.reduce((s, d) => s + pick(d.row), 0);
  const km = r2(sum((r) => r.km));
  const consumed = r1(sum((r) => r.consumed));
  return Object.assign(vehicleFields(v), {
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
  });
}
type SummaryRow = ReturnType<typeof summaryRow>;

function dailyRow(v: VehicleLabel, day: number, r: FuelRow) {
  return Object.assign(vehicleFields(v), { date: chinaDateOfDay(day), ...r });
}
type DailyRow = ReturnType<typeof dailyRow>;

function eventRow(v: VehicleLabel, day: number, e: DayEvent) {
  return Object.assign(vehicleFields(v), {
    date: chinaDateOfDay(day), start: e.start, end: e.end, lng: e.lng, lat: e.lat,
    before: e.value.before ?? 0, after: e.value.after ?? 0, litres: e.value.litres ?? 0,
  });
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

const orBlank = (x: number | null) => x ?? '';
const FIGURE_COLS = <T extends { refuels: number; refuelled: number; leaks: number; leaked: number; consumed: number; km: number; per100km: number | null }>(): Col<T>[] => [
  col<T>('加油次数', 'Refuels', (r) => r.refuels), col<T>('加油量(L)', 'Refuelled (L)', (r) => r.refuelled),
  col<T>('漏油次数', 'Leaks', (r) => r.leaks), col<T>('漏油量(L)', 'Leaked (L)', (r) => r.leaked),
  col<T>('耗油量(L)', 'Consumed (L)', (r) => r.consumed), col<T>('里程(km)', 'Distance (km)', (r) => r.km),
  col<T>('百公里油耗(L)', 'L/100 km', (r) => orBlank(r.per100km)),
];

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

export type FuelReportDeps = ReportRouteDeps;

export function fuelReportRoutes(app: App, deps: FuelReportDeps): void {
  const { storage } = deps;
  reportRoutes(app, deps, {
    modules: [fuelModule as DayModule<never, never>], prefix: OILREPORT_BASE, reports: REPORTS,
    jobKind: (path) => `oilreport:${path}`, jobLog: (path) => `oilreport ${path} export`,
    wholeCompany: { tooManyVehicles: FuelReportMessages.tooManyVehicles },
  });

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
    return ok(Object.assign(vehicleFields(label), { date: q.date, thresholds: th, t: a.t, raw: a.raw, smooth: a.smooth, events: a.events, figures: a.figures }), lang);
  });
}
