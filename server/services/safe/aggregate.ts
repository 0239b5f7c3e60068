/**
 * Alarm statistics (`/safeManagement/alarm/statistics`, `/alarm/contrast`): the aggregate calls over
 * the stored alarms (by type, China day, vehicle, driver, company subtree), the alarms behind one
 * chart cell and their .xlsx, the table exports, the dashboard's drive-behaviour sets, and the
 * processing page's export job (`alarmInfo/excel` → `export_status` → `excel_file`).
 * server/API.md "Alarm statistics"; rules in domain/alarms/stats.ts.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { alarmName, groupOf } from '../../../domain/alarms/catalogue.ts';
import { ALARM_QUERY_CAP, type DealStatus } from '../../../domain/alarms/engine.ts';
import { DRIVER_FATIGUE_SET, VEHICLE_RISK_SET, type RiskLevel } from '../../../domain/alarms/sources.ts';
import {
  rollupCompanies, statsDays, statsPeriodProblem, ZERO_COUNTS, type RollupCompany, type StatCounts, type StatsDimension,
} from '../../../domain/alarms/stats.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { StatsCell, StatsFilter } from '../../db/alarm-stats-types.ts';
import type { Storage } from '../../db/repositories.ts';
import { ALL_COMPANIES, pathInScope, subtreeScope, type Scope } from '../../db/scope.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Code, EpochMs, Id, PageFields, Strict, type App } from '../../http/route.ts';
import { ExportJobs } from '../export-jobs.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';
import { AlarmFilterFields, alarmView } from './alarms.ts';
import { alarmWorkbook } from './alarm-sheet.ts';
import { SafeMessages } from './messages.ts';

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);

export const StatsMessages = {
  companyNotFound: pair('公司不存在或不在您的管辖范围内', 'The company does not exist or is outside your companies'),
  pidOnlyForCompany: pair('只有公司统计可以指定上级公司（pid）', 'Only the company statistics take a parent company (pid)'),
  badDriverKey: pair('驾驶员标识无效', 'The driver key is not valid'),
  taskNotFound: pair('导出任务不存在或已过期', 'The export task does not exist or has expired'),
  exportFailed: pair('导出失败，请稍后重试', 'The export failed; try again later'),
  taskNotDone: pair('导出尚未完成，请稍后再下载', 'The export is not finished yet; download it later'),
  unidentifiedDriver: (plate: string): Message => pair(`未识别驾驶员（${plate}）`, `Unidentified driver (${plate})`),
};

const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** Every aggregate call takes the processing list's filters. */
const FilterBody = Strict(AlarmFilterFields);
const CompanyBody = Strict({ ...AlarmFilterFields, pid: Type.Optional(Id) });
const CellFields = {
  alarmType: Type.Optional(Code),
  date: Type.Optional(DateText),
  vehicleId: Type.Optional(Id),
  driverKey: Type.Optional(Type.String({ minLength: 3, maxLength: 100 })),
  ownCompanyId: Type.Optional(Id),
};
const CellBody = Strict({ ...AlarmFilterFields, ...CellFields, ...PageFields });
const CellExportBody = Strict({ ...AlarmFilterFields, ...CellFields });
type FilterInput = Static<typeof FilterBody>;

const toFilter = (b: FilterInput): StatsFilter => ({
  startTime: b.startTime, endTime: b.endTime, vehicleIds: b.vehicleIds, groups: b.alarmGroups, types: b.alarmTypes,
  riskLevels: b.riskLevels as RiskLevel[] | undefined, dealStatuses: b.dealStatuses as DealStatus[] | undefined,
});

const countsOf = (c: StatCounts): StatCounts => ({ count: c.count, occurrences: c.occurrences, unprocessed: c.unprocessed, vehicles: c.vehicles });

export interface AggregateDeps {
  readonly storage: Storage;
  readonly clock: () => number;
}

