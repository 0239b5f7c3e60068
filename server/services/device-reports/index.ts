/**
 * Device work, online analysis and early-morning operation reports (issue 18; server/services/device-reports/api.md):
 * /report/deviceWorkReport/{deviceOnlineReport, deviceOnlineStatistics, deviceStorageAbnormal, deviceAbnormalStatistics,
 * deviceAbnormalReport}, /report/onlineAnalysis/{onlineDailyReport, onlineRateReport} and
 * /report/morningOperation/{morningOperationDaily, morningOperationStatistics}.
 *
 * Where each figure comes from (nothing here reads raw positions):
 * - online sessions, offlines, online minutes: the report engine's `device` module (domain/report-day/device.ts,
 *   registered here), with the terminals' heartbeat contact laid over it (report-engine/seen.ts, `withSeen`): a
 *   terminal that only heartbeats is online that day and for those minutes;
 * - online day (≥ 1 point) and early-morning driving 02:00–05:00: the `operation` module's rows; operation day
 *   (≥ 1 km): the `mileage` module's track km (both registered by their own reports);
 * - storage and hardware faults: the stored hardware-failure alarms (group 15): the 808 fault bits and the 1078
 *   video alarm item 0x14 (domain/alarms/video.ts), each one alarm from its rise to its fall (merged within 30 min).
 * Each call is a `ReportDecl` on the shared report routes (report-engine/report-routes.ts): company subtree,
 * 1–500 vehicles, ≤ 31 China days, a page with the totals of all rows, the export job behind the screen's bit.
 */
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { DEVICE_MODULE_KEY, DeviceEventKind, deviceModule, withSeen, type DeviceRow, type SeenSpan } from '../../../domain/report-day/device.ts';
import { mileageModule, type MileageRow } from '../../../domain/report-day/mileage.ts';
import type { DayModule } from '../../../domain/report-day/module.ts';
import { OPERATION_MODULE_KEY, operationDay, type OperationRow } from '../../../domain/report-day/operation.ts';
import { chinaDate, chinaDateOfDay, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import type { App } from '../../http/route.ts';
import type { ReportEngine } from '../report-engine/api.ts';
import {
  col, REPORT_EXPORT_MAX_ROWS, reportRoutes, sheet, VEHICLE_COLS, vehicleFields, type Period, type ReportDecl, type ReportRouteDeps,
} from '../report-engine/report-routes.ts';
import { chinaDateTime } from '../reports/index.ts';

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const pct = (part: number, whole: number) => (whole > 0 ? r2((100 * part) / whole) : 0);
const ids = (vehicles: VehicleLabel[]) => vehicles.map((v) => v.vehicleId);
const yesNo = (lang: Lang, v: boolean) => (v ? (lang === 'zh' ? '是' : 'Yes') : lang === 'zh' ? '否' : 'No');
const timeText = (ms: number | null) => (ms === null ? '' : chinaDateTime(ms));

function sum<T>(rows: readonly T[], pick: (r: T) => number): number {
  let s = 0;
  for (const r of rows) s += pick(r);
  return s;
}
function byDay<R>(list: { day: number; row: R }[] | undefined): Map<number, R> {
  return new Map((list ?? []).map((x) => [x.day, x.row]));
}
function eachDay(period: Period, f: (day: number) => void): void {
  for (let d = period.firstDay; d <= period.lastDay; d++) f(d);
}
const periodDays = (p: Period) => p.lastDay - p.firstDay + 1;
function groupBy<T>(rows: readonly T[], key: (r: T) => number): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

// --- faults: the hardware-failure alarm types (group 15) and how the statistics group them ---

/** Storage faults (deviceStorageAbnormal): the storage unit fault and the special-recording storage threshold (1078 0x14 bits 2, 6). */
export const STORAGE_FAULT_TYPES = [15013, 15015] as const;
/** The fault kinds of deviceAbnormalStatistics, each a set of group-15 codes; together every hardware-failure type. */
export const FAULT_KINDS = {
  gnss: [15001, 15002, 15003],
  power: [15004, 15005],
  camera: [15008, 15011, 15012, 15014],
  storage: [...STORAGE_FAULT_TYPES],
  peripheral: [15006, 15007, 15009, 15010],
  other: [15016, 15017, 15018],
} as const;
export const FAULT_TYPES: readonly number[] = Object.values(FAULT_KINDS).flat();
type FaultKind = keyof typeof FAULT_KINDS;
const KIND_OF = new Map<number, FaultKind>(Object.entries(FAULT_KINDS).flatMap(([k, codes]) => codes.map((c) => [c, k as FaultKind] as const)));

// --- rows ---

const ZERO_DEVICE: DeviceRow = {
  points: 0, online: 0, contacts: 0, sessions: 0, onlineMinutes: 0, offlines: 0, offlineMinutes: 0, longestOfflineMinutes: 0, firstContact: null, lastContact: null,
};

function onlineDayRow(v: VehicleLabel, day: number, d: DeviceRow) {
  return Object.assign(vehicleFields(v), {
    date: chinaDateOfDay(day), online: d.online === 1, sessions: d.sessions, onlineMinutes: r1(d.onlineMinutes), offlines: d.offlines,
    offlineMinutes: r1(d.offlineMinutes), longestOfflineMinutes: r1(d.longestOfflineMinutes), firstContact: d.firstContact, lastContact: d.lastContact,
  });
}
type OnlineDayRow = ReturnType<typeof onlineDayRow>;

/** Minutes of the period that have passed (today up to now): the whole an online rate divides by. */
function elapsedMinutes(period: Period, now: number): number {
  const from = chinaDayStartMs(period.firstDay);
  return Math.max(0, Math.min(now, chinaDayStartMs(period.lastDay) + DAY_MS) - from) / 60_000;
}

function onlineStatRow(v: VehicleLabel, days: DeviceRow[], period: Period, now: number) {
  const minutes = sum(days, (d) => d.onlineMinutes);
  return Object.assign(vehicleFields(v), {
    days: periodDays(period), onlineDays: days.filter((d) => d.online === 1).length, onlineMinutes: r1(minutes),
    onlineTimeRate: pct(minutes, elapsedMinutes(period, now)), sessions: sum(days, (d) => d.sessions), offlines: sum(days, (d) => d.offlines),
    offlineMinutes: r1(sum(days, (d) => d.offlineMinutes)),
  });
}
type OnlineStatRow = ReturnType<typeof onlineStatRow>;

export interface FaultRow {
  vehicleId: number; vehiidno: string; companyId: number; companyName: string;
  /** China day the fault started (the row's track playback covers it). */
  date: string;
  alarmId: number; alarmType: number; kind: FaultKind; startTime: number; endTime: number | null; minutes: number | null; count: number; lng: number; lat: number;
}

function faultStatRow(v: VehicleLabel, faults: readonly FaultRow[]) {
  const counts = Object.fromEntries(Object.keys(FAULT_KINDS).map((k) => [k, 0])) as Record<FaultKind, number>;
  for (const f of faults) counts[f.kind]++;
  return Object.assign(vehicleFields(v), counts, { total: faults.length, faultMinutes: r1(sum(faults, (f) => f.minutes ?? 0)) });
}
type FaultStatRow = ReturnType<typeof faultStatRow>;

function onlineAnalysisRow(v: VehicleLabel, day: number, op: OperationRow | undefined, dev: DeviceRow | undefined, km: MileageRow | undefined) {
  const trackKm = km?.trackKm ?? 0;
  return Object.assign(vehicleFields(v), {
    // Online day: a position that day, or heartbeat contact (the device row with the heartbeats laid over it).
    date: chinaDateOfDay(day), online: op?.online === 1 || dev?.online === 1, points: op?.points ?? dev?.points ?? 0,
    onlineMinutes: r1(dev?.onlineMinutes ?? 0), trackKm: r2(trackKm), operation: operationDay(trackKm), firstTime: op?.firstTime ?? null, lastTime: op?.lastTime ?? null,
  });
}
type OnlineAnalysisRow = ReturnType<typeof onlineAnalysisRow>;

function onlineRateRow(v: VehicleLabel, days: OnlineAnalysisRow[]) {
  const onlineDays = days.filter((d) => d.online).length;
  const operationDays = days.filter((d) => d.operation).length;
  return Object.assign(vehicleFields(v), {
    days: days.length, onlineDays, operationDays, onlineRate: pct(onlineDays, days.length), operationRate: pct(operationDays, days.length),
  });
}
type OnlineRateRow = ReturnType<typeof onlineRateRow>;

function morningDayRow(v: VehicleLabel, day: number, d: OperationRow) {
  return Object.assign(vehicleFields(v), { date: chinaDateOfDay(day), morningKm: r2(d.morningKm), morningMinutes: r1(d.morningMinutes), tripKm: r2(d.tripKm), drivingMinutes: r1(d.drivingMinutes) });
}
type MorningDayRow = ReturnType<typeof morningDayRow>;

function morningStatRow(v: VehicleLabel, days: OperationRow[], period: Period) {
  const driven = days.filter((d) => d.morning === 1);
  return Object.assign(vehicleFields(v), {
    days: periodDays(period), morningDays: driven.length, morningKm: r2(sum(driven, (d) => d.morningKm)),
    morningMinutes: r1(sum(driven, (d) => d.morningMinutes)), share: pct(driven.length, periodDays(period)),
  });
}
type MorningStatRow = ReturnType<typeof morningStatRow>;

// --- reads ---

/**
 * The `device` module's day rows with the terminals' heartbeat contact laid over them (domain/report-day/device.ts
 * `withSeen`): a day a terminal only heartbeated is online, with its minutes. Only vehicle-days with heartbeat
 * spans read their online sessions (events) to merge; the others are the rows as stored.
 */
async function deviceDays(e: ReportEngine, vs: VehicleLabel[], p: Period): Promise<Map<number, { day: number; row: DeviceRow }[]>> {
  const days = await e.days<DeviceRow>(DEVICE_MODULE_KEY, ids(vs), p.firstDay, p.lastDay);
  const seen = (await e.seenSpans?.(ids(vs), p.firstDay, p.lastDay)) ?? new Map<number, SeenSpan[]>();
  if (seen.size === 0) return days;
  const sessions = groupBy(await e.events(DEVICE_MODULE_KEY, [...seen.keys()], p.firstDay, p.lastDay, DeviceEventKind.online), (x) => x.vehicleId);
  for (const [vehicleId, spans] of seen) {
    const rows = byDay(days.get(vehicleId));
    const own = sessions.get(vehicleId) ?? [];
    const out: { day: number; row: DeviceRow }[] = [];
    eachDay(p, (day) => {
      const from = chinaDayStartMs(day);
      const merged = withSeen(rows.get(day) ?? ZERO_DEVICE, own.filter((x) => x.day === day).map((x) => x.event), spans, from, from + DAY_MS);
      if (merged !== ZERO_DEVICE) out.push({ day, row: merged });
    });
    days.set(vehicleId, out);
  }
  return days;
}
const operationDays = (e: ReportEngine, vs: VehicleLabel[], p: Period) => e.days<OperationRow>(OPERATION_MODULE_KEY, ids(vs), p.firstDay, p.lastDay);
const mileageDays = (e: ReportEngine, vs: VehicleLabel[], p: Period) => e.days<MileageRow>(mileageModule.key, ids(vs), p.firstDay, p.lastDay);

/** The fault alarms that started in the period (China days), oldest first, at most the export cap. */
async function faultsOf(storage: Storage, vehicles: VehicleLabel[], period: Period, types: readonly number[]): Promise<FaultRow[]> {
  const byId = new Map(vehicles.map((v) => [v.vehicleId, v]));
  // The vehicles were already scoped to the caller by the report routes; the query narrows to them.
  const { records } = await storage.alarms.query(ALL_COMPANIES, {
    vehicleIds: ids(vehicles), types, startTime: chinaDayStartMs(period.firstDay), endTime: chinaDayStartMs(period.lastDay) + DAY_MS - 1,
  }, 0, REPORT_EXPORT_MAX_ROWS);
  const rows: FaultRow[] = [];
  for (const a of records) {
    const v = byId.get(a.vehicleId);
    const kind = KIND_OF.get(a.alarmType);
    if (!v || !kind) continue;
    rows.push(Object.assign(vehicleFields(v), {
      date: chinaDate(a.startTime), alarmId: a.id, alarmType: a.alarmType, kind, startTime: a.startTime, endTime: a.endTime,
      minutes: a.endTime === null ? null : r1((a.endTime - a.startTime) / 60_000), count: a.count, lng: a.lng, lat: a.lat,
    }));
  }
  return rows.sort((a, b) => a.vehiidno.localeCompare(b.vehiidno) || a.startTime - b.startTime || a.alarmId - b.alarmId);
}

const FAULT_COLS = (lang: Lang) => sheet<FaultRow>(...VEHICLE_COLS<FaultRow>(), col('异常类型', 'Fault', (r) => alarmName(r.alarmType, lang), 24),
  col('开始时间', 'From', (r) => chinaDateTime(r.startTime), 20), col('结束时间', 'To', (r) => timeText(r.endTime) || (lang === 'zh' ? '持续中' : 'ongoing'), 20),
  col('时长(分钟)', 'Minutes', (r) => r.minutes ?? ''), col('次数', 'Occurrences', (r) => r.count),
  col('位置(经度,纬度)', 'Place (lng,lat)', (r) => `${r.lng.toFixed(6)},${r.lat.toFixed(6)}`, 24))(lang);

export function deviceReportDecls(storage: Storage, clock: () => number) {
  const devstatus = {
    deviceOnlineReport: {
      path: '/onlinelist', screen: '/report/deviceWorkReport/deviceOnlineReport', file: ['设备在线报表', 'device-online-report'],
      build: async (engine, vehicles, period) => {
        const days = await deviceDays(engine, vehicles, period);
        const rows: OnlineDayRow[] = [];
        for (const v of vehicles) {
          const map = byDay(days.get(v.vehicleId));
          eachDay(period, (d) => rows.push(onlineDayRow(v, d, map.get(d) ?? ZERO_DEVICE)));
        }
        return {
          rows, totals: {
            onlineDays: rows.filter((r) => r.online).length, sessions: sum(rows, (r) => r.sessions), onlineMinutes: r1(sum(rows, (r) => r.onlineMinutes)),
            offlines: sum(rows, (r) => r.offlines), offlineMinutes: r1(sum(rows, (r) => r.offlineMinutes)),
          },
        };
      },
      columns: (lang: Lang) => sheet<OnlineDayRow>(...VEHICLE_COLS<OnlineDayRow>(), col('日期', 'Date', (r) => r.date, 12), col('当日在线', 'Online', (r) => yesNo(lang, r.online)),
        col('上线次数', 'Sessions', (r) => r.sessions), col('在线时长(分钟)', 'Online minutes', (r) => r.onlineMinutes), col('离线次数', 'Offlines', (r) => r.offlines),
        col('离线时长(分钟)', 'Offline minutes', (r) => r.offlineMinutes), col('最长离线(分钟)', 'Longest offline (min)', (r) => r.longestOfflineMinutes),
        col('首次通信', 'First contact', (r) => timeText(r.firstContact), 20), col('末次通信', 'Last contact', (r) => timeText(r.lastContact), 20))(lang),
    } satisfies ReportDecl<OnlineDayRow>,
    deviceOnlineStatistics: {
      path: '/onlinestat', screen: '/report/deviceWorkReport/deviceOnlineStatistics', file: ['设备在线统计', 'device-online-statistics'],
      build: async (engine, vehicles, period) => {
        const days = await deviceDays(engine, vehicles, period);
        const now = clock();
        const rows = vehicles.map((v) => onlineStatRow(v, (days.get(v.vehicleId) ?? []).map((x) => x.row), period, now));
        const minutes = sum(rows, (r) => r.onlineMinutes);
        return {
          rows, totals: {
            onlineDays: sum(rows, (r) => r.onlineDays), onlineMinutes: r1(minutes), onlineTimeRate: pct(minutes, elapsedMinutes(period, now) * rows.length),
            offlines: sum(rows, (r) => r.offlines), offlineMinutes: r1(sum(rows, (r) => r.offlineMinutes)),
          },
        };
      },
      columns: sheet<OnlineStatRow>(...VEHICLE_COLS<OnlineStatRow>(), col('统计天数', 'Days', (r) => r.days), col('在线天数', 'Online days', (r) => r.onlineDays),
        col('在线时长(分钟)', 'Online minutes', (r) => r.onlineMinutes), col('在线时长率(%)', 'Online time rate (%)', (r) => r.onlineTimeRate),
        col('上线次数', 'Sessions', (r) => r.sessions), col('离线次数', 'Offlines', (r) => r.offlines), col('离线时长(分钟)', 'Offline minutes', (r) => r.offlineMinutes)),
    } satisfies ReportDecl<OnlineStatRow>,
    deviceStorageAbnormal: {
      path: '/storagelist', screen: '/report/deviceWorkReport/deviceStorageAbnormal', file: ['存储异常', 'storage-faults'],
      build: async (_engine, vehicles, period) => {
        const rows = await faultsOf(storage, vehicles, period, STORAGE_FAULT_TYPES);
        return { rows, totals: { faults: rows.length, vehicles: new Set(rows.map((r) => r.vehicleId)).size, minutes: r1(sum(rows, (r) => r.minutes ?? 0)) } };
      },
      columns: FAULT_COLS,
    } satisfies ReportDecl<FaultRow>,
    deviceAbnormalReport: {
      path: '/errorlist', screen: '/report/deviceWorkReport/deviceAbnormalReport', file: ['设备异常报表', 'device-faults'],
      exportAlias: '/errorlistExport', // the catalogue's name of this export
      build: async (_engine, vehicles, period) => {
        const rows = await faultsOf(storage, vehicles, period, FAULT_TYPES);
        return { rows, totals: { faults: rows.length, vehicles: new Set(rows.map((r) => r.vehicleId)).size, minutes: r1(sum(rows, (r) => r.minutes ?? 0)) } };
      },
      columns: FAULT_COLS,
    } satisfies ReportDecl<FaultRow>,
    deviceAbnormalStatistics: {
      path: '/errorstat', screen: '/report/deviceWorkReport/deviceAbnormalStatistics', file: ['设备异常统计', 'device-fault-statistics'],
      build: async (_engine, vehicles, period) => {
        const faults = await faultsOf(storage, vehicles, period, FAULT_TYPES);
        const byVehicle = groupBy(faults, (f) => f.vehicleId);
        const rows = vehicles.map((v) => faultStatRow(v, byVehicle.get(v.vehicleId) ?? []));
        const keys = [...Object.keys(FAULT_KINDS), 'total'] as (FaultKind | 'total')[];
        return { rows, totals: { ...Object.fromEntries(keys.map((k) => [k, sum(rows, (r) => r[k])])), faultMinutes: r1(sum(rows, (r) => r.faultMinutes)) } };
      },
      columns: sheet<FaultStatRow>(...VEHICLE_COLS<FaultStatRow>(), col('定位模块', 'GNSS', (r) => r.gnss), col('电源', 'Power', (r) => r.power),
        col('摄像头/视频', 'Camera / video', (r) => r.camera), col('存储', 'Storage', (r) => r.storage), col('外设', 'Peripherals', (r) => r.peripheral),
        col('其他', 'Other', (r) => r.other), col('合计', 'Total', (r) => r.total), col('异常时长(分钟)', 'Fault minutes', (r) => r.faultMinutes)),
    } satisfies ReportDecl<FaultStatRow>,
  } as const;

  async function onlineAnalysis(engine: ReportEngine, vehicles: VehicleLabel[], period: Period): Promise<OnlineAnalysisRow[]> {
    const [op, dev, km] = await Promise.all([operationDays(engine, vehicles, period), deviceDays(engine, vehicles, period), mileageDays(engine, vehicles, period)]);
    const rows: OnlineAnalysisRow[] = [];
    for (const v of vehicles) {
      const o = byDay(op.get(v.vehicleId));
      const d = byDay(dev.get(v.vehicleId));
      const m = byDay(km.get(v.vehicleId));
      eachDay(period, (day) => rows.push(onlineAnalysisRow(v, day, o.get(day), d.get(day), m.get(day))));
    }
    return rows;
  }

  const onlinegps = {
    onlineDailyReport: {
      path: '/onlineanalysis/daily', screen: '/report/onlineAnalysis/onlineDailyReport', file: ['在线日报', 'online-daily'],
      build: async (engine, vehicles, period) => {
        const rows = await onlineAnalysis(engine, vehicles, period);
        return { rows, totals: { onlineDays: rows.filter((r) => r.online).length, operationDays: rows.filter((r) => r.operation).length, onlineMinutes: r1(sum(rows, (r) => r.onlineMinutes)) } };
      },
      columns: (lang: Lang) => sheet<OnlineAnalysisRow>(...VEHICLE_COLS<OnlineAnalysisRow>(), col('日期', 'Date', (r) => r.date, 12), col('是否上线', 'Online', (r) => yesNo(lang, r.online)),
        col('上报点数', 'Points', (r) => r.points), col('在线时长(分钟)', 'Online minutes', (r) => r.onlineMinutes), col('轨迹里程(km)', 'Track km', (r) => r.trackKm),
        col('营运日', 'Operation day', (r) => yesNo(lang, r.operation)), col('首点时间', 'First point', (r) => timeText(r.firstTime), 20),
        col('末点时间', 'Last point', (r) => timeText(r.lastTime), 20))(lang),
    } satisfies ReportDecl<OnlineAnalysisRow>,
    onlineRateReport: {
      path: '/onlineanalysis/rate', screen: '/report/onlineAnalysis/onlineRateReport', file: ['上线率报表', 'online-rate'],
      build: async (engine, vehicles, period) => {
        const days = groupBy(await onlineAnalysis(engine, vehicles, period), (r) => r.vehicleId);
        const rows = vehicles.map((v) => onlineRateRow(v, days.get(v.vehicleId) ?? []));
        const all = sum(rows, (r) => r.days);
        const online = sum(rows, (r) => r.onlineDays);
        const operation = sum(rows, (r) => r.operationDays);
        return { rows, totals: { days: all, onlineDays: online, operationDays: operation, onlineRate: pct(online, all), operationRate: pct(operation, all) } };
      },
      columns: sheet<OnlineRateRow>(...VEHICLE_COLS<OnlineRateRow>(), col('统计天数', 'Days', (r) => r.days), col('上线天数', 'Online days', (r) => r.onlineDays),
        col('营运天数', 'Operation days', (r) => r.operationDays), col('上线率(%)', 'Online rate (%)', (r) => r.onlineRate), col('营运率(%)', 'Operation rate (%)', (r) => r.operationRate)),
    } satisfies ReportDecl<OnlineRateRow>,
    morningOperationDaily: {
      path: '/morningoperate/daily', screen: '/report/morningOperation/morningOperationDaily', file: ['凌晨运营日报', 'early-morning-daily'],
      build: async (engine, vehicles, period) => {
        const days = await operationDays(engine, vehicles, period);
        // Only the days that drove 02:00–05:00: the list of early-morning operation, not of every day.
        const rows = vehicles.flatMap((v) => (days.get(v.vehicleId) ?? []).filter((x) => x.row.morning === 1).map((x) => morningDayRow(v, x.day, x.row)));
        return { rows, totals: { morningDays: rows.length, morningKm: r2(sum(rows, (r) => r.morningKm)), morningMinutes: r1(sum(rows, (r) => r.morningMinutes)) } };
      },
      columns: sheet<MorningDayRow>(...VEHICLE_COLS<MorningDayRow>(), col('日期', 'Date', (r) => r.date, 12), col('凌晨里程(km)', 'Early-morning km', (r) => r.morningKm),
        col('凌晨时长(分钟)', 'Early-morning minutes', (r) => r.morningMinutes), col('当日行程里程(km)', 'Day trip km', (r) => r.tripKm),
        col('当日行驶时长(分钟)', 'Day driving minutes', (r) => r.drivingMinutes)),
    } satisfies ReportDecl<MorningDayRow>,
    morningOperationStatistics: {
      path: '/morningoperate/collect', screen: '/report/morningOperation/morningOperationStatistics', file: ['凌晨运营统计', 'early-morning-statistics'],
      build: async (engine, vehicles, period) => {
        const days = await operationDays(engine, vehicles, period);
        const rows = vehicles.map((v) => morningStatRow(v, (days.get(v.vehicleId) ?? []).map((x) => x.row), period));
        return { rows, totals: { morningDays: sum(rows, (r) => r.morningDays), morningKm: r2(sum(rows, (r) => r.morningKm)), morningMinutes: r1(sum(rows, (r) => r.morningMinutes)) } };
      },
      columns: sheet<MorningStatRow>(...VEHICLE_COLS<MorningStatRow>(), col('统计天数', 'Days', (r) => r.days), col('凌晨运营天数', 'Early-morning days', (r) => r.morningDays),
        col('凌晨里程(km)', 'Early-morning km', (r) => r.morningKm), col('凌晨时长(分钟)', 'Early-morning minutes', (r) => r.morningMinutes),
        col('凌晨运营天数占比(%)', 'Share of days (%)', (r) => r.share)),
    } satisfies ReportDecl<MorningStatRow>,
  } as const;
  return { devstatus, onlinegps };
}

export const DEVSTATUS_PREFIX = '/service-safe/devstatus';
export const ONLINEGPS_PREFIX = '/service-onlinegps';

export function deviceReportRoutes(app: App, deps: ReportRouteDeps): void {
  const { devstatus, onlinegps } = deviceReportDecls(deps.storage, deps.clock);
  const names = (prefix: string) => ({ jobKind: (path: string) => `report:${prefix}${path}`, jobLog: (path: string) => `${prefix}${path} export` });
  reportRoutes(app, deps, { modules: [deviceModule as DayModule<never, never>], prefix: DEVSTATUS_PREFIX, reports: devstatus, ...names(DEVSTATUS_PREFIX) });
  reportRoutes(app, deps, { modules: [], prefix: ONLINEGPS_PREFIX, reports: onlinegps, ...names(ONLINEGPS_PREFIX) });
}
