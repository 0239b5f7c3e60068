/**
 * The operation dashboard's rules (spec §2 "Operation dashboard", §4, §6, §8, §9): refresh cadences,
 * the 7-day window, driving time, risk scores, device-health alarm sets and panel click targets.
 * Pure: the server computes with them, the console and the walls display with them.
 */
import { chinaDayIndex, chinaDayStartMs, chinaDateOfDay, DAY_MS } from '../track/days.ts';

/** Spec §9: the first-time guide's version; a user who entered or ignored this version is not shown it again. */
export const GUIDE_VERSION = '3.2.1';
/** The guide module of the dashboard (guideModule of the guide record, spec §3). */
export const GUIDE_MODULE = 'home';
/** stepName of the record that closes the guide: the user entered the system or ignored the guide. */
export const GUIDE_DONE_STEPS = ['enter', 'ignore'] as const;
/** Spec §4: the online panel refreshes every 30 s. */
export const ONLINE_REFRESH_MS = 30_000;
/** Spec §4: the map's alarm count every 60 s; polling stops on error. */
export const ALARM_REFRESH_MS = 60_000;
/** Spec §4: the loading overlay shows at most 3.5 s. */
export const LOADING_MAX_MS = 3_500;
/** Spec §9: the online-rate panel shows only while the fleet is under 10,000 vehicles. */
export const ONLINE_RATE_MAX_VEHICLES = 10_000;
/** Spec §9: risk ranking top 5. */
export const RISK_TOP = 5;
/** Spec §9: 7-day charts cover the 7 days before today. */
export const CHART_DAYS = 7;
/** Spec §4 baseline (what the bench compares against): map locations in pages of 1,000, one page a second. */
export const LOCATION_PAGE_SIZE = 1000;
export const LOCATION_PAGE_INTERVAL_MS = 1000;
/** The alarm-count window of the risk ranking and the radar ("last month"): 30 China days up to today. */
export const LAST_MONTH_DAYS = 30;

/** The spec's alarm-count keys (§3): a10001…a10010, a10012, a10013, a10016, a10032, a10034. */
export const ALARM_COUNT_CODES = [10001, 10002, 10003, 10004, 10005, 10006, 10007, 10008, 10009, 10010, 10012, 10013, 10016, 10032, 10034] as const;
export const alarmCountKey = (code: number): string => `a${code}`;

/**
 * Device health (spec §3 "Device ops"): t1 = occlusion or camera error, t2 = camera over (its storage
 * over the threshold, or the storage unit failed: the camera can no longer keep what it films).
 * Codes of the alarm catalogue's group 15 (hardware failure).
 */
export const CAMERA_ERROR_CODES = [15008, 15011, 15012, 15014] as const;
export const CAMERA_OVER_CODES = [15013, 15015] as const;

/**
 * A driving interval counts when its later point moves (≥ 3 km/h, the live "driving" rule) and the
 * two points are at most this far apart: a longer silence (blind area, offline) is not known driving.
 */
export const DRIVING_GAP_MAX_MS = 5 * 60_000;
export const DRIVING_MIN_SPEED_KMH = 3;

/** The China days of the 7-day charts: the 7 days before today, oldest first. */
export function chartDays(nowMs: number, days = CHART_DAYS): { first: number; last: number; dates: string[] } {
  const today = chinaDayIndex(nowMs);
  const first = today - days;
  const last = today - 1;
  const dates: string[] = [];
  for (let d = first; d <= last; d++) dates.push(chinaDateOfDay(d));
  return { first, last, dates };
}

/** [start, end] epoch ms (both ends included, as the alarm calls take them) of a China day. */
export function chinaDayPeriod(dayIndex: number): { startTime: number; endTime: number } {
  const startTime = chinaDayStartMs(dayIndex);
  return { startTime, endTime: startTime + DAY_MS - 1 };
}

/** Yesterday and today as periods (yesterday's alarms, today's alarms, yesterday's registrations). */
export function yesterday(nowMs: number): { startTime: number; endTime: number } {
  return chinaDayPeriod(chinaDayIndex(nowMs) - 1);
}
export function today(nowMs: number): { startTime: number; endTime: number } {
  return { startTime: chinaDayStartMs(chinaDayIndex(nowMs)), endTime: nowMs };
}

/**
 * Driving minutes per China day of a time-ordered track: each interval whose later point moves
 * (≥ 3 km/h) and is ≤ 5 min after the earlier one counts for the later point's day. `minutes[k]`
 * is day `firstDay + k`; points outside [firstDay, lastDay] are context only.
 */
export function drivingMinutesByDay(time: ArrayLike<number>, speed: ArrayLike<number>, firstDay: number, lastDay: number): number[] {
  const out = new Array<number>(Math.max(0, lastDay - firstDay + 1)).fill(0);
  for (let i = 1; i < time.length; i++) {
    const dt = time[i]! - time[i - 1]!;
    if (dt <= 0 || dt > DRIVING_GAP_MAX_MS || speed[i]! < DRIVING_MIN_SPEED_KMH) continue;
    const k = chinaDayIndex(time[i]!) - firstDay;
    if (k >= 0 && k < out.length) out[k]! += dt / 60_000;
  }
  return out;
}

/** Spec §9: driving time in hours to one decimal. */
export function hoursOneDecimal(minutes: number): number {
  return Math.round(minutes / 6) / 10;
}

/** Risk weight of one alarm by its level (high counts ten ordinary alarms). */
export const RISK_WEIGHTS: Readonly<Record<'high' | 'medium' | 'low' | 'ordinary', number>> = { high: 10, medium: 5, low: 2, ordinary: 1 };

export interface RiskPoints {
  readonly vehicleId: number;
  readonly vehiidno: string;
  readonly points: number;
}

/**
 * Spec §9: risk ranking top 5, score scaled 0–100 to one decimal. The riskiest vehicle of the scope
 * scores 100, the others in proportion to their weighted alarm points; ties keep the lower vehicle id first.
 */
export function riskRanking(rows: readonly RiskPoints[], top = RISK_TOP): { vehicleId: number; vehiidno: string; totalScore: number }[] {
  const ranked = rows.filter((r) => r.points > 0).sort((a, b) => b.points - a.points || a.vehicleId - b.vehicleId).slice(0, top);
  const max = ranked[0]?.points ?? 0;
  return ranked.map((r) => ({ vehicleId: r.vehicleId, vehiidno: r.vehiidno, totalScore: Math.round((r.points / max) * 1000) / 10 }));
}

/** Spec §2 "Clicking a panel navigates to a target page if permitted". */
export const PANEL_TARGETS = {
  online: '/information/vehicle',
  alarms: '/safeManagement/alarmProcessingPage',
  risk: '/safeManagement/vehicleScore/checkReport',
  maintenance: '/information/device',
  mileage: '/report/vehicleMileageAnalysis/mileageStatistics',
  deviceOffline: '/report/deviceWorkReport/deviceOnlineReport',
  abnormal: '/report/deviceWorkReport/deviceAbnormalReport',
} as const;
export type PanelTarget = keyof typeof PANEL_TARGETS;

/**
 * Spec §6: a dashboard click goes to its target when the user's permitted routes include it,
 * else the warning 暂无该权限！ shows and nothing navigates.
 */
export function panelClick(target: PanelTarget, canSee: (route: string) => boolean): { navigate: string } | { warn: true } {
  const route = PANEL_TARGETS[target];
  return canSee(route) ? { navigate: route } : { warn: true };
}
