/**
 * Passenger flow and temperature reports (issue 18; server/API.md "Passenger and temperature reports"): the
 * screens /report/PassengerAnalysis/{lineAnalysis, carAnalysis, passengerSupervision, bigDataAnalysis} and
 * /report/temperatureReport. The catalogue names no call for them: designed here under
 * /service-onlinegps/passengerflow and /service-onlinegps/temperature (marked "not in the catalogue").
 *
 * Data: the gateway hands every 0x1005 (passenger counts, with the bus-line extension) and 0x0E30 (body
 * temperature) here; counts fold into their vehicle-day row as they are stored (store.ts), so the four
 * passenger screens read day rows only; the temperature list reads its ≤ 7 days of measurements.
 * Each list: the caller's company subtree (narrowed by companyId), the checked vehicles or all of the
 * subtree's (≤ 500), the period (≤ 31 China days; temperature ≤ 7), the first 10,000 rows shown or exported
 * (spec: passenger flow), rows of a page with totals of all, and an export job behind the screen's export bit.
 */
import { mergePassengerDays, PASSENGER_MAX_ROWS, peakHour, percent, type PassengerDayRow } from '../../../domain/passengers/flow.ts';
import { isFever, TEMPERATURE_MAX_DAYS, temperatureFigures } from '../../../domain/passengers/temperature.ts';
import { chinaDateOfDay, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { VehicleLabel } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { BODY_TEMPERATURE, PASSENGER_FLOW, type BodyTemperatureUpload, type PassengerFlowUpload } from '../../gateway/jt808/passenger.ts';
import type { Jt808Gateway } from '../../gateway/server.ts';
import { fail } from '../../http/envelope.ts';
import { Type } from '@fastify/type-provider-typebox';
import { Id, Strict, type App } from '../../http/route.ts';
import { auth } from '../../http/auth.ts';
import { CONTENT_TYPES } from '../multimedia/capture.ts';
import { chinaDateTime } from '../reports/index.ts';
import {
  col, pair, REPORT_MAX_VEHICLES, ReportRouteMessages, reportRoutes, sheet, VEHICLE_COLS, vehicleFields,
  type Period, type ReportDecl, type ReportRouteDeps,
} from '../report-engine/report-routes.ts';
import { PassengerStore } from './store.ts';
import { LINE_REPORT_MAX_LINES, SUPERVISION_MAX_VEHICLES } from '../../../domain/passengers/limits.ts';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

// Spec §5's caps of these reports, shared with the report pages (domain/passengers/limits.ts).
export { LINE_REPORT_MAX_LINES, SUPERVISION_MAX_VEHICLES };
export const PASSENGERFLOW_BASE = '/service-onlinegps/passengerflow';
export const TEMPERATURE_BASE = '/service-onlinegps/temperature';

export const PassengerReportMessages = {
  tooManyVehicles: pair(`最多选择${REPORT_MAX_VEHICLES}辆车，请缩小公司或勾选车辆`, `At most ${REPORT_MAX_VEHICLES} vehicles can be selected; narrow the company or check vehicles`),
  tooManyLines: pair(`线路客流最多选择${LINE_REPORT_MAX_LINES}条线路`, `Line passenger flow covers at most ${LINE_REPORT_MAX_LINES} lines`),
  tooManyLinesServed: pair(`所选车辆行驶了超过${LINE_REPORT_MAX_LINES}条线路，请选择线路（最多${LINE_REPORT_MAX_LINES}条）`,
    `The chosen vehicles served more than ${LINE_REPORT_MAX_LINES} lines; choose the lines (at most ${LINE_REPORT_MAX_LINES})`),
  supervisionTooMany: pair(`客流监管最多选择${SUPERVISION_MAX_VEHICLES}辆车，请缩小公司或勾选车辆`, `Passenger supervision covers at most ${SUPERVISION_MAX_VEHICLES} vehicles; narrow the company or check vehicles`),
  photoNotFound: pair('图片不存在或已过期', 'The photo does not exist or has expired'),
  temperatureTooLong: pair(`温度报表查询时间段不能超过${TEMPERATURE_MAX_DAYS}天`, `The temperature report covers at most ${TEMPERATURE_MAX_DAYS} days`),
  ...ReportRouteMessages,
};

const ratio = (a: number, b: number) => percent(a, b);

/** The first 10,000 rows; `found` in the totals tells the page how many there were (it says it shows the first). */
function capped<T>(rows: T[], totals: Record<string, number | null>) {
  return { rows: rows.slice(0, PASSENGER_MAX_ROWS), totals: { ...totals, found: rows.length, cap: PASSENGER_MAX_ROWS } };
}

// --- rows ---

function lineName(lines: Map<number, { name: string }>, id: number | null): string {
  return id === null ? '' : lines.get(id)?.name ?? '';
}

function carRow(v: VehicleLabel, day: number, line: string, r: PassengerDayRow) {
  return Object.assign(vehicleFields(v), {
    date: chinaDateOfDay(day), lineName: line, boarding: r.boarding, alighting: r.alighting, uploads: r.uploads,
    peakHour: peakHour(r), maxOnboard: r.maxOnboard, doors: Object.keys(r.doors).length,
  });
}
type CarRow = ReturnType<typeof carRow>;

function supervisionRow(v: VehicleLabel, line: string, r: PassengerDayRow) {
  return Object.assign(vehicleFields(v), {
    lineName: line, boarding: r.boarding, alighting: r.alighting, uploads: r.uploads, maxOnboard: r.maxOnboard,
    overloads: r.overloads, abnormal: r.abnormal, overloadRate: ratio(r.overloads, r.uploads), abnormalRate: ratio(r.abnormal, r.uploads),
  });
}
type SupervisionRow = ReturnType<typeof supervisionRow>;

function bigDataRow(v: VehicleLabel, day: number, line: string, r: PassengerDayRow) {
  const peak = peakHour(r);
  return Object.assign(vehicleFields(v), {
    date: chinaDateOfDay(day), lineName: line, boarding: r.boarding, alighting: r.alighting, peakHour: peak,
    peakBoarding: peak === null ? 0 : r.hourlyBoarding[peak]!, hourlyBoarding: r.hourlyBoarding, hourlyAlighting: r.hourlyAlighting,
  });
}
type BigDataRow = ReturnType<typeof bigDataRow>;

interface LineRow {
  vehicleId: number; vehiidno: string; companyId: number; companyName: string;
  lineId: number; lineName: string; direction: number; stationSeq: number; stationName: string;
  vehicles: number; boarding: number; alighting: number; boardingShare: number | null;
}

function sums<T extends { boarding: number; alighting: number }>(rows: readonly T[]) {
  let boarding = 0;
  let alighting = 0;
  for (const r of rows) {
    boarding += r.boarding;
    alighting += r.alighting;
  }
  return { boarding, alighting };
}

function dayRows(store: PassengerStore, vehicles: VehicleLabel[], period: Period) {
  const days = store.days(vehicles.map((v) => v.vehicleId), period.firstDay, period.lastDay);
  const lineIds: number[] = [];
  for (const list of days.values()) for (const d of list) if (d.lineId !== null) lineIds.push(d.lineId);
  return { days, lines: store.lines(lineIds) };
}

function reports(store: () => PassengerStore) {
  const passengers = {
    line: {
      path: '/line', screen: '/report/PassengerAnalysis/lineAnalysis', file: ['线路客流', 'passengers-per-line'],
      // The schema's bound is looser than the rule so that 31 lines get the spec's sentence.
      query: { lineIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true })) },
      check: (extra) => {
        if (extra.lineIds !== undefined && (extra.lineIds as number[]).length > LINE_REPORT_MAX_LINES) throw fail.badRequest(PassengerReportMessages.tooManyLines);
      },
      async build(_engine, vehicles, period, extra) {
        const chosen = extra.lineIds === undefined ? null : new Set(extra.lineIds as number[]);
        const { days, lines } = dayRows(store(), vehicles, period);
        // Per (line, direction, station): the counts of every vehicle that served it in the period.
        const cells = new Map<string, { lineId: number; direction: number; seq: number; boarding: number; alighting: number; vehicles: Set<number>; company: VehicleLabel }>();
        const lineBoarding = new Map<number, number>();
        for (const v of vehicles) {
          for (const d of days.get(v.vehicleId) ?? []) {
            for (const [key, [b, a]] of Object.entries(d.row.stations)) {
              const [lineId, direction, seq] = key.split(':').map(Number) as [number, number, number];
              if (chosen && !chosen.has(lineId)) continue;
              let c = cells.get(key);
              if (!c) cells.set(key, (c = { lineId, direction, seq, boarding: 0, alighting: 0, vehicles: new Set(), company: v }));
              c.boarding += b;
              c.alighting += a;
              c.vehicles.add(v.vehicleId);
              lineBoarding.set(lineId, (lineBoarding.get(lineId) ?? 0) + b);
            }
          }
        }
        if (lineBoarding.size > LINE_REPORT_MAX_LINES) throw fail.badRequest(PassengerReportMessages.tooManyLinesServed);
        const rows: LineRow[] = [...cells.values()].map((c) => Object.assign(vehicleFields(c.company), {
          lineId: c.lineId, lineName: lines.get(c.lineId)?.name ?? String(c.lineId), direction: c.direction, stationSeq: c.seq,
          stationName: lines.get(c.lineId)?.stations.get(`${c.direction}:${c.seq}`) ?? `#${c.seq}`,
          vehicles: c.vehicles.size, boarding: c.boarding, alighting: c.alighting, boardingShare: ratio(c.boarding, lineBoarding.get(c.lineId) ?? 0),
        }));
        rows.sort((a, b) => a.lineName.localeCompare(b.lineName) || a.lineId - b.lineId || a.direction - b.direction || a.stationSeq - b.stationSeq);
        return capped(rows, { ...sums(rows), lines: lineBoarding.size });
      },
      columns: sheet<LineRow>(
        col('线路', 'Line', (r) => r.lineName, 16), col('方向', 'Direction', (r) => (r.direction === 0 ? 'up / 上行' : 'down / 下行')),
        col('站序', 'Stop no.', (r) => r.stationSeq), col('站点', 'Stop', (r) => r.stationName, 18), col('车辆数', 'Vehicles', (r) => r.vehicles),
        col('上车人数', 'Boarded', (r) => r.boarding), col('下车人数', 'Alighted', (r) => r.alighting), col('上车占比(%)', 'Share of boardings (%)', (r) => r.boardingShare ?? ''),
      ),
    } satisfies ReportDecl<LineRow>,
    car: {
      path: '/car', screen: '/report/PassengerAnalysis/carAnalysis', file: ['车辆客流', 'passengers-per-vehicle'],
      async build(_engine, vehicles, period) {
        const { days, lines } = dayRows(store(), vehicles, period);
        const rows: CarRow[] = [];
        for (const v of vehicles) for (const d of days.get(v.vehicleId) ?? []) if (d.row.uploads > 0) rows.push(carRow(v, d.day, lineName(lines, d.lineId), d.row));
        return capped(rows, { ...sums(rows), uploads: rows.reduce((s, r) => s + r.uploads, 0) });
      },
      columns: sheet<CarRow>(
        ...VEHICLE_COLS<CarRow>(), col('日期', 'Date', (r) => r.date, 12), col('线路', 'Line', (r) => r.lineName, 14),
        col('上车人数', 'Boarded', (r) => r.boarding), col('下车人数', 'Alighted', (r) => r.alighting), col('上报次数', 'Uploads', (r) => r.uploads),
        col('高峰时段', 'Peak hour', (r) => (r.peakHour === null ? '' : `${r.peakHour}:00`)), col('最大载客', 'Most on board', (r) => r.maxOnboard ?? ''),
      ),
    } satisfies ReportDecl<CarRow>,
    supervision: {
      path: '/supervision', screen: '/report/PassengerAnalysis/passengerSupervision', file: ['客流监管', 'passenger-supervision'],
      maxVehicles: { count: SUPERVISION_MAX_VEHICLES, message: PassengerReportMessages.supervisionTooMany },
      async build(_engine, vehicles, period) {
        const { days, lines } = dayRows(store(), vehicles, period);
        const rows: SupervisionRow[] = [];
        for (const v of vehicles) {
          const list = days.get(v.vehicleId) ?? [];
          if (list.length === 0) continue;
          rows.push(supervisionRow(v, lineName(lines, list.at(-1)!.lineId), mergePassengerDays(list.map((d) => d.row))));
        }
        const overloads = rows.reduce((s, r) => s + r.overloads, 0);
        const abnormal = rows.reduce((s, r) => s + r.abnormal, 0);
        const uploads = rows.reduce((s, r) => s + r.uploads, 0);
        return capped(rows, { ...sums(rows), overloads, abnormal, uploads, overloadRate: ratio(overloads, uploads), abnormalRate: ratio(abnormal, uploads) });
      },
      columns: sheet<SupervisionRow>(
        ...VEHICLE_COLS<SupervisionRow>(), col('线路', 'Line', (r) => r.lineName, 14), col('上车人数', 'Boarded', (r) => r.boarding),
        col('下车人数', 'Alighted', (r) => r.alighting), col('最大载客', 'Most on board', (r) => r.maxOnboard ?? ''), col('超员次数', 'Overloads', (r) => r.overloads),
        col('异常计数', 'Abnormal counts', (r) => r.abnormal), col('上报次数', 'Uploads', (r) => r.uploads), col('超员率(%)', 'Overload rate (%)', (r) => r.overloadRate ?? ''),
      ),
    } satisfies ReportDecl<SupervisionRow>,
    bigData: {
      path: '/bigdata', screen: '/report/PassengerAnalysis/bigDataAnalysis', file: ['客流大数据分析', 'passenger-big-data'],
      async build(_engine, vehicles, period) {
        const { days, lines } = dayRows(store(), vehicles, period);
        const rows: BigDataRow[] = [];
        for (const v of vehicles) for (const d of days.get(v.vehicleId) ?? []) if (d.row.uploads > 0) rows.push(bigDataRow(v, d.day, lineName(lines, d.lineId), d.row));
        const all = mergePassengerDays([...days.values()].flat().map((d) => d.row));
        const peak = peakHour(all);
        return capped(rows, { ...sums(rows), peakHour: peak, peakBoarding: peak === null ? 0 : all.hourlyBoarding[peak]! });
      },
      columns: sheet<BigDataRow>(
        ...VEHICLE_COLS<BigDataRow>(), col('日期', 'Date', (r) => r.date, 12), col('线路', 'Line', (r) => r.lineName, 14),
        col('上车人数', 'Boarded', (r) => r.boarding), col('下车人数', 'Alighted', (r) => r.alighting),
        col('高峰时段', 'Peak hour', (r) => (r.peakHour === null ? '' : `${r.peakHour}:00`)), col('高峰上车', 'Peak-hour boardings', (r) => r.peakBoarding),
        ...Array.from({ length: 24 }, (_, h) => col<BigDataRow>(`${h}时上车`, `Boarded ${h}:00`, (r) => r.hourlyBoarding[h] ?? 0, 8)),
      ),
    } satisfies ReportDecl<BigDataRow>,
  };

  const temperature = {
    list: {
      path: '/list', screen: '/report/temperatureReport', file: ['温度报表', 'temperature-report'],
      async build(_engine, vehicles, period) {
        if (period.lastDay - period.firstDay + 1 > TEMPERATURE_MAX_DAYS) throw fail.badRequest(PassengerReportMessages.temperatureTooLong);
        const byId = new Map(vehicles.map((v) => [v.vehicleId, v]));
        const list = store().temperatures([...byId.keys()], chinaDayStartMs(period.firstDay), chinaDayStartMs(period.lastDay) + DAY_MS);
        // The face photo the terminal uploaded (0x0801) under the measurement's multimedia id: its stored item, for the thumbnail.
        const photos = new Map<number, Map<number, number>>();
        for (const v of new Set(list.map((m) => m.vehicleId))) {
          photos.set(v, store().photoIds(v, list.flatMap((m) => (m.vehicleId === v && m.mediaId !== null ? [m.mediaId] : []))));
        }
        const rows = list.map((m) => Object.assign(vehicleFields(byId.get(m.vehicleId)!), {
          time: m.time, kind: m.kind, mask: m.mask, celsius: m.celsius, fever: isFever(m.celsius),
          mediaId: m.mediaId, photoId: m.mediaId === null ? null : photos.get(m.vehicleId)?.get(m.mediaId) ?? null, uploadTime: m.receivedAt,
        }));
        rows.sort((a, b) => a.vehiidno.localeCompare(b.vehiidno) || a.vehicleId - b.vehicleId || a.time - b.time);
        const f = temperatureFigures(list);
        return { rows, totals: { count: f.count, fever: f.fever, normal: f.normal, normalRate: f.normalRate, masked: f.masked, maxCelsius: f.maxCelsius } };
      },
      columns: sheet<TemperatureRow>(
        ...VEHICLE_COLS<TemperatureRow>(), col('测量时间', 'Measured', (r) => chinaDateTime(r.time), 20),
        col('温度类型', 'Type', (r) => (['额温 / forehead', '腕温 / wrist', '耳温 / ear'][r.kind] ?? String(r.kind)), 14),
        col('是否戴口罩', 'Mask', (r) => (r.mask === null ? '' : r.mask ? '是 / yes' : '否 / no')), col('体温(℃)', 'Temperature (°C)', (r) => r.celsius),
        col('疑似发热', 'Suspected fever', (r) => (r.fever ? '是 / yes' : '')), col('图片编号', 'Image id', (r) => r.mediaId ?? ''),
        col('上传时间', 'Uploaded', (r) => chinaDateTime(r.uploadTime), 20),
      ),
    } satisfies ReportDecl<TemperatureRow>,
  };
  return { passengers, temperature };
}

