/**
 * What fences and route plans share as settings a terminal holds (下发): the bound vehicles' send state,
 * the send task and its polling, and the calls every such resource answers under its base path
 * (server/services/fences/api.md, server/services/routes/api.md).
 */
import { http } from '../../api/http.ts';

export type SendState = 'none' | 'queued' | 'sent' | 'ok' | 'failed' | 'timeout' | 'outdated';
export type TaskState = 'queued' | 'sent' | 'ok' | 'failed' | 'timeout';
export const TASK_STATES: readonly TaskState[] = ['queued', 'sent', 'ok', 'failed', 'timeout'];

/** A bound vehicle and what its terminal holds of the resource. */
export interface HeldVehicle {
  vehicleId: number;
  vehiidno: string;
  companyName: string;
  online: boolean;
  sendState: SendState;
  sendTime: number | null;
  result: number | null;
  taskId: number | null;
}

/** A send (下发) task: counts per state and every vehicle's state. */
export interface HeldTask {
  id: number;
  counts: Record<TaskState, number>;
  vehicles: { vehicleId: number; vehiidno: string; state: TaskState; result: number | null }[];
}

const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

/** The calls of a held resource at `base`. The company picked in the tree travels as `companyId` on page and create. */
export function heldApi<View, Detail, Input, Task extends HeldTask>(base: string) {
  return {
    page: (q: { current: number; size: number; name?: string }) => http.get<{ records: View[]; total: number }>(`${base}/page`, defined(q)),
    get: (id: number) => http.get<Detail>(base, { id }, { noCompanyId: true }),
    create: (d: Input & { vehicleIds: number[] }) => http.post<Detail>(base, d, { silent: true }),
    update: (d: Input & { id: number }) => http.put<Detail>(base, d, { silent: true, noCompanyId: true }),
    bind: (id: number, vehicleIds: number[]) => http.put<Detail>(`${base}/vehicles`, { id, vehicleIds }, { silent: true, noCompanyId: true }),
    remove: (ids: number[]) => http.delete<{ deleted: number }>(base, { ids }, { noCompanyId: true, jsonBody: true }), // ids in a JSON body, as the server reads them (a DELETE's params go in the query otherwise)
    send: (id: number) => http.post<Task>(`${base}/send`, { id }, { silent: true, noCompanyId: true }),
    task: (id: number) => http.get<Task>(`${base}/task`, { id }, { noCompanyId: true }),
  };
}

/** Polling stops once nothing is in flight (queued terminals wait for hours: poll them slower). */
export function taskPollMs(task: HeldTask | undefined): number | false {
  if (!task) return 1000;
  if (task.counts.sent > 0) return 1000;
  if (task.counts.queued > 0) return 5000;
  return false;
}
