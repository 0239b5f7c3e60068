/**
 * The positioning-quality calls (server/API.md "Positioning-quality reports"). The selected company's
 * id is added by the request client; exports ask for the file with the same parameters.
 */
import { http, saveBlob } from '../../../api/http.ts';
import type { ReportPeriod } from './period.ts';

const BASE = '/service-onlinegps/offlinereport';

export interface ReportPage<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
}

export interface ReportVehicle {
  vehicleId: number;
  vehiidno: string;
  companyId: number;
  companyName: string;
}

export interface PeriodSums {
  days: number;
  totalGps: number;
  pass: number;
  undetermined: number;
  error: number;
  drift: number;
  lossTimes: number;
  lossHours: number;
  lossKm: number;
  continuousKm: number;
  mileageKm: number;
  earlyMorningKm: number;
  onlineDays: number;
  operationDays: number;
  qualifiedRate: number;
  driftRate: number;
  onlineRate: number;
}

export type SummaryRow = ReportVehicle & PeriodSums;

export type InvalidReason = 'range' | 'zero' | 'speed' | 'future';

export interface InvalidRow extends ReportVehicle {
  gpsTime: number;
  receivedAt: number | null;
  lng: number;
  lat: number;
  speed: number;
  reason: InvalidReason;
}

export interface DriftRow extends ReportVehicle {
  gpsTime: number;
  lng: number;
  lat: number;
  speed: number;
  /** Implied km/h; null = infinite (the position changed with no time step). */
  speedIn: number | null;
  speedOut: number | null;
}

export interface GapRow extends ReportVehicle {
  fromTime: number;
  fromLng: number;
  fromLat: number;
  toTime: number;
  toLng: number;
  toLat: number;
  km: number;
  hours: number;
}

export interface ReportQuery extends ReportPeriod {
  /** Only these vehicles (omitted: every vehicle of the selected company). */
  vehicleIds?: number[] | undefined;
}

export interface PageParams {
  current: number;
  size: number;
}

export type DetailKind = 'illegalDatas' | 'driftDatas' | 'discontinuousDatas';
export interface DetailRows {
  illegalDatas: InvalidRow;
  driftDatas: DriftRow;
  discontinuousDatas: GapRow;
}

function params(q: ReportQuery, page?: PageParams): Record<string, unknown> {
  const p: Record<string, unknown> = { startDate: q.startDate, endDate: q.endDate, ...page };
  if (q.vehicleIds && q.vehicleIds.length > 0) p['vehicleIds'] = q.vehicleIds;
  return p;
}

export const onlineControlApi = {
  /** The period's metrics per vehicle (GET), with the totals of every vehicle. */
  summary(q: ReportQuery, page: PageParams, signal?: AbortSignal): Promise<ReportPage<SummaryRow> & { totals: PeriodSums }> {
    return http.get(`${BASE}/dailyReportGroupbyVehiidno`, params(q, page), { signal });
  },
  detail<K extends DetailKind>(kind: K, q: ReportQuery, page: PageParams, signal?: AbortSignal): Promise<ReportPage<DetailRows[K]>> {
    return http.post(`${BASE}/${kind}`, params(q, page), { signal });
  },
  async exportSummary(q: ReportQuery): Promise<void> {
    saveBlob(await http.export(`${BASE}/dailyReportGroupbyVehiidno/excel`, params(q)));
  },
  async exportDetail(kind: DetailKind, q: ReportQuery): Promise<void> {
    saveBlob(await http.export(`${BASE}/${kind}/excel`, params(q), { method: 'POST' }));
  },
};
