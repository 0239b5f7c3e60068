/**
 * Mileage and operation reports (issue 18; server/services/operation-reports/api.md): the calls of
 * /report/vehicleMileageAnalysis/{mileageStatistics, mileageDaily} and
 * /report/vehicleOperationAnalysis/{parkingSummary, parkingReport, travelDetails, nightStatistic}.
 *
 * Every figure is read from the report engine (server/services/report-engine/api.ts): the `mileage` module's
 * day rows (H5, domain/report-day/mileage.ts) and the `operation` module's day rows and events
 * (domain/report-day/operation.ts). Nothing here reads raw positions. Each call: the caller's company
 * subtree (narrowed by companyId), 1–500 selected vehicles, a period of at most 31 China days, a page of
 * rows with the totals of all of them, and its export as an export job behind the screen's export bit.
 */
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { mileageModule, type MileageRow } from '../../../domain/report-day/mileage.ts';
import type { DayEvent, DayModule } from '../../../domain/report-day/module.ts';
import { OPERATION_MODULE_KEY, operationDay, operationModule, type OperationRow } from '../../../domain/report-day/operation.ts';
import { chinaDateOfDay } from '../../../domain/track/days.ts';
import type { VehicleLabel } from '../../db/repositories.ts';
import type { App } from '../../http/route.ts';
import type { ReportEngine } from '../report-engine/api.ts';
import {
  col, REPORT_EXPORT_MAX_ROWS, REPORT_MAX_VEHICLES, ReportRouteMessages, reportRoutes, sheet, VEHICLE_COLS, vehicleFields,
  type Period, type ReportDecl, type ReportRouteDeps,
} from '../report-engine/report-routes.ts';
import { chinaDateTime } from '../reports/index.ts';
import { address } from '../track/geocoder.ts';

export { periodOf } from '../report-engine/report-routes.ts';

/** Vehicles one report may select (issue 18). */
export const OPERATION_REPORT_MAX_VEHICLES = REPORT_MAX_VEHICLES;
/** Rows an export holds at most; the status says when only the first ones were written. */
export const OPERATION_EXPORT_MAX_ROWS = REPORT_EXPORT_MAX_ROWS;
export const OperationReportMessages = ReportRouteMessages;

const r2 = (x: number) => Math.round(x * 100) / 100;
const r1 = (x: number) => Math.round(x * 10) / 10;

/** The `mileage` module's km of a day (domain/report-day/mileage.ts); a day without a row has none. */
export interface MileageDay { odometerKm: number | null; trackKm: number }
export function mileageOf(row: MileageRow | undefined): MileageDay {
  return row ? { odometerKm: row.odometerKm, trackKm: row.trackKm } : { odometerKm: null, trackKm: 0 };
}

const coords = (lng: number, lat: number) => `${lng.toFixed(6)},${lat.toFixed(6)}`;

/** A declaration: the list call's path under /service-onlinegps and its method are part of it. */
type OperationDecl<T> = ReportDecl<T> & { readonly method: 'GET' | 'POST' };

function sum<T>(rows: readonly T[], pick: (r: T) => number | null): number {
  let s = 0;
  for (const r of rows) s += pick(r) ?? 0;
  return s;
}

/** Days of the engine's answer by day index, for one vehicle. */
function byDay<R>(list: { day: number; row: R }[] | undefined): Map<number, R> {
  return new Map((list ?? []).map((x) => [x.day, x.row]));
}

// --- mileage ---

function mileageStatRow(v: VehicleLabel, days: MileageDay[]) {
  const odo = days.some((d) => d.odometerKm !== null) ? sum(days, (d) => d.odometerKm) : null;
  const track = sum(days, (d) => d.trackKm);
  return Object.assign(vehicleFields(v), {
    odometerKm: odo === null ? null : r2(odo), trackKm: r2(track), differenceKm: odo === null ? null : r2(odo - track),
    operationDays: days.filter((d) => operationDay(d.trackKm)).length,
  });
}
type MileageStatRow = ReturnType<typeof mileageStatRow>;

function mileageDayRow(v: VehicleLabel, day: number, d: MileageDay) {
  return Object.assign(vehicleFields(v), {
    date: chinaDateOfDay(day), odometerKm: d.odometerKm === null ? null : r2(d.odometerKm), trackKm: r2(d.trackKm),
    differenceKm: d.odometerKm === null ? null : r2(d.odometerKm - d.trackKm), operation: operationDay(d.trackKm),
  });
}
type MileageDayRow = ReturnType<typeof mileageDayRow>;

const kmTotals = <T extends { odometerKm: number | null; trackKm: number }>(rows: T[]) => ({
  odometerKm: r2(sum(rows, (r) => r.odometerKm)), trackKm: r2(sum(rows, (r) => r.trackKm)),
});

// --- operation ---

