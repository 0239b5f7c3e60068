/** Calls of the recording upload page (server/API.md "Recordings pulled to the server"). */
import { http, type ExportResult } from '../../api/http.ts';
import type { UploadFileView, UploadTaskView } from '../../../domain/video/recording-upload.ts';

const BASE = '/service-command/1078command';

export type UploadFile = UploadFileView;
export type UploadTask = UploadTaskView;

export interface UploadRequest {
  vehicleId: number;
  channel: number;
  startTime: number;
  endTime: number;
}

/** Asks the terminal to upload (0x9206); errors carry the server's message (not online, no response …). */
export function requestUpload(r: UploadRequest): Promise<UploadTask> {
  return http.post<UploadTask>(`${BASE}/uploadVideoDirect`, r, { noCompanyId: true, silent: true });
}

export function fetchMyTasks(current = 1, size = 50): Promise<{ total: number; records: UploadTask[] }> {
  return http.get(`${BASE}/myFtpVideo`, { current, size }, { noCompanyId: true, silent: true });
}

/** The latest state of the given tasks (the page polls the unfinished ones). */
export function fetchTaskResults(taskIds: number[]): Promise<UploadTask[]> {
  return http.post<UploadTask[]>(`${BASE}/uploadVideoResult`, { taskIds }, { noCompanyId: true, silent: true });
}

export function controlTask(taskId: number, control: 'pause' | 'resume' | 'cancel'): Promise<UploadTask> {
  return http.get<UploadTask>(`${BASE}/uploadVideoControl`, { taskId, control }, { noCompanyId: true, silent: true });
}

/** The received file's bytes and name (for playing and saving). */
export function downloadFile(fileId: number): Promise<ExportResult> {
  return http.export(`${BASE}/ftpdownload`, { fileId }, { noCompanyId: true, silent: true });
}
