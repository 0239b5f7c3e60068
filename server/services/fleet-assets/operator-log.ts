/**
 * Issue 15: the operator logs (/information/operatorLogManagement/vehicleLog and /deviceLog; spec
 * `POST /service-priv/binlog/vehicle`, `/binlog/device`), their .xlsx exports (bits 348 / 349), and the
 * per-record trail the list screens' 操作记录 action reads (`GET /service-priv/binlog/record`).
 * API: ./api/operator-log.md. Rows are written by the writers themselves (the resource layer's
 * `changeLog`, `changeDevice`, the gateway's auto-registration), each inside its change's transaction.
 *
 * Scoping: a row belongs to its record's company (`change_log.company_id`); a reader sees the rows of
 * its subtree (narrowed by `companyId`). A moved record's rows move with it (`changeLog.moveRecord`).
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { ErrorCode, type Lang } from '../../../domain/errors/catalogue.ts';
import {
  CHANGE_LOG_EXPORT_CAP, CHANGE_LOG_KEYWORD_MAX, CHANGE_LOG_MAX_SPAN_DAYS, CHANGE_LOG_SCREENS, CHANGE_RESOURCE_ROUTES, CHANGE_RESOURCES,
  changeLineText, changeLines, changeLogPeriodProblem, operationName, referencedIds, type ChangeNames,
} from '../../../domain/fleet/change-fields.ts';
import type { ChangeLogQuery, ChangeLogRow, ChangeResource } from '../../db/change-log-types.ts';
import type { Repositories } from '../../db/repositories.ts';
import { pathInScope, type Scope } from '../../db/scope.ts';
import type { Page } from '../../db/types.ts';
import { auth, narrowedScope, permits } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { EpochMs, Id, PageFields, Strict, Text, type App } from '../../http/route.ts';
import { ExportJobs } from '../export-jobs.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';
import { chinaTimeText } from '../track/common.ts';
import type { FleetAssetDeps } from './deps.ts';

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const OperatorLogMessages = {
  periodOrder: pair('结束时间不能早于开始时间', 'The end time must not be before the start time'),
  periodSpan: pair(`查询时间跨度不能超过 ${CHANGE_LOG_MAX_SPAN_DAYS} 天`, `The period may span at most ${CHANGE_LOG_MAX_SPAN_DAYS} days`),
  recordNotFound: pair('记录不存在', 'No such record'),
  taskNotFound: pair('导出任务不存在或已过期', 'The export task does not exist or has expired'),
  exportFailed: pair('导出失败，请重试', 'The export failed; please try again'),
  taskNotDone: pair('导出尚未完成', 'The export is not finished yet'),
  firstOnly: (cap: number): Message => pair(`仅导出前 ${cap} 条，请缩小查询范围`, `Only the first ${cap} rows were exported; narrow the query`),
} as const;

/** The search of a log screen: the list's paging, a keyword (plate / device number / operator), an operation, an inclusive period. */
const SearchFields = {
  keyword: Type.Optional(Text(CHANGE_LOG_KEYWORD_MAX)),
  operation: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-zA-Z]+$' })),
  from: Type.Optional(EpochMs),
  to: Type.Optional(EpochMs),
};
const SearchBody = Strict({ ...PageFields, ...SearchFields });
const ExportBody = Strict(SearchFields);
type Search = Partial<Static<typeof ExportBody>> & { current?: number; size?: number };

const TrailQuery = Strict({
  ...PageFields,
  resource: Type.Union(CHANGE_RESOURCES.map((r) => Type.Literal(r))),
  recordId: Id,
});

/** The period's rules (domain/fleet/change-fields.ts, the console checks the same): 400 naming `to` (or `from` when it is missing). */
export function checkPeriod(from: number | undefined, to: number | undefined): void {
  const problem = changeLogPeriodProblem(from, to);
  if (problem === 'missing') throw fail.field(from === undefined ? 'from' : 'to', { code: 'required' });
  if (problem === 'order') throw new AppError(ErrorCode.BadRequest, OperatorLogMessages.periodOrder, null, { to: { code: 'periodOrder' } });
  if (problem === 'span') throw new AppError(ErrorCode.BadRequest, OperatorLogMessages.periodSpan, null, { to: { code: 'periodSpan', params: { maxDays: CHANGE_LOG_MAX_SPAN_DAYS } } });
}

function queryOf(resource: ChangeResource, s: Search, current: number, size: number): ChangeLogQuery {
  const keyword = s.keyword?.trim();
  return {
    resource, current, size,
    ...(keyword ? { keyword } : {}),
    ...(s.operation ? { operation: s.operation } : {}),
    ...(s.from === undefined ? {} : { from: s.from }),
    ...(s.to === undefined ? {} : { to: s.to }),
  };
}

/** An answered row: the stored row with the names of the ids its values reference (resolved within the reader's scope). */
export interface LogRowView {
  readonly id: number;
  readonly resource: ChangeResource;
  readonly recordId: number;
  readonly label: string;
  readonly companyId: number;
  readonly companyName: string;
  readonly operation: string;
  readonly userName: string;
  readonly ip: string;
  readonly time: number;
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
  readonly names: ChangeNames;
}

async function views(repos: Repositories, scope: Scope, rows: readonly ChangeLogRow[]): Promise<LogRowView[]> {
  const names = await repos.changeLog.names(scope, referencedIds(rows.flatMap((r) => [r.before, r.after])));
  // userId stays on the server: the operator is named, never numbered.
  return rows.map((r) => ({
    id: r.id, resource: r.resource, recordId: r.recordId, label: r.label, companyId: r.companyId, companyName: r.companyName,
    operation: r.operation, userName: r.userName, ip: r.ip, time: r.time, before: r.before, after: r.after, names,
  }));
}

