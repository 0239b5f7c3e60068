/**
 * The positioning-quality calls of /service-onlinegps/offlinereport (server/API.md "Positioning-quality
 * reports"): daily rows, per-vehicle sums and online rate from the daily rollup (rollup.ts), and the
 * detail lists (invalid points, drift points, discontinuous gaps), each with an .xlsx variant.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { FieldMessage } from '../../../domain/errors/catalogue.ts';
import { percent, sumMetrics, type DayMetrics, type InvalidReason, type PeriodMetrics } from '../../../domain/track/daily-metrics.ts';
import { chinaDateOfDay, chinaDayIndex, CHINA_OFFSET_MS } from '../../../domain/track/days.ts';
import { periodMessage, TRAIL_EXPORT_MAX_POINTS } from '../../../domain/track/limits.ts';
import type { VehicleLabel } from '../../db/repositories.ts';
import { pathInScope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { IdList, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import type { ServiceDeps } from '../deps.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from './excel.ts';
import { ReportEngine, type DriftItem, type GapItem, type InvalidItem, type WindowResult } from './rollup.ts';
import { sharedReportEngine } from './shared-engine.ts';
import { retentionCutoffs } from '../../../domain/retention/policy.ts';
import { retentionPolicy } from '../../retention/index.ts';

/** A report period covers at most this many China days. */
export const REPORT_MAX_DAYS = 31;
/** A detail list is reused this long (paging through it, then exporting it). */
export const DETAIL_MEMO_MS = 60_000;
const DETAIL_MEMO_ENTRIES = 16;
/** Exports hold at most this many rows (the catalogue's positioning export cap). */
export const REPORT_EXPORT_MAX_ROWS = TRAIL_EXPORT_MAX_POINTS;

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);

export const ReportMessages = {
  periodTooLong: pair(`查询时间段不能超过${REPORT_MAX_DAYS}天`, `The period can be at most ${REPORT_MAX_DAYS} days`),
  startAfterEnd: ((lang: Lang) => periodMessage('startAfterEnd', lang)) satisfies Message,
  invalidDate: (field: string): Message => (lang) => FieldMessage.invalid(field, lang === 'zh' ? '不是有效的日期（YYYY-MM-DD）' : 'is not a valid date (YYYY-MM-DD)', lang),
};

const REASON_NAMES: Record<InvalidReason, readonly [string, string]> = {
  range: ['坐标超出范围', 'Out of range'],
  zero: ['零坐标', 'Zero coordinate'],
  speed: ['速度无效', 'Invalid speed'],
  future: ['时间超前', 'Time in the future'],
};

const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const PeriodFields = { startDate: DateText, endDate: DateText, vehicleIds: Type.Optional(IdList) };
const ListSchema = Strict({ ...PeriodFields, ...PageFields });

interface ListParams {
  startDate: string;
  endDate: string;
  vehicleIds?: number[] | undefined;
  current: number;
  size: number;
  companyId?: number | undefined;
}

/** China day index of a `YYYY-MM-DD` date, or a 400 naming the field when it is not a calendar date. */
function dayOf(field: string, text: string): number {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const ms = Date.UTC(y, m - 1, d);
  if (chinaDateOfDay(ms / 86_400_000) !== text) throw fail.badRequest(ReportMessages.invalidDate(field));
  return ms / 86_400_000;
}

interface Period {
  readonly firstDay: number;
  /** The end date, cut at today (China time): later days have no data yet. */
  readonly lastDay: number;
  readonly days: number;
}

