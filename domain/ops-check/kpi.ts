/**
 * Ops check KPIs (issue 19, /operation/operationManagement/opsCheckReport and opsCheckSetting): the pure
 * arithmetic of a company's monthly scorecard. The server measures the inputs from stored rows (day
 * rollups of positions, alarms with their handling time); this module turns them into values, compares
 * them with the company's targets and weighs them. No DOM, no Node.
 *
 * KPIs (design, the spec shows no fields):
 * - onlineRate (%): vehicle-days with at least one valid report / vehicle-days of the period
 *   (`vehicleDayOnlineRate`, domain/track/online-rate.ts; not the portrait's share of vehicles online). Higher is better.
 * - dataQuality (%): reports judged `pass` (not drift, not illegal, not at a discontinuity) / all reports.
 * - alarmHandlingMinutes: the p90 of minutes from an alarm's start to its handling, over the alarms that
 *   need an operator (auto-handled ones are the platform's rule, not the operator's work). An alarm still
 *   unhandled counts with the time it has waited until the period's end (or now): ignoring it would reward
 *   leaving the hard ones alone. Lower is better.
 * - alarmHandlingRate (%): handled / alarms that need an operator (domain/alarms/handling.ts: handled = left
 *   "unprocessed"; population `needsOperator` = all but the auto-processed, so handled here = by a person or invalid).
 *
 * Score: each judged KPI contributes its weight when it passes, else weight × achievement (value/target,
 * or target/value for a lower-is-better KPI), so a near miss scores more than a wide one. A KPI with no
 * data (no vehicles, no alarms) is not judged; the others' weights are scaled to 100.
 */
import type { Lang } from '../errors/catalogue.ts';
import type { PeriodMetrics } from '../track/daily-metrics.ts';
import { vehicleDayOnlineRate } from '../track/online-rate.ts';
import { chinaDayStartMs } from '../track/days.ts';

export const KPI_CODES = ['onlineRate', 'dataQuality', 'alarmHandlingMinutes', 'alarmHandlingRate'] as const;
export type KpiCode = (typeof KPI_CODES)[number];

export interface KpiDef {
  readonly code: KpiCode;
  readonly zh: string;
  readonly en: string;
  readonly unit: '%' | 'min';
  /** true: a value at or above target passes; false: at or below. */
  readonly higherIsBetter: boolean;
  /** Inclusive bounds of a target. */
  readonly min: number;
  readonly max: number;
  readonly defaultTarget: number;
  readonly defaultWeight: number;
}

export const KPI_DEFS: Readonly<Record<KpiCode, KpiDef>> = {
  onlineRate: { code: 'onlineRate', zh: '车辆上线率(车辆天)', en: 'Online rate (vehicle-days)', unit: '%', higherIsBetter: true, min: 0, max: 100, defaultTarget: 90, defaultWeight: 30 },
  dataQuality: { code: 'dataQuality', zh: '定位数据合格率', en: 'Positioning data quality', unit: '%', higherIsBetter: true, min: 0, max: 100, defaultTarget: 95, defaultWeight: 20 },
  alarmHandlingMinutes: {
    code: 'alarmHandlingMinutes', zh: '报警处理时长(P90)', en: 'Alarm handling time (p90)', unit: 'min', higherIsBetter: false, min: 1, max: 1440, defaultTarget: 30, defaultWeight: 20,
  },
  alarmHandlingRate: { code: 'alarmHandlingRate', zh: '报警处理率', en: 'Alarm handling rate', unit: '%', higherIsBetter: true, min: 0, max: 100, defaultTarget: 90, defaultWeight: 30 },
};

export interface KpiTarget {
  readonly code: KpiCode;
  readonly target: number;
  /** Whole points; the weights of one setting sum to 100. */
  readonly weight: number;
}

export const DEFAULT_TARGETS: readonly KpiTarget[] = KPI_CODES.map((code) => ({ code, target: KPI_DEFS[code].defaultTarget, weight: KPI_DEFS[code].defaultWeight }));

export const WEIGHT_TOTAL = 100;

const pair = (zh: string, en: string) => (lang: Lang) => (lang === 'zh' ? zh : en);

