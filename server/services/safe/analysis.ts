/**
 * Analysis reports (分析报告): the fleet (team) report of a company for a month and the single-vehicle
 * report, which needs MIN_NORMAL_RUNNING_DAYS normal running days (spec §8: "single-vehicle report
 * unavailable when too few normal running days"). server/API.md "Vehicle appraisal and analysis reports".
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { alarmName, groupOf } from '../../../domain/alarms/catalogue.ts';
import {
  APPRAISAL_CATEGORIES, categoryName, categoryOf, fewRunningDaysMessage, isNormalRunningDay, MIN_NORMAL_RUNNING_DAYS, per100Km, round1,
} from '../../../domain/appraisal/rules.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { chinaDateOfDay } from '../../../domain/track/days.ts';
import type { AlarmDayCount } from '../../db/appraisal-types.ts';
import type { Storage } from '../../db/repositories.ts';
import { auth } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Id, Strict, type App } from '../../http/route.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../reports/excel.ts';
import type { ReportEngine } from '../reports/rollup.ts';
import { categoryCounts, effectiveSettings, monthFigures, monthPeriod, round2, scoreRow, vehiclesIn, type MonthPeriod, type VehicleMonth } from './appraisal-core.ts';
import { rankCompany } from './appraisal.ts';
import { SafeMessages } from './messages.ts';

/** Top lists of the fleet report hold this many entries. */
export const TEAM_TOP = 10;

const MonthField = Type.Optional(Type.String({ maxLength: 7 }));

/** Alarms per China day over the period (every type, invalid ones excluded), index 0 = first day. */
function alarmsPerDay(alarms: readonly AlarmDayCount[], p: MonthPeriod): number[] {
  const out = new Array<number>(p.days).fill(0);
  for (const a of alarms) {
    const k = a.day - p.firstDay;
    if (k >= 0 && k < p.days) out[k]! += a.n;
  }
  return out;
}

function typeList(alarms: readonly AlarmDayCount[], lang: Lang, limit: number) {
  const byType = new Map<number, number>();
  for (const a of alarms) byType.set(a.alarmType, (byType.get(a.alarmType) ?? 0) + a.n);
  return [...byType].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit)
    .map(([alarmType, count]) => ({ alarmType, alarmName: alarmName(alarmType, lang), category: categoryOf(alarmType) ?? null, count }));
}

function categoryList(alarms: readonly AlarmDayCount[], km: number, lang: Lang, scores?: Record<string, number> | null) {
  const counts = categoryCounts(alarms);
  return APPRAISAL_CATEGORIES.map((c) => ({
    category: c, name: categoryName(c, lang), count: counts[c], per100Km: per100Km(counts[c], km), ...(scores === undefined ? {} : { score: scores?.[c] ?? null }),
  }));
}

const TEAM_DAY_SHEET: SheetColumn<{ date: string; alarms: number; mileageKm: number; per100Km: number | null; runningVehicles: number }>[] = [
  { header: ['日期', 'Date'], value: (r) => r.date, width: 12 },
  { header: ['报警数', 'Alarms'], value: (r) => r.alarms },
  { header: ['里程(km)', 'Mileage (km)'], value: (r) => r.mileageKm },
  { header: ['报警/百公里', 'Alarms per 100 km'], value: (r) => r.per100Km ?? '-', width: 16 },
  { header: ['正常运行车辆数', 'Vehicles running normally'], value: (r) => r.runningVehicles, width: 18 },
];

function vehicleDaySheet(lang: Lang): SheetColumn<{ date: string; alarms: number; mileageKm: number; online: boolean; operation: boolean; normal: boolean }>[] {
  const yes = (b: boolean) => (lang === 'zh' ? (b ? '是' : '否') : b ? 'Yes' : 'No');
  return [
    { header: ['日期', 'Date'], value: (r) => r.date, width: 12 },
    { header: ['报警数', 'Alarms'], value: (r) => r.alarms },
    { header: ['里程(km)', 'Mileage (km)'], value: (r) => r.mileageKm },
    { header: ['上线', 'Online'], value: (r) => yes(r.online) },
    { header: ['营运', 'Operated'], value: (r) => yes(r.operation) },
    { header: ['正常运行', 'Normal running'], value: (r) => yes(r.normal), width: 16 },
  ];
}

