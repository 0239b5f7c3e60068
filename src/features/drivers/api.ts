import { http, type ExportResult } from '../../api/http.ts';
import type { LicenceClass } from '../../../domain/fleet/limits.ts';
import { serverExportJob } from '../../kit/export-job.ts';
import { importJob } from '../../kit/import-job.ts';
import type { Page } from '../system/types.ts';

/** What the form sends (create, update). */
export interface DriverInput {
  companyId: number;
  name: string;
  licenceNo: string;
  licenceClass: LicenceClass | '';
  licenceExpire: number | null;
  certNo: string;
  certAuthority: string;
  certExpire: number | null;
  phone: string;
  status: 0 | 1;
  remark: string;
  vehicleIds: number[];
}

/** server/services/fleet-assets/api/drivers.md `Driver`. */
export interface Driver extends Omit<DriverInput, 'vehicleIds'> {
  id: number;
  companyName: string;
  vehicles: { id: number; vehiidno: string }[];
  photoTime: number | null;
  signedIn: { vehicleId: number; vehiidno: string; signInTime: number } | null;
  createTime: number;
  updateTime: number;
}

export type DriverExpiryFilter = 'licenceSoon' | 'licenceExpired' | 'certSoon' | 'certExpired';
export interface DriverFilters {
  keyword?: string;
  status?: 0 | 1;
  expiry?: DriverExpiryFilter;
}

export interface DriverSignIn {
  id: number;
  /** null: the vehicle now belongs to a company outside the caller's subtree. */
  vehicleId: number | null;
  vehiidno: string;
  driverName: string;
  driverCert: string;
  signInTime: number;
  signOutTime: number | null;
}

export interface VehicleOption {
  id: number;
  vehiidno: string;
  companyName: string;
}

const BASE = '/service-priv/driver';
const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

// The company picked in the tree travels as `companyId` (the http client adds it) on the list, the
// import and the export; create and update send the form's company (the driver's) explicitly.
export const driverApi = {
  page: (q: { current: number; size: number } & DriverFilters) => http.get<Page<Driver>>(BASE, defined({ ...q })),
  create: (d: DriverInput) => http.post<Driver>(BASE, d, { silent: true }),
  update: (d: DriverInput & { id: number }) => http.put<Driver>(BASE, d, { silent: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>(BASE, { ids }, { jsonBody: true }),
  /** The .xlsx as multipart with progress (`batchimp` → `batch/status`): every row checked first, one bad row writes nothing. */
  importJob: importJob(`${BASE}/batchimp`, `${BASE}/batch/status`),
  template: (): Promise<ExportResult> => http.export(`${BASE}/import_template`, undefined, { noCompanyId: true, silent: true }),
  exportJob: (q: DriverFilters) => serverExportJob(BASE, defined({ ...q })),
  /** Vehicles of the subtree of `companyId` (the driver's company) whose plate contains `keyword`. */
  vehicleOptions: (companyId: number, keyword: string) => http.get<VehicleOption[]>(`${BASE}/vehicle_options`, defined({ companyId, keyword, size: 50 }), { silent: true }),
  uploadPhoto: (id: number, base64: string) => http.post<Driver>(`${BASE}/photo`, { id, file: base64 }, { noCompanyId: true, silent: true }),
  deletePhoto: (id: number) => http.delete<Driver>(`${BASE}/photo`, { id }, { noCompanyId: true, silent: true }),
  /** The photo's bytes (the call needs the session token, so an <img> cannot load it by URL). */
  photo: (id: number, version: number) => http.export(`${BASE}/photo`, { id, t: version }, { noCompanyId: true, silent: true }),
  signIns: (driverId: number, current: number, size: number) => http.get<Page<DriverSignIn>>(`${BASE}/signins`, { driverId, current, size }, { noCompanyId: true }),
};