export const KpiMessages = {
  weightsSum: (sum: number) => pair(`各项权重之和必须为 ${WEIGHT_TOTAL}（当前 ${sum}）`, `The weights must add up to ${WEIGHT_TOTAL} (now ${sum})`),
  targetRange: (def: KpiDef) => pair(`${def.zh}的目标值须在 ${def.min}–${def.max} 之间`, `The target of ${def.en} must be between ${def.min} and ${def.max}`),
  weightRange: (def: KpiDef) => pair(`${def.zh}的权重须为 0–${WEIGHT_TOTAL} 的整数`, `The weight of ${def.en} must be a whole number 0–${WEIGHT_TOTAL}`),
  missing: (def: KpiDef) => pair(`缺少${def.zh}的设置`, `The setting of ${def.en} is missing`),
  duplicate: (def: KpiDef) => pair(`${def.zh}重复设置`, `${def.en} is set twice`),
  valueRange: (def: KpiDef) => pair(`${def.zh}的修正值须在 ${def.unit === '%' ? '0–100' : '0–44640'} 之间`, `The corrected ${def.en} must be between 0 and ${def.unit === '%' ? 100 : 44640}`),
} as const;

/** A problem with one entry of a setting: `index` into the submitted list (-1: the whole list). */
export interface TargetProblem {
  readonly index: number;
  readonly field: 'target' | 'weight' | 'code' | 'items';
  readonly message: (lang: Lang) => string;
}

/** The first problem of a submitted setting, or undefined when it can be stored. Every KPI must be present once. */
export function checkTargets(items: readonly { code: string; target: number; weight: number }[]): TargetProblem | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    const def = KPI_DEFS[it.code as KpiCode];
    if (!def) return { index: i, field: 'code', message: pair(`未知的考核指标：${it.code}`, `Unknown KPI: ${it.code}`) };
    if (seen.has(it.code)) return { index: i, field: 'code', message: KpiMessages.duplicate(def) };
    seen.add(it.code);
    if (!Number.isFinite(it.target) || it.target < def.min || it.target > def.max) return { index: i, field: 'target', message: KpiMessages.targetRange(def) };
    if (!Number.isInteger(it.weight) || it.weight < 0 || it.weight > WEIGHT_TOTAL) return { index: i, field: 'weight', message: KpiMessages.weightRange(def) };
  }
  for (const code of KPI_CODES) if (!seen.has(code)) return { index: -1, field: 'items', message: KpiMessages.missing(KPI_DEFS[code]) };
  const sum = items.reduce((s, it) => s + it.weight, 0);
  if (sum !== WEIGHT_TOTAL) return { index: -1, field: 'items', message: KpiMessages.weightsSum(sum) };
  return undefined;
}

/** Upper bound of a corrected value: a percentage, or minutes in a 31-day month. */
export function valueMax(code: KpiCode): number {
  return KPI_DEFS[code].unit === '%' ? 100 : 31 * 1440;
}

// ------------------------------------------------------------------ measuring

/**
 * The period's positioning sums: `sumMetrics` of domain/track/daily-metrics.ts over the vehicle-days (the same
 * sums /report/onlineControl shows), not a second adder.
 */
export type PeriodInput = Pick<PeriodMetrics, 'days' | 'onlineDays' | 'totalGps' | 'pass'>;

/** One alarm that needed an operator: start, and handling time (null while unhandled). */
export interface AlarmInput {
  readonly startTime: number;
  readonly dealTime: number | null;
}

/** Nearest-rank percentile (p in (0, 100]) of a list; undefined when empty. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The measured value of every KPI (null: no data to judge) from a company's period. */
export function measure(period: PeriodInput, alarms: readonly AlarmInput[], periodEnd: number): Record<KpiCode, number | null> {
  const waits: number[] = [];
  let handled = 0;
  for (const a of alarms) {
    const end = a.dealTime ?? periodEnd;
    if (a.dealTime !== null) handled++;
    waits.push(Math.max(0, end - a.startTime) / 60_000);
  }
  const p90 = percentile(waits, 90);
  const online = vehicleDayOnlineRate(period.onlineDays, period.days);
  return {
    onlineRate: online === null ? null : round2(online),
    dataQuality: period.totalGps === 0 ? null : round2((period.pass / period.totalGps) * 100),
    alarmHandlingMinutes: p90 === undefined ? null : round2(p90),
    alarmHandlingRate: alarms.length === 0 ? null : round2((handled / alarms.length) * 100),
  };
}

