/**
 * Vehicle appraisal (车辆考核, spec 001 §3 "Appraisal scores", §9 "weights in percent, thresholds in
 * alarms per 100 km"): which alarms count against which of the five categories, the company's
 * settings and their validation, a vehicle's monthly score, the ranking, and the "normal running
 * days" a single-vehicle report needs. Pure: the server, the console and tests share it.
 *
 * Scoring (documented for users in server/API.md "Vehicle appraisal and analysis reports"):
 * - rate_c = alarms of category c in the month ÷ km driven in the month × 100 (alarms per 100 km).
 * - score_c = 100 × max(0, 1 − rate_c ÷ threshold_c): 100 with no alarms, 0 at or above the threshold,
 *   linear between. A threshold of 0 means "no tolerance": any alarm scores 0.
 * - total = Σ weight_c × score_c ÷ 100 (weights are whole percent summing to 100), one decimal;
 *   category scores are shown to one decimal too (the total uses the unrounded ones).
 * - A vehicle without mileage in the month has no rate, and one with fewer than MIN_NORMAL_RUNNING_DAYS
 *   normal running days too little driving to judge (a few hundred metres without an alarm would score
 *   100 and top the ranking): both are listed, not scored, not ranked.
 * - Rank: by total descending, ties share a rank and the next rank skips (1, 2, 2, 4).
 */
import type { Lang } from '../errors/catalogue.ts';
import { chinaDateOfDay, chinaDayIndex } from '../track/days.ts';

export const APPRAISAL_CATEGORIES = ['drivingSkill', 'drivingBehaviour', 'trafficViolation', 'trafficAccident', 'vehicleOperation'] as const;
export type AppraisalCategory = (typeof APPRAISAL_CATEGORIES)[number];
export type PerCategory<T> = Record<AppraisalCategory, T>;

export const CATEGORY_NAMES: PerCategory<readonly [zh: string, en: string]> = {
  drivingSkill: ['驾驶技能', 'Driving skill'],
  drivingBehaviour: ['驾驶行为', 'Driving behaviour'],
  trafficViolation: ['交通违法', 'Traffic violation'],
  trafficAccident: ['交通事故', 'Traffic accident'],
  vehicleOperation: ['车辆运行', 'Vehicle operation'],
};

export const categoryName = (c: AppraisalCategory, lang: Lang): string => CATEGORY_NAMES[c][lang === 'zh' ? 0 : 1];

/**
 * Accident-type codes: collision and rollover warnings (808 bits 29, 30), the accident alarm, and AEB
 * braking (the vehicle had to brake for an imminent collision). Checked before the group rules.
 */
export const ACCIDENT_CODES: ReadonlySet<number> = new Set([18005, 18006, 17007, 82003, 82004]);
/** Group 10 items that are events (captures, driver change), not risky behaviour. */
export const EVENT_CODES: ReadonlySet<number> = new Set([10014, 10015, 10018, 10019]);
/** Group 17 codes that describe the driver's conduct (danger warning, illegal driving). */
const BEHAVIOUR_GENERAL: ReadonlySet<number> = new Set([17002, 17003]);
/** Group 17 codes about the vehicle's condition (theft, illegal ignition/displacement, battery, removal). */
const OPERATION_GENERAL: ReadonlySet<number> = new Set([17004, 17005, 17006, 17008, 17009]);

/**
 * The category an alarm type counts in, or undefined when it counts in none (group headings, events,
 * emergency button, business groups such as sanitation, temperature, patrol, slag truck, AEB state).
 * - driving skill: intense driving (group 18: harsh acceleration, braking, turns, idling, coasting…)
 * - driving behaviour: DMS/ADAS risky behaviour and driving-time alarms (group 10 without events),
 *   blind-area warnings (14), danger warning and illegal driving (17002, 17003), AEB warning (82001)
 * - traffic violation: speeding (12), fences and routes (13), traffic violations (90)
 * - traffic accident: `ACCIDENT_CODES`
 * - vehicle operation: running condition incl. offline (11), hardware faults (15), tyres (16), the
 *   vehicle-condition alarms of group 17
 */
export function categoryOf(alarmType: number): AppraisalCategory | undefined {
  if (ACCIDENT_CODES.has(alarmType)) return 'trafficAccident';
  if (EVENT_CODES.has(alarmType)) return undefined;
  if (BEHAVIOUR_GENERAL.has(alarmType) || alarmType === 82001) return 'drivingBehaviour';
  if (OPERATION_GENERAL.has(alarmType)) return 'vehicleOperation';
  if (alarmType < 10_000 || alarmType >= 100_000) return undefined;
  switch (Math.floor(alarmType / 1000)) {
    case 18: return 'drivingSkill';
    case 10: case 14: return 'drivingBehaviour';
    case 12: case 13: case 90: return 'trafficViolation';
    case 11: case 15: case 16: return 'vehicleOperation';
    default: return undefined;
  }
}

export interface AppraisalSettings {
  /** Whole percent, summing to 100. */
  readonly weights: PerCategory<number>;
  /** Alarms per 100 km at which the category scores 0. */
  readonly thresholds: PerCategory<number>;
}