function periodOf(p: { startDate: string; endDate: string }, now: number): Period {
  const firstDay = dayOf('startDate', p.startDate);
  const endDay = dayOf('endDate', p.endDate);
  if (firstDay > endDay) throw fail.badRequest(ReportMessages.startAfterEnd);
  if (endDay - firstDay + 1 > REPORT_MAX_DAYS) throw fail.badRequest(ReportMessages.periodTooLong);
  const lastDay = Math.min(endDay, chinaDayIndex(now));
  return { firstDay, lastDay, days: Math.max(0, lastDay - firstDay + 1) };
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
/** JSON has no Infinity: an implied speed over a zero time step answers null. */
const speedOut = (kmh: number) => (Number.isFinite(kmh) ? round(kmh, 1) : null);

/** `2026-11-22 08:05:09` China time. */
export function chinaDateTime(ms: number): string {
  return new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

function vehicleFields(v: VehicleLabel) {
  return { vehicleId: v.vehicleId, vehiidno: v.vehiidno, companyId: v.companyId, companyName: v.companyName };
}

function dayRow(v: VehicleLabel, m: DayMetrics) {
  return Object.assign(vehicleFields(v), {
    date: m.date, totalGps: m.totalGps, pass: m.pass, undetermined: m.undetermined, error: m.error, drift: m.drift,
    lossTimes: m.lossTimes, lossHours: round(m.lossHours, 2), lossKm: round(m.lossKm, 2), continuousKm: round(m.continuousKm, 2),
    mileageKm: round(m.mileageKm, 2), earlyMorningKm: round(m.earlyMorningKm, 2), online: m.online, operation: m.operation,
    qualifiedRate: percent(m.pass, m.totalGps),
  });
}
type DayRow = ReturnType<typeof dayRow>;

function periodFields(m: PeriodMetrics) {
  return {
    days: m.days, totalGps: m.totalGps, pass: m.pass, undetermined: m.undetermined, error: m.error, drift: m.drift, lossTimes: m.lossTimes,
    lossHours: round(m.lossHours, 2), lossKm: round(m.lossKm, 2), continuousKm: round(m.continuousKm, 2), mileageKm: round(m.mileageKm, 2),
    earlyMorningKm: round(m.earlyMorningKm, 2), onlineDays: m.onlineDays, operationDays: m.operationDays,
    qualifiedRate: m.qualifiedRate, driftRate: m.driftRate, onlineRate: m.onlineRate,
  };
}
type SummaryRow = ReturnType<typeof periodFields> & ReturnType<typeof vehicleFields>;

function onlineRow(v: VehicleLabel, m: PeriodMetrics) {
  return Object.assign(vehicleFields(v), { days: m.days, onlineDays: m.onlineDays, operationDays: m.operationDays, onlineRate: m.onlineRate });
}
type OnlineRow = ReturnType<typeof onlineRow>;

function driftRow(v: VehicleLabel, d: DriftItem) {
  return Object.assign(vehicleFields(v), { gpsTime: d.gpsTime, lng: d.lng, lat: d.lat, speed: round(d.speed, 1), speedIn: speedOut(d.speedIn), speedOut: speedOut(d.speedOut) });
}
type DriftRow = ReturnType<typeof driftRow>;

function gapRow(v: VehicleLabel, g: GapItem) {
  return Object.assign(vehicleFields(v), g, { km: round(g.km, 2), hours: round(g.hours, 2) });
}
type GapRow = ReturnType<typeof gapRow>;

function invalidRow(v: VehicleLabel, e: InvalidItem) {
  return Object.assign(vehicleFields(v), e);
}
type InvalidRow = ReturnType<typeof invalidRow>;

const H = {
  vehiidno: ['车牌号', 'Plate'], company: ['所属公司', 'Company'], date: ['日期', 'Date'], days: ['天数', 'Days'],
  totalGps: ['GPS总数', 'Total GPS'], pass: ['合格数', 'Pass'], undetermined: ['待定数', 'Undetermined'], error: ['错误数', 'Errors'],
  drift: ['漂移数', 'Drift'], qualifiedRate: ['合格率(%)', 'Qualified rate (%)'], driftRate: ['漂移率(%)', 'Drift rate (%)'],
  lossTimes: ['丢失次数', 'Loss times'], lossHours: ['丢失时长(小时)', 'Loss hours'], lossKm: ['丢失里程(km)', 'Loss distance (km)'],
  continuousKm: ['连续里程(km)', 'Continuous mileage (km)'], mileageKm: ['总里程(km)', 'Total mileage (km)'],
  earlyMorningKm: ['凌晨里程(km)', 'Early-morning km'], online: ['是否上线', 'Online'], operation: ['是否营运', 'Operation day'],
  onlineDays: ['上线天数', 'Online days'], operationDays: ['营运天数', 'Operation days'], onlineRate: ['上线率(%)', 'Online rate (%)'],
  gpsTime: ['定位时间', 'GPS time'], receivedAt: ['接收时间', 'Received'], lng: ['经度', 'Longitude'], lat: ['纬度', 'Latitude'],
  speed: ['速度(km/h)', 'Speed (km/h)'], speedIn: ['进入速度(km/h)', 'Speed in (km/h)'], speedOut: ['离开速度(km/h)', 'Speed out (km/h)'],
  reason: ['原因', 'Reason'], fromTime: ['开始时间', 'From'], toTime: ['结束时间', 'To'], fromPos: ['开始位置', 'From position'],
  toPos: ['结束位置', 'To position'], km: ['距离(km)', 'Distance (km)'], hours: ['时长(小时)', 'Hours'],
} as const satisfies Record<string, readonly [string, string]>;

function col<T>(header: readonly [string, string], value: SheetColumn<T>['value'], width?: number): SheetColumn<T> {
  return width === undefined ? { header, value } : { header, value, width };
}
const yesNo = (lang: Lang, b: boolean) => (lang === 'zh' ? (b ? '是' : '否') : b ? 'Yes' : 'No');
const position = (lng: number, lat: number) => `${lng.toFixed(6)},${lat.toFixed(6)}`;

function vehicleColumns<T extends { vehiidno: string; companyName: string }>(): SheetColumn<T>[] {
  return [col(H.vehiidno, (r) => r.vehiidno, 14), col(H.company, (r) => r.companyName, 20)];
}

function metricColumns<T extends SummaryRow | DayRow>(): SheetColumn<T>[] {
  return [
    col(H.totalGps, (r) => r.totalGps), col(H.pass, (r) => r.pass), col(H.undetermined, (r) => r.undetermined), col(H.error, (r) => r.error),
    col(H.drift, (r) => r.drift), col(H.qualifiedRate, (r) => r.qualifiedRate), col(H.lossTimes, (r) => r.lossTimes),
    col(H.lossHours, (r) => r.lossHours), col(H.lossKm, (r) => r.lossKm), col(H.continuousKm, (r) => r.continuousKm),
    col(H.mileageKm, (r) => r.mileageKm), col(H.earlyMorningKm, (r) => r.earlyMorningKm),
  ];
}

const SHEETS = {
  daily: (lang: Lang): SheetColumn<DayRow>[] => [
    ...vehicleColumns<DayRow>(), col(H.date, (r) => r.date, 12), ...metricColumns<DayRow>(),
    col(H.online, (r) => yesNo(lang, r.online)), col(H.operation, (r) => yesNo(lang, r.operation)),
  ],
  summary: (): SheetColumn<SummaryRow>[] => [
    ...vehicleColumns<SummaryRow>(), col(H.days, (r) => r.days), ...metricColumns<SummaryRow>(), col(H.driftRate, (r) => r.driftRate),
    col(H.onlineDays, (r) => r.onlineDays), col(H.onlineRate, (r) => r.onlineRate), col(H.operationDays, (r) => r.operationDays),
  ],
  online: (): SheetColumn<OnlineRow>[] => [
    ...vehicleColumns<OnlineRow>(), col(H.days, (r) => r.days), col(H.onlineDays, (r) => r.onlineDays),
    col(H.operationDays, (r) => r.operationDays), col(H.onlineRate, (r) => r.onlineRate),
  ],
  drift: (): SheetColumn<DriftRow>[] => [
    ...vehicleColumns<DriftRow>(), col(H.gpsTime, (r) => chinaDateTime(r.gpsTime), 20), col(H.lng, (r) => r.lng, 12), col(H.lat, (r) => r.lat, 12),
    col(H.speed, (r) => r.speed), col(H.speedIn, (r) => r.speedIn ?? '∞'), col(H.speedOut, (r) => r.speedOut ?? '∞'),
  ],
  gaps: (): SheetColumn<GapRow>[] => [
    ...vehicleColumns<GapRow>(), col(H.fromTime, (r) => chinaDateTime(r.fromTime), 20), col(H.fromPos, (r) => position(r.fromLng, r.fromLat), 24),
    col(H.toTime, (r) => chinaDateTime(r.toTime), 20), col(H.toPos, (r) => position(r.toLng, r.toLat), 24), col(H.km, (r) => r.km), col(H.hours, (r) => r.hours),
  ],
  invalid: (lang: Lang): SheetColumn<InvalidRow>[] => [
    ...vehicleColumns<InvalidRow>(), col(H.gpsTime, (r) => chinaDateTime(r.gpsTime), 20),
    col(H.receivedAt, (r) => (r.receivedAt === null ? '' : chinaDateTime(r.receivedAt)), 20), col(H.lng, (r) => r.lng, 12), col(H.lat, (r) => r.lat, 12),
    col(H.speed, (r) => r.speed), col(H.reason, (r) => REASON_NAMES[r.reason][lang === 'zh' ? 0 : 1], 16),
  ],
};

const FILES = {
  daily: ['定位质量日报', 'positioning-daily'],
  summary: ['数据合格率', 'data-qualified-rate'],
  online: ['上线率', 'online-rate'],
  drift: ['漂移明细', 'drift-details'],
  gaps: ['轨迹不连续明细', 'discontinuity-details'],
  invalid: ['异常定位点', 'invalid-positions'],
} as const;

function pageOf<T>(items: readonly T[], current: number, size: number) {
  return { records: items.slice((current - 1) * size, current * size), total: items.length, current, size };
}

export function reportRoutes(app: App, deps: ServiceDeps & { readonly live: LiveRuntime }): void {
  const { storage } = deps;
  const db = (storage as Partial<SqliteStorage>).db;
  if (!db) throw new Error('the positioning-quality reports need the SQLite storage (server/services/reports/store.ts)');
  // Stored days whose positions are past POSITION_RETENTION_DAYS are final (server/retention/).
  const keptFrom = () => retentionCutoffs(deps.live.store.clock(), retentionPolicy(deps.config)).positionDay ?? -Infinity;
  // The app's one engine (shared-engine.ts): the ops check, the portrait and the safety reports read the same days.
  const engine = sharedReportEngine(storage, deps.live.store.clock, keptFrom);
  // Heartbeat contact (report-engine/seen.ts): a day a terminal only heartbeated is online here too (one rule,
  // domain/report-day/device.ts `isContactDay`), for every reader of the shared engine.
  engine.contact ??= async (ids, firstDay, lastDay) => (await (app.hasDecorator('reportEngine') ? app.reportEngine.seenSpans?.(ids, firstDay, lastDay) : undefined)) ?? new Map();
  const BASE = '/service-onlinegps/offlinereport';
  const summaryPermission = '/report/onlineControl' as const;
  /** Detail lists recently computed, by call, period and vehicles (oldest first, for eviction). */
  const detailMemo = new Map<string, { at: number; rows: unknown[] }>();

  /** The caller's vehicles (scope narrowed by companyId, filtered by vehicleIds), by plate. */
  async function vehiclesOf(request: FastifyRequest, p: { companyId?: number | undefined; vehicleIds?: number[] | undefined }): Promise<VehicleLabel[]> {
    const scope = await narrowedScope(storage, auth(request), p.companyId);
    const wanted = p.vehicleIds ? new Set(p.vehicleIds) : undefined;
    const ids = (await storage.terminals.allVehicles())
      .filter((v) => pathInScope(scope, v.companyPath) && (!wanted || wanted.has(v.vehicleId)))
      .map((v) => v.vehicleId);
    const labels = await storage.terminals.labels(scope, ids);
    return [...labels.values()].sort((a, b) => a.vehiidno.localeCompare(b.vehiidno) || a.vehicleId - b.vehicleId);
  }

  async function summaries(vehicles: readonly VehicleLabel[], period: Period): Promise<{ v: VehicleLabel; m: PeriodMetrics }[]> {
    if (period.days === 0) return vehicles.map((v) => ({ v, m: sumMetrics([]) }));
    const days = await engine.days(vehicles.map((v) => v.vehicleId), period.firstDay, period.lastDay);
    return vehicles.map((v) => ({ v, m: sumMetrics(days.get(v.vehicleId) ?? []) }));
  }

  /**
   * Detail items of every vehicle over the period. The daily rollup (cached) says which vehicles and
   * days have any such item (`has`), so only those vehicles are read, each over the span of those
   * days: usually a few vehicles, not the fleet. The result is kept for DETAIL_MEMO_MS so paging
   * through it does not read history again.
   */
  async function details<T>(
    kind: string, vehicles: readonly VehicleLabel[], period: Period, has: (m: DayMetrics) => boolean, pick: (w: WindowResult, v: VehicleLabel) => T[],
  ): Promise<T[]> {
    if (period.days === 0) return [];
    const key = JSON.stringify([kind, period.firstDay, period.lastDay, vehicles.map((v) => v.vehicleId)]);
    const now = engine.clock();
    const memo = detailMemo.get(key);
    if (memo && now - memo.at < DETAIL_MEMO_MS) return memo.rows as T[];
    const days = await engine.days(vehicles.map((v) => v.vehicleId), period.firstDay, period.lastDay);
    const out: T[] = [];
    for (const v of vehicles) {
      let lo = Infinity;
      let hi = -Infinity;
      (days.get(v.vehicleId) ?? []).forEach((m, k) => {
        if (has(m)) {
          lo = Math.min(lo, period.firstDay + k);
          hi = Math.max(hi, period.firstDay + k);
        }
      });
      if (lo > hi) continue;
      const w = await engine.window(v.vehicleId, lo, hi);
      for (const item of pick(w, v)) out.push(item);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    detailMemo.set(key, { at: now, rows: out });
    if (detailMemo.size > DETAIL_MEMO_ENTRIES) detailMemo.delete(detailMemo.keys().next().value!);
    return out;
  }

  async function exportRows<T>(reply: FastifyReply, lang: Lang, kind: keyof typeof FILES, columns: SheetColumn<T>[], rows: readonly T[]) {
    const [zhName, asciiName] = FILES[kind];
    const body = await xlsxBuffer(lang === 'zh' ? zhName : asciiName, columns, rows.slice(0, REPORT_EXPORT_MAX_ROWS), lang);
    return sendXlsx(reply, body, lang === 'zh' ? zhName : asciiName, asciiName);
  }

  // Per vehicle per day: only the requested page's vehicles are computed (rows go vehicle by vehicle, day by day).
  async function dailyRows(request: FastifyRequest, p: ListParams, all: boolean) {
    const period = periodOf(p, engine.clock());
    const vehicles = await vehiclesOf(request, p);
    const total = vehicles.length * period.days;
    const from = all ? 0 : (p.current - 1) * p.size;
    const to = all ? total : Math.min(total, from + p.size);
    const rows: DayRow[] = [];
    if (from < to) {
      const slice = vehicles.slice(Math.floor(from / period.days), Math.ceil(to / period.days));
      const days = await engine.days(slice.map((v) => v.vehicleId), period.firstDay, period.lastDay);
      const offset = Math.floor(from / period.days) * period.days;
      slice.forEach((v, k) => (days.get(v.vehicleId) ?? []).forEach((m, d) => {
        const index = offset + k * period.days + d;
        if (index >= from && index < to) rows.push(dayRow(v, m));
      }));
    }
    return { rows, total };
  }

  app.post(`${BASE}/daily`, { config: { permission: summaryPermission, audit: false }, schema: { body: ListSchema } }, async (request) => {
    const p = request.body;
    const { rows, total } = await dailyRows(request, p, false);
    return ok({ records: rows, total, current: p.current, size: p.size }, requestLang(request));
  });
  app.post(`${BASE}/daily/excel`, { config: { permission: summaryPermission }, schema: { body: ListSchema } }, async (request, reply) => {
    const lang = requestLang(request);
    const { rows } = await dailyRows(request, request.body, true);
    return exportRows(reply, lang, 'daily', SHEETS.daily(lang), rows);
  });

  async function summaryRows(request: FastifyRequest, p: ListParams) {
    const period = periodOf(p, engine.clock());
    const list = await summaries(await vehiclesOf(request, p), period);
    const rows: SummaryRow[] = list.map(({ v, m }) => Object.assign(vehicleFields(v), periodFields(m)));
    return { rows, totals: periodFields(sumMetrics(list.map((x) => x.m))) };
  }

  app.get(`${BASE}/dailyReportGroupbyVehiidno`, { config: { permission: summaryPermission }, schema: { querystring: ListSchema } }, async (request) => {
    const p = request.query;
    const { rows, totals } = await summaryRows(request, p);
    return ok({ ...pageOf(rows, p.current, p.size), totals }, requestLang(request));
  });
  app.get(`${BASE}/dailyReportGroupbyVehiidno/excel`, { config: { permission: summaryPermission }, schema: { querystring: ListSchema } }, async (request, reply) => {
    const lang = requestLang(request);
    const { rows } = await summaryRows(request, request.query);
    return exportRows(reply, lang, 'summary', SHEETS.summary(), rows);
  });

  async function onlineRows(request: FastifyRequest, p: ListParams, all: boolean) {
    const period = periodOf(p, engine.clock());
    const vehicles = await vehiclesOf(request, p);
    const slice = all ? vehicles : vehicles.slice((p.current - 1) * p.size, p.current * p.size);
    const rows = (await summaries(slice, period)).map(({ v, m }) => onlineRow(v, m));
    return { rows, total: vehicles.length };
  }

  app.post(`${BASE}/onlinerate`, { config: { permission: summaryPermission, audit: false }, schema: { body: ListSchema } }, async (request) => {
    const p = request.body;
    const { rows, total } = await onlineRows(request, p, false);
    return ok({ records: rows, total, current: p.current, size: p.size }, requestLang(request));
  });
  app.post(`${BASE}/onlinerate/excel`, { config: { permission: summaryPermission }, schema: { body: ListSchema } }, async (request, reply) => {
    const lang = requestLang(request);
    const { rows } = await onlineRows(request, request.body, true);
    return exportRows(reply, lang, 'online', SHEETS.online(), rows);
  });

  /** Registers a detail list call and its export. */
  function detailCall<T>(
    path: string,
    permission: '/report/onlineControl/dataQualifiedRate' | '/report/onlineControl/driftRateDetail' | '/report/onlineControl/discontinuityRateDetail',
    kind: 'drift' | 'gaps' | 'invalid',
    has: (m: DayMetrics) => boolean,
    pick: (w: WindowResult, v: VehicleLabel) => T[],
    columns: (lang: Lang) => SheetColumn<T>[],
  ): void {
    const rowsOf = async (request: FastifyRequest, p: ListParams) => details(kind, await vehiclesOf(request, p), periodOf(p, engine.clock()), has, pick);
    app.post(`${BASE}/${path}`, { config: { permission, audit: false }, schema: { body: ListSchema } }, async (request) => {
      const p = request.body;
      return ok(pageOf(await rowsOf(request, p), p.current, p.size), requestLang(request));
    });
    app.post(`${BASE}/${path}/excel`, { config: { permission }, schema: { body: ListSchema } }, async (request, reply) => {
      const lang = requestLang(request);
      return exportRows(reply, lang, kind, columns(lang), await rowsOf(request, request.body));
    });
  }

  detailCall('illegalDatas', '/report/onlineControl/dataQualifiedRate', 'invalid', (m) => m.error > 0,
    (w, v) => ReportEngine.invalidItems(w).map((e) => invalidRow(v, e)), SHEETS.invalid);
  detailCall('driftDatas', '/report/onlineControl/driftRateDetail', 'drift', (m) => m.drift > 0,
    (w, v) => ReportEngine.driftItems(w).map((d) => driftRow(v, d)), () => SHEETS.drift());
  detailCall('discontinuousDatas', '/report/onlineControl/discontinuityRateDetail', 'gaps', (m) => m.lossTimes > 0,
    (w, v) => ReportEngine.gapItems(w).map((g) => gapRow(v, g)), () => SHEETS.gaps());
}
