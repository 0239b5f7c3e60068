/**
 * The routes of an analyst report that reads the report engine (issue 18): one place for what the fuel and the
 * operation reports share, so that each report stays a short declaration (path, screen, file name, build, sheet
 * columns). For each declaration it registers the list call (a page of rows with the totals of all of them) and
 * the export job calls (/excel, /export_status, /excel_file) behind the screen's export bit.
 *
 * Shared rules: the period is at most 31 China days and cut at today; the vehicles are those of the caller's
 * company subtree (narrowed by companyId), by plate; a missing engine answers 503. What differs is an option:
 * `wholeCompany` (fuel) lets the vehicle list be left out, meaning every vehicle of the subtree, up to 500.
 */
import { Type, type TSchema } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { DayModule } from '../../../domain/report-day/module.ts';
import { chinaDateOfDay, chinaDayIndex } from '../../../domain/track/days.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { pathInScope } from '../../db/scope.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, PageFields, Strict, type App, type PermissionKey } from '../../http/route.ts';
import { ExportJobs } from '../export-jobs.ts';
import { REPORT_MAX_DAYS, ReportMessages } from '../reports/index.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';
import type { ReportEngine } from './api.ts';

/** Vehicles one report may cover (spec §5: at most 500 vehicles selectable at once). */
export const REPORT_MAX_VEHICLES = 500;
/** Rows an export holds at most (the catalogue's positioning export cap); the status says when cut. */
export const REPORT_EXPORT_MAX_ROWS = 50_000;

export const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);
export const ReportRouteMessages = {
  engineDown: pair('报表引擎未启动，请稍后再试', 'The report engine is not running; try again later'),
  taskNotFound: pair('导出任务不存在或已过期', 'The export task does not exist or has expired'),
  exportFailed: pair('导出失败，请重试', 'The export failed; please try again'),
  taskNotDone: pair('导出尚未完成', 'The export is not finished yet'),
  firstOnly: (n: number): Message => pair(`数据量过大，仅导出前${n}条`, `Too many rows: only the first ${n} were exported`),
};

export const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const TaskQuery = Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) });

export interface Period { firstDay: number; lastDay: number }
interface Query { startDate: string; endDate: string; vehicleIds?: number[] | undefined; companyId?: number | undefined }

/** A date text as its China day index; a date that does not exist is the field's clear error. */
export function dayOf(field: string, text: string): number {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const day = Date.UTC(y, m - 1, d) / 86_400_000;
  if (chinaDateOfDay(day) !== text) throw fail.badRequest(ReportMessages.invalidDate(field));
  return day;
}

/** The period's China days, at most 31, cut at today (later days have no data yet). */
export function periodOf(q: { startDate: string; endDate: string }, now: number): Period {
  const firstDay = dayOf('startDate', q.startDate);
  const endDay = dayOf('endDate', q.endDate);
  if (firstDay > endDay) throw fail.badRequest(ReportMessages.startAfterEnd);
  if (endDay - firstDay + 1 > REPORT_MAX_DAYS) throw fail.badRequest(ReportMessages.periodTooLong);
  return { firstDay, lastDay: Math.min(endDay, chinaDayIndex(now)) };
}

export function vehicleFields(v: VehicleLabel) {
  return { vehicleId: v.vehicleId, vehiidno: v.vehiidno, companyId: v.companyId, companyName: v.companyName };
}
export type VehicleFields = ReturnType<typeof vehicleFields>;

// --- sheets ---

export type Col<T> = (lang: Lang) => SheetColumn<T>;
export function col<T>(zh: string, en: string, value: SheetColumn<T>['value'], width?: number): Col<T> {
  return () => (width === undefined ? { header: [zh, en], value } : { header: [zh, en], value, width });
}
export const sheet = <T>(...cols: Col<T>[]) => (lang: Lang) => cols.map((c) => c(lang));
export const VEHICLE_COLS = <T extends VehicleFields>(): Col<T>[] => [col<T>('车牌号', 'Plate', (r) => r.vehiidno, 14), col<T>('所属公司', 'Company', (r) => r.companyName, 20)];

/** A report: its rows (all of them: the page and the export cut them) and the totals over them. */
export interface Report<T> { rows: T[]; totals: Record<string, number | null> }

