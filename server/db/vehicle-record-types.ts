/**
 * Issue 15 (migration 22): vehicles as master data (/information/vehicle, /service-priv/vehicle).
 * The management view of a vehicle (every column of `vehicle` with its company and line names), the
 * list filters, and the writes the vehicle calls make. The device binding itself is written by
 * services/fleet-assets/binding.ts (`changeDevice`), never by these writes (create inserts NULL).
 */
import type { ChannelKind } from './channel-types.ts';
import type { Scope } from './scope.ts';
import type { Page, PageRequest } from './types.ts';

export interface VehicleChannel {
  /** JT/T 1076 logical channel, 1–37. */
  readonly channel: number;
  readonly kind: ChannelKind;
  readonly name: string;
}

export interface VehicleRecord {
  readonly id: number;
  /** The plate (vehiidno). */
  readonly vehiidno: string;
  readonly plateColor: number;
  readonly companyId: number;
  readonly companyName: string;
  /** Path of the owning company. */
  readonly path: string;
  readonly lineId: number | null;
  readonly lineName: string | null;
  readonly deviceNo: string | null;
  readonly vin: string;
  readonly vehicleType: string;
  /** 1 in service, 0 retired. */
  readonly status: number;
  readonly insuranceExpire: number | null;
  readonly inspectionExpire: number | null;
  readonly remark: string;
  readonly createTime: number;
  readonly updateTime: number;
  /** The device record's channels (`device_channel`); filled by `get` and by `extras` for pages. */
  readonly channels?: readonly VehicleChannel[];
  /** Drivers bound (`driver_vehicle`), ordered by name; filled like `channels`. */
  readonly drivers?: readonly { readonly id: number; readonly name: string }[];
}

export type VehicleExpiryFilter = 'soon' | 'expired';

export interface VehicleFilters {
  /** Plate, VIN or device number contains it. */
  readonly keyword?: string;
  readonly lineId?: number;
  readonly status?: number;
  readonly vehicleType?: string;
  /** 1: a device is bound; 0: none. */
  readonly bound?: number;
  /** Insurance or inspection expired / expiring within VEHICLE_LIMITS.expiryWarnDays (China days). */
  readonly expiry?: VehicleExpiryFilter;
}

export interface VehicleWrite {
  readonly vehiidno: string;
  readonly plateColor: number;
  readonly companyId: number;
  readonly lineId: number | null;
  readonly vin: string;
  readonly vehicleType: string;
  readonly status: number;
  readonly insuranceExpire: number | null;
  readonly inspectionExpire: number | null;
  readonly remark: string;
}

/** Counts the list header shows (online comes from the live store). */
export interface VehicleStatusCounts {
  readonly total: number;
  readonly inService: number;
  readonly retired: number;
  readonly bound: number;
  readonly insuranceSoon: number;
  readonly insuranceExpired: number;
  readonly inspectionSoon: number;
  readonly inspectionExpired: number;
}

/** A vehicle's device record as `vehicle/device` answers it. */
export interface VehicleDeviceRow {
  readonly id: number;
  readonly deviceNo: string;
  readonly companyId: number;
  readonly terminalId: string;
  readonly model: string;
  readonly maker: string;
  readonly deviceTypeId: number | null;
  readonly protocol: number;
  readonly channelCount: number;
  readonly simIccid: string;
  readonly installDate: number | null;
  readonly source: string;
}

export interface VehicleMoveResult {
  /** Driver bindings dropped because the driver is outside the target company's subtree, per vehicle. */
  readonly droppedDrivers: ReadonlyMap<number, readonly number[]>;
  /** Lines cleared because the line is outside the target company's subtree, per vehicle. */
  readonly clearedLines: ReadonlySet<number>;
  /** Each moved vehicle's previous company, line and bound device (id and number). */
  readonly before: ReadonlyMap<number, { readonly companyId: number; readonly lineId: number | null; readonly device: { readonly id: number; readonly deviceNo: string; readonly companyId: number } | null }>;
  /** Installation records of the moved vehicles (their log rows move too). */
  readonly installationIds: readonly number[];
}

export interface VehicleRepository {
  get(scope: Scope, id: number): Promise<VehicleRecord | undefined>;
  page(scope: Scope, req: PageRequest & VehicleFilters): Promise<Page<VehicleRecord>>;
  /** Channels and drivers of the given vehicles (a page's), for views. */
  extras(ids: readonly number[]): Promise<Map<number, { channels: VehicleChannel[]; drivers: { id: number; name: string }[] }>>;
  /** Inserts with device_no NULL (binding is changeDevice's). */
  create(input: VehicleWrite): Promise<number>;
  update(id: number, patch: Partial<VehicleWrite>): Promise<void>;
  delete(id: number): Promise<void>;
  /** The id of the vehicle holding `plate` (any company), excluding `exceptId`. */
  plateOwner(plate: string, exceptId?: number): Promise<{ id: number; path: string } | undefined>;
  /** Whether the vehicle has history (positions or alarms): such a vehicle is retired, never deleted. */
  hasHistory(id: number): Promise<boolean>;
  /** Replaces the vehicle's recorded channels. */
  setChannels(id: number, channels: readonly VehicleChannel[]): Promise<void>;
  /** Replaces the vehicle's driver bindings. */
  setDrivers(id: number, driverIds: readonly number[]): Promise<void>;
  /** The ids among `driverIds` that exist in `scope`. */
  driversInScope(scope: Scope, driverIds: readonly number[]): Promise<Set<number>>;
  /** Whether `lineId` is a line of a company inside the subtree rooted at `companyPath`. */
  lineInSubtree(lineId: number, companyPath: string): Promise<boolean>;
  statusCounts(scope: Scope, now: number): Promise<VehicleStatusCounts>;
  deviceOf(vehicleId: number): Promise<VehicleDeviceRow | undefined>;
  /**
   * Moves vehicles to `companyId` with the company copies their history carries (alarms, board items,
   * media items, installation records, transport permits, the bound device) — the caller logs and moves
   * change-log rows.
   */
  moveToCompany(ids: readonly number[], companyId: number, companyPath: string): Promise<VehicleMoveResult>;
  /**
   * A transport permit (box_permit) of these vehicles whose number `companyId` would then hold twice
   * (numbers are unique per company): the move is refused while there is one.
   */
  permitClash(ids: readonly number[], companyId: number): Promise<{ vehiidno: string; permitNo: string } | undefined>;
  /** Devices and drivers a company owns itself (a company still owning them is not deleted). */
  companyAssets(companyId: number): Promise<{ devices: number; drivers: number }>;
  /** Every vehicle's id, VIN and line (the demo seed fills vehicle fields from them). */
  seedRows(): Promise<{ id: number; vin: string; lineId: number | null }[]>;
  /** The demo seed's fields, one UPDATE per vehicle (the caller's transaction). */
  setSeedFields(rows: readonly { id: number; vin: string; plateColor: number; vehicleType: string; insuranceExpire: number | null; inspectionExpire: number | null }[]): Promise<void>;
  /** The newest photo (media_item, type 0) per vehicle. */
  latestPhotos(ids: readonly number[]): Promise<{ vehicleId: number; mediaId: number; channel: number; captureTime: number }[]>;
}
