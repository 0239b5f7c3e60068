/**
 * Calendar rules (spec §4, §9). Every day in the product is a China day, GMT+8 with no daylight
 * saving, whatever the machine's time zone: a day is [00:00, 24:00) China time.
 *
 * Decisions:
 * - Online day: at least one data item that day, drift points included (they were still uploaded).
 * - Operation day: mileage that day ≥ 1 km, where a pair's distance belongs to the day of its later
 *   point (the report that carried it), so a pair crossing midnight counts for the new day and a day
 *   with mileage is always an online day.
 * - Early-morning period: 02:00 inclusive to 05:00 exclusive, China time.
 * - Offline: no contact for over 3 minutes; exactly 3 minutes is still online; no contact ever is
 *   offline (never powered on).
 */

export const CHINA_OFFSET_MS = 8 * 3_600_000;
export const DAY_MS = 86_400_000;
export const OFFLINE_AFTER_MS = 3 * 60_000;
export const OPERATION_DAY_MIN_KM = 1;
export const ONLINE_DAY_MIN_POINTS = 1;
export const EARLY_MORNING_START_MS = 2 * 3_600_000;
export const EARLY_MORNING_END_MS = 5 * 3_600_000;

/** Days since 1970-01-01 China time: equal for two instants on the same China calendar day. */
export function chinaDayIndex(timeMs: number): number {
  return Math.floor((timeMs + CHINA_OFFSET_MS) / DAY_MS);
}

/** Epoch ms of 00:00 China time of a China day index. */
export function chinaDayStartMs(dayIndex: number): number {
  return dayIndex * DAY_MS - CHINA_OFFSET_MS;
}

/** `YYYY-MM-DD` of the China day containing the instant. */
export function chinaDate(timeMs: number): string {
  return chinaDateOfDay(chinaDayIndex(timeMs));
}

export function chinaDateOfDay(dayIndex: number): string {
  const iso = new Date(dayIndex * DAY_MS).toISOString();
  return iso.slice(0, iso.indexOf('T')); // years past 9999 print as +YYYYYY
}

/** Milliseconds since 00:00 China time. */
export function chinaTimeOfDayMs(timeMs: number): number {
  const r = (timeMs + CHINA_OFFSET_MS) % DAY_MS;
  return r < 0 ? r + DAY_MS : r;
}

export function isEarlyMorning(timeMs: number): boolean {
  const tod = chinaTimeOfDayMs(timeMs);
  return tod >= EARLY_MORNING_START_MS && tod < EARLY_MORNING_END_MS;
}

export function isOnlineDay(points: number): boolean {
  return points >= ONLINE_DAY_MIN_POINTS;
}

export function isOperationDay(mileageKm: number): boolean {
  return mileageKm >= OPERATION_DAY_MIN_KM;
}

/**
 * Offline (spec §4): no server contact for over 3 minutes, or never. A last contact in the future
 * (clock skew between gateway and caller) counts as contact now.
 */
export function isOffline(lastContactMs: number | null | undefined, nowMs: number): boolean {
  if (lastContactMs === null || lastContactMs === undefined || !Number.isFinite(lastContactMs)) return true;
  return nowMs - lastContactMs > OFFLINE_AFTER_MS;
}
