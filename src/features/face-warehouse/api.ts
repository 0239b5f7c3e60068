import { http } from '../../api/http.ts';
import type { Page } from '../system/types.ts';

/** server/services/fleet-assets/api/vehicles.md, "Face warehouse": a sample's state. */
export const FACE_STATES = ['enrolled', 'partial', 'stale', 'photoRemoved'] as const;
export type FaceState = (typeof FACE_STATES)[number];

/** One enrolled face (GET /service-priv/facewarehouse). */
export interface FaceSample {
  /** The driver's id. */
  id: number;
  driverId: number;
  name: string;
  licenceNo: string;
  certNo: string;
  companyId: number;
  companyName: string;
  photoTime: number | null;
  photoHash: string;
  enrolTime: number;
  enrolUserName: string;
  state: FaceState;
  vehicles: { vehicleId: number; vehiidno: string; current: boolean; enrolTime: number }[];
}

/** The per-vehicle answer of updateVehicleToFacewarehouse. */
export interface FaceSyncAnswer {
  vehicles: {
    vehicleId: number;
    vehiidno: string | null;
    enrolled: { driverId: number; name: string; change: 'new' | 'updated' | 'unchanged' }[];
    skipped: { reason: 'notInScope' | 'noDriver' | 'noPhoto'; driverId?: number; name?: string; message: string }[];
  }[];
  enrolled: number;
  unchanged: number;
  skipped: number;
}

const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

export const faceWarehouseApi = {
  page: (q: { current: number; size: number; keyword?: string; state?: FaceState }) => http.get<Page<FaceSample>>('/service-priv/facewarehouse', defined({ ...q })),
  /** The face's bytes (the call needs the session token, so an <img> cannot load it by URL). */
  photo: (driverId: number, version: number) => http.export('/service-priv/facewarehouse/photo', { driverId, t: version }, { noCompanyId: true, silent: true }),
  /** The ticked vehicles (≤ 500) of the caller's whole scope, whatever the tree shows now. */
  sync: (ids: number[]) => http.post<FaceSyncAnswer>('/service-priv/vehicle/updateVehicleToFacewarehouse', { ids }, { noCompanyId: true }),
};
