/**
 * Issue 15: devices (terminals) apart from vehicles (migration 22 `device`), unassigned devices
 * (auto-registered, no vehicle) and refused registrations (`terminal_refusal`).
 */
import type { DeviceEdition } from '../../domain/fleet/limits.ts';
import type { Scope } from './scope.ts';
import type { Page, PageRequest } from './types.ts';

export type DeviceSource = 'operator' | 'import' | 'auto';

/** A device as the management calls read it: the row, its type's name, its vehicle and its registration. */
export interface DeviceRecord {
  readonly id: number;
  /** The 12-digit terminal phone (SIM) number. */
  readonly deviceNo: string;
  readonly companyId: number;
  readonly companyName: string;
  readonly terminalId: string;
  readonly model: string;
  readonly maker: string;
  readonly deviceTypeId: number | null;
  readonly deviceTypeName: string;
  readonly protocol: DeviceEdition;
  readonly channelCount: number;
  readonly simIccid: string;
  /** Epoch ms of the install day; null when not entered. */
  readonly installDate: number | null;
  readonly source: DeviceSource;
  readonly remark: string;
  readonly createTime: number;
  readonly updateTime: number;
  /** The vehicle it is installed on (null: in stock, or unassigned when auto-registered). */
  readonly vehicleId: number | null;
  readonly plate: string | null;
  /** The terminal holds a valid auth code (registered and not unregistered or reset). */
  readonly registered: boolean;
  readonly registerTime: number | null;
  readonly authTime: number | null;
}

/** The fields an operator enters (import and create; an update patches some). */
export interface DeviceInput {
  readonly deviceNo: string;
  readonly companyId: number;
  readonly terminalId: string;
  readonly model: string;
  readonly maker: string;
  readonly deviceTypeId: number | null;
  readonly protocol: DeviceEdition;
  readonly channelCount: number;
  readonly simIccid: string;
  readonly installDate: number | null;
  readonly remark: string;
  readonly source: DeviceSource;
}

export interface DeviceFilter {
  /** Matches the number, terminal id, model or ICCID. */
  readonly keyword?: string;
  readonly deviceTypeId?: number;
  readonly protocol?: DeviceEdition;
  /** true: installed on a vehicle; false: not installed. */
  readonly bound?: boolean;
  readonly source?: DeviceSource;
  /** true: auto-registered and not installed ("未分配"). */
  readonly unassigned?: boolean;
}

/** One option of the device pickers (`device/pp/search`). */
export interface DeviceOption {
  readonly id: number;
  readonly deviceNo: string;
  readonly companyId: number;
  readonly companyName: string;
  readonly model: string;
  readonly channelCount: number;
  readonly vehicleId: number | null;
  readonly plate: string | null;
}

/** A refused registration (0x8100 result 4: no such terminal; 2: the device has no vehicle), one row per number. */
export interface RegisterRefusal {
  readonly deviceNo: string;
  readonly result: number;
  readonly count: number;
  readonly firstTime: number;
  readonly lastTime: number;
  readonly remoteAddress: string;
  readonly makerId: string;
  readonly model: string;
  readonly terminalId: string;
  readonly plateColor: number;
  readonly plate: string;
  /** The number is entered as a device now (e.g. added from this row after the refusal). */
  readonly entered: boolean;
}

export interface RefusalQuery extends PageRequest {
  readonly keyword?: string;
  readonly result?: number;
}

export interface DeviceRepository {
  get(scope: Scope, id: number): Promise<DeviceRecord | undefined>;
  page(scope: Scope, query: PageRequest & DeviceFilter): Promise<Page<DeviceRecord>>;
  /** The export's rows: the first `limit` matching, and how many matched. */
  list(scope: Scope, filter: DeviceFilter, limit: number): Promise<{ total: number; records: DeviceRecord[] }>;
  create(input: DeviceInput): Promise<number>;
  /** A renumbering (`deviceNo`) follows to the vehicle and the registration row (foreign keys ON UPDATE CASCADE). */
  update(id: number, patch: Partial<Omit<DeviceInput, 'source'>>): Promise<void>;
  delete(id: number): Promise<void>;
  /** True when another device (not `exceptId`) has this number. */
  numberTaken(deviceNo: string, exceptId?: number): Promise<boolean>;
  /** Picker options in the scope, by number / model / plate, at most `size`. */
  search(scope: Scope, query: { keyword?: string; unbound?: boolean; size: number }): Promise<DeviceOption[]>;
  /** Refused registrations, newest first. They belong to no company: the caller decides who reads them. */
  refusals(query: RefusalQuery): Promise<Page<RegisterRefusal>>;
}
