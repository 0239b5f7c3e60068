/**
 * Vehicle appraisal (车辆考核): the settings calls and the monthly appraisal report with its ranking
 * and .xlsx export. server/API.md "Vehicle appraisal and analysis reports"; rules in domain/appraisal.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  APPRAISAL_CATEGORIES, categoryName, chinaMonth, DEFAULT_APPRAISAL_SETTINGS, rankByScore, round1, settingsProblemMessage, validateSettings, type AppraisalSettings, type RankedRow,
} from '../../../domain/appraisal/rules.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { Storage } from '../../db/repositories.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { IdList, PageFields, Strict, type App } from '../../http/route.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';
import type { ReportEngine } from '../reports/rollup.ts';
import {
  effectiveSettings, monthFigures, monthPeriod, scoreRow, targetCompany, vehiclesIn, type EffectiveSettings, type VehicleMonth,
} from './appraisal-core.ts';

/**
 * One number per category; unknown keys are refused (400 naming the field). Ranges: domain rule
 * (bilingual); the schema's ±10^6 only keeps absurd magnitudes out before it.
 */
const CategoryNumber = Type.Number({ minimum: -1_000_000, maximum: 1_000_000 });
const PerCategoryNumber = Type.Object({
  drivingSkill: CategoryNumber, drivingBehaviour: CategoryNumber, trafficViolation: CategoryNumber, trafficAccident: CategoryNumber, vehicleOperation: CategoryNumber,
}, { additionalProperties: false });

/** Entries of the dashboard's risk ranking (spec §9: top 5). */
export const RISK_RANKING_SIZE = 5;

/** `month` is optional in the schema so its absence answers the spec's own message, not a generic one. */
const MonthField = Type.Optional(Type.String({ maxLength: 7 }));

export const CheckReportSchema = Strict({
  month: MonthField,
  vehicleIds: Type.Optional(IdList),
  keyword: Type.Optional(Type.String({ maxLength: 50 })),
  ...PageFields,
});

export function settingsView(e: EffectiveSettings, company: { id: number; name: string }, fromName: string | null) {
  return {
    companyId: company.id,
    companyName: company.name,
    fromCompanyId: e.from?.companyId ?? null,
    fromCompanyName: fromName,
    weights: e.settings.weights,
    thresholds: e.settings.thresholds,
    creatorName: e.from?.creatorName ?? null,
    createTime: e.from?.createTime ?? null,
    updaterName: e.from?.updaterName ?? null,
    updateTime: e.from?.updateTime ?? null,
    defaults: DEFAULT_APPRAISAL_SETTINGS,
  };
}


/** Scores and ranks every vehicle of the company subtree for the month (rank is among all of them). */
/** `known`: month figures the caller already computed for this period (not computed again). */
export async function rankCompany(storage: Storage, engine: ReportEngine, request: FastifyRequest, p: { month?: string | undefined; companyId?: number | undefined }, known: readonly VehicleMonth[] = []) {
  const ctx = auth(request);
  const period = monthPeriod(p.month, engine.clock());
  const scope = await narrowedScope(storage, ctx, p.companyId);
  const company = await targetCompany(storage, scope, p.companyId ?? ctx.user.companyId);
  const settings = await effectiveSettings(storage, company);
  const vehicles = await vehiclesIn(storage, scope);
  const reuse = new Map(known.map((m) => [m.vehicle.vehicleId, m]));
  const computed = await monthFigures(storage, engine, scope, vehicles.filter((v) => !reuse.has(v.vehicleId)), period);
  const figures = [...vehicles.flatMap((v) => reuse.get(v.vehicleId) ?? []), ...computed];
  const rows = rankByScore(figures.map((m) => scoreRow(m, settings.settings)));
  return { period, scope, company, settings, figures, rows };
}

const H = {
  rank: ['排名', 'Rank'], vehiidno: ['车牌号', 'Plate'], company: ['所属公司', 'Company'], mileageKm: ['里程(km)', 'Mileage (km)'],
  normalDays: ['正常运行天数', 'Normal running days'], alarmCount: ['报警数', 'Alarms'], totalScore: ['总分', 'Total score'],
} as const;

function sheet(lang: Lang, settings: AppraisalSettings): SheetColumn<RankedRow>[] {
  const zh = lang === 'zh';
  const cols: SheetColumn<RankedRow>[] = [
    { header: H.rank, value: (r) => r.rank ?? '-', width: 8 },
    { header: H.vehiidno, value: (r) => r.vehiidno },
    { header: H.company, value: (r) => r.companyName, width: 20 },
    { header: H.mileageKm, value: (r) => r.mileageKm },
    { header: H.normalDays, value: (r) => r.normalDays },
  ];
  for (const c of APPRAISAL_CATEGORIES) {
    const name = categoryName(c, lang);
    const w = settings.weights[c];
    cols.push({ header: [`${categoryName(c, 'zh')}报警数`, `${categoryName(c, 'en')} alarms`], value: (r) => r.counts[c] });
    cols.push({ header: [`${categoryName(c, 'zh')}(次/百公里)`, `${categoryName(c, 'en')} per 100 km`], value: (r) => r.rates[c] ?? '-' });
    cols.push({
      header: [`${categoryName(c, 'zh')}得分(权重${w}%)`, `${categoryName(c, 'en')} score (weight ${w}%)`],
      value: (r) => r.scores?.[c] ?? (zh ? `未考核` : 'Not assessed'),
      width: name.length + 12,
    });
  }
  cols.push({ header: H.totalScore, value: (r) => r.totalScore ?? (zh ? '未考核' : 'Not assessed') });
  return cols;
}

