/** Accident analysis calls (server/services/accidents/api.md). */
import { http } from '../../api/http.ts';
import type { AccidentLevel, AccidentState, AccidentType, Responsibility } from '../../../domain/accidents/rules.ts';
import type { Page } from '../system/types.ts';

export const MANUAL_ROUTE = '/safeManagement/accidentAnalysis/manualProcessing';
export const PUBLICITY_ROUTE = '/safeManagement/accidentAnalysis/accidentPublicity';

export interface Accident {
  id: number; companyId: number; companyName: string; vehicleId: number | null; plate: string; vin: string; frameNo: string; sourceProject: string;
  driverId: number | null; driverName: string; time: number; lng: number; lat: number; place: string; type: AccidentType; level: AccidentLevel;
  impliedLevel: AccidentLevel; lightInjuries: number; seriousInjuries: number; deaths: number; propertyLoss: number; responsibility: Responsibility;
  description: string; state: AccidentState; windowMinutes: number; alarmCount: number; fileCount: number; published: boolean;
  createdByName: string; createTime: number; updatedByName: string; updateTime: number;
}
export interface LinkedAlarm { id: number; alarmType: number; alarmName: string; startTime: number; endTime: number | null; lng: number; lat: number; speed: number; riskLevel: string; driverName: string }
export interface EvidenceFile { id: number; fileName: string; kind: 'jpeg' | 'png' | 'mp4' | 'pdf'; size: number; uploadedByName: string; uploadTime: number; url: string }
export interface AccidentDetail extends Accident {
  own: boolean;
  alarms: LinkedAlarm[];
  media: { id: number; channel: number; captureTime: number; mediaType: number; url: string }[];
  recordings: { id: number; channel: number; startTime: number; endTime: number; state: string; files: number }[];
  track: { vehicleId: number; plate: string; startTime: number; endTime: number } | null;
  publicity: { title: string; summary: string; publishedByName: string; publishTime: number; companies: { id: number; name: string }[] } | null;
  files: EvidenceFile[];
}
export interface PublicityRow extends Accident { own: boolean; title: string; summary: string; publishedByName: string; publishTime: number | null }
export interface AccidentInput {
  time: number; lng: number; lat: number; place: string; type: AccidentType; level?: AccidentLevel; lightInjuries: number; seriousInjuries: number;
  deaths: number; propertyLoss: number; responsibility: Responsibility; state?: AccidentState; description: string; driverName?: string;
  frameNo?: string; sourceProject?: string; windowMinutes: number; alarmIds: number[];
}

export const accidentApi = {
  page: (q: { current: number; size: number; keyword?: string; type?: string; level?: string; state?: string }) => http.post<Page<Accident>>('/service-crm/accident/page', q),
  detail: (id: number) => http.get<AccidentDetail>('/service-crm/accident/detail', { id }, { noCompanyId: true }),
  alarms: (vehicleId: number, time: number, windowMinutes: number) =>
    http.get<{ alarms: LinkedAlarm[]; from: number; to: number }>('/service-crm/accident/alarms', { vehicleId, time, windowMinutes }, { noCompanyId: true, silent: true }),
  save: (b: AccidentInput & { vehicleId: number }) => http.post<Accident>('/service-crm/accident/save', b, { noCompanyId: true, silent: true }),
  update: (b: AccidentInput & { id: number }) => http.put<Accident>('/service-crm/accident/update', b, { noCompanyId: true, silent: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>('/service-crm/accident/delete', { ids }, { jsonBody: true, noCompanyId: true, silent: true }),
  publicityPage: (q: { current: number; size: number; keyword?: string; published?: boolean }) => http.post<Page<PublicityRow>>('/service-crm/accident/publicity/page', q),
  publish: (b: { id: number; title: string; summary: string; companyIds: number[] }) => http.post<Accident>('/service-crm/accident/publish', b, { noCompanyId: true, silent: true }),
  unpublish: (id: number) => http.post<Accident>('/service-crm/accident/unpublish', { id }, { noCompanyId: true, silent: true }),
  upload: (id: number, form: FormData) => http.upload<EvidenceFile>(`/service-crm/accident/upload?id=${id}`, form, { silent: true, noCompanyId: true }),
  file: (id: number) => http.export('/service-crm/accident/file', { id }, { noCompanyId: true, silent: true }),
  removeFile: (id: number) => http.delete<{ deleted: number }>('/service-crm/accident/file/delete', { ids: [id] }, { jsonBody: true, noCompanyId: true, silent: true }),
};