interface TemperatureRow {
  vehicleId: number; vehiidno: string; companyId: number; companyName: string;
  time: number; kind: number; mask: boolean | null; celsius: number; fever: boolean; mediaId: number | null;
  /** The stored photo (media_item id) of `mediaId`, served by `${TEMPERATURE_BASE}/photo/:photoId`; null before it arrived. */
  photoId: number | null; uploadTime: number;
}

export interface PassengerReportDeps extends ReportRouteDeps {
  readonly gateway: Jt808Gateway;
  /** MEDIA_DIR (default DATA_DIR/media, `mediaDirOf`): where photos are stored (server/services/multimedia/capture.ts). */
  readonly mediaDir: string;
}

export function passengerReportRoutes(app: App, deps: PassengerReportDeps): PassengerStore {
  const db = (deps.storage as Partial<SqliteStorage>).db;
  if (!db) throw new Error('passenger reports: need the SQLite storage');
  const store = new PassengerStore(db);

  // Counted and measured in the terminals; stored (and folded into the day) before the 0x8001 answer.
  deps.gateway.handleTerminalMessage(PASSENGER_FLOW, ({ vehicleId, message }) => {
    const m = message as PassengerFlowUpload;
    store.addUpload(vehicleId, {
      start: m.start, end: m.end, boarding: m.boarding, alighting: m.alighting, door: m.line?.door ?? null,
      direction: m.line?.direction ?? null, stationSeq: m.line?.stationSeq ?? null, onboard: m.line?.onboard ?? null,
    }, deps.clock());
  });
  deps.gateway.handleTerminalMessage(BODY_TEMPERATURE, ({ vehicleId, message }) => {
    const m = message as BodyTemperatureUpload;
    store.addTemperature(vehicleId, { time: m.time, kind: m.kind, mask: m.mask, celsius: m.celsius, mediaId: m.mediaId }, deps.clock());
  });

  const { passengers, temperature } = reports(() => store);
  const common = { modules: [], wholeCompany: { tooManyVehicles: PassengerReportMessages.tooManyVehicles } } as const;
  reportRoutes(app, deps, { ...common, prefix: PASSENGERFLOW_BASE, reports: passengers, jobKind: (p) => `passengerflow:${p}`, jobLog: (p) => `passengerflow ${p} export` });
  reportRoutes(app, deps, { ...common, prefix: TEMPERATURE_BASE, reports: temperature, jobKind: (p) => `temperature:${p}`, jobLog: (p) => `temperature ${p} export` });

  // A measurement's face photo for the report's thumbnail and full view. The media item is read through the same
  // company scoping as /service-priv/media/file/:id (another company's item is simply not found), but behind the
  // report's own bit and only for an item a measurement names: the temperature bit opens those photos, no others.
  const mediaDir = deps.mediaDir;
  app.get(`${TEMPERATURE_BASE}/photo/:id`, {
    config: { permission: '/report/temperatureReport' },
    schema: { params: Type.Object({ id: Id }), querystring: Strict({}) },
  }, async (request, reply) => {
    const item = await deps.storage.media.get(auth(request).scope, request.params.id);
    if (!item || !store.isTemperaturePhoto(item.vehicleId, item.deviceMediaId)) throw fail.notFound(PassengerReportMessages.photoNotFound);
    const file = path.join(mediaDir, item.path);
    const size = await stat(file).then((x) => x.size, () => -1);
    if (size < 0) throw fail.notFound(PassengerReportMessages.photoNotFound);
    return reply
      .header('content-type', CONTENT_TYPES[item.format] ?? 'application/octet-stream')
      .header('content-length', size)
      .header('cache-control', 'private, max-age=86400')
      .send(createReadStream(file));
  });
  return store;
}

