/**
 * Issue 15 (migration 22 `vehicle_installation`, `installation_photo`): installation records — a device
 * put on a vehicle without one (install), taken off (remove) or exchanged (replace) — with who did the
 * work, when, the old and new device and photos. The binding itself (`vehicle.device_no`) is written
 * here too, and only by `services/fleet-assets/binding.ts` `changeDevice`: the one place a vehicle's
 * device changes after the vehicle exists, so every change leaves its record.
 */
import type { InstallationKindCode } from '../../domain/fleet/installation.ts';
import type { Scope } from './scope.ts';
import type { Page, PageRequest } from './types.ts';

export type InstallationKind = InstallationKindCode;

/** A record as written. */
export interface NewInstallation {
  readonly vehicleId: number;
  /** The vehicle's company (moved with it). */
  readonly companyId: number;
  readonly kind: InstallationKind;
  /** The device taken off (remove, replace); null for an install. */
  readonly oldDeviceNo: string | null;
  /** The device put on (install, replace); null for a remove. */
  readonly newDeviceNo: string | null;
  /** The technician (free text). */
  readonly installer: string;
  /** When the work was done (epoch ms). */
  readonly installTime: number;
  readonly remark: string;
  /** The operator who recorded it; null: the system. */
  readonly userId: number | null;
}

/** A record as read. */
export interface Installation extends NewInstallation {
  readonly id: number;
  /** The vehicle's plate now (the record follows the vehicle). */
  readonly plate: string;
  readonly companyName: string;
  /** That operator's name (real name, else user name); '' when the system recorded it or the user is gone. */
  readonly userName: string;
  readonly photoCount: number;
  readonly createTime: number;
  readonly updateTime: number;
}

export interface InstallationPhotoMeta {
  readonly id: number;
  readonly name: string;
  readonly mime: string;
  /** Bytes. */
  readonly size: number;
  readonly createTime: number;
}

export interface InstallationPhoto extends InstallationPhotoMeta {
  readonly installationId: number;
  readonly bytes: Buffer;
}

export interface NewPhoto {
  readonly name: string;
  readonly mime: string;
  readonly bytes: Buffer;
}

export interface InstallationFilter {
  /** Matches the plate, the old or new device number, or the installer. */
  readonly keyword?: string;
  readonly kind?: InstallationKind;
  readonly vehicleId?: number;
  /** Inclusive epoch-ms bounds on the install time. */
  readonly from?: number;
  readonly to?: number;
}

/** What a binding change reads of a vehicle (no scope: the caller has resolved the vehicle in its scope, or the vehicle was just written). */
export interface BindingVehicle {
  readonly id: number;
  readonly plate: string;
  readonly companyId: number;
  /** The company's materialised path (`/1/3/`). */
  readonly companyPath: string;
  readonly deviceNo: string | null;
}

/** What a binding change reads of a device. */
export interface BindingDevice {
  readonly id: number;
  readonly deviceNo: string;
  readonly companyId: number;
  readonly companyPath: string;
  /** The vehicle it is bound to now, if any. */
  readonly vehicleId: number | null;
  readonly plate: string | null;
}

export interface InstallationRepository {
  get(scope: Scope, id: number): Promise<Installation | undefined>;
  /** Newest install time first. */
  page(scope: Scope, req: PageRequest & InstallationFilter): Promise<Page<Installation>>;
  create(input: NewInstallation): Promise<number>;
  /** The record's own fields only: a binding is never changed by editing a record. */
  update(id: number, patch: { installer?: string; installTime?: number; remark?: string }): Promise<void>;
  /** Deletes the record and its photos; the binding stays as it is. */
  delete(id: number): Promise<void>;

  photos(installationId: number): Promise<InstallationPhotoMeta[]>;
  /** A photo's bytes, when its record lies in the scope. */
  photo(scope: Scope, photoId: number): Promise<InstallationPhoto | undefined>;
  addPhotos(installationId: number, photos: readonly NewPhoto[]): Promise<number[]>;
  /** Removes those of `photoIds` that belong to the record; answers how many went. */
  removePhotos(installationId: number, photoIds: readonly number[]): Promise<number>;

  // ── the binding (binding.ts only) ──
  bindingVehicle(vehicleId: number): Promise<BindingVehicle | undefined>;
  bindingDevice(deviceNo: string): Promise<BindingDevice | undefined>;
  /** Writes `vehicle.device_no` (null: no device) and the vehicle's update time. */
  setVehicleDevice(vehicleId: number, deviceNo: string | null, time: number): Promise<void>;
  /** Moves a device into a company (a device of an ancestor company follows the vehicle it is put on). */
  setDeviceCompany(deviceNo: string, companyId: number, time: number): Promise<void>;

  // ── demo data (server/seed/installations.ts) ──
  /** Every vehicle with a device, by id. */
  boundVehicles(): Promise<{ vehicleId: number; companyId: number; deviceNo: string }[]>;
  /** Inserts records as given (one prepared statement; a seed writes one per vehicle). */
  createMany(records: readonly (NewInstallation & { createTime: number })[]): Promise<void>;
}
