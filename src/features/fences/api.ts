/** Fence calls (server/services/fences/api.md). Bodies carry `geometry` and `rule` as domain/fence/types.ts has them. */
import { http } from '../../api/http.ts';
import type { FenceGeometry, FenceRule, FenceShape } from '../../../domain/fence/types.ts';

export const FENCES_ROUTE = '/monitor/shape_map';
const BASE = '/service-monitor/fence';

/** `Fence view` of api.md: a row of the list. */
export interface FenceView {
  id: number;
  companyId: number;
  companyName: string;
  name: string;
  shape: FenceShape;
  geometry: FenceGeometry;
  rule: FenceRule;
  remark: string;
  vehicleCount: number;
  createdByName: string;
  createTime: number;
  updateTime: number;
}

export type SendState = 'none' | 'queued' | 'sent' | 'ok' | 'failed' | 'timeout' | 'outdated';

export interface FenceVehicle {
  vehicleId: number;
  vehiidno: string;
  companyName: string;
  online: boolean;
  sendState: SendState;
  sendTime: number | null;
  result: number | null;
  taskId: number | null;
}

export interface FenceDetail extends FenceView {
  vehicles: FenceVehicle[];
}

export type TaskState = 'queued' | 'sent' | 'ok' | 'failed' | 'timeout';

export interface FenceTask {
  id: number;
  kind: 'fenceSet' | 'fenceDelete';
  fenceId: number;
  fenceName: string;
  createTime: number;
  expireTime: number;
  counts: Record<TaskState, number>;
  vehicles: { vehicleId: number; vehiidno: string; state: TaskState; result: number | null; recordId: number | null; updateTime: number }[];
}

export interface FenceInput {
  name: string;
  geometry: FenceGeometry;
  rule: FenceRule;
  remark: string;
}

const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

// The company picked in the tree travels as `companyId` (added by the http client): the list and a new fence follow the tree.
export const fenceApi = {
  page: (q: { current: number; size: number; name?: string }) => http.get<{ records: FenceView[]; total: number }>(`${BASE}/page`, defined(q)),
  get: (id: number) => http.get<FenceDetail>(BASE, { id }, { noCompanyId: true }),
  create: (d: FenceInput & { vehicleIds: number[] }) => http.post<FenceDetail>(BASE, d, { silent: true }),
  update: (d: FenceInput & { id: number }) => http.put<FenceDetail>(BASE, d, { silent: true, noCompanyId: true }),
  bind: (id: number, vehicleIds: number[]) => http.put<FenceDetail>(`${BASE}/vehicles`, { id, vehicleIds }, { silent: true, noCompanyId: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>(BASE, { ids }, { noCompanyId: true }),
  send: (id: number) => http.post<FenceTask>(`${BASE}/send`, { id }, { silent: true, noCompanyId: true }),
  task: (id: number) => http.get<FenceTask>(`${BASE}/task`, { id }, { noCompanyId: true }),
};

/** Polling stops once nothing is in flight (queued terminals wait for hours: poll them slower). */
export function taskPollMs(task: FenceTask | undefined): number | false {
  if (!task) return 1000;
  if (task.counts.sent > 0) return 1000;
  if (task.counts.queued > 0) return 5000;
  return false;
}