const ZERO_OPERATION: OperationRow = {
  points: 0, online: 0, firstTime: null, lastTime: null, stops: 0, stopMinutes: 0, parkingCount: 0, parkingMinutes: 0, idlingCount: 0,
  idlingMinutes: 0, trips: 0, tripKm: 0, tripMinutes: 0, maxSpeed: 0, drivingMinutes: 0, nightKm: 0, nightMinutes: 0, morningKm: 0,
  morningMinutes: 0, morning: 0,
};

function parkingSummaryRow(v: VehicleLabel, days: OperationRow[]) {
  return Object.assign(vehicleFields(v), {
    stops: sum(days, (d) => d.stops), stopMinutes: r1(sum(days, (d) => d.stopMinutes)),
    parkingCount: sum(days, (d) => d.parkingCount), parkingMinutes: r1(sum(days, (d) => d.parkingMinutes)),
    idlingCount: sum(days, (d) => d.idlingCount), idlingMinutes: r1(sum(days, (d) => d.idlingMinutes)),
  });
}
type ParkingSummaryRow = ReturnType<typeof parkingSummaryRow>;

/** A stop; its place (the offline county-level geocoder, server/services/track/geocoder.ts) is worded by `presentStops`. */
function stopRow(v: VehicleLabel, day: number, e: DayEvent) {
  return Object.assign(vehicleFields(v), {
    date: chinaDateOfDay(day), startTime: e.start, endTime: e.end, minutes: r1(e.value['minutes'] ?? 0),
    parking: e.value['parking'] === 1, lng: e.lng, lat: e.lat, place: '', open: e.value['open'] === 1,
  });
}
type StopRow = ReturnType<typeof stopRow>;
/** The places of the rows that leave (ReportDecl.present), in the caller's language. */
function presentStops(rows: StopRow[], lang: Lang): void {
  for (const r of rows) r.place = address(r.lng, r.lat, lang);
}

function tripRow(v: VehicleLabel, day: number, e: DayEvent) {
  const x = e.value;
  const endLng = x['endLng'] ?? e.lng, endLat = x['endLat'] ?? e.lat;
  return Object.assign(vehicleFields(v), {
    date: chinaDateOfDay(day), startTime: e.start, endTime: e.end, startLng: e.lng, startLat: e.lat,
    startPlace: '', endLng, endLat, endPlace: '', km: r2(x['km'] ?? 0), minutes: r1(x['minutes'] ?? 0),
    maxSpeed: r1(x['maxSpeed'] ?? 0), avgSpeed: r1(x['avgSpeed'] ?? 0), open: x['open'] === 1,
  });
}
type TripRow = ReturnType<typeof tripRow>;
function presentTrips(rows: TripRow[], lang: Lang): void {
  for (const r of rows) {
    r.startPlace = address(r.startLng, r.startLat, lang);
    r.endPlace = address(r.endLng, r.endLat, lang);
  }
}

function nightRow(v: VehicleLabel, day: number, d: OperationRow) {
  return Object.assign(vehicleFields(v), { date: chinaDateOfDay(day), nightKm: r2(d.nightKm), nightMinutes: r1(d.nightMinutes), tripKm: r2(d.tripKm) });
}
type NightRow = ReturnType<typeof nightRow>;

function nightCollectRow(v: VehicleLabel, days: OperationRow[]) {
  const nightDays = days.filter((d) => d.nightKm > 0).length;
  return Object.assign(vehicleFields(v), { nightDays, nightKm: r2(sum(days, (d) => d.nightKm)), nightMinutes: r1(sum(days, (d) => d.nightMinutes)), tripKm: r2(sum(days, (d) => d.tripKm)) });
}
type NightCollectRow = ReturnType<typeof nightCollectRow>;

function eachDay(period: Period, f: (day: number) => void): void {
  for (let d = period.firstDay; d <= period.lastDay; d++) f(d);
}
const ids = (vehicles: VehicleLabel[]) => vehicles.map((v) => v.vehicleId);

async function mileageDays(engine: ReportEngine, vehicles: VehicleLabel[], period: Period) {
  return engine.days<MileageRow>(mileageModule.key, ids(vehicles), period.firstDay, period.lastDay);
}
async function operationDays(engine: ReportEngine, vehicles: VehicleLabel[], period: Period) {
  return engine.days<OperationRow>(OPERATION_MODULE_KEY, ids(vehicles), period.firstDay, period.lastDay);
}
async function eventRows<T>(engine: ReportEngine, vehicles: VehicleLabel[], period: Period, kind: string, row: (v: VehicleLabel, day: number, e: DayEvent) => T) {
  const byId = new Map(vehicles.map((v) => [v.vehicleId, v]));
  const list = await engine.events(OPERATION_MODULE_KEY, ids(vehicles), period.firstDay, period.lastDay, kind);
  return list.flatMap((x) => (byId.has(x.vehicleId) ? [row(byId.get(x.vehicleId)!, x.day, x.event)] : []));
}

