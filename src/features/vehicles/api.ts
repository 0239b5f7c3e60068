import type { ExpiryState } from '../../../domain/fleet/limits.ts';
import { http, type ExportResult } from '../../api/http.ts';
import { serverExportJob } from '../../kit/export-job.ts';
import { importJob } from '../../kit/import-job.ts';
import type { Page } from '../system/types.ts';

/** server/services/fleet-assets/api/vehicles.md `Vehicle`. */
export interface Vehicle {
  id: number;
  vehiidno: string;
  plateColor: number;
  companyId: number;
  companyName: string;
  lineId: number | null;
  lineName: string | null;
  deviceNo: string | null;
  vin: string;
  vehicleType: string;
  status: number;
  insuranceExpire: number | null;
  inspectionExpire: number | null;
  insuranceState: ExpiryState;
  inspectionState: ExpiryState;
  remark: string;
  channels: VehicleChannel[];
  drivers: { id: number; name: string }[];
  driverIds: number[];
  createTime: number;
  updateTime: number;
}

export interface VehicleChannel {
  channel: number;
  kind: 'video' | 'audio';
  name: string;
}

export interface VehicleInput {
  vehiidno: string;
  plateColor: number;
  vin: string;
  lineId?: number | null;
  vehicleType: string;
  status: number;
  insuranceExpire: number | null;
  inspectionExpire: number | null;
  remark: string;
  deviceNo: string | null;
  channels: VehicleChannel[];
  driverIds: number[];
}

export interface VehicleFilters {
  keyword?: string;
  status?: number;
  vehicleType?: string;
  bound?: number;
  expiry?: 'soon' | 'expired';
  lineId?: number;
}

export interface VehicleStatusCounts {
  total: number;
  inService: number;
  retired: number;
  bound: number;
  online: number;
  offline: number;
  insuranceSoon: number;
  insuranceExpired: number;
  inspectionSoon: number;
  inspectionExpired: number;
}

const BASE = '/service-priv/vehicle';
const defined = (q: object) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

// The company picked in the tree travels as `companyId` (the http client adds it): the list, the
// status counts, a new vehicle's company and the import's company follow the tree.
export const vehicleApi = {
  /** 0x8103: the saved plate and colour to the vehicle's terminal (a failure is notified by the client with the server's words). */
  syncToCab: (id: number) => http.get<{ result: 'ok'; vehiidno: string }>(`${BASE}/syncToCab`, { id }, { noCompanyId: true }),
  page: (q: { current: number; size: number } & VehicleFilters) => http.get<Page<Vehicle>>(BASE, defined(q)),
  /** Searches plates, VINs and device numbers in the caller's whole scope (pickers). */
  search: (keyword: string, size = 20) => http.get<Page<Vehicle>>(BASE, { current: 1, size, keyword }, { noCompanyId: true, silent: true }),
  create: (v: VehicleInput) => http.post<Vehicle>(BASE, v, { silent: true }),
  update: (v: Partial<VehicleInput> & { id: number }) => http.put<Vehicle>(BASE, v, { silent: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>(BASE, { ids }, { jsonBody: true }),
  status: () => http.get<VehicleStatusCounts>(`${BASE}/status`),
  plateTaken: (plate: string, id?: number) => http.get<{ taken: boolean; vehicleId?: number }>(`${BASE}/license_plate`, defined({ plate, id }), { noCompanyId: true, silent: true }),
  move: (ids: number[], companyId: number) => http.post<{ moved: number }>(`${BASE}/modifyVehiCompany`, { ids, companyId }, { silent: true }),
  /** Companies of the caller's scope (the move's targets), flat. */
  companies: () => http.get<{ id: number; pid: number; name: string }[]>('/service-priv/company/tree', undefined, { noCompanyId: true, silent: true }),
  /** Lines of a company's subtree (the line page's list; empty without that page's bit). */
  lines: (companyId: number | undefined) => http.get<Page<{ id: number; name: string; companyName?: string }>>('/service-priv/line/page', { current: 1, size: 500, ...(companyId ? { companyId } : {}) }, { noCompanyId: true, silent: true }),
  /** Drivers to bind (the driver page's list, whole scope): id and name. */
  drivers: (keyword: string) => http.get<Page<{ id: number; name: string }>>('/service-priv/driver', { current: 1, size: 20, keyword }, { noCompanyId: true, silent: true }),
  import: (file: string) => http.post<{ imported: number; ids: number[] }>(`${BASE}/import`, { file }, { silent: true }),
  /** The large-file path: multipart upload with progress, then the task's phases (v3/batchimp + batch/status). */
  importJob: importJob(`${BASE}/v3/batchimp`, `${BASE}/batch/status`),
  template: (): Promise<ExportResult> => http.export(`${BASE}/import_template`, undefined, { noCompanyId: true, silent: true }),
  exportJob: (q: VehicleFilters) => serverExportJob(BASE, defined({ ...q })),
};
