/** The analysis report calls (server/API.md "Vehicle appraisal and analysis reports"). */
import type { AppraisalCategory, PerCategory } from '../../../domain/appraisal/rules.ts';
import { http, saveBlob } from '../../api/http.ts';

const BASE = '/service-safe/analysisReport';

export interface CategoryFigure { category: AppraisalCategory; name: string; count: number; per100Km: number | null; score?: number | null }
export interface TypeFigure { alarmType: number; alarmName: string; category: AppraisalCategory | null; count: number }

export interface TeamReport {
  month: string;
  days: number;
  companyId: number;
  companyName: string;
  vehicles: number;
  activeVehicles: number;
  scoredVehicles: number;
  mileageKm: number;
  alarms: number;
  per100Km: number | null;
  averageScore: number | null;
  groups: { group: number; name: string; count: number; per100Km: number | null }[];
  categories: CategoryFigure[];
  daily: { date: string; alarms: number; mileageKm: number; per100Km: number | null; runningVehicles: number }[];
  topTypes: TypeFigure[];
  riskyVehicles: { vehicleId: number; vehiidno: string; companyName: string; totalScore: number; rank: number; alarmCount: number; mileageKm: number }[];
}

export interface VehicleReport {
  month: string;
  days: number;
  vehicleId: number;
  vehiidno: string;
  companyName: string;
  normalDays: number;
  minNormalDays: number;
  onlineDays: number;
  operationDays: number;
  mileageKm: number;
  alarms: number;
  per100Km: number | null;
  weights: PerCategory<number>;
  scores: PerCategory<number> | null;
  totalScore: number | null;
  rank: number | null;
  rankOf: number;
  categories: CategoryFigure[];
  daily: { date: string; alarms: number; mileageKm: number; online: boolean; operation: boolean; normal: boolean }[];
  types: TypeFigure[];
}

export const analysisApi = {
  team: (month: string, signal?: AbortSignal) => http.post<TeamReport>(`${BASE}/teamReport`, { month }, { silent: true, signal }),
  /** The vehicle names its own company: no selected-company narrowing. */
  vehicle: (vehicleId: number, month: string, signal?: AbortSignal) =>
    http.get<VehicleReport>(`${BASE}/vehicleReport`, { vehicleId, month, noCompanyId: true }, { silent: true, signal }),
  /** The day-by-day tables as .xlsx (failures are shown by the request client). */
  async exportTeam(month: string): Promise<void> {
    saveBlob(await http.export(`${BASE}/teamReport/excel`, { month }, { method: 'POST' }));
  },
  async exportVehicle(vehicleId: number, month: string): Promise<void> {
    saveBlob(await http.export(`${BASE}/vehicleReport/excel`, { vehicleId, month, noCompanyId: true }));
  },
};
