/** The ops check calls (server/services/ops-check/api.md). The selected company's id is added by the request client. */
import type { KpiCode } from '../../../domain/ops-check/kpi.ts';
import { http, saveBlob } from '../../api/http.ts';

const BASE = '/service-ops';

export interface KpiSettingItem { code: KpiCode; target: number; weight: number; name: string; unit: '%' | 'min'; higherIsBetter: boolean; min: number; max: number }
export interface KpiSettingView {
  companyId: number;
  companyName: string;
  inherited: boolean;
  /** The company whose saved setting is in force; null = the defaults. */
  fromCompanyId: number | null;
  updateUser: string;
  updateTime: number | null;
  items: KpiSettingItem[];
}

export interface KpiItem {
  id: number | null; code: KpiCode; name: string; unit: '%' | 'min'; higherIsBetter: boolean;
  measured: number | null; corrected: number | null; value: number | null; target: number; weight: number;
  passed: boolean | null; score: number | null; reason: string; correctedBy: string; correctedTime: number | null;
}
export interface CompanyKpis { companyId: number; companyName: string; month: string; frozen: boolean; score: number | null; passed: number; failed: number; items: KpiItem[] }
export interface KpiPage { records: CompanyKpis[]; total: number; current: number; size: number; month: string; closed: boolean }

export interface InsureRow {
  vehicleId: number; vehiidno: string; companyName: string; mileageKm: number; onlineDays: number; days: number;
  alarms: number; highRiskAlarms: number; handledAlarms: number; alarmsPer100Km: number | null;
}
export interface InsurePage { records: InsureRow[]; total: number; month: string; totals: { vehicles: number; mileageKm: number; alarms: number; highRiskAlarms: number } }

export const opsCheckApi = {
  setting: (signal?: AbortSignal) => http.get<KpiSettingView>(`${BASE}/kpiSetting/get`, {}, { silent: true, signal }),
  saveSetting: (items: { code: KpiCode; target: number; weight: number }[]) => http.post<unknown>(`${BASE}/kpiSetting/addOrUpdate`, { items }, { silent: true }),
  list: (q: { month: string; current: number; size: number }, signal?: AbortSignal) => http.get<KpiPage>(`${BASE}/kpi/list`, { ...q }, { silent: true, signal }),
  correct: (id: number, value: number, reason: string) => http.post<CompanyKpis>(`${BASE}/kpi/update`, { id, value, reason }, { silent: true }),
  insure: (q: { month: string; current: number; size: number; companyId: number }, signal?: AbortSignal) =>
    http.get<InsurePage>(`${BASE}/insureReport/list`, { ...q }, { silent: true, signal }),
  async downloadAnalysis(companyId: number, month: string): Promise<void> {
    saveBlob(await http.export(`${BASE}/analyseReport/downloadHTML`, { companyId, month }));
  },
  async downloadInsurance(companyId: number, month: string): Promise<void> {
    saveBlob(await http.export(`${BASE}/insureReport/downloadHTML`, { companyId, month }));
  },
};