export function aggregateRoutes(app: App, { storage, clock }: AggregateDeps): void {
  // Both analysis pages (statistics, contrast) read the same aggregates: their common parent decides.
  const permission = '/safeManagement/alarm' as const;
  const jobs = new ExportJobs(app.exportFiles, 'alarm', { notFound: StatsMessages.taskNotFound, failed: StatsMessages.exportFailed, notDone: StatsMessages.taskNotDone }, 'alarm export');

  function checkPeriod(startTime: number, endTime: number): void {
    const p = statsPeriodProblem(startTime, endTime, clock());
    if (p === 'badRange') throw fail.badRequest(SafeMessages.startAfterEnd);
    if (p === 'tooOld') throw fail.badRequest(SafeMessages.lastThreeMonths);
  }

  const totals = (rows: readonly StatCounts[], distinctVehicles: number): StatCounts => ({
    count: rows.reduce((s, r) => s + r.count, 0), occurrences: rows.reduce((s, r) => s + r.occurrences, 0),
    unprocessed: rows.reduce((s, r) => s + r.unprocessed, 0), vehicles: distinctVehicles,
  });

  /** Each dimension's rows in the caller's language, plus the period's total. */
  const dimensions = {
    async type(scope: Scope, f: StatsFilter, lang: Lang) {
      const rows = await storage.alarmStats.byType(scope, f);
      return rows.map((r) => {
        const g = groupOf(r.alarmType);
        return { alarmType: r.alarmType, alarmName: alarmName(r.alarmType, lang), alarmGroup: g ?? null, groupName: g === undefined ? '' : alarmName(g, lang), ...countsOf(r) };
      });
    },
    async date(scope: Scope, f: StatsFilter) {
      const byDay = new Map((await storage.alarmStats.byDate(scope, f)).map((r) => [r.date, r]));
      // Every day of the period (up to today), zeros included, so the line chart has no holes.
      return statsDays(f.startTime, f.endTime, clock()).map((date) => ({ date, ...countsOf(byDay.get(date) ?? ZERO_COUNTS) }));
    },
    async vehicle(scope: Scope, f: StatsFilter) {
      return (await storage.alarmStats.byVehicle(scope, f)).map((r) => ({ vehicleId: r.vehicleId, vehiidno: r.vehiidno, companyId: r.companyId, companyName: r.companyName, ...countsOf(r) }));
    },
    async driver(scope: Scope, f: StatsFilter, lang: Lang) {
      return (await storage.alarmStats.byDriver(scope, f)).map((r) => {
        const identified = !r.driverKey.startsWith('v:');
        return {
          driverKey: r.driverKey, identified, driverName: identified ? r.driverName : StatsMessages.unidentifiedDriver(r.vehiidno)(lang),
          driverCert: r.driverCert, vehicleId: r.vehicleId, vehiidno: r.vehiidno, ...countsOf(r),
        };
      });
    },
  };

  /** The company rollup's parent: `pid` (inside the scope) or the scope's root (null: an administrator's roots). */
  async function companyRows(scope: Scope, f: StatsFilter, pid: number | undefined) {
    let parent: RollupCompany | null = null;
    let inner = scope;
    if (pid !== undefined) {
      const c = await storage.companies.get(ALL_COMPANIES, pid);
      if (!c || !pathInScope(scope, c.path)) throw fail.notFound(StatsMessages.companyNotFound);
      parent = { id: c.id, pid: c.pid, name: c.name, path: c.path };
      inner = subtreeScope(c.id, c.path);
    } else if (!scope.all) {
      const c = await storage.companies.get(ALL_COMPANIES, scope.rootId);
      if (c) parent = { id: c.id, pid: c.pid, name: c.name, path: c.path };
    }
    const companies = (await storage.companies.listAll(inner)).map((c) => ({ id: c.id, pid: c.pid, name: c.name, path: c.path }));
    const per = new Map((await storage.alarmStats.byCompany(inner, f)).map((r) => [r.companyId, r]));
    return { parent, inner, rows: rollupCompanies(companies, per, parent) };
  }

  /** Answers `{total, records}`; `total` counts distinct vehicles over the whole period. */
  async function withTotal<R extends StatCounts>(scope: Scope, f: StatsFilter, records: R[], dim?: StatsDimension) {
    const vehicles = dim === 'vehicle' ? records.length : (await storage.alarmStats.byVehicle(scope, f)).length;
    return { total: totals(records, vehicles), records };
  }

  for (const dim of ['type', 'date', 'vehicle', 'driver'] as const) {
    app.post(`/service-safe/aggregate/alarm/${dim}`, { config: { permission, audit: false }, schema: { body: FilterBody } }, async (request) => {
      const lang = requestLang(request);
      const b = request.body;
      checkPeriod(b.startTime, b.endTime);
      const scope = await narrowedScope(storage, auth(request), b.companyId);
      const f = toFilter(b);
      const records: StatCounts[] = await dimensions[dim](scope, f, lang);
      return ok(await withTotal(scope, f, records, dim), lang);
    });
  }

  app.post('/service-safe/aggregate/alarm/company', { config: { permission, audit: false }, schema: { body: CompanyBody } }, async (request) => {
    const lang = requestLang(request);
    const b = request.body;
    checkPeriod(b.startTime, b.endTime);
    const scope = await narrowedScope(storage, auth(request), b.companyId);
    const f = toFilter(b);
    const { parent, inner, rows } = await companyRows(scope, f, b.pid);
    const vehicles = (await storage.alarmStats.byVehicle(inner, f)).length;
    return ok({ parentId: parent?.id ?? null, parentName: parent?.name ?? null, total: totals(rows, vehicles), records: rows }, lang);
  });

  // ── exports of the statistics tables (ours: the spec's pages export what they show) ──
  const counts = (): SheetColumn<StatCounts>[] => [
    { header: ['报警数', 'Alarms'], width: 10, value: (r) => r.count },
    { header: ['发生次数', 'Occurrences'], width: 12, value: (r) => r.occurrences },
    { header: ['未处理', 'Not processed'], width: 12, value: (r) => r.unprocessed },
    { header: ['涉及车辆', 'Vehicles'], width: 10, value: (r) => r.vehicles },
  ];
  type Sheet = { name: readonly [string, string]; columns: SheetColumn<Record<string, unknown> & StatCounts>[] };
  const text = (k: string) => (r: Record<string, unknown>) => String(r[k] ?? '');
  const sheets: Record<StatsDimension, Sheet> = {
    type: { name: ['报警类型统计', 'Alarms by type'], columns: [{ header: ['报警分类', 'Alarm group'], width: 14, value: text('groupName') }, { header: ['报警类型', 'Alarm type'], width: 24, value: text('alarmName') }, ...counts()] },
    date: { name: ['报警日期统计', 'Alarms by day'], columns: [{ header: ['日期', 'Date'], width: 12, value: text('date') }, ...counts()] },
    vehicle: { name: ['报警车辆统计', 'Alarms by vehicle'], columns: [{ header: ['车牌号', 'Plate'], width: 14, value: text('vehiidno') }, { header: ['所属公司', 'Company'], width: 20, value: text('companyName') }, ...counts()] },
    driver: { name: ['报警驾驶员统计', 'Alarms by driver'], columns: [{ header: ['驾驶员', 'Driver'], width: 22, value: text('driverName') }, { header: ['从业资格证号', 'Certificate'], width: 20, value: text('driverCert') }, { header: ['最近车辆', 'Latest vehicle'], width: 14, value: text('vehiidno') }, ...counts()] },
    company: { name: ['报警公司统计', 'Alarms by company'], columns: [{ header: ['公司', 'Company'], width: 24, value: text('companyLabel') }, ...counts()] },
  };

  app.post('/service-safe/aggregate/alarm/:dimension/excel', {
    config: { permission },
    schema: { params: Type.Object({ dimension: Type.Union(['type', 'date', 'vehicle', 'driver', 'company'].map((d) => Type.Literal(d as StatsDimension))) }), body: CompanyBody },
  }, async (request, reply) => {
    const lang = requestLang(request);
    const b = request.body;
    const dim = request.params.dimension as StatsDimension;
    checkPeriod(b.startTime, b.endTime);
    if (b.pid !== undefined && dim !== 'company') throw fail.badRequest(StatsMessages.pidOnlyForCompany);
    const scope = await narrowedScope(storage, auth(request), b.companyId);
    const f = toFilter(b);
    let rows: (Record<string, unknown> & StatCounts)[];
    let totalScope = scope;
    if (dim === 'company') {
      const { rows: r, inner } = await companyRows(scope, f, b.pid);
      totalScope = inner;
      const own = lang === 'zh' ? '（本级车辆）' : ' (own vehicles)';
      rows = r.map((x) => ({ ...x, companyLabel: x.own ? `${x.companyName}${own}` : x.companyName }));
    } else rows = await dimensions[dim](scope, f, lang);
    const sheet = sheets[dim];
    const name = sheet.name[lang === 'zh' ? 0 : 1];
    const { total } = await withTotal(totalScope, f, rows, dim);
    const sum = { ...total, groupName: lang === 'zh' ? '合计' : 'Total', alarmName: '', date: lang === 'zh' ? '合计' : 'Total', vehiidno: lang === 'zh' ? '合计' : 'Total', driverName: lang === 'zh' ? '合计' : 'Total', companyLabel: lang === 'zh' ? '合计' : 'Total' };
    const body = await xlsxBuffer(name, sheet.columns, [...rows, sum], lang);
    return sendXlsx(reply, body, name, `alarm_stats_${dim}`);
  });

  // ── the alarms behind one chart cell ──
  async function cellQuery(request: { body: Static<typeof CellExportBody> }, ctxScope: Scope) {
    const b = request.body;
    checkPeriod(b.startTime, b.endTime);
    if (b.driverKey !== undefined && !/^(c:.+|n:.+|v:[1-9]\d{0,14})$/.test(b.driverKey)) throw fail.badRequest(StatsMessages.badDriverKey);
    const cell: StatsCell = { alarmType: b.alarmType, date: b.date, vehicleId: b.vehicleId, driverKey: b.driverKey, ownCompanyId: b.ownCompanyId };
    return { f: toFilter(b), cell, scope: ctxScope };
  }

  app.post('/service-safe/aggregate/alarms', { config: { permission, audit: false }, schema: { body: CellBody } }, async (request, reply) => {
    const lang = requestLang(request);
    const b = request.body;
    const { f, cell, scope } = await cellQuery(request, await narrowedScope(storage, auth(request), b.companyId));
    const offset = (b.current - 1) * b.size;
    const limit = Math.max(0, Math.min(b.size, ALARM_QUERY_CAP - offset));
    const { total, records } = await storage.alarmStats.alarms(scope, f, cell, offset, limit);
    const capped = total > ALARM_QUERY_CAP;
    const data = {
      records: records.map((r) => ({ ...alarmView(r, lang), driverCert: r.driverCert, driverName: r.driverName })),
      total: Math.min(total, ALARM_QUERY_CAP), current: b.current, size: b.size, capped, matched: total,
    };
    if (!capped) return ok(data, lang);
    return reply.send({ code: 200, msg: SafeMessages.firstOnly(lang), data });
  });

  app.post('/service-safe/aggregate/alarms/excel', { config: { permission }, schema: { body: CellExportBody } }, async (request, reply) => {
    const lang = requestLang(request);
    const { f, cell, scope } = await cellQuery(request, await narrowedScope(storage, auth(request), request.body.companyId));
    const { records } = await storage.alarmStats.alarms(scope, f, cell, 0, ALARM_QUERY_CAP);
    const name = lang === 'zh' ? '报警明细' : 'Alarm details';
    return sendXlsx(reply, await alarmWorkbook(records, lang, auth(request).user.geoInverse), name, 'alarm_details');
  });

  // ── the dashboard's drive-behaviour sets (spec §9) ──
  app.get('/service-safe/aggregate/driveBehaviourStat', {
    config: { permission: 'session' },
    schema: { querystring: Strict({ startTime: EpochMs, endTime: EpochMs }) },
  }, async (request) => {
    const lang = requestLang(request);
    const q = request.query;
    checkPeriod(q.startTime, q.endTime);
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const set = async (codes: readonly number[]) => {
      const byType = new Map((await storage.alarmStats.byType(scope, { startTime: q.startTime, endTime: q.endTime, types: codes })).map((r) => [r.alarmType, r]));
      const records = codes.map((code) => ({ alarmType: code, alarmName: alarmName(code, lang), ...countsOf(byType.get(code) ?? ZERO_COUNTS) }));
      return { count: records.reduce((s, r) => s + r.count, 0), records };
    };
    return ok({ driverFatigue: await set(DRIVER_FATIGUE_SET), vehicleRisk: await set(VEHICLE_RISK_SET) }, lang);
  });

  // ── the processing page's export job: the current query's first 5,000 alarms ──
  const page = '/safeManagement/alarmProcessingPage' as const;
  app.post('/service-safe/alarmInfo/excel', {
    config: { permission: page },
    schema: {
      body: Strict({ ...AlarmFilterFields, typical: Type.Optional(Type.Boolean()) }),
    },
  }, async (request) => {
    const lang = requestLang(request);
    const b = request.body;
    checkPeriod(b.startTime, b.endTime);
    const scope = await narrowedScope(storage, auth(request), b.companyId);
    const filter = { ...toFilter(b), groups: b.alarmGroups, typical: b.typical };
    const withAddress = auth(request).user.geoInverse;
    const day = new Date(b.startTime + 8 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '');
    const job = await jobs.start({ userId: auth(request).user.id, fileName: [`报警处理_${day}`, `alarms_${day}`], asciiName: `alarms_${day}`, log: request.log }, async () => {
      const { total, records } = await storage.alarms.query(scope, filter, 0, ALARM_QUERY_CAP);
      return { total, exported: records.length, file: await alarmWorkbook(records, lang, withAddress) };
    });
    return ok({ taskId: job.id }, lang);
  });

  const TaskQuery = Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) });
  app.get('/service-safe/alarmInfo/export_status', { config: { permission: page }, schema: { querystring: TaskQuery } }, async (request) => {
    const lang = requestLang(request);
    const job = await jobs.own(auth(request).user.id, request.query.taskId);
    const message = job.status === 'failed' ? StatsMessages.exportFailed(lang) : job.total > ALARM_QUERY_CAP ? SafeMessages.firstOnly(lang) : undefined;
    return ok({ status: job.status, total: job.total, exported: job.exported, ...(message === undefined ? {} : { message }) }, lang);
  });

  app.get('/service-safe/alarmInfo/excel_file', { config: { permission: page }, schema: { querystring: TaskQuery } }, async (request, reply) => {
    const f = await jobs.file(auth(request).user.id, request.query.taskId, requestLang(request));
    return sendXlsx(reply, f.body, f.name, f.asciiName);
  });
}
