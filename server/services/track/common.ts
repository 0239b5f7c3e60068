/**
 * What every track call shares: period fields (epoch ms), the spec §5 period rules of
 * domain/track/limits.ts, vehicle lookup in the caller's scope (404 outside it), messages.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { checkHistoryPeriod, checkTrackPeriod, periodMessage } from '../../../domain/track/limits.ts';
import type { Storage, VehicleLabel } from '../../db/repositories.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail } from '../../http/envelope.ts';
import type { Message } from '../../http/messages.ts';
import { Id } from '../../http/route.ts';

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);

export const TrackMessages = {
  vehicleNotFound: pair('车辆不存在或不在您的管辖范围内', 'The vehicle does not exist or is outside your scope'),
  incompleteRectangle: pair('请绘制完整的矩形后再查询', 'A complete rectangle (minimum below maximum) is needed'),
  taskNotFound: pair('导出任务不存在或已过期', 'The export task does not exist or has expired'),
  taskNotDone: pair('导出尚未完成，请稍后再下载', 'The export is not finished yet; download it later'),
  exportFailed: pair('导出失败，请稍后重试', 'The export failed; try again later'),
  segmentNotFound: pair('该行程或停车不存在', 'That trip or stop does not exist'),
  badRange: pair('点的序号范围不合法', 'The point index range is invalid'),
  badCursor: pair('翻页位置无效，请从第一页重新查询', 'The page cursor is invalid; query again from the first page'),
};

/** Epoch milliseconds (the console sends numbers; whole ms). */
export const EpochMs = Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 });

/** vehicleId + the period, the fields of every per-vehicle track call. */
export const PeriodFields = { vehicleId: Id, startTime: EpochMs, endTime: EpochMs };

export const Coordinate = (max: number) => Type.Number({ minimum: -max, maximum: max });

/** Playback periods (spec §5): start ≤ end, at most seven days, only the last 30 days. 400 otherwise. */
export function assertTrackPeriod(startTime: number, endTime: number, now: number): void {
  const problem = checkTrackPeriod(startTime, endTime, now);
  if (problem) throw fail.badRequest((lang) => periodMessage(problem, lang));
}

/** History periods (spec §5 monitor history): start ≤ end, at most 24 hours. 400 otherwise. */
export function assertHistoryPeriod(startTime: number, endTime: number): void {
  const problem = checkHistoryPeriod(startTime, endTime);
  if (problem) throw fail.badRequest((lang) => periodMessage(problem, lang));
}

/** A rectangle with minimum below maximum on both axes, else 400. */
export function assertRectangle(b: { minLng: number; minLat: number; maxLng: number; maxLat: number }): void {
  if (!(b.minLng < b.maxLng) || !(b.minLat < b.maxLat)) throw fail.badRequest(TrackMessages.incompleteRectangle);
}

/** The vehicle's label when it lies in the caller's scope (narrowed by companyId), else 404. */
export async function vehicleInScope(storage: Storage, request: FastifyRequest, vehicleId: number, companyId: number | undefined): Promise<VehicleLabel> {
  const scope = await narrowedScope(storage, auth(request), companyId);
  const label = (await storage.terminals.labels(scope, [vehicleId])).get(vehicleId);
  if (!label) throw fail.notFound(TrackMessages.vehicleNotFound);
  return label;
}

/** Periods are inclusive of both ends in the API; the repository takes [from, to). */
export function toExclusive(endTime: number): number {
  return endTime + 1;
}

const GMT8_MS = 8 * 3_600_000;

/** `YYYY-MM-DD HH:mm:ss` in China time (GMT+8), the spec's display time. */
export function chinaTimeText(ms: number): string {
  const d = new Date(ms + GMT8_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}
