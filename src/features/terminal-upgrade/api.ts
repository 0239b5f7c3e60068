/** Terminal upgrade calls (server/services/terminal-upgrade/api.md). */
import { http } from '../../api/http.ts';
import type { Page } from '../system/types.ts';
import type { ParamTask } from '../terminal-params/api.ts';

export const PACKAGES_ROUTE = '/information/params/hjwsUpdate';
export const PUSH_ROUTE = '/information/params/hjwsUpdate2';
/** Upgrade types of 0x8108 (JT/T 808-2019 §8.56). */
export const UPGRADE_TYPES = [0, 12, 52] as const;
export const PACKAGE_MAX_BYTES = 60 * 1024 * 1024;
export const TASK_VEHICLES_MAX = 500;

export interface UpgradePackage {
  id: number; companyId: number; companyName: string; name: string; version: string; upgradeType: number; makerId: string;
  fileName: string; size: number; sha256: string; remark: string; createdByName: string; createTime: number;
}
export interface PackageRef { packageId: number; name: string; version: string; upgradeType: number; makerId: string; size: number }
/** A pushed vehicle's state; 'cancelled': taken out of the queue before its terminal came back (bit 500). */
export const TASK_STATES = ['queued', 'sent', 'ok', 'failed', 'timeout', 'cancelled'] as const;
export type UpgradeTaskState = (typeof TASK_STATES)[number];
export interface UpgradeTaskVehicle {
  vehicleId: number; vehiidno: string; state: UpgradeTaskState; result: number | null; recordId: number | null; updateTime: number;
  /** Failed without a terminal result: sent again N times unanswered (JT/T 808 §4.4). */
  reason: { code: 'unanswered'; retransmissions: number } | null;
}
export interface UpgradeTask extends Omit<ParamTask, 'vehicles'> { vehicles: UpgradeTaskVehicle[]; package: PackageRef; createdByName: string; timeoutMs: number }
export interface UpgradeTaskRow { id: number; companyName: string; package: PackageRef; createdByName: string; createTime: number; counts: Record<string, number> }

export const upgradeApi = {
  packages: (keyword?: string) => http.get<Page<UpgradePackage>>('/service-command/upgrade/package', { current: 1, size: 100, ...(keyword ? { keyword } : {}) }, { noCompanyId: true }),
  upload: (form: FormData, onProgress?: (loaded: number, total: number) => void) =>
    http.upload<UpgradePackage>('/service-command/upgrade/package', form, { noCompanyId: true, silent: true, ...(onProgress ? { onProgress } : {}) }),
  remove: (ids: number[]) => http.post<{ deleted: number }>('/service-command/upgrade/package/delete', { ids }, { noCompanyId: true, silent: true }),
  push: (packageId: number, vehicleIds: number[]) => http.post<UpgradeTask>('/service-command/upgrade/task', { packageId, vehicleIds }, { noCompanyId: true, silent: true }),
  task: (id: number) => http.get<UpgradeTask>('/service-command/upgrade/task', { id }, { noCompanyId: true }),
  /** Cancels the listed queued vehicles of a task, or every queued one without a list. */
  cancel: (id: number, vehicleIds?: number[]) => http.post<UpgradeTask>('/service-command/upgrade/task/cancel', { id, ...(vehicleIds ? { vehicleIds } : {}) }, { noCompanyId: true, silent: true }),
  tasks: () => http.get<Page<UpgradeTaskRow>>('/service-command/upgrade/tasks', { current: 1, size: 50 }, { noCompanyId: true }),
};

export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
