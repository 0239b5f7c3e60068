/**
 * Cab supervision (驾驶室监管, /operation/cabSupervision) and the customer portrait (客户画像,
 * /safeManagement/customerPortrait): the pure rules the server, the console and tests share.
 *
 * Supervision: an officer opens a supervision of some vehicles (or of a whole company's vehicles) for a
 * reason, with the message the cabs are to hear and show; records on it are the officer's notes and
 * the sends of the message (a 0x8300 text, TTS + terminal display) with per-vehicle receipts.
 * Suggestions: vehicles with at least N driver-state alarms (fatigue, eyes closed, distraction, phone,
 * smoking) in the last days; N is the platform parameter `safety.cabSuggestAlarms`.
 *
 * Portrait: a company's month in figures from stored rows (see `portraitFigures`).
 */
import type { Lang } from '../errors/catalogue.ts';

export const SUPERVISION_REASONS = ['fatigue', 'distraction', 'phone', 'smoking', 'speeding', 'other'] as const;
export type SupervisionReason = (typeof SUPERVISION_REASONS)[number];
export const REASON_NAMES: Record<SupervisionReason, readonly [zh: string, en: string]> = {
  fatigue: ['频繁疲劳驾驶报警', 'Repeated fatigue alarms'],
  distraction: ['频繁分神驾驶报警', 'Repeated distraction alarms'],
  phone: ['行车接打电话', 'Phone use while driving'],
  smoking: ['行车抽烟', 'Smoking while driving'],
  speeding: ['频繁超速', 'Repeated speeding'],
  other: ['其他', 'Other'],
};
export const reasonName = (r: SupervisionReason, lang: Lang): string => REASON_NAMES[r][lang === 'zh' ? 0 : 1];

/** The driver-state alarm codes a suggestion counts (domain/alarms/catalogue.ts), by the reason they suggest. */
export const SUGGEST_CODES: Readonly<Record<number, SupervisionReason>> = {
  10001: 'fatigue', // 疲劳驾驶报警 (DMS 0x01)
  10013: 'fatigue', // 闭眼报警
  10004: 'distraction', // 分神驾驶报警 (DMS 0x04)
  10002: 'phone', // 接打手持电话报警 (DMS 0x02)
  10003: 'smoking', // 抽烟报警 (DMS 0x03)
};
export const SUGGEST_DAYS = 7;
export const SUGGEST_PARAM = 'safety.cabSuggestAlarms';
export const SUGGEST_DEFAULT = 3;

/** Limits of what an officer writes; the message must fit one 0x8300 body in GBK (≤ 1000 bytes, 2 a character). */
export const MESSAGE_MAX = 200;
export const NOTE_MAX = 500;
export const SUPERVISION_VEHICLES_MAX = 500;

/** Receipt of one vehicle for one send, as the console shows it. */
export const RECEIPT_STATES = ['queued', 'sent', 'ok', 'failed', 'timeout', 'expired'] as const;
export type ReceiptState = (typeof RECEIPT_STATES)[number];
export const RECEIPT_NAMES: Record<ReceiptState, readonly [zh: string, en: string]> = {
  queued: ['待发送（离线）', 'Waiting (offline)'],
  sent: ['已发送', 'Sent'],
  ok: ['已应答', 'Acknowledged'],
  failed: ['终端拒绝', 'Refused by terminal'],
  timeout: ['应答超时', 'No answer'],
  expired: ['已过期', 'Expired'],
};

export interface SupervisionInput {
  readonly reason?: string;
  readonly message?: string;
  readonly vehicleIds?: readonly number[];
  readonly companyId?: number;
}
export type SupervisionProblem =
  | { field: 'reason'; code: 'required' | 'enum' }
  | { field: 'message'; code: 'required' | 'maxLength' }
  | { field: 'vehicleIds'; code: 'targetRequired' | 'bothTargets' | 'tooMany'; count?: number };

/** The first problem of a new supervision, or null. */
export function checkSupervision(b: SupervisionInput): SupervisionProblem | null {
  if (!b.reason) return { field: 'reason', code: 'required' };
  if (!(SUPERVISION_REASONS as readonly string[]).includes(b.reason)) return { field: 'reason', code: 'enum' };
  const msg = b.message?.trim() ?? '';
  if (msg === '') return { field: 'message', code: 'required' };
  if ([...msg].length > MESSAGE_MAX) return { field: 'message', code: 'maxLength' };
  const hasVehicles = (b.vehicleIds?.length ?? 0) > 0;
  const hasCompany = b.companyId !== undefined;
  if (!hasVehicles && !hasCompany) return { field: 'vehicleIds', code: 'targetRequired' };
  if (hasVehicles && hasCompany) return { field: 'vehicleIds', code: 'bothTargets' };
  if ((b.vehicleIds?.length ?? 0) > SUPERVISION_VEHICLES_MAX) return { field: 'vehicleIds', code: 'tooMany', count: b.vehicleIds!.length };
  return null;
}

export function supervisionProblemMessage(p: SupervisionProblem, lang: Lang): string {
  const zh = lang === 'zh';
  switch (p.code) {
    case 'required':
      return p.field === 'reason' ? (zh ? '请选择监管原因' : 'Choose the reason') : (zh ? '请填写监管消息内容' : 'The supervision message is required');
    case 'enum':
      return zh ? '监管原因不在可选范围内' : 'Unknown reason';
    case 'maxLength':
      return zh ? `监管消息不能超过 ${MESSAGE_MAX} 个字符` : `The message must be at most ${MESSAGE_MAX} characters`;
    case 'targetRequired':
      return zh ? '请选择要监管的车辆或企业' : 'Choose the vehicles or the company to supervise';
    case 'bothTargets':
      return zh ? '车辆和企业只能选择其一' : 'Choose vehicles or a company, not both';
    case 'tooMany':
      return zh ? `一次最多监管 ${SUPERVISION_VEHICLES_MAX} 辆车，已选 ${p.count ?? 0} 辆` : `At most ${SUPERVISION_VEHICLES_MAX} vehicles per supervision; ${p.count ?? 0} selected`;
  }
}

export interface AlarmCountRow { readonly vehicleId: number; readonly alarmType: number; readonly n: number }
export interface Suggestion { readonly vehicleId: number; readonly total: number; readonly reason: SupervisionReason; readonly byReason: Partial<Record<SupervisionReason, number>> }

/**
 * Vehicles with at least `threshold` driver-state alarms: the reason is the kind they raised most
 * (ties: the order of SUPERVISION_REASONS); most alarms first, then by vehicle id.
 */
export function suggestVehicles(rows: readonly AlarmCountRow[], threshold: number): Suggestion[] {
  const by = new Map<number, Partial<Record<SupervisionReason, number>>>();
  for (const r of rows) {
    const reason = SUGGEST_CODES[r.alarmType];
    if (!reason || r.n <= 0) continue;
    const m = by.get(r.vehicleId) ?? {};
    m[reason] = (m[reason] ?? 0) + r.n;
    by.set(r.vehicleId, m);
  }
  const out: Suggestion[] = [];
  for (const [vehicleId, byReason] of by) {
    const total = Object.values(byReason).reduce((s, n) => s + (n ?? 0), 0);
    if (total < Math.max(1, threshold)) continue;
    let reason: SupervisionReason = 'other';
    let best = 0;
    for (const r of SUPERVISION_REASONS) if ((byReason[r] ?? 0) > best) { best = byReason[r]!; reason = r; }
    out.push({ vehicleId, total, reason, byReason });
  }
  return out.sort((a, b) => b.total - a.total || a.vehicleId - b.vehicleId);
}