const REPORTS = {
  mileageStatistics: {
    path: '/geography/getVehicleRealtimeMile', method: 'GET', screen: '/report/vehicleMileageAnalysis/mileageStatistics', file: ['里程统计', 'mileage-statistics'],
    build: async (engine, vehicles, period) => {
      const days = await mileageDays(engine, vehicles, period);
      const rows = vehicles.map((v) => mileageStatRow(v, (days.get(v.vehicleId) ?? []).map((x) => mileageOf(x.row))));
      return { rows, totals: { ...kmTotals(rows), operationDays: sum(rows, (r) => r.operationDays) } };
    },
    columns: sheet<MileageStatRow>(...VEHICLE_COLS<MileageStatRow>(), col('仪表里程(km)', 'Odometer km', (r) => r.odometerKm ?? ''), col('轨迹里程(km)', 'Track km', (r) => r.trackKm),
      col('差值(km)', 'Difference (km)', (r) => r.differenceKm ?? ''), col('营运天数', 'Operation days', (r) => r.operationDays)),
  } satisfies OperationDecl<MileageStatRow>,
  mileageDaily: {
    path: '/geography/getVehicleDailyMile', method: 'POST', // GET is the dashboard's 7-day chart (server/services/dashboard)
    screen: '/report/vehicleMileageAnalysis/mileageDaily', file: ['里程日报', 'mileage-daily'],
    build: async (engine, vehicles, period) => {
      const days = await mileageDays(engine, vehicles, period);
      const rows: MileageDayRow[] = [];
      for (const v of vehicles) {
        const map = byDay(days.get(v.vehicleId));
        eachDay(period, (d) => rows.push(mileageDayRow(v, d, mileageOf(map.get(d)))));
      }
      return { rows, totals: { ...kmTotals(rows), operationDays: rows.filter((r) => r.operation).length } };
    },
    columns: sheet<MileageDayRow>(...VEHICLE_COLS<MileageDayRow>(), col('日期', 'Date', (r) => r.date, 12), col('仪表里程(km)', 'Odometer km', (r) => r.odometerKm ?? ''),
      col('轨迹里程(km)', 'Track km', (r) => r.trackKm), col('差值(km)', 'Difference (km)', (r) => r.differenceKm ?? '')),
  } satisfies OperationDecl<MileageDayRow>,
  parkingSummary: {
    path: '/geography/getAllVehicleGeographyStop', method: 'GET', screen: '/report/vehicleOperationAnalysis/parkingSummary', file: ['停车汇总', 'parking-summary'],
    build: async (engine, vehicles, period) => {
      const days = await operationDays(engine, vehicles, period);
      const rows = vehicles.map((v) => parkingSummaryRow(v, (days.get(v.vehicleId) ?? []).map((x) => x.row)));
      const keys = ['stops', 'stopMinutes', 'parkingCount', 'parkingMinutes', 'idlingCount', 'idlingMinutes'] as const;
      return { rows, totals: Object.fromEntries(keys.map((k) => [k, r1(sum(rows, (r) => r[k]))])) };
    },
    columns: sheet<ParkingSummaryRow>(...VEHICLE_COLS<ParkingSummaryRow>(), col('停车次数', 'Stops', (r) => r.stops), col('停车时长(分钟)', 'Stop minutes', (r) => r.stopMinutes),
      col('熄火停车次数', 'Parked (ACC off)', (r) => r.parkingCount), col('熄火停车时长(分钟)', 'Parked minutes', (r) => r.parkingMinutes),
      col('怠速次数', 'Idling (ACC on)', (r) => r.idlingCount), col('怠速时长(分钟)', 'Idling minutes', (r) => r.idlingMinutes)),
  } satisfies OperationDecl<ParkingSummaryRow>,
  parkingReport: {
    path: '/geography/getVehicleDailyStop', method: 'GET', screen: '/report/vehicleOperationAnalysis/parkingReport', file: ['停车报表', 'parking-report'],
    build: async (engine, vehicles, period) => {
      const rows = await eventRows(engine, vehicles, period, 'stop', stopRow);
      return { rows, totals: { stops: rows.length, minutes: r1(sum(rows, (r) => r.minutes)) } };
    },
    present: presentStops,
    columns: (lang: Lang) => sheet<StopRow>(...VEHICLE_COLS<StopRow>(), col('开始时间', 'From', (r) => chinaDateTime(r.startTime), 20), col('结束时间', 'To', (r) => chinaDateTime(r.endTime), 20),
      col('时长(分钟)', 'Minutes', (r) => r.minutes), col('类型', 'Kind', (r) => (r.parking ? (lang === 'zh' ? '熄火停车' : 'Parked') : lang === 'zh' ? '怠速' : 'Idling')),
      col('位置', 'Place', (r) => r.place, 30), col('经纬度', 'Lng, lat', (r) => coords(r.lng, r.lat), 24))(lang),
  } satisfies OperationDecl<StopRow>,
  travelDetails: {
    path: '/geography/getVehicleTrips', method: 'GET', screen: '/report/vehicleOperationAnalysis/travelDetails', file: ['行程明细', 'trip-details'],
    build: async (engine, vehicles, period) => {
      const rows = await eventRows(engine, vehicles, period, 'trip', tripRow);
      return { rows, totals: { trips: rows.length, km: r2(sum(rows, (r) => r.km)), minutes: r1(sum(rows, (r) => r.minutes)) } };
    },
    present: presentTrips,
    columns: sheet<TripRow>(...VEHICLE_COLS<TripRow>(), col('开始时间', 'From', (r) => chinaDateTime(r.startTime), 20), col('开始位置', 'From place', (r) => r.startPlace, 30),
      col('开始经纬度', 'From lng, lat', (r) => coords(r.startLng, r.startLat), 24), col('结束时间', 'To', (r) => chinaDateTime(r.endTime), 20),
      col('结束位置', 'To place', (r) => r.endPlace, 30), col('结束经纬度', 'To lng, lat', (r) => coords(r.endLng, r.endLat), 24), col('里程(km)', 'km', (r) => r.km),
      col('时长(分钟)', 'Minutes', (r) => r.minutes), col('最高速度(km/h)', 'Max speed (km/h)', (r) => r.maxSpeed), col('平均速度(km/h)', 'Avg speed (km/h)', (r) => r.avgSpeed)),
  } satisfies OperationDecl<TripRow>,
  nightStatistic: {
    path: '/nightoperatereport/vehicledaily', method: 'POST', screen: '/report/vehicleOperationAnalysis/nightStatistic', file: ['夜间统计', 'night-statistics'],
    build: async (engine, vehicles, period) => {
      const days = await operationDays(engine, vehicles, period);
      const rows: NightRow[] = [];
      for (const v of vehicles) {
        const map = byDay(days.get(v.vehicleId));
        eachDay(period, (d) => rows.push(nightRow(v, d, map.get(d) ?? ZERO_OPERATION)));
      }
      return { rows, totals: { nightKm: r2(sum(rows, (r) => r.nightKm)), nightMinutes: r1(sum(rows, (r) => r.nightMinutes)), nightDays: rows.filter((r) => r.nightKm > 0).length } };
    },
    columns: sheet<NightRow>(...VEHICLE_COLS<NightRow>(), col('日期', 'Date', (r) => r.date, 12), col('夜间里程(km)', 'Night km', (r) => r.nightKm),
      col('夜间时长(分钟)', 'Night minutes', (r) => r.nightMinutes), col('行程里程(km)', 'Trip km', (r) => r.tripKm)),
  } satisfies OperationDecl<NightRow>,
  nightCollect: {
    path: '/nightoperatereport/vehiclecollect', method: 'POST', screen: '/report/vehicleOperationAnalysis/nightStatistic', file: ['夜间统计汇总', 'night-statistics-by-vehicle'],
    build: async (engine, vehicles, period) => {
      const days = await operationDays(engine, vehicles, period);
      const rows = vehicles.map((v) => nightCollectRow(v, (days.get(v.vehicleId) ?? []).map((x) => x.row)));
      return { rows, totals: { nightDays: sum(rows, (r) => r.nightDays), nightKm: r2(sum(rows, (r) => r.nightKm)), nightMinutes: r1(sum(rows, (r) => r.nightMinutes)) } };
    },
    columns: sheet<NightCollectRow>(...VEHICLE_COLS<NightCollectRow>(), col('夜间行驶天数', 'Night days', (r) => r.nightDays), col('夜间里程(km)', 'Night km', (r) => r.nightKm),
      col('夜间时长(分钟)', 'Night minutes', (r) => r.nightMinutes), col('行程里程(km)', 'Trip km', (r) => r.tripKm)),
  } satisfies OperationDecl<NightCollectRow>,
} as const;

export const OPERATION_REPORT_PATHS = Object.fromEntries(Object.entries(REPORTS).map(([k, d]) => [k, `/service-onlinegps${d.path}`])) as Record<keyof typeof REPORTS, string>;

export type OperationReportDeps = ReportRouteDeps;

export function operationReportRoutes(app: App, deps: OperationReportDeps): void {
  reportRoutes(app, deps, {
    modules: [operationModule as DayModule<never, never>], prefix: '/service-onlinegps', reports: REPORTS,
    jobKind: (path) => `report:${path}`, jobLog: (path) => `${path} export`,
  });
}
