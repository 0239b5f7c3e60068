/**
 * Alarm statistics rules (issue 5 "alarm/statistics", "alarm/contrast"; server/API.md "Alarm
 * statistics"): the dimensions, the period rule, the day axis, driver attribution keys, the company
 * rollup and the comparison of two result sets. Pure: the server, the console and tests share them.
 */
import { chinaDateOfDay, chinaDayIndex } from '../track/days.ts';
import { alarmQueryEarliest } from './engine.ts';

export const STATS_DIMENSIONS = ['type', 'date', 'vehicle', 'driver', 'company'] as const;
export type StatsDimension = (typeof STATS_DIMENSIONS)[number];

/** What every statistics row counts. */
export interface StatCounts {
  /** Stored alarms (a merged repeat inside the 30-minute window is one alarm). */
  readonly count: number;
  /** Occurrences: the alarms' `count` summed (merged repeats included). */
  readonly occurrences: number;
  /** Alarms still in `dealStatus` 0 (not processed). */
  readonly unprocessed: number;
  /** Distinct vehicles that raised them. */
  readonly vehicles: number;
}

export const ZERO_COUNTS: StatCounts = Object.freeze({ count: 0, occurrences: 0, unprocessed: 0, vehicles: 0 });

export type StatsPeriodProblem = 'badRange' | 'tooOld';

/**
 * The statistics period follows the alarm query's rule (spec §5: only the last 3 months): a start
 * after the end, or a start older than three calendar months, is refused. The end may lie in the
 * future (a period "until the end of today"); days after today are left out of the day axis.
 */
export function statsPeriodProblem(startTime: number, endTime: number, now: number): StatsPeriodProblem | null {
  if (!Number.isFinite(startTime) || !Number.isFinite(endTime) || startTime > endTime) return 'badRange';
  if (startTime < alarmQueryEarliest(now)) return 'tooOld';
  return null;
}

/** The China days (`YYYY-MM-DD`, GMT+8) of a period, oldest first, cut at today. */
export function statsDays(startTime: number, endTime: number, now: number): string[] {
  const first = chinaDayIndex(startTime);
  const last = Math.min(chinaDayIndex(endTime), chinaDayIndex(now));
  const days: string[] = [];
  for (let d = first; d <= last; d++) days.push(chinaDateOfDay(d));
  return days;
}

/**
 * Driver attribution (no driver registry exists yet): an alarm belongs to the driver recorded on it
 * when it was raised — the qualification certificate number first (unique per driver, JT/T 808
 * 0x0702), else the name — and an alarm without an identified driver belongs to "the unidentified
 * driver of its vehicle", one bucket per vehicle, so unidentified alarms never merge across vehicles.
 */
export function driverKey(cert: string, name: string, vehicleId: number): string {
  if (cert !== '') return `c:${cert}`;
  if (name !== '') return `n:${name}`;
  return `v:${vehicleId}`;
}

export type ParsedDriverKey =
  | { readonly kind: 'cert'; readonly cert: string }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'vehicle'; readonly vehicleId: number };

/** Parses a key of `driverKey`; undefined when it is not one. */
export function parseDriverKey(key: string): ParsedDriverKey | undefined {
  const body = key.slice(2);
  if (key.startsWith('c:') && body !== '') return { kind: 'cert', cert: body };
  if (key.startsWith('n:') && body !== '') return { kind: 'name', name: body };
  if (key.startsWith('v:') && /^[1-9]\d{0,14}$/.test(body)) return { kind: 'vehicle', vehicleId: Number(body) };
  return undefined;
}

export interface RollupCompany {
  readonly id: number;
  readonly pid: number;
  readonly name: string;
  /** Materialised path `/1/3/12/`. */
  readonly path: string;
}

export interface RollupRow extends StatCounts {
  readonly companyId: number;
  readonly companyName: string;
  /** true: the parent's own vehicles only; false: the company's whole subtree. */
  readonly own: boolean;
  /** Child companies (0 = a leaf, nothing to drill into). */
  readonly childCount: number;
}

/**
 * Rolls per-company counts up to the children of `parent` (null: the given roots): one row per child
 * with its subtree's alarms, plus, for a parent, one `own` row for alarms of the parent's own
 * vehicles. Distinct vehicles are summed: a vehicle belongs to one company at a time, so it is only
 * counted twice when it moved between companies inside the period.
 */
export function rollupCompanies(
  companies: readonly RollupCompany[], perCompany: ReadonlyMap<number, StatCounts>, parent: RollupCompany | null,
): RollupRow[] {
  const children = parent === null
    ? companies.filter((c) => !companies.some((p) => p.id !== c.id && c.path.startsWith(p.path)))
    : companies.filter((c) => c.pid === parent.id);
  const childCount = (c: RollupCompany) => companies.filter((x) => x.pid === c.id).length;
  const add = (a: StatCounts, b: StatCounts): StatCounts => ({
    count: a.count + b.count, occurrences: a.occurrences + b.occurrences, unprocessed: a.unprocessed + b.unprocessed, vehicles: a.vehicles + b.vehicles,
  });
  const rows: RollupRow[] = [];
  if (parent !== null) {
    rows.push({ companyId: parent.id, companyName: parent.name, own: true, childCount: children.length, ...(perCompany.get(parent.id) ?? ZERO_COUNTS) });
  }
  for (const child of [...children].sort((a, b) => a.name.localeCompare(b.name, 'zh'))) {
    let sum = ZERO_COUNTS;
    for (const c of companies) if (c.path.startsWith(child.path)) sum = add(sum, perCompany.get(c.id) ?? ZERO_COUNTS);
    rows.push({ companyId: child.id, companyName: child.name, own: false, childCount: childCount(child), ...sum });
  }
  return rows;
}

export interface ContrastRow<R> {
  readonly key: string;
  readonly a: R | undefined;
  readonly b: R | undefined;
  readonly countA: number;
  readonly countB: number;
  /** countB − countA. */
  readonly delta: number;
  /** delta ÷ countA in percent, one decimal; null when A is 0 (no base to compare with). */
  readonly percent: number | null;
}

/** The change from A to B in percent, one decimal; null without a base. */
export function deltaPercent(countA: number, countB: number): number | null {
  if (countA === 0) return null;
  return Math.round(((countB - countA) / countA) * 1000) / 10;
}

/**
 * Lines up two result sets by key (A's order first, then keys only B has) with the change of
 * `count` from A to B. Rows absent on one side count 0 there. Two periods' day rows line up by
 * position (key = index: day 1 with day 1), every other dimension by its id.
 */
export function contrast<R extends { readonly count: number }>(a: readonly R[], b: readonly R[], keyOf: (row: R, index: number) => string): ContrastRow<R>[] {
  const byKeyB = new Map(b.map((r, i) => [keyOf(r, i), r]));
  const seen = new Set<string>();
  const rows: ContrastRow<R>[] = [];
  const push = (key: string, ra: R | undefined, rb: R | undefined) => {
    seen.add(key);
    const countA = ra?.count ?? 0;
    const countB = rb?.count ?? 0;
    rows.push({ key, a: ra, b: rb, countA, countB, delta: countB - countA, percent: deltaPercent(countA, countB) });
  };
  a.forEach((r, i) => {
    const key = keyOf(r, i);
    if (!seen.has(key)) push(key, r, byKeyB.get(key));
  });
  for (const [i, r] of b.entries()) {
    const key = keyOf(r, i);
    if (!seen.has(key)) push(key, undefined, r);
  }
  return rows;
}
