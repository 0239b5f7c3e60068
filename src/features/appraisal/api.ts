/** The vehicle appraisal calls (server/API.md "Vehicle appraisal and analysis reports"). The selected company's id is added by the request client. */
import type { AppraisalCategory, PerCategory, RankedRow } from '../../../domain/appraisal/rules.ts';
import { http, saveBlob } from '../../api/http.ts';

const BASE = '/service-safe/vehicleScore';

export interface AppraisalSettingView {
  companyId: number;
  companyName: string;
  /** The company whose saved settings are in force; null = the defaults. */
  fromCompanyId: number | null;
  fromCompanyName: string | null;
  weights: PerCategory<number>;
  thresholds: PerCategory<number>;
  creatorName: string | null;
  createTime: number | null;
  updaterName: string | null;
  updateTime: number | null;
  defaults: { weights: PerCategory<number>; thresholds: PerCategory<number> };
}

/** A ranked vehicle row (rank null: not assessed). */
export type ScoreRow = RankedRow;

export interface CheckReport {
  month: string;
  days: number;
  companyId: number;
  companyName: string;
  weights: PerCategory<number>;
  thresholds: PerCategory<number>;
  vehicles: number;
  scoredVehicles: number;
  averageScore: number | null;
  records: ScoreRow[];
  total: number;
  current: number;
  size: number;
}

export interface CheckReportQuery {
  month: string;
  keyword?: string;
  current: number;
  size: number;
}

export const appraisalApi = {
  setting: (signal?: AbortSignal) => http.get<AppraisalSettingView>(`${BASE}/setting`, {}, { silent: true, signal }),
  saveSetting: (weights: Record<AppraisalCategory, number>, thresholds: Record<AppraisalCategory, number>) =>
    http.post<AppraisalSettingView>(`${BASE}/setting`, { weights, thresholds }, { silent: true }),
  checkReport: (q: CheckReportQuery, signal?: AbortSignal) => http.post<CheckReport>(`${BASE}/checkReport`, { ...q }, { silent: true, signal }),
  async exportReport(q: { month: string; keyword?: string }): Promise<void> {
    saveBlob(await http.export(`${BASE}/checkReport/excel`, { ...q }, { method: 'POST' }));
  },
};
