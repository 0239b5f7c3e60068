/**
 * Multimedia rules shared by the server (reports, exports) and the console (issue 6): the names of
 * JT/T 808 multimedia event codes and sources, the report period limit, and the snapshot limits.
 */
import type { Lang } from '../errors/catalogue.ts';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs, DAY_MS } from '../track/days.ts';

/** Reports over stored photos cover at most this many days per query. */
export const MEDIA_REPORT_MAX_DAYS = 31;
/** Photos per channel one snapshot request may ask for (0x8801 allows more; an operator needs a few). */
export const SNAP_MAX_COUNT = 5;
/** Channels a snapshot asks when none are given: the four-camera layout of JT/T 1076 installations. */
export const DEFAULT_SNAP_CHANNELS: readonly number[] = [1, 2, 3, 4];

/** JT/T 808 table 80 event item codes (2013; 2019 keeps them). */
const EVENT_NAMES: Record<number, readonly [string, string]> = {
  0: ['平台下发指令', 'Platform command'],
  1: ['定时动作', 'Timed'],
  2: ['紧急报警触发', 'Emergency alarm triggered'],
  3: ['碰撞侧翻报警触发', 'Collision or rollover alarm triggered'],
  4: ['门开拍照', 'Door opened'],
  5: ['门关拍照', 'Door closed'],
  6: ['车门由开变关，时速从小于20公里到超过20公里', 'Door closed and speed passed 20 km/h'],
  7: ['定距拍照', 'Fixed distance'],
};

export function mediaEventName(code: number, lang: Lang): string {
  const n = EVENT_NAMES[code];
  if (n) return n[lang === 'zh' ? 0 : 1];
  return lang === 'zh' ? `事件 ${code}` : `Event ${code}`;
}

export type MediaSourceName = 'snap' | 'event' | 'upload';

const SOURCE_NAMES: Record<MediaSourceName, readonly [string, string]> = {
  snap: ['平台抓拍', 'Platform snapshot'],
  event: ['终端触发', 'Terminal event'],
  upload: ['设备存储上传', 'Uploaded from device storage'],
};

export function mediaSourceName(source: MediaSourceName, lang: Lang): string {
  return SOURCE_NAMES[source][lang === 'zh' ? 0 : 1];
}

/** The problem of a report period [startTime, endTime] (epoch ms), or null when it may be queried. */
export function checkMediaPeriod(startTime: number, endTime: number): 'startAfterEnd' | 'tooLong' | null {
  if (startTime > endTime) return 'startAfterEnd';
  return endTime - startTime > MEDIA_REPORT_MAX_DAYS * 86_400_000 ? 'tooLong' : null;
}

/** Days in the reports' default period, ending today (snapshots are usually looked at the same day). */
export const MEDIA_DEFAULT_DAYS = 7;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayIndexOf(text: string): number | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS;
  return chinaDateOfDay(day) === text ? day : undefined;
}

/** China calendar dates `YYYY-MM-DD` (both included) → the epoch-ms period the report calls take; null when a date is invalid. */
export function mediaPeriodOfDates(startDate: string, endDate: string): { startTime: number; endTime: number } | null {
  const a = dayIndexOf(startDate);
  const b = dayIndexOf(endDate);
  if (a === undefined || b === undefined) return null;
  return { startTime: chinaDayStartMs(a), endTime: chinaDayStartMs(b + 1) - 1 };
}

/** The default period: the `MEDIA_DEFAULT_DAYS` China days ending today. */
export function defaultMediaDates(now: number): { startDate: string; endDate: string } {
  const today = chinaDayIndex(now);
  return { startDate: chinaDateOfDay(today - MEDIA_DEFAULT_DAYS + 1), endDate: chinaDateOfDay(today) };
}