/** Used until a company (or an ancestor) saves its own. Accidents weigh most per alarm (threshold 1). */
export const DEFAULT_APPRAISAL_SETTINGS: AppraisalSettings = Object.freeze({
  weights: Object.freeze({ drivingSkill: 20, drivingBehaviour: 30, trafficViolation: 20, trafficAccident: 20, vehicleOperation: 10 }),
  thresholds: Object.freeze({ drivingSkill: 10, drivingBehaviour: 10, trafficViolation: 5, trafficAccident: 1, vehicleOperation: 5 }),
});

export const MAX_THRESHOLD = 10_000;

export type SettingsProblem =
  | { readonly kind: 'weightInvalid'; readonly field: string }
  | { readonly kind: 'weightSum'; readonly field: 'weights'; readonly sum: number }
  | { readonly kind: 'thresholdInvalid'; readonly field: string };

/** Every problem of a settings object, in category order; empty when it can be saved. */
export function validateSettings(s: AppraisalSettings): SettingsProblem[] {
  const out: SettingsProblem[] = [];
  let sum = 0;
  for (const c of APPRAISAL_CATEGORIES) {
    const w = s.weights[c];
    if (!Number.isInteger(w) || w < 0 || w > 100) out.push({ kind: 'weightInvalid', field: `weights.${c}` });
    else sum += w;
  }
  if (out.length === 0 && sum !== 100) out.push({ kind: 'weightSum', field: 'weights', sum });
  for (const c of APPRAISAL_CATEGORIES) {
    const t = s.thresholds[c];
    // Two decimals at most: the form edits hundredths, and a stored value reads back as typed.
    if (!Number.isFinite(t) || t < 0 || t > MAX_THRESHOLD || Math.round(t * 100) !== t * 100) out.push({ kind: 'thresholdInvalid', field: `thresholds.${c}` });
  }
  return out;
}

function fieldLabel(field: string, lang: Lang): string {
  const [part, c] = field.split('.') as [string, AppraisalCategory | undefined];
  const what = part === 'weights' ? (lang === 'zh' ? '权重' : 'weight') : lang === 'zh' ? '阈值' : 'threshold';
  if (c === undefined || !(c in CATEGORY_NAMES)) return what;
  return lang === 'zh' ? `${categoryName(c, lang)}${what}` : `${categoryName(c, lang)} ${what}`;
}

export function settingsProblemMessage(p: SettingsProblem, lang: Lang): string {
  const label = fieldLabel(p.field, lang);
  switch (p.kind) {
    case 'weightInvalid':
      return lang === 'zh' ? `${label}（${p.field}）须为0到100的整数（%）` : `The ${label} (${p.field}) must be a whole percent from 0 to 100`;
    case 'weightSum':
      return lang === 'zh' ? `各项权重之和须为100%，当前为${p.sum}%` : `The weights must add up to 100%; they add up to ${p.sum}%`;
    case 'thresholdInvalid':
      return lang === 'zh'
        ? `${label}（${p.field}）须为0到${MAX_THRESHOLD}之间的数（次/百公里，最多两位小数）`
        : `The ${label} (${p.field}) must be a number from 0 to ${MAX_THRESHOLD} (alarms per 100 km, at most two decimals)`;
  }
}

export const round1 = (x: number): number => Math.round(x * 10) / 10;
const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Alarms per 100 km to two decimals; null without mileage. */
export function per100Km(count: number, km: number): number | null {
  return km > 0 ? round2((count / km) * 100) : null;
}

/** One category's score, unrounded (see the module comment). */
export function categoryScore(count: number, km: number, threshold: number): number {
  if (count <= 0) return 100;
  if (!(km > 0) || threshold <= 0) return 0;
  const rate = (count / km) * 100;
  return Math.max(0, 100 * (1 - rate / threshold));
}

export interface VehicleScore {
  /** One decimal each. */
  readonly scores: PerCategory<number>;
  /** One decimal. */
  readonly totalScore: number;
}

/**
 * The month's score of a vehicle from its alarm counts per category, its km and its normal running
 * days; null (not assessed) without km or with fewer than MIN_NORMAL_RUNNING_DAYS normal days.
 */
export function scoreVehicle(counts: PerCategory<number>, km: number, normalDays: number, s: AppraisalSettings): VehicleScore | null {
  if (!(km > 0) || normalDays < MIN_NORMAL_RUNNING_DAYS) return null;
  let total = 0;
  const scores = {} as Record<AppraisalCategory, number>;
  for (const c of APPRAISAL_CATEGORIES) {
    const score = categoryScore(counts[c], km, s.thresholds[c]);
    scores[c] = round1(score);
    total += (s.weights[c] * score) / 100;
  }
  return { scores, totalScore: round1(total) };
}

