/**
 * The customer portrait (客户画像, /safeManagement/customerPortrait): a company's month in figures, from
 * rows the server reads (report days, alarms, appraisal scores). Pure, so a hand-computed fixture checks
 * every figure (portrait.test.ts). Definitions (also in server/API.md "Customer portrait"):
 * - online rate (上线率) = vehicles online on at least one day of the month ÷ vehicles, percent, one decimal
 *   (`vehicleOnlineRate`, domain/track/online-rate.ts: a share of vehicles, not the ops check's vehicle-days);
 * - mileage = Σ the vehicles' day mileage (km, two decimals);
 * - alarms exclude those marked invalid (a false alarm is not risk); per 100 km = alarms ÷ km × 100;
 * - handling rate = alarms handled (automatically or by a person) ÷ alarms, percent, one decimal (domain/alarms/handling.ts:
 *   handled = left "unprocessed", among the population `risk`, which leaves out the invalid ones);
 * - safety score = mean of the vehicles' appraisal totals (domain/appraisal) among those scored (one decimal);
 *   vehicles too little driven to score do not pull it down;
 * - risky vehicles: most alarms per 100 km first (vehicles without km but with alarms after them, by count);
 *   risky drivers: most alarms first, then most high-risk ones.
 */

import { vehicleOnlineRate } from '../track/online-rate.ts';

export const TOP_N = 5;
export const TREND_MONTHS = 6;

export interface PortraitVehicleDay { readonly online: boolean; readonly mileageKm: number }
export interface PortraitVehicle {
  readonly vehicleId: number;
  readonly vehiidno: string;
  readonly days: readonly PortraitVehicleDay[];
  /** Alarms (not invalid) of the month and those of them high risk. */
  readonly alarms: number;
  readonly highRisk: number;
  /** The appraisal total, null when not scored. */
  readonly score: number | null;
}
export interface PortraitTypeCount { readonly alarmType: number; readonly n: number; readonly handled: number }
export interface PortraitDriver { readonly cert: string; readonly name: string; readonly alarms: number; readonly highRisk: number }
export interface PortraitMonthInput {
  readonly month: string;
  /** Per vehicle of the company: km and online flags of the month's days. */
  readonly vehicleDays: readonly { readonly days: readonly PortraitVehicleDay[] }[];
  readonly alarms: number;
  readonly handled: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
export const percent = (part: number, whole: number): number | null => (whole > 0 ? round1((part / whole) * 100) : null);
const rate1 = (x: number | null): number | null => (x === null ? null : round1(x));
export const per100 = (n: number, km: number): number | null => (km > 0 ? round2((n / km) * 100) : null);
const kmOf = (days: readonly PortraitVehicleDay[]) => days.reduce((s, d) => s + d.mileageKm, 0);

export interface MonthFigures {
  readonly month: string;
  readonly vehicles: number;
  readonly onlineVehicles: number;
  readonly onlineRate: number | null;
  readonly mileageKm: number;
  readonly alarms: number;
  readonly alarmsPer100Km: number | null;
  readonly handled: number;
  readonly handlingRate: number | null;
}

export function monthFigures(m: PortraitMonthInput): MonthFigures {
  const vehicles = m.vehicleDays.length;
  const onlineVehicles = m.vehicleDays.filter((v) => v.days.some((d) => d.online)).length;
  const km = m.vehicleDays.reduce((s, v) => s + kmOf(v.days), 0);
  return {
    month: m.month, vehicles, onlineVehicles, onlineRate: rate1(vehicleOnlineRate(onlineVehicles, vehicles)), mileageKm: round2(km),
    alarms: m.alarms, alarmsPer100Km: per100(m.alarms, km), handled: m.handled, handlingRate: percent(m.handled, m.alarms),
  };
}

export interface Portrait extends MonthFigures {
  readonly safetyScore: number | null;
  readonly scoredVehicles: number;
  readonly byType: readonly { alarmType: number; n: number; per100Km: number | null; handlingRate: number | null }[];
  readonly riskyVehicles: readonly { vehicleId: number; vehiidno: string; mileageKm: number; alarms: number; highRisk: number; per100Km: number | null; score: number | null }[];
  readonly riskyDrivers: readonly PortraitDriver[];
}

export function portraitFigures(month: string, vehicles: readonly PortraitVehicle[], types: readonly PortraitTypeCount[], drivers: readonly PortraitDriver[]): Portrait {
  const alarms = types.reduce((s, t) => s + t.n, 0);
  const handled = types.reduce((s, t) => s + t.handled, 0);
  const base = monthFigures({ month, vehicleDays: vehicles, alarms, handled });
  const km = vehicles.reduce((s, v) => s + kmOf(v.days), 0);
  const scored = vehicles.filter((v) => v.score !== null);
  const safetyScore = scored.length > 0 ? round1(scored.reduce((s, v) => s + v.score!, 0) / scored.length) : null;
  const byType = [...types].filter((t) => t.n > 0).sort((a, b) => b.n - a.n || a.alarmType - b.alarmType)
    .map((t) => ({ alarmType: t.alarmType, n: t.n, per100Km: per100(t.n, km), handlingRate: percent(t.handled, t.n) }));
  const riskyVehicles = vehicles.filter((v) => v.alarms > 0)
    .map((v) => { const vkm = kmOf(v.days); return { vehicleId: v.vehicleId, vehiidno: v.vehiidno, mileageKm: round2(vkm), alarms: v.alarms, highRisk: v.highRisk, per100Km: per100(v.alarms, vkm), score: v.score }; })
    .sort((a, b) => (a.per100Km === null ? 1 : 0) - (b.per100Km === null ? 1 : 0) || (b.per100Km ?? 0) - (a.per100Km ?? 0) || b.alarms - a.alarms || a.vehicleId - b.vehicleId)
    .slice(0, TOP_N);
  const riskyDrivers = drivers.filter((d) => d.alarms > 0)
    .sort((a, b) => b.alarms - a.alarms || b.highRisk - a.highRisk || a.name.localeCompare(b.name))
    .slice(0, TOP_N);
  return { ...base, safetyScore, scoredVehicles: scored.length, byType, riskyVehicles, riskyDrivers };
}

/** `YYYY-MM` months ending with `month`, oldest first. */
export function trendMonths(month: string, n = TREND_MONTHS): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const out: string[] = [];
  for (let k = n - 1; k >= 0; k--) {
    const idx = y * 12 + (m - 1) - k;
    out.push(`${Math.floor(idx / 12)}-${String((idx % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}
