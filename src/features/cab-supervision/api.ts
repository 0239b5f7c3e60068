/** Cab supervision and the customer portrait (server/services/cab-supervision/api.md). */
import { http } from '../../api/http.ts';
import type { Page } from '../system/types.ts';

export const CAB_ROUTE = '/operation/cabSupervision';
export const PORTRAIT_ROUTE = '/safeManagement/customerPortrait';
export const SUPERVISION_VEHICLES_MAX = 500;
export const REASONS = ['fatigue', 'distraction', 'phone', 'smoking', 'speeding', 'other'] as const;
export type Reason = (typeof REASONS)[number];
export const RECEIPT_STATES = ['queued', 'sent', 'ok', 'failed', 'timeout', 'expired'] as const;
export type ReceiptState = (typeof RECEIPT_STATES)[number];
export const DISPLAY_TYPES = ['tts', 'display', 'urgent'] as const;
export type DisplayType = (typeof DISPLAY_TYPES)[number];

export interface Supervision {
  id: number; companyId: number; companyName: string; target: 'vehicles' | 'company'; targetCompanyId: number | null; targetCompanyName: string | null;
  reason: Reason; reasonName: string; message: string; vehicles: { vehicleId: number; vehiidno: string }[]; vehicleCount: number;
  recordCount: number; sendCount: number; lastReceipts: Record<ReceiptState, number> | null; createdByName: string; createTime: number;
}
export interface Receipt { vehicleId: number; vehiidno: string; state: ReceiptState; result: number | null; updateTime: number }
export interface SupRecord {
  id: number; kind: 'note' | 'send'; content: string; createdByName: string; createTime: number;
  taskId?: number; expireTime?: number; types?: DisplayType[]; counts?: Record<ReceiptState, number>; receipts?: Receipt[];
}
export interface Suggestion { vehicleId: number; vehiidno: string; companyName: string; hasDevice: boolean; total: number; reason: Reason; reasonName: string; lastSupervisedTime: number | null }
export interface SupInput { reason: Reason; message: string; vehicleIds?: number[]; targetCompanyId?: number }

export interface MonthFigures { month: string; vehicles: number; onlineVehicles: number; onlineRate: number | null; mileageKm: number; alarms: number; alarmsPer100Km: number | null; handled: number; handlingRate: number | null }
export interface Portrait extends MonthFigures {
  companyId: number; companyName: string; days: number; safetyScore: number | null; scoredVehicles: number;
  byType: { alarmType: number; name: string; n: number; per100Km: number | null; handlingRate: number | null }[];
  riskyVehicles: { vehicleId: number; vehiidno: string; mileageKm: number; alarms: number; highRisk: number; per100Km: number | null; score: number | null }[];
  riskyDrivers: { cert: string; name: string; alarms: number; highRisk: number }[];
  trend: MonthFigures[];
}

const BASE = '/service-safesheet/cab';
export const cabApi = {
  page: (q: { current: number; size: number; keyword?: string; reason?: Reason }) => http.post<Page<Supervision>>(`${BASE}/supPage`, q),
  create: (b: SupInput) => http.post<Supervision>(`${BASE}/sup`, b, { silent: true, noCompanyId: true }),
  addNote: (id: number, content: string) => http.post<{ id: number }>(`${BASE}/recAdd`, { id, content }, { silent: true, noCompanyId: true }),
  send: (id: number, types: DisplayType[], validMinutes: number) => http.post<{ id: number; taskId: number }>(`${BASE}/recSend`, { id, types, validMinutes }, { silent: true, noCompanyId: true }),
  records: (id: number) => http.post<{ supervision: Supervision; records: SupRecord[] }>(`${BASE}/recQuery`, { id }, { noCompanyId: true }),
  suggest: () => http.post<{ threshold: number; days: number; records: Suggestion[] }>(`${BASE}/suggest`, {}),
  portrait: (month: string, signal?: AbortSignal) => http.get<Portrait>('/service-safe/customerPortrait/company', { month }, { silent: true, signal }),
};