export function analysisRoutes(app: App, deps: { storage: Storage; engine: ReportEngine }): void {
  const { storage, engine } = deps;
  const BASE = '/service-safe/analysisReport';

  async function teamReport(request: FastifyRequest, body: { month?: string | undefined; companyId?: number | undefined }, lang: Lang) {
    const r = await rankCompany(storage, engine, request, body);
    const all = r.figures.flatMap((m) => m.alarms);
    const km = r.figures.reduce((s, m) => s + m.days.reduce((t, d) => t + d.mileageKm, 0), 0);
    const total = all.reduce((s, a) => s + a.n, 0);
    const groups = new Map<number, number>();
    for (const a of all) {
      const g = groupOf(a.alarmType) ?? 0;
      groups.set(g, (groups.get(g) ?? 0) + a.n);
    }
    const perDay = alarmsPerDay(all, r.period);
    const kmPerDay = new Array<number>(r.period.days).fill(0);
    const activePerDay = new Array<number>(r.period.days).fill(0);
    for (const m of r.figures) {
      m.days.forEach((d, k) => {
        kmPerDay[k]! += d.mileageKm;
        if (isNormalRunningDay(d)) activePerDay[k]! += 1;
      });
    }
    const scored = r.rows.filter((x) => x.totalScore !== null);
    return {
      month: r.period.month, days: r.period.days, companyId: r.company.id, companyName: r.company.name,
      vehicles: r.rows.length, activeVehicles: r.rows.filter((x) => x.mileageKm > 0).length, scoredVehicles: scored.length,
      mileageKm: round2(km), alarms: total, per100Km: per100Km(total, km),
      averageScore: scored.length === 0 ? null : round1(scored.reduce((s, x) => s + x.totalScore!, 0) / scored.length),
      groups: [...groups].sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .map(([group, count]) => ({ group, name: group === 0 ? (lang === 'zh' ? '其他' : 'Other') : alarmName(group, lang), count, per100Km: per100Km(count, km) })),
      categories: categoryList(all, km, lang),
      daily: perDay.map((alarms, k) => ({
        date: chinaDateOfDay(r.period.firstDay + k), alarms, mileageKm: round2(kmPerDay[k]!), per100Km: per100Km(alarms, kmPerDay[k]!), runningVehicles: activePerDay[k]!,
      })),
      topTypes: typeList(all, lang, TEAM_TOP),
      // Riskiest first: the lowest scores (the ranking's tail), then the most alarms among the unscored.
      riskyVehicles: [...scored].sort((a, b) => a.totalScore! - b.totalScore! || b.alarmCount - a.alarmCount).slice(0, TEAM_TOP)
        .map((x) => ({ vehicleId: x.vehicleId, vehiidno: x.vehiidno, companyName: x.companyName, totalScore: x.totalScore, rank: x.rank, alarmCount: x.alarmCount, mileageKm: x.mileageKm })),
    };
  }

  const teamPermission = '/safeManagement/analysisReport/teamReport' as const;
  const TeamBody = Strict({ month: MonthField });
  app.post(`${BASE}/teamReport`, { config: { permission: teamPermission, audit: false }, schema: { body: TeamBody } }, async (request) => {
    const lang = requestLang(request);
    return ok(await teamReport(request, request.body, lang), lang);
  });
  // The day-by-day table of the fleet report (one sheet; the other figures are sums of it or of the appraisal report).
  app.post(`${BASE}/teamReport/excel`, { config: { permission: teamPermission }, schema: { body: TeamBody } }, async (request, reply) => {
    const lang = requestLang(request);
    const r = await teamReport(request, request.body, lang);
    const name = lang === 'zh' ? `车队报告-${r.companyName}-${r.month}` : `fleet-report-${r.month}`;
    const body = await xlsxBuffer(`${r.month}`, TEAM_DAY_SHEET, r.daily, lang);
    return sendXlsx(reply, body, name, `fleet-report-${r.month}`);
  });

  /** The single-vehicle report (`analysisReport/vehicleReport`, and the catalogue's `getSingleVehicleReport`). */
  async function vehicleReport(request: FastifyRequest, q: { vehicleId: number; month?: string | undefined }, lang: Lang) {
    const ctx = auth(request);
    const period = monthPeriod(q.month, engine.clock());
    const [vehicle] = await vehiclesIn(storage, ctx.scope, [q.vehicleId]);
    if (!vehicle) throw fail.notFound(SafeMessages.vehicleNotFound);
    const [own] = await monthFigures(storage, engine, ctx.scope, [vehicle], period) as [VehicleMonth];
    const normalDays = own.days.filter(isNormalRunningDay).length;
    if (normalDays < MIN_NORMAL_RUNNING_DAYS) throw fail.conflict((l) => fewRunningDaysMessage(normalDays, l));
    // Scored and ranked with the settings of the vehicle's company, among that company's vehicles.
    const company = (await storage.companies.get(ctx.scope, vehicle.companyId))!;
    const ranked = await rankCompany(storage, engine, request, { month: q.month, companyId: company.id }, [own]);
    const row = ranked.rows.find((x) => x.vehicleId === vehicle.vehicleId) ?? { ...scoreRow(own, (await effectiveSettings(storage, company)).settings), rank: null };
    const perDay = alarmsPerDay(own.alarms, period);
    return {
      month: period.month, days: period.days, vehicleId: vehicle.vehicleId, vehiidno: vehicle.vehiidno, deviceNo: vehicle.deviceNo,
      companyId: vehicle.companyId, companyName: vehicle.companyName,
      normalDays, minNormalDays: MIN_NORMAL_RUNNING_DAYS,
      onlineDays: own.days.filter((d) => d.online).length, operationDays: own.days.filter((d) => d.operation).length,
      mileageKm: row.mileageKm, alarms: perDay.reduce((s, n) => s + n, 0), per100Km: per100Km(perDay.reduce((s, n) => s + n, 0), row.mileageKm),
      weights: ranked.settings.settings.weights, thresholds: ranked.settings.settings.thresholds,
      scores: row.scores, totalScore: row.totalScore, rank: row.rank, rankOf: ranked.rows.filter((x) => x.totalScore !== null).length,
      categories: categoryList(own.alarms, row.mileageKm, lang, row.scores),
      daily: own.days.map((d, k) => ({ date: d.date, alarms: perDay[k] ?? 0, mileageKm: round2(d.mileageKm), online: d.online, operation: d.operation, normal: isNormalRunningDay(d) })),
      types: typeList(own.alarms, lang, Infinity),
    };
  }

  const VehicleQuery = Strict({ vehicleId: Id, month: MonthField });
  const vehiclePermission = '/safeManagement/analysisReport/vehicleReport' as const;
  const answer = async (request: FastifyRequest<{ Querystring: { vehicleId: number; month?: string } }>) => {
    const lang = requestLang(request);
    return ok(await vehicleReport(request, request.query, lang), lang);
  };
  app.get(`${BASE}/vehicleReport`, { config: { permission: vehiclePermission }, schema: { querystring: VehicleQuery } }, answer);
  // The catalogue's screen-service name for the same report (service-safesheet).
  app.get('/service-safesheet/report/getSingleVehicleReport', { config: { permission: vehiclePermission }, schema: { querystring: VehicleQuery } }, answer);
  app.get(`${BASE}/vehicleReport/excel`, { config: { permission: vehiclePermission }, schema: { querystring: VehicleQuery } }, async (request, reply) => {
    const lang = requestLang(request);
    const r = await vehicleReport(request, request.query, lang);
    const name = lang === 'zh' ? `单车报告-${r.vehiidno}-${r.month}` : `vehicle-report-${r.vehiidno}-${r.month}`;
    const body = await xlsxBuffer(r.month, vehicleDaySheet(lang), r.daily, lang);
    return sendXlsx(reply, body, name, `vehicle-report-${r.vehicleId}-${r.month}`);
  });
}