/** The export sheet: each changed field on its own line, "field: before → after" in the caller's language. */
export function sheetColumns(resource: 'vehicle' | 'device', lang: Lang): SheetColumn<LogRowView>[] {
  return [
    { header: ['操作时间', 'Time'], width: 20, value: (r) => chinaTimeText(r.time) },
    { header: ['操作人', 'Operator'], width: 16, value: (r) => r.userName },
    { header: ['来源IP', 'From IP'], width: 16, value: (r) => r.ip },
    { header: resource === 'vehicle' ? ['车牌号', 'Plate'] : ['设备号', 'Device no.'], width: 16, value: (r) => r.label },
    { header: ['所属公司', 'Company'], width: 20, value: (r) => r.companyName },
    { header: ['操作类型', 'Operation'], width: 12, value: (r) => operationName(r.operation, lang) },
    { header: ['变更内容', 'Changes'], width: 60, value: (r) => changeLines(r.before, r.after, lang, r.names).map(changeLineText).join('\n') },
  ];
}

export function registerOperatorLogCalls(app: App, deps: FleetAssetDeps): void {
  const { storage } = deps;

  for (const resource of ['vehicle', 'device'] as const) {
    const screen = CHANGE_LOG_SCREENS[resource];
    const base = `/service-priv/binlog/${resource}`;

    app.post(base, { config: { permission: screen, audit: false }, schema: { body: SearchBody } }, async (request) => {
      const ctx = auth(request);
      const body = request.body;
      checkPeriod(body.from, body.to);
      const scope = await narrowedScope(storage, ctx, body.companyId);
      const page = await storage.changeLog.page(scope, queryOf(resource, body, body.current, body.size));
      const answer: Page<LogRowView> = { ...page, records: await views(storage, scope, page.records) };
      return ok(answer, requestLang(request));
    });

    // The export: the screen's search as a job (…/excel → …/export_status → …/excel_file), behind the screen's export bit.
    const exportBit = `${screen}:export` as const;
    const jobs = new ExportJobs(app.exportFiles, `binlog:${resource}`, {
      notFound: OperatorLogMessages.taskNotFound, failed: OperatorLogMessages.exportFailed, notDone: OperatorLogMessages.taskNotDone,
    }, `${resource} log export`);
    const fileName = resource === 'vehicle' ? (['车辆操作日志', 'vehicle_log'] as const) : (['设备操作日志', 'device_log'] as const);

    app.post(`${base}/excel`, { config: { permission: exportBit }, schema: { body: ExportBody } }, async (request) => {
      const ctx = auth(request);
      const lang = requestLang(request);
      const body = request.body;
      checkPeriod(body.from, body.to);
      const scope = await narrowedScope(storage, ctx, body.companyId);
      const job = await jobs.start({ userId: ctx.user.id, fileName, asciiName: fileName[1], log: request.log }, async () => {
        const page = await storage.changeLog.page(scope, queryOf(resource, body, 1, CHANGE_LOG_EXPORT_CAP));
        const rows = await views(storage, scope, page.records);
        return { total: page.total, exported: rows.length, file: await xlsxBuffer(fileName[1], sheetColumns(resource, lang), rows, lang) };
      });
      return ok({ taskId: job.id }, lang);
    });

    const TaskQuery = Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) });
    app.get(`${base}/export_status`, { config: { permission: exportBit }, schema: { querystring: TaskQuery } }, async (request) => {
      const lang = requestLang(request);
      const job = await jobs.own(auth(request).user.id, request.query.taskId);
      const message = job.status === 'failed' ? OperatorLogMessages.exportFailed(lang) : job.total > CHANGE_LOG_EXPORT_CAP ? OperatorLogMessages.firstOnly(CHANGE_LOG_EXPORT_CAP)(lang) : undefined;
      return ok({ status: job.status, total: job.total, exported: job.exported, ...(message === undefined ? {} : { message }) }, lang);
    });
    app.get(`${base}/excel_file`, { config: { permission: exportBit }, schema: { querystring: TaskQuery } }, async (request, reply) => {
      const f = await jobs.file(auth(request).user.id, request.query.taskId, requestLang(request));
      return sendXlsx(reply, f.body, f.name, f.asciiName);
    });
  }

  // One record's trail, newest first: the record's screen admits (403 without it); a record outside the
  // caller's subtree is 404 like a missing one. A deleted record's trail is read from its rows in scope.
  app.get('/service-priv/binlog/record', { config: { permission: 'session' }, schema: { querystring: TrailQuery } }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const q = request.query;
    if (!permits(ctx, CHANGE_RESOURCE_ROUTES[q.resource])) throw fail.forbidden();
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const path = await storage.changeLog.recordCompanyPath(q.resource, q.recordId);
    if (path !== undefined && !pathInScope(scope, path)) throw fail.notFound(OperatorLogMessages.recordNotFound);
    const page = await storage.changeLog.page(scope, { resource: q.resource, recordId: q.recordId, current: q.current, size: q.size });
    if (path === undefined && page.total === 0) throw fail.notFound(OperatorLogMessages.recordNotFound);
    const answer: Page<LogRowView> = { ...page, records: await views(storage, scope, page.records) };
    return ok(answer, lang);
  });
}