/** One vehicle's month as the appraisal calls answer it (server and console share the shape). */
export interface ScoreRow {
  vehicleId: number;
  vehiidno: string;
  companyId: number;
  companyName: string;
  mileageKm: number;
  normalDays: number;
  /** Alarms counted in the five categories. */
  alarmCount: number;
  counts: PerCategory<number>;
  /** Per 100 km, two decimals; null without km. */
  rates: PerCategory<number | null>;
  /** One decimal each; null when not assessed (no km, or too few normal running days). */
  scores: PerCategory<number> | null;
  totalScore: number | null;
}

/** A ScoreRow with its place in the ranking (null when not assessed). */
export interface RankedRow extends ScoreRow {
  rank: number | null;
}

export function emptyCounts(): PerCategory<number> {
  return { drivingSkill: 0, drivingBehaviour: 0, trafficViolation: 0, trafficAccident: 0, vehicleOperation: 0 };
}

/**
 * Ranks by total descending: ties share a rank, the next rank skips ("1, 2, 2, 4"); unscored rows
 * (null) get rank null and go last. Equal totals keep their input order (callers sort by plate first).
 */
export function rankByScore<T extends { readonly totalScore: number | null }>(rows: readonly T[]): (T & { rank: number | null })[] {
  const order = rows.map((r, i) => ({ r, i })).sort((a, b) => {
    const x = a.r.totalScore;
    const y = b.r.totalScore;
    if (x === null || y === null) return x === y ? a.i - b.i : x === null ? 1 : -1;
    return y - x || a.i - b.i;
  });
  let rank = 0;
  let previous: number | null = null;
  return order.map(({ r }, k) => {
    if (r.totalScore === null) return { ...r, rank: null };
    if (r.totalScore !== previous) rank = k + 1;
    previous = r.totalScore;
    return { ...r, rank };
  });
}

/**
 * Normal running day: the device was online (≥ 1 position that day) and the vehicle operated (≥ 1 km,
 * spec §9 "operation day") — the day's data can judge driving. The single-vehicle report needs at
 * least MIN_NORMAL_RUNNING_DAYS of them in the month, else its figures would rest on too little.
 */
export const MIN_NORMAL_RUNNING_DAYS = 3;

export const isNormalRunningDay = (d: { readonly online: boolean; readonly operation: boolean }): boolean => d.online && d.operation;

export function normalRunningDays(days: readonly { readonly online: boolean; readonly operation: boolean }[]): number {
  return days.filter(isNormalRunningDay).length;
}

export function fewRunningDaysMessage(normalDays: number, lang: Lang): string {
  return lang === 'zh'
    ? `该车辆正常运行天数过少（所选月份${normalDays}天，至少需要${MIN_NORMAL_RUNNING_DAYS}天），无法生成单车报告`
    : `The single-vehicle report is unavailable: the vehicle has too few normal running days (${normalDays} in the chosen month, at least ${MIN_NORMAL_RUNNING_DAYS} needed)`;
}

/**
 * Assessment months go back this many months before the current one. The spec's single-vehicle
 * report message says 6 months in Chinese and 3 in English; we take 6 and say 6 in both languages.
 */
export const APPRAISAL_MAX_MONTHS_BACK = 6;

export type MonthProblem = 'missing' | 'invalid' | 'future' | 'tooOld';

/** The China day indices [firstDay, lastDay] of a `YYYY-MM` month, or undefined when it is not one. */
export function monthDays(month: string): { firstDay: number; lastDay: number } | undefined {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  if (mo < 1 || mo > 12 || y < 1970) return undefined;
  return { firstDay: Date.UTC(y, mo - 1, 1) / 86_400_000, lastDay: Date.UTC(y, mo, 0) / 86_400_000 };
}

/** The China month `YYYY-MM` of an instant. */
export function chinaMonth(timeMs: number): string {
  return chinaDateOfDay(chinaDayIndex(timeMs)).slice(0, 7);
}

/** Month index (year × 12 + month − 1) of `YYYY-MM`. */
const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

/** Why an assessment month cannot be used now, or null. The current month is allowed (up to today). */
export function checkMonth(month: string | undefined | null, now: number): MonthProblem | null {
  if (month === undefined || month === null || month.trim() === '') return 'missing';
  if (monthDays(month) === undefined) return 'invalid';
  const current = monthIndex(chinaMonth(now));
  const asked = monthIndex(month);
  if (asked > current) return 'future';
  if (asked < current - APPRAISAL_MAX_MONTHS_BACK) return 'tooOld';
  return null;
}

export function monthProblemMessage(p: MonthProblem, lang: Lang): string {
  const zh = lang === 'zh';
  switch (p) {
    case 'missing': return zh ? '请选择考核月份' : 'Please choose an assessment month';
    case 'invalid': return zh ? '考核月份（month）格式应为YYYY-MM' : 'The assessment month (month) must be YYYY-MM';
    case 'future': return zh ? '考核月份不能晚于当前月份' : 'The assessment month cannot be after the current month';
    case 'tooOld':
      return zh ? `只能查询最近${APPRAISAL_MAX_MONTHS_BACK}个月的考核` : `Only the last ${APPRAISAL_MAX_MONTHS_BACK} months can be assessed`;
  }
}
