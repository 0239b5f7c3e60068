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
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { mileageModule, type MileageRow } from '../../../domain/report-day/mileage.ts';
import type { DayEvent, DayModule } from '../../../domain/report-day/module.ts';
import { OPERATION_MODULE_KEY, operationDay, operationModule, type OperationRow } from '../../../domain/report-day/operation.ts';
import { chinaDateOfDay, chinaDayIndex } from '../../../domain/track/days.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, type App, type PermissionKey } from '../../http/route.ts';
import { ExportJobs } from '../export-jobs.ts';
import type { ReportEngine } from '../report-engine/api.ts';
import { chinaDateTime, REPORT_MAX_DAYS, ReportMessages } from '../reports/index.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';

/** Vehicles one report may select (issue 18). */
export const OPERATION_REPORT_MAX_VEHICLES = 500;
/** Rows an export holds at most; the status says when only the first ones were written. */
export const OPERATION_EXPORT_MAX_ROWS = 50_000;

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);
export const OperationReportMessages = {
  engineDown: pair('报表引擎未启动，请稍后再试', 'The report engine is not running; try again later'),
  taskNotFound: pair('导出任务不存在或已过期', 'The export task does not exist or has expired'),
  exportFailed: pair('导出失败，请重试', 'The export failed; please try again'),
  taskNotDone: pair('导出尚未完成', 'The export is not finished yet'),
  firstOnly: (n: number): Message => pair(`数据量过大，仅导出前${n}条`, `Too many rows: only the first ${n} were exported`),
};

const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const VehicleList = Type.Array(Id, { minItems: 1, maxItems: OPERATION_REPORT_MAX_VEHICLES, uniqueItems: true });
const QueryFields = { startDate: DateText, endDate: DateText, vehicleIds: VehicleList };
const ListSchema = Strict({ ...QueryFields, ...PageFields });
const ExportSchema = Strict(QueryFields);
const TaskQuery = Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) });

interface Query { startDate: string; endDate: string; vehicleIds: number[]; companyId?: number | undefined }
interface Period { firstDay: number; lastDay: number }

function dayOf(field: string, text: string): number {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const day = Date.UTC(y, m - 1, d) / 86_400_000;
  if (chinaDateOfDay(day) !== text) throw fail.badRequest(ReportMessages.invalidDate(field));
  return day;
}

/** The period's China days, at most 31, cut at today (later days have no data). */
export function periodOf(q: { startDate: string; endDate: string }, now: number): Period {
  const firstDay = dayOf('startDate', q.startDate);
  const endDay = dayOf('endDate', q.endDate);
  if (firstDay > endDay) throw fail.badRequest(ReportMessages.startAfterEnd);
  if (endDay - firstDay + 1 > REPORT_MAX_DAYS) throw fail.badRequest(ReportMessages.periodTooLong);
  return { firstDay, lastDay: Math.min(endDay, chinaDayIndex(now)) };
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const r1 = (x: number) => Math.round(x * 10) / 10;

/** The `mileage` module's km of a day (domain/report-day/mileage.ts); a day without a row has none. */
export interface MileageDay { odometerKm: number | null; trackKm: number }
export function mileageOf(row: MileageRow | undefined): MileageDay {
  return row ? { odometerKm: row.odometerKm, trackKm: row.trackKm } : { odometerKm: null, trackKm: 0 };
}

function vehicleFields(v: VehicleLabel) {
  return { vehicleId: v.vehicleId, vehiidno: v.vehiidno, companyId: v.companyId, companyName: v.companyName };
}
type VehicleFields = ReturnType<typeof vehicleFields>;
const place = (lng: number, lat: number) => `${lng.toFixed(6)},${lat.toFixed(6)}`;

/** A report: its rows (all of them: the page and the export cut them) and the totals over them. */
interface Report<T> { rows: T[]; totals: Record<string, number> }

interface ReportDecl<T> {
  /** Path under /service-onlinegps. */
  readonly path: string;
  readonly method: 'GET' | 'POST';
  readonly screen: PermissionKey;
  readonly file: readonly [zh: string, en: string];
  readonly build: (vehicles: VehicleLabel[], period: Period, engine: ReportEngine) => Promise<Report<T>>;
  readonly columns: (lang: Lang) => SheetColumn<T>[];
}

function col<T>(zh: string, en: string, value: SheetColumn<T>['value'], width?: number): (lang: Lang) => SheetColumn<T> {
  return () => (width === undefined ? { header: [zh, en], value } : { header: [zh, en], value, width });
}
function sheet<T>(...cols: ((lang: Lang) => SheetColumn<T>)[]): (lang: Lang) => SheetColumn<T>[] {
  return (lang) => cols.map((c) => c(lang));
}
const VEHICLE_COLS = <T extends VehicleFields>() => [col<T>('车牌号', 'Plate', (r) => r.vehiidno, 14), col<T>('所属公司', 'Company', (r) => r.companyName, 20)];

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
  return {
    ...vehicleFields(v), odometerKm: odo === null ? null : r2(odo), trackKm: r2(track), differenceKm: odo === null ? null : r2(odo - track),
    operationDays: days.filter((d) => operationDay(d.trackKm)).length,
  };
}
type MileageStatRow = ReturnType<typeof mileageStatRow>;