// ------------------------------------------------------------------ judging and weighing

export interface KpiResult {
  readonly code: KpiCode;
  readonly measured: number | null;
  /** An auditor's correction; when present it is the value judged. */
  readonly corrected: number | null;
  readonly target: number;
  readonly weight: number;
  /** null: no data, not judged. */
  readonly passed: boolean | null;
  /** Points earned, on the 100 scale after the unjudged KPIs' weights are shared out. */
  readonly score: number | null;
}

export function judged(code: KpiCode, value: number, target: number): boolean {
  return KPI_DEFS[code].higherIsBetter ? value >= target : value <= target;
}

/** Share of the target reached, in [0, 1]. */
export function achievement(code: KpiCode, value: number, target: number): number {
  if (judged(code, value, target)) return 1;
  if (KPI_DEFS[code].higherIsBetter) return target <= 0 ? 1 : Math.max(0, value / target);
  return value <= 0 ? 1 : Math.min(1, target / value);
}

export interface Scorecard {
  readonly items: readonly KpiResult[];
  /** 0–100; null when no KPI could be judged. */
  readonly total: number | null;
  readonly passed: number;
  readonly failed: number;
}

export function scorecard(
  values: Readonly<Record<KpiCode, { measured: number | null; corrected: number | null }>>,
  targets: readonly KpiTarget[],
): Scorecard {
  const judgedWeight = targets.reduce((s, t) => {
    const v = values[t.code];
    return s + ((v.corrected ?? v.measured) === null ? 0 : t.weight);
  }, 0);
  let total = 0;
  let passed = 0;
  let failed = 0;
  const items = targets.map((t): KpiResult => {
    const v = values[t.code];
    const value = v.corrected ?? v.measured;
    if (value === null) return { code: t.code, measured: v.measured, corrected: v.corrected, target: t.target, weight: t.weight, passed: null, score: null };
    const ok = judged(t.code, value, t.target);
    if (ok) passed++;
    else failed++;
    const score = judgedWeight === 0 ? 0 : round2((t.weight * WEIGHT_TOTAL / judgedWeight) * achievement(t.code, value, t.target));
    total += score;
    return { code: t.code, measured: v.measured, corrected: v.corrected, target: t.target, weight: t.weight, passed: ok, score };
  });
  return { items, total: passed + failed === 0 ? null : round2(total), passed, failed };
}

// ------------------------------------------------------------------ months

const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** First and last China day index of a `YYYY-MM` month, or undefined when it is not a month. */
export function monthDays(month: string): { firstDay: number; lastDay: number } | undefined {
  const m = MONTH_RE.exec(month);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const firstDay = Date.UTC(y, mo - 1, 1) / 86_400_000;
  const lastDay = Date.UTC(y, mo, 1) / 86_400_000 - 1;
  return { firstDay, lastDay };
}

/** `YYYY-MM` of a China day index. */
export function monthOfDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 7);
}

// ------------------------------------------------------------------ freezing a closed month

/**
 * Days after a month's last day during which its figures may still change: terminals resend the positions of
 * a blind area (JT/T 808 0x0704) when they reconnect, and alarms are still handled after midnight. Two days
 * cover a vehicle parked out of coverage over a weekend; a month is frozen only after them.
 */
export const FREEZE_GRACE_DAYS = 2;

/** Epoch ms from which a month's KPIs may be frozen: its end plus FREEZE_GRACE_DAYS (China days). */
export function freezesAt(month: string): number {
  const days = monthDays(month);
  if (!days) throw new Error(`not a month: ${month}`);
  return chinaDayStartMs(days.lastDay + 1 + FREEZE_GRACE_DAYS);
}

/**
 * Whether stored KPI rows of a month, computed at `computedTime`, are final: only rows computed after the
 * grace. Rows frozen earlier (partial data, or by a version without the grace) are recomputed.
 */
export function isFinal(month: string, computedTime: number): boolean {
  return computedTime >= freezesAt(month);
}
