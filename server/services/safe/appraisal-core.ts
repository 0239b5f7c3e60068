/**
 * What the appraisal and analysis-report calls share: the settings in force for a company (its own
 * row, else the nearest ancestor's, else the defaults), the month's period, the vehicles of a scope,
 * and per-vehicle month figures — km and running days from the positioning rollup
 * (`report_vehicle_day` through ReportEngine, the rules of domain/track) and alarm counts per day
 * and type (`storage.appraisal.alarmDayCounts`). Scores come from domain/appraisal/rules.ts.
 */
import {
  APPRAISAL_CATEGORIES, categoryOf, checkMonth, DEFAULT_APPRAISAL_SETTINGS, emptyCounts, monthDays, monthProblemMessage, normalRunningDays,
  per100Km, scoreVehicle, type AppraisalCategory, type AppraisalSettings, type PerCategory, type ScoreRow,
} from '../../../domain/appraisal/rules.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { DayMetrics } from '../../../domain/track/daily-metrics.ts';
import { chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { AlarmDayCount, StoredAppraisalSetting } from '../../db/appraisal-types.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { pathInScope, type Scope } from '../../db/scope.ts';
import { fail } from '../../http/envelope.ts';
import type { ReportEngine } from '../reports/rollup.ts';

export interface EffectiveSettings {
  readonly companyId: number;
  readonly settings: AppraisalSettings;
  /** The company whose row is in force; null = the defaults. */
  readonly from: StoredAppraisalSetting | null;
}

/** Company ids on a materialised path `/1/3/12/`, root first. */
export const pathIds = (path: string): number[] => path.split('/').filter((s) => s !== '').map(Number);

export async function effectiveSettings(storage: Storage, company: { id: number; path: string }): Promise<EffectiveSettings> {
  const ids = pathIds(company.path);
  const rows = new Map((await storage.appraisal.settingsOf(ids)).map((r) => [r.companyId, r]));
  for (let k = ids.length - 1; k >= 0; k--) {
    const row = rows.get(ids[k]!);
    if (row) return { companyId: company.id, settings: row.settings, from: row };
  }
  return { companyId: company.id, settings: DEFAULT_APPRAISAL_SETTINGS, from: null };
}

export interface MonthPeriod {
  readonly month: string;
  readonly firstDay: number;
  /** The month's last day, cut at today (China time). */
  readonly lastDay: number;
  readonly days: number;
}

/** The assessment month, or a 400 with the spec's message ("an assessment month must be chosen"). */
export function monthPeriod(month: string | undefined, now: number): MonthPeriod {
  const problem = checkMonth(month, now);
  if (problem !== null) throw fail.badRequest((lang: Lang) => monthProblemMessage(problem, lang));
  const d = monthDays(month!)!;
  const lastDay = Math.min(d.lastDay, chinaDayIndex(now));
  return { month: month!, firstDay: d.firstDay, lastDay, days: Math.max(0, lastDay - d.firstDay + 1) };
}

/** The scope's vehicles (filtered by `vehicleIds` when given), by plate. */
export async function vehiclesIn(storage: Storage, scope: Scope, vehicleIds?: readonly number[]): Promise<VehicleLabel[]> {
  const wanted = vehicleIds ? new Set(vehicleIds) : undefined;
  const ids = (await storage.terminals.allVehicles())
    .filter((v) => pathInScope(scope, v.companyPath) && (!wanted || wanted.has(v.vehicleId)))
    .map((v) => v.vehicleId);
  const labels = await storage.terminals.labels(scope, ids);
  return [...labels.values()].sort((a, b) => a.vehiidno.localeCompare(b.vehiidno) || a.vehicleId - b.vehicleId);
}

export interface VehicleMonth {
  readonly vehicle: VehicleLabel;
  readonly days: readonly DayMetrics[];
  readonly alarms: readonly AlarmDayCount[];
}

/** Day metrics and alarm counts of each vehicle over the period. */
export async function monthFigures(storage: Storage, engine: ReportEngine, scope: Scope, vehicles: readonly VehicleLabel[], p: MonthPeriod): Promise<VehicleMonth[]> {
  if (p.days === 0 || vehicles.length === 0) return vehicles.map((vehicle) => ({ vehicle, days: [], alarms: [] }));
  const days = await engine.days(vehicles.map((v) => v.vehicleId), p.firstDay, p.lastDay);
  const counts = await storage.appraisal.alarmDayCounts(scope, chinaDayStartMs(p.firstDay), chinaDayStartMs(p.lastDay + 1));
  const byVehicle = new Map<number, AlarmDayCount[]>();
  for (const c of counts) {
    const list = byVehicle.get(c.vehicleId);
    if (list) list.push(c);
    else byVehicle.set(c.vehicleId, [c]);
  }
  return vehicles.map((vehicle) => ({ vehicle, days: days.get(vehicle.vehicleId) ?? [], alarms: byVehicle.get(vehicle.vehicleId) ?? [] }));
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;

export function categoryCounts(alarms: readonly AlarmDayCount[]): PerCategory<number> {
  const counts = emptyCounts();
  for (const a of alarms) {
    const c = categoryOf(a.alarmType);
    if (c) counts[c] += a.n;
  }
  return counts;
}


export function scoreRow(m: VehicleMonth, settings: AppraisalSettings): ScoreRow {
  const km = m.days.reduce((s, d) => s + d.mileageKm, 0);
  const counts = categoryCounts(m.alarms);
  const rates = Object.fromEntries(APPRAISAL_CATEGORIES.map((c) => [c, per100Km(counts[c], km)])) as PerCategory<number | null>;
  const normalDays = normalRunningDays(m.days);
  const score = scoreVehicle(counts, km, normalDays, settings);
  const v = m.vehicle;
  return {
    vehicleId: v.vehicleId, vehiidno: v.vehiidno, companyId: v.companyId, companyName: v.companyName, mileageKm: round2(km),
    normalDays, alarmCount: APPRAISAL_CATEGORIES.reduce((s, c: AppraisalCategory) => s + counts[c], 0),
    counts, rates, scores: score?.scores ?? null, totalScore: score?.totalScore ?? null,
  };
}

/** The company a call works on: `companyId` (in scope, else 403/404) or the caller's own. */
export async function targetCompany(storage: Storage, scope: Scope, companyId: number): Promise<{ id: number; name: string; path: string }> {
  const company = await storage.companies.get(scope, companyId);
  if (!company) throw fail.notFound();
  return { id: company.id, name: company.name, path: company.path };
}
