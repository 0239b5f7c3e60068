/**
 * Issue 15: drivers (migration 22 `driver`), their photo (`driver_photo`, the face warehouse reads it
 * later), the vehicles each drives (`driver_vehicle`) and the JT/T 808 0x0702 sign-ins linked to the
 * driver whose qualification certificate number matches (`driver_sign_in`).
 */
import type { LicenceClass } from '../../domain/fleet/limits.ts';
import type { Scope } from './scope.ts';
import type { Page, PageRequest } from './types.ts';

/** A vehicle a driver drives, as the list shows it. */
export interface DriverVehicle {
  readonly id: number;
  readonly vehiidno: string;
}

/** The open 0x0702 sign-in of a driver: the vehicle it is signed in on now. */
export interface CurrentSignIn {
  readonly vehicleId: number;
  readonly vehiidno: string;
  readonly signInTime: number;
}

/** What an operator enters about a driver. */
export interface DriverInput {
  readonly companyId: number;
  readonly name: string;
  readonly licenceNo: string;
  /** One of LICENCE_CLASSES, '' when not entered. */
  readonly licenceClass: LicenceClass | '';
  /** Epoch ms of the China day; null when not entered. */
  readonly licenceExpire: number | null;
  /** Qualification certificate number ('' = not entered); unique when entered: 0x0702 links by it. */
  readonly certNo: string;
  readonly certAuthority: string;
  readonly certExpire: number | null;
  readonly phone: string;
  /** 1 active, 0 disabled (left the company, suspended). */
  readonly status: 0 | 1;
  readonly remark: string;
}

export interface Driver extends DriverInput {
  readonly id: number;
  readonly companyName: string;
  /** Vehicles driven, by plate; only those inside the scope the driver was read in. */
  readonly vehicles: readonly DriverVehicle[];
  /** Epoch ms of the stored photo, null when there is none. */
  readonly photoTime: number | null;
  /** Signed in on a vehicle now (a 0x0702 card insert not followed by its removal); null otherwise or when that vehicle is outside the scope. */
  readonly signedIn: CurrentSignIn | null;
  readonly createTime: number;
  readonly updateTime: number;
}

/** Which dated document a list filter looks at, and in which state (domain/fleet/limits.ts `expiryState`). */
export type DriverExpiryFilter = 'licenceSoon' | 'licenceExpired' | 'certSoon' | 'certExpired';

export interface DriverFilter {
  /** Part of the name, licence number, certificate number or phone. */
  readonly keyword?: string;
  readonly status?: 0 | 1;
  readonly expiry?: DriverExpiryFilter;
}

export interface DriverSignInRow {
  readonly id: number;
  /** null when the vehicle lies outside the reader's scope (moved to another company): the row is the driver's, the vehicle is not shown. */
  readonly vehicleId: number | null;
  readonly vehiidno: string;
  /** Name and certificate as the card reported them. */
  readonly driverName: string;
  readonly driverCert: string;
  readonly signInTime: number;
  /** null while signed in. */
  readonly signOutTime: number | null;
}

/** One 0x0702 report, as the gateway decoded it, applied to a vehicle's sign-in history. */
export type SignInEvent =
  | { readonly kind: 'in'; readonly cert: string; readonly name: string; readonly time: number }
  | { readonly kind: 'out'; readonly time: number };

export interface DriverRepository {
  get(scope: Scope, id: number): Promise<Driver | undefined>;
  page(scope: Scope, req: PageRequest & DriverFilter & { readonly now?: number }): Promise<Page<Driver>>;
  /** Every match in the scope, by id, at most `limit` (exports). */
  list(scope: Scope, filter: DriverFilter, limit: number, now?: number): Promise<{ total: number; records: Driver[] }>;
  create(input: DriverInput): Promise<number>;
  update(id: number, patch: Partial<DriverInput>): Promise<void>;
  /** Deletes the driver, its photo and its vehicle bindings; sign-in rows stay with driver_id NULL (their card name and number keep them readable). */
  delete(id: number): Promise<void>;
  /** The driver (other than `exceptId`) holding that certificate number. */
  certTaken(certNo: string, exceptId?: number): Promise<{ id: number; name: string } | undefined>;
  /** Ids of the vehicles the driver drives (all, whatever the scope). */
  vehicleIds(driverId: number): Promise<number[]>;
  /** Replaces the driver's vehicles by `vehicleIds`. */
  setVehicles(driverId: number, vehicleIds: readonly number[]): Promise<void>;
  /** Of `vehicleIds`, those that are vehicles inside `scope`. */
  vehiclesIn(scope: Scope, vehicleIds: readonly number[]): Promise<Set<number>>;
  /** Links the sign-ins of card `certNo` that name no driver yet (reported before the driver was entered, or of a deleted one) to the driver. */
  linkSignIns(driverId: number, certNo: string): Promise<void>;
  /** Vehicles inside the scope whose plate contains `keyword` (all when empty), by plate, at most `limit`: the form's picker. */
  vehicleOptions(scope: Scope, keyword: string, limit: number): Promise<(DriverVehicle & { readonly companyName: string })[]>;
  /** Vehicle ids by plate inside the scope (the import's vehicles column). */
  vehicleIdsByPlate(scope: Scope, plates: readonly string[]): Promise<Map<string, number>>;
  photo(driverId: number): Promise<{ mime: string; bytes: Buffer; updateTime: number } | undefined>;
  setPhoto(driverId: number, mime: string, bytes: Buffer): Promise<void>;
  /** Answers whether there was a photo. */
  deletePhoto(driverId: number): Promise<boolean>;
  /** The driver's sign-ins, newest first; vehicles outside `scope` are not named. */
  signIns(scope: Scope, driverId: number, req: PageRequest): Promise<Page<DriverSignInRow>>;
  /**
   * Applies a 0x0702 report of a vehicle: a card in opens a row linked to the driver with that
   * certificate (closing the vehicle's open row of another card, and the same card's open row on
   * another vehicle); the same card again while open changes nothing; a card out (or unreadable)
   * closes the vehicle's open row.
   */
  recordSignIn(vehicleId: number, event: SignInEvent): Promise<void>;
  /** Drivers a company owns (a company that still has some cannot be deleted). */
  countOfCompany(companyId: number): Promise<number>;
}
