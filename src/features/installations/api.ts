import { http } from '../../api/http.ts';
import type { InstallationKindCode } from '../../../domain/fleet/installation.ts';
import type { Page } from '../system/types.ts';

/** server/services/fleet-assets/api/installations.md: a photo of a record. */
export interface InstallationPhoto {
  id: number;
  name: string;
  mime: string;
  size: number;
  createTime: number;
}

/** server/services/fleet-assets/api/installations.md: an installation record. */
export interface Installation {
  id: number;
  vehicleId: number;
  plate: string;
  companyId: number;
  companyName: string;
  kind: InstallationKindCode;
  oldDeviceNo: string | null;
  newDeviceNo: string | null;
  installer: string;
  installTime: number;
  remark: string;
  userId: number | null;
  userName: string;
  photoCount: number;
  photos: InstallationPhoto[];
  createTime: number;
  updateTime: number;
}

export interface InstallationFilters {
  keyword?: string;
  kind?: InstallationKindCode;
  /** Inclusive epoch-ms bounds on the install time. */
  from?: number;
  to?: number;
}

/** A photo as the calls take it: the file's name, the browser's type, the bytes as base64. */
export interface PhotoUpload {
  name: string;
  type?: string;
  data: string;
}

export interface InstallationCreate {
  vehicleId: number;
  /** The device the vehicle has from now on; null removes its device. */
  deviceNo: string | null;
  installer: string;
  installTime?: number;
  remark: string;
  photos?: PhotoUpload[];
}

export interface InstallationUpdate {
  id: number;
  installer: string;
  installTime: number;
  remark: string;
  addPhotos?: PhotoUpload[];
  removePhotoIds?: number[];
}

const BASE = '/service-priv/vehicle';
const defined = (q: object) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

/** The authenticated photo route (needs the token header: load with media-reports' `usePhoto`). */
export const photoUrl = (id: number) => `${BASE}/installed_records/photo?id=${id}`;

// The company picked in the tree travels as `companyId` (the http client adds it): the list follows the tree.
export const installationApi = {
  page: (q: { current: number; size: number } & InstallationFilters) => http.get<Page<Installation>>(`${BASE}/installed_records`, defined(q)),
  detail: (id: number) => http.get<Installation>(`${BASE}/installed_records/${id}`, undefined, { noCompanyId: true }),
  /** Changes the vehicle's device (install / replace / remove) and records it, photos included. */
  create: (r: InstallationCreate) => http.post<Installation>(`${BASE}/installed_record`, defined(r), { silent: true }),
  /** The record's own fields and photos: never its devices. */
  update: (r: InstallationUpdate) => http.post<Installation>(`${BASE}/installed_records/update`, defined(r), { silent: true }),
  /** Deletes records only; no vehicle's device changes. (The server reads DELETE ids from the query when no body is sent.) */
  remove: (ids: number[]) => http.delete<{ deleted: number }>(`${BASE}/installed_record`, { ids }, { noCompanyId: true, silent: true }),
};