export function appraisalRoutes(app: App, deps: { storage: Storage; engine: ReportEngine }): void {
  const { storage, engine } = deps;
  const settingPage = '/safeManagement/vehicleScore/checkSetting' as const;
  const reportPage = '/safeManagement/vehicleScore/checkReport' as const;
  const BASE = '/service-safe/vehicleScore';

  async function settingsAnswer(request: FastifyRequest, companyId: number | undefined) {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, companyId);
    const company = await targetCompany(storage, scope, companyId ?? ctx.user.companyId);
    const e = await effectiveSettings(storage, company);
    // The ancestor a setting is inherited from may lie above the caller's scope: its name is still shown.
    const fromName = e.from === null ? null : e.from.companyId === company.id ? company.name : (await storage.companies.get({ all: true }, e.from.companyId))?.name ?? null;
    return settingsView(e, company, fromName);
  }

  app.get(`${BASE}/setting`, { config: { permission: settingPage }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(await settingsAnswer(request, request.query.companyId), requestLang(request)));

  app.post(`${BASE}/setting`, {
    config: { permission: settingPage },
    schema: { body: Strict({ weights: PerCategoryNumber, thresholds: PerCategoryNumber }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const body = request.body;
    const settings: AppraisalSettings = { weights: body.weights, thresholds: body.thresholds };
    const problems = validateSettings(settings);
    if (problems.length > 0) throw fail.badRequest((l) => problems.map((p) => settingsProblemMessage(p, l)).join('；'));
    const scope = await narrowedScope(storage, ctx, body.companyId);
    const company = await targetCompany(storage, scope, body.companyId ?? ctx.user.companyId);
    await storage.transaction((tx) => tx.appraisal.saveSetting(company.id, settings, { id: ctx.user.id, name: ctx.user.realName || ctx.user.username }, Date.now()));
    return ok(await settingsAnswer(request, company.id), lang);
  });

  async function reportRows(request: FastifyRequest, p: { month?: string | undefined; companyId?: number | undefined; vehicleIds?: number[] | undefined; keyword?: string | undefined }) {
    const r = await rankCompany(storage, engine, request, p);
    // Filters narrow the list after ranking, so a vehicle keeps its rank within the company.
    const wanted = p.vehicleIds ? new Set(p.vehicleIds) : undefined;
    const keyword = p.keyword?.trim().toLowerCase() ?? '';
    const rows = r.rows.filter((x) => (!wanted || wanted.has(x.vehicleId)) && (keyword === '' || x.vehiidno.toLowerCase().includes(keyword)));
    const scored = r.rows.filter((x) => x.totalScore !== null);
    const averageScore = scored.length === 0 ? null : round1(scored.reduce((s, x) => s + x.totalScore!, 0) / scored.length);
    return { ...r, list: rows, averageScore, scoredCount: scored.length };
  }

  app.post(`${BASE}/checkReport`, { config: { permission: reportPage, audit: false }, schema: { body: CheckReportSchema } }, async (request) => {
    const p = request.body;
    const r = await reportRows(request, p);
    return ok({
      month: r.period.month, days: r.period.days, companyId: r.company.id, companyName: r.company.name,
      weights: r.settings.settings.weights, thresholds: r.settings.settings.thresholds,
      vehicles: r.rows.length, scoredVehicles: r.scoredCount, averageScore: r.averageScore,
      records: r.list.slice((p.current - 1) * p.size, p.current * p.size), total: r.list.length, current: p.current, size: p.size,
    }, requestLang(request));
  });

  // Dashboard panel (spec §9 "risk ranking top 5, score scaled 0-100 to one decimal"): the five lowest
  // scores of the month (default: the current one) among the selected company's scored vehicles.
  app.get(`${BASE}/riskRanking`, {
    config: { permission: '/home/index' },
    schema: { querystring: Strict({ month: MonthField, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: RISK_RANKING_SIZE })) }) },
  }, async (request) => {
    const q = request.query;
    const r = await rankCompany(storage, engine, request, { month: q.month ?? chinaMonth(engine.clock()), companyId: q.companyId });
    const riskiest = r.rows.filter((x) => x.totalScore !== null).sort((a, b) => a.totalScore! - b.totalScore! || a.vehiidno.localeCompare(b.vehiidno));
    return ok(riskiest.slice(0, q.limit ?? RISK_RANKING_SIZE).map((x) => ({ vehicleId: x.vehicleId, vehiidno: x.vehiidno, totalScore: x.totalScore, rank: x.rank })), requestLang(request));
  });

  app.post(`${BASE}/checkReport/excel`, { config: { permission: reportPage }, schema: { body: CheckReportSchema } }, async (request, reply) => {
    const lang = requestLang(request);
    const r = await reportRows(request, request.body);
    const name = lang === 'zh' ? `车辆考核报表-${r.period.month}` : `vehicle-appraisal-${r.period.month}`;
    const body = await xlsxBuffer(name, sheet(lang, r.settings.settings), r.list, lang);
    return sendXlsx(reply, body, name, `vehicle-appraisal-${r.period.month}`);
  });
}
