/** The multimedia calls (server/API.md "Multimedia"). */
import { http, type ExportResult } from '../../api/http.ts';

export type MediaSource = 'snap' | 'event' | 'upload';

export interface MediaItem {
  id: number; vehicleId: number; vehiidno: string; companyId: number; companyName: string; channel: number; deviceMediaId: number;
  mediaType: number; format: number; eventCode: number; eventName: string; captureTime: number; receivedTime: number;
  lng: number | null; lat: number | null; speed: number | null; size: number; source: MediaSource; sourceName: string;
  alarmId: number | null; alarmType: number | null; alarmName: string | null; requestedBy: number | null; requestedByName: string | null;
  /** The authenticated photo route (needs the token header: load with `loadPhoto`). */
  url: string;
}

export interface MediaPage { records: MediaItem[]; total: number; current: number; size: number }

export interface MediaQuery {
  current: number; size: number; startTime: number; endTime: number; vehicleIds?: number[]; channels?: number[]; sources?: MediaSource[];
}

export interface SnapResult {
  vehicleId: number; alarmId: number | null; items: MediaItem[];
  channels: { channel: number; ok: boolean; count?: number; message?: string }[];
}

export interface StoredItem { mediaId: number; mediaType: number; channel: number; eventCode: number; eventName: string; time: number | null; lng: number | null; lat: number | null; speed: number | null }
export interface StoredSearch { vehicleId: number; searchTime: number; items: StoredItem[] }
export interface UploadResult { vehicleId: number; results: { mediaId: number; result: number | string; resultText: string }[] }

export type ReportKind = 'alarm' | 'snap';

/** The report's route: the key of its server state (kit `useResourceList`). */
export const REPORT_ROUTE: Record<ReportKind, string> = {
  alarm: '/report/media/alarmMedia',
  snap: '/report/media/snapMediaReport',
};

const REPORT_PATH: Record<ReportKind, string> = {
  alarm: '/service-report/media/alarmMedia',
  snap: '/service-report/media/snapMediaReport',
};

export const mediaApi = {
  /** One page; a failure is shown by the kit's list states (silent here). */
  page: (kind: ReportKind, q: MediaQuery) => http.post<MediaPage>(REPORT_PATH[kind], q, { silent: true }),
  export: (kind: ReportKind, q: Omit<MediaQuery, 'current' | 'size'>): Promise<ExportResult> =>
    http.export(`${REPORT_PATH[kind]}/export`, { ...q }, { method: 'POST' }),
  /** The snapshot report's own snapshot (permission of the report page). Failures are shown by the caller. */
  snap: (vehicleId: number, channels?: number[]) => http.post<SnapResult>('/service-command/command/snapMedia', { vehicleId, channels }, { silent: true }),
  /** The alarm pop-up's snapshot, linked to the alarm; the vehicle menu's (no alarm) under the same bit. */
  photoSnap: (vehicleId: number, alarmId?: number) => http.post<SnapResult>('/service-command/command/photoSnap', { vehicleId, alarmId }, { silent: true, noCompanyId: true }),
  /** The terminal's stored photos (0x8802); failures are shown by the caller. */
  searchDevice: (vehicleId: number, q: { channel?: number; startTime?: number; endTime?: number }) =>
    http.post<StoredSearch>('/service-command/command/searchDeviceMedia', { vehicleId, ...q }, { silent: true }),
  uploadByIds: (vehicleId: number, mediaIds: number[]) => http.post<UploadResult>('/service-command/command/uploadDeviceMediaByMediaId', { vehicleId, mediaIds }, { silent: true }),
  uploadResult: (vehicleId: number, mediaIds: number[]) =>
    // POST as the call catalogue says (it was a GET with the ids in the query)
    http.post<{ vehicleId: number; items: MediaItem[]; missing: number[] }>('/service-command/command/uploadDeviceMediaByMediaIdResult', { vehicleId, mediaIds }, { silent: true }),
  /** The photo's bytes with the token header (an <img> cannot send it). */
  photo: (url: string, signal?: AbortSignal) => http.export(url, undefined, { noCompanyId: true, silent: true, signal }),
};