function mileageDayRow(v: VehicleLabel, day: number, d: MileageDay) {
  return {
    ...vehicleFields(v), date: chinaDateOfDay(day), odometerKm: d.odometerKm === null ? null : r2(d.odometerKm), trackKm: r2(d.trackKm),
    differenceKm: d.odometerKm === null ? null : r2(d.odometerKm - d.trackKm), operation: operationDay(d.trackKm),
  };
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
  return {
    ...vehicleFields(v), stops: sum(days, (d) => d.stops), stopMinutes: r1(sum(days, (d) => d.stopMinutes)),
    parkingCount: sum(days, (d) => d.parkingCount), parkingMinutes: r1(sum(days, (d) => d.parkingMinutes)),
    idlingCount: sum(days, (d) => d.idlingCount), idlingMinutes: r1(sum(days, (d) => d.idlingMinutes)),
  };
}
type ParkingSummaryRow = ReturnType<typeof parkingSummaryRow>;

function stopRow(v: VehicleLabel, day: number, e: DayEvent) {
  return {
    ...vehicleFields(v), date: chinaDateOfDay(day), startTime: e.start, endTime: e.end, minutes: r1(e.value['minutes'] ?? 0),
    parking: e.value['parking'] === 1, lng: e.lng, lat: e.lat, open: e.value['open'] === 1,
  };
}
type StopRow = ReturnType<typeof stopRow>;

function tripRow(v: VehicleLabel, day: number, e: DayEvent) {
  const x = e.value;
  return {
    ...vehicleFields(v), date: chinaDateOfDay(day), startTime: e.start, endTime: e.end, startLng: e.lng, startLat: e.lat,
    endLng: x['endLng'] ?? e.lng, endLat: x['endLat'] ?? e.lat, km: r2(x['km'] ?? 0), minutes: r1(x['minutes'] ?? 0),
    maxSpeed: r1(x['maxSpeed'] ?? 0), avgSpeed: r1(x['avgSpeed'] ?? 0), open: x['open'] === 1,
  };
}
type TripRow = ReturnType<typeof tripRow>;

function nightRow(v: VehicleLabel, day: number, d: OperationRow) {
  return { ...vehicleFields(v), date: chinaDateOfDay(day), nightKm: r2(d.nightKm), nightMinutes: r1(d.nightMinutes), tripKm: r2(d.tripKm) };
}
type NightRow = ReturnType<typeof nightRow>;

