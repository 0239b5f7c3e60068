/**
 * Track calls other than the binary track itself (the worker fetches that): positioning export as a
 * task, reverse geocoding of single points, and the frame search over history (server/API.md).
 */
import { http, type ExportResult } from '../../api/http.ts';
import type { Bounds } from '../monitor/rectangle.ts';

export interface ExportStatus {
  status: 'running' | 'done' | 'failed';
  total: number;
  exported: number;
  /** The cap message (first 50,000 positions) or a failure reason. */
  message?: string;
}

/** `stopMinutes`: the stop sheet lists the stops the page shows (its threshold). */
export function startTrailExport(vehicleId: number, startTime: number, endTime: number, stopMinutes?: number): Promise<{ taskId: string }> {
  return http.get('/service-monitor/trail/excel', stopMinutes === undefined ? { vehicleId, startTime, endTime } : { vehicleId, startTime, endTime, stopMinutes });
}

export function trailExportStatus(taskId: string): Promise<ExportStatus> {
  return http.get('/service-monitor/trail/export_status', { taskId });
}

export function trailExportFile(taskId: string): Promise<ExportResult> {
  return http.export('/service-monitor/trail/excel_file', { taskId });
}

export function geocode(lng: number, lat: number, signal?: AbortSignal): Promise<string> {
  return http.get('/service-monitor/trail/geocoder', { lng, lat }, { silent: true, signal, noCompanyId: true });
}

/** A vehicle with points inside the rectangle during the window (server/services/track/geography.ts). */
export interface FrameGpsVehicle {
  vehicleId: number;
  plate: string;
  deviceNo: string;
  companyName: string;
  /** First and last point inside, epoch ms. */
  firstTime: number;
  lastTime: number;
  /** Points inside. */
  points: number;
}

/** At most 5,000 vehicles with the total (the window is ≤ 24 h: checkHistoryPeriod). */
export function searchFrameGps(bounds: Bounds, startTime: number, endTime: number): Promise<{ total: number; records: FrameGpsVehicle[] }> {
  return http.post('/service-onlinegps/geography/searchFrameGps', { ...bounds, startTime, endTime });
}
