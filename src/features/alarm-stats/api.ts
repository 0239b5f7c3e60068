/** The alarm statistics calls (server/API.md "Alarm statistics"). */
import type { StatsDimension } from '../../../domain/alarms/stats.ts';
import { http, type ExportResult } from '../../api/http.ts';
import type { Alarm, AlarmPage } from '../alarms/api.ts';

export interface StatCounts { count: number; occurrences: number; unprocessed: number; vehicles: number }

export interface StatsFilter {
  startTime: number; endTime: number;
  vehicleIds?: number[]; alarmGroups?: number[]; alarmTypes?: number[]; riskLevels?: string[]; dealStatuses?: number[];
  /** Narrows to that company's subtree (the request client adds the selected company otherwise). */
  companyId?: number;
}

export interface TypeRow extends StatCounts { alarmType: number; alarmName: string; alarmGroup: number | null; groupName: string }
export interface DateRow extends StatCounts { date: string }
export interface VehicleRow extends StatCounts { vehicleId: number; vehiidno: string; companyId: number; companyName: string }
export interface DriverRow extends StatCounts { driverKey: string; identified: boolean; driverName: string; driverCert: string; vehicleId: number; vehiidno: string }
export interface CompanyRow extends StatCounts { companyId: number; companyName: string; own: boolean; childCount: number }

export interface RowsOf { type: TypeRow; date: DateRow; vehicle: VehicleRow; driver: DriverRow; company: CompanyRow }
export type StatsRow = RowsOf[StatsDimension];

export interface StatsResult<R> { total: StatCounts; records: R[]; parentId?: number | null; parentName?: string | null }

/** The chart cell behind a row (aggregate/alarms). */
export interface StatsCell { alarmType?: number; date?: string; vehicleId?: number; driverKey?: string; ownCompanyId?: number; companyId?: number }

export function fetchStats<D extends StatsDimension>(dimension: D, filter: StatsFilter, pid?: number, signal?: AbortSignal): Promise<StatsResult<RowsOf[D]>> {
  const body = dimension === 'company' && pid !== undefined ? { ...filter, pid } : filter;
  return http.post(`/service-safe/aggregate/alarm/${dimension}`, body, { signal });
}

export function fetchCellAlarms(filter: StatsFilter, cell: StatsCell, current: number, size: number): Promise<AlarmPage & { records: (Alarm & { driverName: string })[] }> {
  return http.post('/service-safe/aggregate/alarms', { ...filter, ...cell, current, size });
}

export function exportStats(dimension: StatsDimension, filter: StatsFilter, pid?: number): Promise<ExportResult> {
  const body = dimension === 'company' && pid !== undefined ? { ...filter, pid } : { ...filter };
  return http.export(`/service-safe/aggregate/alarm/${dimension}/excel`, body, { method: 'POST' });
}

export function exportCellAlarms(filter: StatsFilter, cell: StatsCell): Promise<ExportResult> {
  return http.export('/service-safe/aggregate/alarms/excel', { ...filter, ...cell }, { method: 'POST' });
}

export interface ExportStatus { status: 'running' | 'done' | 'failed'; total: number; exported: number; message?: string }

/** The processing page's export job (alarmInfo/excel → export_status → excel_file). */
export const startAlarmExport = (q: Record<string, unknown>) => http.post<{ taskId: string }>('/service-safe/alarmInfo/excel', q, { silent: true });
export const alarmExportStatus = (taskId: string) => http.get<ExportStatus>('/service-safe/alarmInfo/export_status', { taskId }, { noCompanyId: true, silent: true });
export const alarmExportFile = (taskId: string) => http.export('/service-safe/alarmInfo/excel_file', { taskId }, { noCompanyId: true, silent: true });