export interface ReportDecl<T> {
  /** Path under the routes' prefix. */
  readonly path: string;
  /** The list call's method (default POST; the export calls are fixed). */
  readonly method?: 'GET' | 'POST';
  readonly screen: PermissionKey;
  readonly file: readonly [zh: string, en: string];
  /** `extra`: the declaration's own query fields (`query`), as sent; `lang`: the caller's, for words in rows (a stop's place). */
  readonly build: (engine: ReportEngine, vehicles: VehicleLabel[], period: Period, extra: Readonly<Record<string, unknown>>, lang: Lang) => Promise<Report<T>>;
  /** Query fields of this report beside the period and vehicles (line passenger flow: `lineIds`), list and export alike. */
  readonly query?: Readonly<Record<string, TSchema>>;
  /** Rules on those fields that need no data (throw the field's 400), checked before a list is built or an export starts. */
  readonly check?: (extra: Readonly<Record<string, unknown>>) => void;
  readonly columns: (lang: Lang) => SheetColumn<T>[];
  /**
   * Fills in place what costs per row to word (a place from the offline geocoder, ~40 µs each), only on the rows
   * that leave: the page's, or the export's. `build` leaves those fields empty: a month of 500 vehicles' trips is
   * 15,500 rows, and wording them all for a page of 50 made the trip list take 1.7 s (measured, issue 18).
   */
  readonly present?: (rows: T[], lang: Lang) => void;
  /** A catalogue name of the export-start call beside `<path>/excel` (e.g. devstatus/errorlistExport), under the prefix. */
  readonly exportAlias?: string;
  /**
   * This report's own vehicle cap where the spec gives one other than 500 (passenger supervision: 1,000), with
   * its sentence. Only with the routes' `wholeCompany` option (the schema then allows up to 10,000 ids).
   */
  readonly maxVehicles?: { readonly count: number; readonly message: Message };
}

export interface ReportRouteDeps {
  readonly storage: Storage;
  readonly clock: () => number;
  /** The report engine, read per request (installed by its own wiring; absent → 503). */
  readonly engine: () => ReportEngine | undefined;
}

export interface ReportRouteOptions {
  /** Day modules the reports read; registered with the engine at app build, before ingest starts. */
  readonly modules: readonly DayModule<never, never>[];
  /** Prefix of every declaration's path. */
  readonly prefix: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each declaration has its own row type
  readonly reports: Readonly<Record<string, ReportDecl<any>>>;
  /** Names of a declaration's export jobs: the stored kind and the failure log's words. */
  readonly jobKind: (path: string) => string;
  readonly jobLog: (path: string) => string;
  /**
   * Set: the vehicle list may be left out (every vehicle of the subtree), more than 500 answers this sentence,
   * and the export checks the selection before its job starts. Unset: 1–500 vehicles, bound by the schema.
   */
  readonly wholeCompany?: { readonly tooManyVehicles: Message };
}

