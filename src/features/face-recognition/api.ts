import { http } from '../../api/http.ts';
import type { Page } from '../system/types.ts';

/** server/services/face-recognition/api.md */
export const RESULT_KINDS = ['pass', 'mismatch', 'noFace'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];
export type PushState = 'none' | 'ok' | 'failed' | 'offline' | 'timeout';

export interface RecognitionResult {
  id: number;
  vehicleId: number | null;
  plate: string;
  deviceNo: string;
  companyId: number;
  companyName: string;
  time: number;
  receiveTime: number;
  result: ResultKind;
  similarity: number;
  threshold: number;
  trigger: number;
  lat: number;
  lng: number;
  faceId: string;
  reportedName: string;
  driverId: number | null;
  driverName: string;
  driverPhotoTime: number | null;
  mistake: boolean;
  mistakeUserName: string;
  mistakeTime: number | null;
  mistakeRemark: string;
}

export interface ResultFilter {
  plate?: string;
  driver?: string;
  startTime?: number;
  endTime?: number;
  result?: ResultKind;
  minScore?: number;
  maxScore?: number;
  mistake?: 0 | 1;
}

export interface DeviceRow {
  id: number;
  vehicleId: number;
  plate: string;
  deviceNo: string;
  companyId: number;
  companyName: string;
  online: boolean;
  threshold: number;
  bound: number;
  synced: number;
  pushState: PushState;
  pushTime: number | null;
  pushUserName: string;
  terminalFaces: string[] | null;
  statusState: string;
  statusTime: number | null;
  lastResult: { id: number; result: ResultKind; driverName: string; similarity: number; time: number } | null;
}

export interface BoundFace {
  driverId: number;
  name: string;
  certNo: string;
  photoTime: number | null;
  state: 'synced' | 'pending';
  onTerminal: boolean | null;
  bindTime: number;
  bindUserName: string;
}

export interface Candidate { driverId: number; name: string; certNo: string; companyName: string; hasPhoto: boolean; bound: boolean }
export interface DeviceOutcome { vehicleId: number; plate: string; state: PushState | 'ok'; held: string[] | null; faces?: number }

const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));
const base = '/service-priv/facerecognition';

export const faceRecognitionApi = {
  results: (q: { current: number; size: number } & ResultFilter) => http.get<Page<RecognitionResult>>(`${base}/result`, defined({ ...q })),
  /** The photo the terminal took (bytes behind the token). */
  resultPhoto: (id: number) => http.export(`${base}/result/photo`, { id }, { noCompanyId: true, silent: true }),
  /** A driver's warehouse photo, versioned by its time. */
  facePhoto: (driverId: number, version: number) => http.export(`${base}/face`, { driverId, t: version }, { noCompanyId: true, silent: true }),
  mistake: (id: number, mistake: boolean, remark?: string) => http.post<RecognitionResult>(`${base}/result/mistake`, defined({ id, mistake, remark }), { noCompanyId: true }),
  devices: (q: { current: number; size: number; keyword?: string; filter?: 'bound' | 'pending' }) => http.get<Page<DeviceRow>>(`${base}/device`, defined({ ...q })),
  faces: (vehicleId: number) => http.get<{ vehicleId: number; plate: string; faces: BoundFace[] }>(`${base}/device/faces`, { vehicleId }, { noCompanyId: true }),
  candidates: (vehicleId: number, keyword: string) => http.get<Candidate[]>(`${base}/device/candidates`, defined({ vehicleId, keyword }), { noCompanyId: true }),
  bind: (vehicleId: number, driverIds: number[]) => http.post<{ changed: number; faces: BoundFace[] }>(`${base}/device/bind`, { vehicleId, driverIds }, { noCompanyId: true }),
  unbind: (vehicleId: number, driverIds: number[]) => http.post<{ changed: number; faces: BoundFace[] }>(`${base}/device/unbind`, { vehicleId, driverIds }, { noCompanyId: true }),
  update: (vehicleIds: number[]) => http.post<{ changed: number }>(`${base}/device/update`, { vehicleIds }, { noCompanyId: true }),
  updateDevice: (vehicleId: number, threshold: number) => http.post<{ threshold: number }>(`${base}/device/updateDevice`, { vehicleId, threshold }, { noCompanyId: true }),
  addSample: (vehicleIds: number[]) => http.post<{ devices: DeviceOutcome[] }>(`${base}/device/addSample`, { vehicleIds }, { noCompanyId: true }),
  getStatus: (vehicleId: number) => http.post<{ state: string; held: string[] | null; faces: BoundFace[]; extra: string[]; time: number }>(`${base}/device/getStatus`, { vehicleId }, { noCompanyId: true }),
  updateStatus: (vehicleIds: number[]) => http.post<{ devices: DeviceOutcome[] }>(`${base}/device/updateStatus`, { vehicleIds }, { noCompanyId: true }),
  recognition: (vehicleId: number) => http.post<{ state: string }>(`${base}/device/recognition`, { vehicleId }, { noCompanyId: true }),
  driver: (vehicleId: number) => http.get<{ online: boolean; last: RecognitionResult | null }>(`${base}/device/driver`, { vehicleId }, { noCompanyId: true }),
};
