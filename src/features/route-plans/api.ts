/** Route calls (server/services/routes/api.md). Bodies carry `points` and `sections` as domain/route/types.ts has them. */
import { http } from '../../api/http.ts';
import type { LngLat, RouteSection } from '../../../domain/route/types.ts';

export const ROUTES_ROUTE = '/monitor/route_map';
const BASE = '/service-monitor/route-plan';

export interface RouteView {
  id: number;
  companyId: number;
  companyName: string;
  name: string;
  points: LngLat[];
  sections: RouteSection[];
  deviationSeconds: number;
  remark: string;
  vehicleCount: number;
  createdByName: string;
  createTime: number;
  updateTime: number;
}

export type SendState = 'none' | 'queued' | 'sent' | 'ok' | 'failed' | 'timeout' | 'outdated';
export type Track = 'onRoute' | 'offRoute' | 'deviating' | 'unknown';

export interface RouteVehicle {
  vehicleId: number;
  vehiidno: string;
  companyName: string;
  online: boolean;
  sendState: SendState;
  sendTime: number | null;
  result: number | null;
  taskId: number | null;
  track: Track;
  /** 1-based section the vehicle is on (track onRoute). */
  section: number | null;
}

export interface RouteDetail extends RouteView {
  vehicles: RouteVehicle[];
}

export type TaskState = 'queued' | 'sent' | 'ok' | 'failed' | 'timeout';

export interface RouteTask {
  id: number;
  kind: 'routeSet' | 'routeDelete';
  routeId: number;
  routeName: string;
  counts: Record<TaskState, number>;
  vehicles: { vehicleId: number; vehiidno: string; state: TaskState; result: number | null }[];
}

export interface RouteInput {
  name: string;
  points: LngLat[];
  sections: RouteSection[];
  deviationSeconds: number;
  remark: string;
}

const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

export const routeApi = {
  page: (q: { current: number; size: number; name?: string }) => http.get<{ records: RouteView[]; total: number }>(`${BASE}/page`, defined(q)),
  get: (id: number) => http.get<RouteDetail>(BASE, { id }, { noCompanyId: true }),
  create: (d: RouteInput & { vehicleIds: number[] }) => http.post<RouteDetail>(BASE, d, { silent: true }),
  update: (d: RouteInput & { id: number }) => http.put<RouteDetail>(BASE, d, { silent: true, noCompanyId: true }),
  bind: (id: number, vehicleIds: number[]) => http.put<RouteDetail>(`${BASE}/vehicles`, { id, vehicleIds }, { silent: true, noCompanyId: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>(BASE, { ids }, { noCompanyId: true }),
  send: (id: number) => http.post<RouteTask>(`${BASE}/send`, { id }, { silent: true, noCompanyId: true }),
  task: (id: number) => http.get<RouteTask>(`${BASE}/task`, { id }, { noCompanyId: true }),
};

/** Polling stops once nothing is in flight (queued terminals wait for hours: poll them slower). */
export function taskPollMs(task: RouteTask | undefined): number | false {
  if (!task) return 1000;
  if (task.counts.sent > 0) return 1000;
  if (task.counts.queued > 0) return 5000;
  return false;
}