export function reportRoutes(app: App, deps: ReportRouteDeps, opts: ReportRouteOptions): void {
  const { storage } = deps;
  for (const m of opts.modules) deps.engine()?.register(m as DayModule<unknown, unknown>);

  const whole = opts.wholeCompany;
  // With wholeCompany the schema's bound is looser than the rule so that 501 vehicles get the spec's sentence.
  const VehicleList = Type.Array(Id, { minItems: 1, maxItems: whole ? 10_000 : REPORT_MAX_VEHICLES, uniqueItems: true });
  const QueryFields = { startDate: DateText, endDate: DateText, vehicleIds: whole ? Type.Optional(VehicleList) : VehicleList };

  function engineOf(): ReportEngine {
    const engine = deps.engine();
    if (!engine) throw new AppError(503, ReportRouteMessages.engineDown);
    return engine;
  }

  /** The selected vehicles inside the caller's (narrowed) subtree (or all of it); others are simply not there. */
  async function vehiclesOf(request: FastifyRequest, q: Query, decl: ReportDecl<unknown>): Promise<VehicleLabel[]> {
    const cap = decl.maxVehicles?.count ?? REPORT_MAX_VEHICLES;
    const tooMany = decl.maxVehicles?.message ?? whole?.tooManyVehicles;
    if (whole && q.vehicleIds && q.vehicleIds.length > cap) throw fail.badRequest(tooMany!);
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const ids = q.vehicleIds ?? (await storage.terminals.allVehicles()).filter((v) => pathInScope(scope, v.companyPath)).map((v) => v.vehicleId);
    if (whole && ids.length > cap) throw fail.badRequest(tooMany!);
    const labels = await storage.terminals.labels(scope, ids);
    return [...labels.values()].sort((a, b) => a.vehiidno.localeCompare(b.vehiidno) || a.vehicleId - b.vehicleId);
  }

  async function run<T>(decl: ReportDecl<T>, request: FastifyRequest, q: Query): Promise<Report<T>> {
    const period = periodOf(q, deps.clock());
    // Before the vehicles, as the export does: a rule on the report's own fields holds with no vehicle found too.
    const extra = extraOf(decl, q);
    decl.check?.(extra);
    const vehicles = await vehiclesOf(request, q, decl as ReportDecl<unknown>);
    if (vehicles.length === 0 || period.lastDay < period.firstDay) return { rows: [], totals: {} };
    return decl.build(engineOf(), vehicles, period, extra, requestLang(request));
  }

  /** The declaration's own query fields out of a request (the schema has checked them). */
  function extraOf<T>(decl: ReportDecl<T>, q: object): Record<string, unknown> {
    const all = q as Record<string, unknown>;
    return Object.fromEntries(Object.keys(decl.query ?? {}).filter((k) => all[k] !== undefined).map((k) => [k, all[k]]));
  }

  function register<T>(decl: ReportDecl<T>): void {
    const base = `${opts.prefix}${decl.path}`;
    const ListSchema = Strict({ ...QueryFields, ...decl.query, ...PageFields });
    const ExportSchema = Strict({ ...QueryFields, ...decl.query });
    const permission = decl.screen;
    const answer = async (request: FastifyRequest, q: Query & { current: number; size: number }) => {
      const { rows, totals } = await run(decl, request, q);
      const records = rows.slice((q.current - 1) * q.size, q.current * q.size);
      decl.present?.(records, requestLang(request));
      return ok({ records, total: rows.length, current: q.current, size: q.size, totals }, requestLang(request));
    };
    if (decl.method === 'GET') {
      app.get(base, { config: { permission }, schema: { querystring: ListSchema } }, async (request) => answer(request, request.query));
    } else {
      app.post(base, { config: { permission, audit: false }, schema: { body: ListSchema } }, async (request) => answer(request, request.body));
    }

    const exportBit = `${decl.screen}:export` as PermissionKey;
    const jobs = new ExportJobs(app.exportFiles, opts.jobKind(decl.path), {
      notFound: ReportRouteMessages.taskNotFound, failed: ReportRouteMessages.exportFailed, notDone: ReportRouteMessages.taskNotDone,
    }, opts.jobLog(decl.path));
    const startPaths = [`${base}/excel`, ...(decl.exportAlias === undefined ? [] : [`${opts.prefix}${decl.exportAlias}`])];
    for (const startPath of startPaths) app.post(startPath, { config: { permission: exportBit }, schema: { body: ExportSchema } }, async (request) => {
      const lang = requestLang(request);
      const q = request.body;
      // Checked before the job starts, so a bad period (or selection) is the answer, not a failed job.
      periodOf(q, deps.clock());
      decl.check?.(extraOf(decl, q));
      if (whole) await vehiclesOf(request, q, decl as ReportDecl<unknown>);
      engineOf();
      const job = await jobs.start({ userId: auth(request).user.id, fileName: decl.file, asciiName: decl.file[1], log: request.log }, async () => {
        const { rows } = await run(decl, request, q);
        const kept = rows.slice(0, REPORT_EXPORT_MAX_ROWS);
        decl.present?.(kept, lang);
        return { total: rows.length, exported: kept.length, file: await xlsxBuffer(decl.file[lang === 'zh' ? 0 : 1], decl.columns(lang), kept, lang) };
      });
      return ok({ taskId: job.id }, lang);
    });
    app.get(`${base}/export_status`, { config: { permission: exportBit }, schema: { querystring: TaskQuery } }, async (request) => {
      const lang = requestLang(request);
      const job = await jobs.own(auth(request).user.id, request.query.taskId);
      const message = job.status === 'failed' ? ReportRouteMessages.exportFailed(lang)
        : job.total > REPORT_EXPORT_MAX_ROWS ? ReportRouteMessages.firstOnly(REPORT_EXPORT_MAX_ROWS)(lang) : undefined;
      return ok({ status: job.status, total: job.total, exported: job.exported, ...(message === undefined ? {} : { message }) }, lang);
    });
    app.get(`${base}/excel_file`, { config: { permission: exportBit }, schema: { querystring: TaskQuery } }, async (request, reply) => {
      const f = await jobs.file(auth(request).user.id, request.query.taskId, requestLang(request));
      return sendXlsx(reply, f.body, f.name, f.asciiName);
    });
  }

  for (const decl of Object.values(opts.reports)) register(decl as ReportDecl<unknown>);
}
