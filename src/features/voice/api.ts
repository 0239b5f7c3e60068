/** Text templates, audio resources and batch voice dispatch (server/services/voice/api.md). */
import { http } from '../../api/http.ts';
import type { Page } from '../system/types.ts';

export const TEXT_ROUTE = '/operation/entertainmentResources/text';
export const AUDIO_ROUTE = '/operation/entertainmentResources/audio';
export const SEND_ROUTE = '/operation/messageManagement/batchTtsTask';
export const LOG_ROUTE = '/operation/messageManagement/batchTtsLog';
export const AUDIO_MAX_BYTES = 10 * 1024 * 1024;
export const TASK_VEHICLES_MAX = 500;
/** The 0x8300 display types (catalogue §3), in the order the form shows them. */
export const DISPLAY_TYPES = ['tts', 'urgent', 'display', 'advertising'] as const;
export type DisplayType = (typeof DISPLAY_TYPES)[number];
/** Validity windows offered (minutes): how long an offline vehicle may still receive the text. */
export const VALID_CHOICES = [10, 60, 360, 1440, 4320, 10080] as const;
export const VOICE_STATES = ['queued', 'sent', 'ok', 'failed', 'timeout', 'cancelled', 'expired'] as const;
export type VoiceState = (typeof VOICE_STATES)[number];

export interface TextTemplate { id: number; companyId: number; companyName: string; name: string; content: string; remark: string; createdByName: string; createTime: number; updateTime: number }
export interface AudioResource { id: number; companyId: number; companyName: string; name: string; fileName: string; format: 'mp3' | 'wav' | 'ogg'; size: number; remark: string; createdByName: string; createTime: number; updateTime: number; url: string }
export interface VoiceTask { id: number; companyName: string; text: string; types: DisplayType[]; templateId: number | null; createdByName: string; createTime: number; expireTime: number; expired: boolean; counts: Record<VoiceState, number> }
export interface VoiceVehicleRow { taskId: number; vehicleId: number; vehiidno: string; state: VoiceState; result: number | null; updateTime: number; text: string; createTime: number; expireTime: number; createdByName: string; companyName: string }
export interface SendInput { vehicleIds: number[]; text?: string; templateId?: number; types: DisplayType[]; validMinutes: number }

export const voiceApi = {
  textPage: (q: { current: number; size: number; keyword?: string }) => http.post<Page<TextTemplate>>('/service-ops/textManage/page', q),
  textList: () => http.post<TextTemplate[]>('/service-ops/textManage/list', {}),
  textAdd: (b: { name: string; content: string; remark?: string }) => http.post<TextTemplate>('/service-ops/textManage/add', b, { silent: true }),
  textUpdate: (b: { id: number; name: string; content: string; remark?: string }) => http.put<TextTemplate>('/service-ops/textManage/update', b, { silent: true, noCompanyId: true }),
  textRemove: (ids: number[]) => http.delete<{ deleted: number }>('/service-ops/textManage/delete', { ids }, { jsonBody: true, noCompanyId: true, silent: true }),
  audioPage: (q: { current: number; size: number; keyword?: string }) => http.post<Page<AudioResource>>('/service-ops/audioManage/page', q),
  audioList: () => http.post<AudioResource[]>('/service-ops/audioManage/list', {}, { noCompanyId: true }),
  audioUpload: (form: FormData, onProgress?: (loaded: number, total: number) => void) =>
    http.upload<AudioResource>('/service-ops/audioManage/add', form, { silent: true, ...(onProgress ? { onProgress } : {}) }),
  audioUpdate: (b: { id: number; name: string; remark?: string }) => http.put<AudioResource>('/service-ops/audioManage/update', b, { silent: true, noCompanyId: true }),
  audioRemove: (ids: number[]) => http.delete<{ deleted: number }>('/service-ops/audioManage/delete', { ids }, { jsonBody: true, noCompanyId: true, silent: true }),
  /** The bytes behind the session token, for an <audio> through an object URL. */
  audioFile: (id: number) => http.export('/service-ops/audioManage/file', { id }, { noCompanyId: true, silent: true }),
  send: (b: SendInput) => http.post<VoiceTask>('/service-command/voice/save', b, { noCompanyId: true, silent: true }),
  tasks: (q: { current: number; size: number; keyword?: string }) => http.get<Page<VoiceTask>>('/service-command/voice/searchBatchDistribute', q),
  task: (id: number, state?: VoiceState) => http.get<Page<VoiceVehicleRow> & { task: VoiceTask }>('/service-command/voice/searchBatchDistributeLog', { id, current: 1, size: 500, ...(state ? { state } : {}) }, { noCompanyId: true }),
  vehicleRows: (q: { current: number; size: number; keyword?: string; state?: VoiceState }) => http.get<Page<VoiceVehicleRow>>('/service-command/voice/searchBatchDistributeLog2', q),
  disable: (id: number) => http.post<VoiceTask>(`/service-command/voice/disable?id=${id}`, undefined, { noCompanyId: true, silent: true }),
};

export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
