/**
 * Positioning export (trail/excel): an asynchronous job per request writes the first 50,000 points of
 * the period (TRAIL_EXPORT_MAX_POINTS, catalogue §8) to an .xlsx kept under DATA_DIR/exports
 * (services/export-jobs.ts: across restarts, for EXPORT_RETENTION_MINUTES); the console polls
 * export_status and then downloads excel_file. Jobs belong to the session's user and expire.
 */
import { PassThrough } from 'node:stream';
import { Type } from '@fastify/type-provider-typebox';
import ExcelJS from 'exceljs';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { exportCapMessage, TRAIL_EXPORT_MAX_POINTS } from '../../../domain/track/limits.ts';
import type { TrackData } from '../../../proto/track-codec.ts';
import type { Storage } from '../../db/repositories.ts';
import { auth } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Strict, type App } from '../../http/route.ts';
import { ExportJobs } from '../export-jobs.ts';
import { sendXlsx } from '../reports/excel.ts';
import { analyzeTrack } from '../../../domain/track/analyze.ts';
import { address } from './geocoder.ts';
import { assertTrackPeriod, chinaTimeText, PeriodFields, toExclusive, TrackMessages, vehicleInScope } from './common.ts';

const HEADERS: readonly (readonly [zh: string, en: string, width: number])[] = [
  ['序号', 'No.', 8], ['定位时间', 'GPS time', 20], ['经度', 'Longitude', 12], ['纬度', 'Latitude', 12], ['速度(km/h)', 'Speed (km/h)', 12],
  ['方向(°)', 'Heading (°)', 10], ['海拔(m)', 'Altitude (m)', 10], ['里程(km)', 'Mileage (km)', 12], ['状态位', 'Status word', 12], ['报警位', 'Alarm word', 12],
];

const STOP_HEADERS: readonly (readonly [zh: string, en: string, width: number])[] = [
  ['序号', 'No.', 8], ['开始时间', 'From', 20], ['结束时间', 'To', 20], ['停车时长(分钟)', 'Duration (min)', 14], ['经度', 'Longitude', 12], ['纬度', 'Latitude', 12],
];
const ADDRESS_HEADER = ['地址', 'Address', 36] as const;

export interface TrackWorkbookOptions {
  /** The stop sheet lists stops of at least this many minutes (the console's threshold). @default 3 */
  stopMinutes?: number;
  /** Adds the place in words (the user's `geoInverse` setting) to the stop sheet. @default false */
  withAddress?: boolean;
}

/**
 * The .xlsx of a track: header row in the caller's language, one row per point, time as GMT+8 text;
 * a second sheet lists the stops the console shows (the same rule module, `analyzeTrack`) with start,
 * end, duration and — by the user's setting — the address from the offline geocoder (issue 13).
 */
export async function trackWorkbook(t: TrackData, lang: Lang, options: TrackWorkbookOptions = {}): Promise<Buffer> {
  // The streaming writer keeps one row at a time instead of a 50,000-row model.
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(lang === 'zh' ? '轨迹' : 'Track');
  sheet.columns = HEADERS.map(([, , width], k) => ({ key: `c${k}`, width }));
  const header = sheet.addRow(HEADERS.map((h) => h[lang === 'zh' ? 0 : 1]));
  header.font = { bold: true };
  header.commit();
  for (let i = 0; i < t.count; i++) {
    const m = t.mileage[i]!;
    sheet.addRow([
      i + 1, chinaTimeText(t.time[i]!), t.lng[i]!, t.lat[i]!, Math.round(t.speed[i]! * 10) / 10, t.heading[i]!, t.altitude[i]!,
      Number.isFinite(m) ? m : null, t.status[i]!, t.alarm[i]!,
    ]).commit();
  }
  sheet.commit();
  const stops = t.count === 0 ? [] : analyzeTrack(t, { stopMinutes: options.stopMinutes ?? 3 }).stops;
  const stopHeaders = options.withAddress ? [...STOP_HEADERS, ADDRESS_HEADER] : STOP_HEADERS;
  const stopSheet = book.addWorksheet(lang === 'zh' ? '停车点' : 'Stops');
  stopSheet.columns = stopHeaders.map(([, , width], k) => ({ key: `s${k}`, width }));
  const stopHeader = stopSheet.addRow(stopHeaders.map((h) => h[lang === 'zh' ? 0 : 1]));
  stopHeader.font = { bold: true };
  stopHeader.commit();
  stops.forEach((st, k) => {
    const lng = t.lng[st.from]!;
    const lat = t.lat[st.from]!;
    const row: (string | number)[] = [k + 1, chinaTimeText(t.time[st.from]!), chinaTimeText(t.time[st.to]!), Math.round(st.minutes * 10) / 10, lng, lat];
    if (options.withAddress) row.push(address(lng, lat, lang));
    stopSheet.addRow(row).commit();
  });
  stopSheet.commit();
  await book.commit();
  return Buffer.concat(chunks);
}

export interface ExportDeps {
  readonly storage: Storage;
  readonly clock: () => number;
}

export function exportRoutes(app: App, { storage, clock }: ExportDeps): void {
  const permission = '/monitor/trackPlaybackPage' as const;
  const jobs = new ExportJobs(app.exportFiles, 'track', { notFound: TrackMessages.taskNotFound, failed: TrackMessages.exportFailed, notDone: TrackMessages.taskNotDone }, 'track export');

  app.get('/service-monitor/trail/excel', {
    config: { permission },
    schema: { querystring: Strict({ ...PeriodFields, stopMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440 })) }) },
  }, async (request) => {
    const { vehicleId, startTime, endTime, companyId, stopMinutes } = request.query;
    const withAddress = auth(request).user.geoInverse;
    assertTrackPeriod(startTime, endTime, clock());
    const label = await vehicleInScope(storage, request, vehicleId, companyId);
    const lang = requestLang(request);
    const day = chinaTimeText(startTime).slice(0, 10).replaceAll('-', '');
    const fileName = [`轨迹_${label.vehiidno}_${day}`, `track_${label.vehiidno}_${day}`] as const;
    const job = await jobs.start({ userId: auth(request).user.id, fileName, asciiName: `track_${vehicleId}_${day}`, log: request.log }, async () => {
      const t = await storage.tracks.readTrack(vehicleId, startTime, toExclusive(endTime), TRAIL_EXPORT_MAX_POINTS);
      return { total: t.total, exported: t.count, file: await trackWorkbook(t, lang, { stopMinutes, withAddress }) };
    });
    return ok({ taskId: job.id }, lang);
  });

  app.get('/service-monitor/trail/export_status', {
    config: { permission },
    schema: { querystring: Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) }) },
  }, async (request) => {
    const task = await jobs.own(auth(request).user.id, request.query.taskId);
    const lang = requestLang(request);
    const message = task.status === 'failed' ? TrackMessages.exportFailed(lang)
      : task.total > TRAIL_EXPORT_MAX_POINTS ? exportCapMessage(task.total, lang) : undefined;
    return ok({ status: task.status, total: task.total, exported: task.exported, ...(message === undefined ? {} : { message }) }, lang);
  });

  app.get('/service-monitor/trail/excel_file', {
    config: { permission },
    schema: { querystring: Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) }) },
  }, async (request, reply) => {
    const f = await jobs.file(auth(request).user.id, request.query.taskId, requestLang(request));
    return sendXlsx(reply, f.body, f.name, f.asciiName);
  });
}