function nightCollectRow(v: VehicleLabel, days: OperationRow[]) {
  const nightDays = days.filter((d) => d.nightKm > 0).length;
  return { ...vehicleFields(v), nightDays, nightKm: r2(sum(days, (d) => d.nightKm)), nightMinutes: r1(sum(days, (d) => d.nightMinutes)), tripKm: r2(sum(days, (d) => d.tripKm)) };
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
    build: async (vehicles, period, engine) => {
      const days = await mileageDays(engine, vehicles, period);
      const rows = vehicles.map((v) => mileageStatRow(v, (days.get(v.vehicleId) ?? []).map((x) => mileageOf(x.row))));
      return { rows, totals: { ...kmTotals(rows), operationDays: sum(rows, (r) => r.operationDays) } };
    },
    columns: sheet<MileageStatRow>(...VEHICLE_COLS<MileageStatRow>(), col('仪表里程(km)', 'Odometer km', (r) => r.odometerKm ?? ''), col('轨迹里程(km)', 'Track km', (r) => r.trackKm),
      col('差值(km)', 'Difference (km)', (r) => r.differenceKm ?? ''), col('营运天数', 'Operation days', (r) => r.operationDays)),
  } satisfies ReportDecl<MileageStatRow>,
  mileageDaily: {
    path: '/geography/getVehicleDailyMile', method: 'POST', // GET is the dashboard's 7-day chart (server/services/dashboard)
    screen: '/report/vehicleMileageAnalysis/mileageDaily', file: ['里程日报', 'mileage-daily'],
    build: async (vehicles, period, engine) => {
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
  } satisfies ReportDecl<MileageDayRow>,
  parkingSummary: {
    path: '/geography/getAllVehicleGeographyStop', method: 'GET', screen: '/report/vehicleOperationAnalysis/parkingSummary', file: ['停车汇总', 'parking-summary'],
    build: async (vehicles, period, engine) => {
      const days = await operationDays(engine, vehicles, period);
      const rows = vehicles.map((v) => parkingSummaryRow(v, (days.get(v.vehicleId) ?? []).map((x) => x.row)));
      const keys = ['stops', 'stopMinutes', 'parkingCount', 'parkingMinutes', 'idlingCount', 'idlingMinutes'] as const;
      return { rows, totals: Object.fromEntries(keys.map((k) => [k, r1(sum(rows, (r) => r[k]))])) };
    },
    columns: sheet<ParkingSummaryRow>(...VEHICLE_COLS<ParkingSummaryRow>(), col('停车次数', 'Stops', (r) => r.stops), col('停车时长(分钟)', 'Stop minutes', (r) => r.stopMinutes),
      col('熄火停车次数', 'Parked (ACC off)', (r) => r.parkingCount), col('熄火停车时长(分钟)', 'Parked minutes', (r) => r.parkingMinutes),
      col('怠速次数', 'Idling (ACC on)', (r) => r.idlingCount), col('怠速时长(分钟)', 'Idling minutes', (r) => r.idlingMinutes)),
  } satisfies ReportDecl<ParkingSummaryRow>,
  parkingReport: {
    path: '/geography/getVehicleDailyStop', method: 'GET', screen: '/report/vehicleOperationAnalysis/parkingReport', file: ['停车报表', 'parking-report'],
    build: async (vehicles, period, engine) => {
      const rows = await eventRows(engine, vehicles, period, 'stop', stopRow);
      return { rows, totals: { stops: rows.length, minutes: r1(sum(rows, (r) => r.minutes)) } };
    },
    columns: (lang: Lang) => sheet<StopRow>(...VEHICLE_COLS<StopRow>(), col('开始时间', 'From', (r) => chinaDateTime(r.startTime), 20), col('结束时间', 'To', (r) => chinaDateTime(r.endTime), 20),
      col('时长(分钟)', 'Minutes', (r) => r.minutes), col('类型', 'Kind', (r) => (r.parking ? (lang === 'zh' ? '熄火停车' : 'Parked') : lang === 'zh' ? '怠速' : 'Idling')),
      col('位置(经度,纬度)', 'Place (lng,lat)', (r) => place(r.lng, r.lat), 24))(lang),
  } satisfies ReportDecl<StopRow>,
  travelDetails: {
    path: '/geography/getVehicleTrips', method: 'GET', screen: '/report/vehicleOperationAnalysis/travelDetails', file: ['行程明细', 'trip-details'],
    build: async (vehicles, period, engine) => {
      const rows = await eventRows(engine, vehicles, period, 'trip', tripRow);
      return { rows, totals: { trips: rows.length, km: r2(sum(rows, (r) => r.km)), minutes: r1(sum(rows, (r) => r.minutes)) } };
    },
    columns: sheet<TripRow>(...VEHICLE_COLS<TripRow>(), col('开始时间', 'From', (r) => chinaDateTime(r.startTime), 20), col('开始位置', 'From place', (r) => place(r.startLng, r.startLat), 24),
      col('结束时间', 'To', (r) => chinaDateTime(r.endTime), 20), col('结束位置', 'To place', (r) => place(r.endLng, r.endLat), 24), col('里程(km)', 'km', (r) => r.km),
      col('时长(分钟)', 'Minutes', (r) => r.minutes), col('最高速度(km/h)', 'Max speed (km/h)', (r) => r.maxSpeed), col('平均速度(km/h)', 'Avg speed (km/h)', (r) => r.avgSpeed)),
  } satisfies ReportDecl<TripRow>,
  nightStatistic: {
    path: '/nightoperatereport/vehicledaily', method: 'POST', screen: '/report/vehicleOperationAnalysis/nightStatistic', file: ['夜间统计', 'night-statistics'],
    build: async (vehicles, period, engine) => {
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
  } satisfies ReportDecl<NightRow>,
  nightCollect: {
    path: '/nightoperatereport/vehiclecollect', method: 'POST', screen: '/report/vehicleOperationAnalysis/nightStatistic', file: ['夜间统计汇总', 'night-statistics-by-vehicle'],
    build: async (vehicles, period, engine) => {
      const days = await operationDays(engine, vehicles, period);
      const rows = vehicles.map((v) => nightCollectRow(v, (days.get(v.vehicleId) ?? []).map((x) => x.row)));
      return { rows, totals: { nightDays: sum(rows, (r) => r.nightDays), nightKm: r2(sum(rows, (r) => r.nightKm)), nightMinutes: r1(sum(rows, (r) => r.nightMinutes)) } };
    },
    columns: sheet<NightCollectRow>(...VEHICLE_COLS<NightCollectRow>(), col('夜间行驶天数', 'Night days', (r) => r.nightDays), col('夜间里程(km)', 'Night km', (r) => r.nightKm),
      col('夜间时长(分钟)', 'Night minutes', (r) => r.nightMinutes), col('行程里程(km)', 'Trip km', (r) => r.tripKm)),
  } satisfies ReportDecl<NightCollectRow>,
} as const;

export const OPERATION_REPORT_PATHS = Object.fromEntries(Object.entries(REPORTS).map(([k, d]) => [k, `/service-onlinegps${d.path}`])) as Record<keyof typeof REPORTS, string>;

export interface OperationReportDeps {
  readonly storage: Storage;
  readonly clock: () => number;
  /** The engine, read per request (it is decorated by the engine's own wiring; absent → 503). */
  readonly engine: () => ReportEngine | undefined;
}

export function operationReportRoutes(app: App, deps: OperationReportDeps): void {
  const { storage } = deps;
  // The module registers with the engine at app build, before ingest starts (the engine is installed before the routes).
  deps.engine()?.register(operationModule as DayModule<unknown, unknown>);

  function engineOf(): ReportEngine {
    const engine = deps.engine();
    if (!engine) throw new AppError(503, OperationReportMessages.engineDown);
    return engine;
  }

  /** The selected vehicles inside the caller's (narrowed) subtree; others are simply not there, like elsewhere. */
  async function vehiclesOf(request: FastifyRequest, q: Query): Promise<VehicleLabel[]> {
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const labels = await storage.terminals.labels(scope, q.vehicleIds);
    return [...labels.values()].sort((a, b) => a.vehiidno.localeCompare(b.vehiidno) || a.vehicleId - b.vehicleId);
  }

  async function run<T>(decl: ReportDecl<T>, request: FastifyRequest, q: Query): Promise<Report<T>> {
    const period = periodOf(q, deps.clock());
    const vehicles = await vehiclesOf(request, q);
    if (vehicles.length === 0 || period.lastDay < period.firstDay) return { rows: [], totals: {} };
    return decl.build(vehicles, period, engineOf());
  }

  function register<T>(decl: ReportDecl<T>): void {
    const base = `/service-onlinegps${decl.path}`;
    const permission = decl.screen;
    const answer = async (request: FastifyRequest, q: Query & { current: number; size: number }) => {
      const { rows, totals } = await run(decl, request, q);
      const records = rows.slice((q.current - 1) * q.size, q.current * q.size);
      return ok({ records, total: rows.length, current: q.current, size: q.size, totals }, requestLang(request));
    };
    if (decl.method === 'GET') {
      app.get(base, { config: { permission }, schema: { querystring: ListSchema } }, async (request) => answer(request, request.query));
    } else {
      app.post(base, { config: { permission }, schema: { body: ListSchema } }, async (request) => answer(request, request.body));
    }

    const exportBit = `${decl.screen}:export` as PermissionKey;
    const jobs = new ExportJobs(app.exportFiles, `report:${decl.path}`, {
      notFound: OperationReportMessages.taskNotFound, failed: OperationReportMessages.exportFailed, notDone: OperationReportMessages.taskNotDone,
    }, `${decl.path} export`);
    app.post(`${base}/excel`, { config: { permission: exportBit }, schema: { body: ExportSchema } }, async (request) => {
      const ctx = auth(request);
      const lang = requestLang(request);
      const q = request.body;
      // Checked before the job starts, so a bad period is the answer, not a failed job.
      periodOf(q, deps.clock());
      engineOf();
      const job = await jobs.start({ userId: ctx.user.id, fileName: decl.file, asciiName: decl.file[1], log: request.log }, async () => {
        const { rows } = await run(decl, request, q);
        const kept = rows.slice(0, OPERATION_EXPORT_MAX_ROWS);
        return { total: rows.length, exported: kept.length, file: await xlsxBuffer(decl.file[lang === 'zh' ? 0 : 1], decl.columns(lang), kept, lang) };
      });
      return ok({ taskId: job.id }, lang);
    });
    app.get(`${base}/export_status`, { config: { permission: exportBit }, schema: { querystring: TaskQuery } }, async (request) => {
      const lang = requestLang(request);
      const job = await jobs.own(auth(request).user.id, request.query.taskId);
      const message = job.status === 'failed' ? OperationReportMessages.exportFailed(lang)
        : job.total > OPERATION_EXPORT_MAX_ROWS ? OperationReportMessages.firstOnly(OPERATION_EXPORT_MAX_ROWS)(lang) : undefined;
      return ok({ status: job.status, total: job.total, exported: job.exported, ...(message === undefined ? {} : { message }) }, lang);
    });
    app.get(`${base}/excel_file`, { config: { permission: exportBit }, schema: { querystring: TaskQuery } }, async (request, reply) => {
      const f = await jobs.file(auth(request).user.id, request.query.taskId, requestLang(request));
      return sendXlsx(reply, f.body, f.name, f.asciiName);
    });
  }

  for (const decl of Object.values(REPORTS)) register(decl as ReportDecl<unknown>);
}
