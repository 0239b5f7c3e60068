/** The service-monitor calls of the monitor page (server/API.md, server/services/monitor/). */
import { http } from '../../api/http.ts';
import type { RealtimeRecord } from '../../../domain/vehicle/realtime.ts';
import type { Bounds } from './rectangle.ts';

export type { RealtimeRecord } from '../../../domain/vehicle/realtime.ts';

export interface RealtimeStat {
  vehicleTotal: number;
  vehicleOnline: number;
  vehicleTodayOnline: number;
  vehicleRunning: number;
  vehicleStop: number;
  vehicleIdle: number;
  vehicleOffline: number;
  vehicleNeverOnline: number;
  onlineRate: number;
}

export function fetchRealtime(vehicleId: number, signal?: AbortSignal): Promise<RealtimeRecord> {
  return http.get<RealtimeRecord>('/service-monitor/monitor/realtime', { vehicleId }, { signal, noCompanyId: true });
}

export function fetchRealtimeStat(signal?: AbortSignal): Promise<RealtimeStat> {
  return http.get<RealtimeStat>('/service-monitor/monitor/realtimestat', {}, { signal, silent: true });
}

export function searchFrameVehicles(bounds: Bounds): Promise<{ total: number; records: RealtimeRecord[] }> {
  return http.post('/service-monitor/monitor/searchFrameVehicles', { ...bounds, limit: 5000 }, { noCompanyId: true });
}

export function batchRealtime(vehicleIds: readonly number[]): Promise<RealtimeRecord[]> {
  return http.post('/service-monitor/monitor/batchrealtime', { vehicleIds }, { noCompanyId: true, silent: true });
}
