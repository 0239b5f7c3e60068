/**
 * The storage contract handlers depend on. Methods are async so a networked database (PostgreSQL)
 * can implement the same interfaces; the SQLite implementation lives in ./sqlite/.
 *
 * Scoping rule: every method that reads or changes rows by id or lists rows takes a Scope and
 * treats rows outside it as missing (handlers answer 404). Methods without a Scope are for
 * authentication (before a caller is known) or act on ids the handler has already resolved in scope.
 */
import type { TerminalRegistrationView } from '../../domain/vehicle/registration.ts';
import type { TrackData } from '../../proto/track-codec.ts';
import type { AlarmStatsRepository } from './alarm-stats-types.ts';
import type { AlarmRepository } from './alarm-types.ts';
import type { BoardRepository } from './board-types.ts';
import type { AppraisalRepository } from './appraisal-types.ts';
import type { StreamRepository } from './stream-types.ts';
import type { RecordingUploadRepository } from './recording-upload-types.ts';
import type { MediaRepository } from './media-types.ts';
import type { ExportFileRepository, MediaSearchRepository, ObdRepository, RetentionRepository } from './retention-types.ts';
import type { ChannelRepository } from './channel-types.ts';
import type { DeviceTypeRepository } from './device-type-types.ts';
import type { Scope } from './scope.ts';
import type {
  Company, CompanyInput, CompanyUsage, Line, Page, PageRequest, PermissionRow, Role, Session, User,
  UserInput, UserPatch, UserWithSecret, Vehicle, VehicleInput,
} from './types.ts';
import type { VehicleRepository } from './vehicle-record-types.ts';
import type { DeviceRepository } from './device-record-types.ts';
import type { DriverRepository } from './driver-types.ts';
import type { InstallationRepository } from './installation-types.ts';
import type { LineRepository } from './line-types.ts';
import type { ChangeLogRepository } from './change-log-types.ts';

export interface CompanyRepository {
  get(scope: Scope, id: number): Promise<Company | undefined>;
  page(scope: Scope, req: PageRequest & { keyword?: string; pid?: number }): Promise<Page<Company>>;
  /** Direct children of `pid` (null: the roots) inside the scope, by name. */
  children(scope: Scope, pid: number | null): Promise<Company[]>;
  /** Every company in the scope, ordered by path (parents before children). */
  listAll(scope: Scope): Promise<Company[]>;
  /** Creates a company under `pid` (null: a new root). */
  create(pid: number | null, input: CompanyInput): Promise<Company>;
  update(id: number, patch: Partial<CompanyInput>): Promise<void>;
  /** Moves a company (and its subtree) under a new parent (null: make it a root), rewriting the subtree's paths. */
  move(id: number, newPid: number | null): Promise<void>;
  delete(id: number): Promise<void>;
  usage(id: number): Promise<CompanyUsage>;
  /** Direct child count per company id. */
  childCounts(ids: readonly number[]): Promise<Map<number, number>>;
  /** Vehicles in each company's whole subtree, per company id. */
  subtreeVehicleCounts(ids: readonly number[]): Promise<Map<number, number>>;
}

export interface UserRepository {
  /** For login: no scope, the secret included. */
  findByUsername(username: string): Promise<UserWithSecret | undefined>;
  /** For session checks: no scope. */
  getById(id: number): Promise<User | undefined>;
  get(scope: Scope, id: number): Promise<User | undefined>;
  page(scope: Scope, req: PageRequest & { keyword?: string }): Promise<Page<User>>;
  usernameTaken(username: string, exceptId?: number): Promise<boolean>;
  create(input: UserInput, roleIds: readonly number[]): Promise<number>;
  update(id: number, patch: UserPatch, roleIds?: readonly number[]): Promise<void>;
  delete(id: number): Promise<void>;
  /** Permission ids granted by all of the user's roles (deduplicated). */
  permissionIds(userId: number): Promise<number[]>;
}

export interface RoleRepository {
  get(scope: Scope, id: number): Promise<Role | undefined>;
  page(scope: Scope, req: PageRequest & { keyword?: string }): Promise<Page<Role>>;
  list(scope: Scope): Promise<Role[]>;
  create(input: { name: string; companyId: number; remark: string }, permissionIds: readonly number[]): Promise<number>;
  update(id: number, patch: { name?: string; remark?: string }): Promise<void>;
  delete(id: number): Promise<void>;
  /** Users holding the role (for refusing a delete or reporting). */
  userCount(id: number): Promise<number>;
  setPermissions(id: number, permissionIds: readonly number[]): Promise<void>;
  addPermissions(id: number, permissionIds: readonly number[]): Promise<void>;
  removePermissions(id: number, permissionIds: readonly number[]): Promise<void>;
  /** Roles in scope with whether each holds the permission. */
  grantsOf(scope: Scope, permissionId: number): Promise<{ id: number; name: string; granted: boolean }[]>;
}

export interface PermissionRepository {
  list(): Promise<PermissionRow[]>;
  get(id: number): Promise<PermissionRow | undefined>;
  /** Ids among `ids` that exist. */
  existing(ids: readonly number[]): Promise<Set<number>>;
  update(id: number, patch: { name?: string; nameEn?: string; sort?: number }): Promise<void>;
  /** Siblings under `pid` in display order (sort, then id). */
  siblings(pid: number): Promise<PermissionRow[]>;
  setSorts(sorts: readonly { id: number; sort: number }[]): Promise<void>;
}

export interface SessionRepository {
  create(session: { id: string; userId: number; loginType: string; ip: string }): Promise<void>;
  get(id: string): Promise<Session | undefined>;
  touch(id: string): Promise<void>;
  revoke(id: string): Promise<void>;
  /** Ids of a user's unrevoked sessions. */
  liveIds(userId: number): Promise<string[]>;
  /** Revokes every live session of a user; answers how many. */
  revokeAllForUser(userId: number): Promise<number>;
}

export interface LoginGuardRepository {
  /** Failure times of one user name from any address since `since` (the per-account back-off). */
  accountFailures(username: string, since: number): Promise<number[]>;
  /** Failure times from one address for any user name since `since` (the per-address back-off). */
  addressFailures(ip: string, since: number): Promise<number[]>;
  /** Records a failure and forgets failures older than `forgetBefore`. */
  recordFailure(username: string, ip: string, at: number, forgetBefore: number): Promise<void>;
  clearFailures(username: string, ip: string): Promise<void>;
  createTicket(ticket: { hash: string; userId: number; createdBy: number; expireTime: number }): Promise<void>;
  /** Marks an unused, unexpired ticket used and answers its user id; undefined otherwise. */
  consumeTicket(hash: string, now: number): Promise<number | undefined>;
}

/** Vehicles and lines as the company tree needs them (later issues add their management calls). */
export interface FleetRepository {
  /** Lines per company id. */
  lineCounts(ids: readonly number[]): Promise<Map<number, number>>;
  linesOf(scope: Scope, companyId: number): Promise<(Line & { vehicleCount: number })[]>;
  getLine(scope: Scope, id: number): Promise<Line | undefined>;
  getVehicle(scope: Scope, id: number): Promise<Vehicle | undefined>;
  /** Vehicles of a company that are on no line. */
  vehiclesOfCompany(scope: Scope, companyId: number): Promise<Vehicle[]>;
  vehiclesOfLine(scope: Scope, lineId: number): Promise<Vehicle[]>;
  searchVehicles(scope: Scope, keyword: string, limit: number): Promise<Vehicle[]>;
  searchCompanies(scope: Scope, keyword: string, limit: number): Promise<Company[]>;
  /** Lines whose name holds the keyword, in the scope, with their vehicle counts (the tree's search). */
  searchLines(scope: Scope, keyword: string, limit: number): Promise<(Line & { vehicleCount: number })[]>;
  createLine(input: { name: string; companyId: number }): Promise<number>;
  createVehicles(vehicles: readonly VehicleInput[]): Promise<void>;
}

/** One row of position history (units as in migration 2). */
export interface PositionRow {
  readonly vehicleId: number;
  readonly gpsTime: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
  readonly heading: number;
  readonly altitude: number;
  readonly status: number;
  readonly alarm: number;
  readonly mileage: number | null;
  /**
   * Fuel level, litres (0x0200 item 0x02; migration 36). Reads always set it (null when the report
   * had none); optional on writes so producers that never carry fuel need not name it.
   */
  readonly fuel?: number | null;
  readonly receivedAt: number;
}

/** Append-only position history (track playback reads it later). */
export interface PositionRepository {
  /**
   * Appends rows atomically (one transaction). A row whose vehicle and GPS time are already stored (a
   * terminal's resend after a lost ack) is skipped (migration 53); then it answers the rows it stored.
   */
  append(rows: readonly PositionRow[]): Promise<readonly PositionRow[] | void>;
  /**
   * How many appends so far (this process) put rows of the vehicle into a China day already over
   * (blind-area re-uploads, late reports): caches of past days compare it to know they may be stale.
   */
  lateWrites(vehicleId: number): number;
  /** The newest row (by gps_time) of every vehicle that has history. */
  latestPerVehicle(): Promise<PositionRow[]>;
  /** The newest row of each of these vehicles that has history (issue 20: a push node starting to follow a subtree). */
  latestOf(vehicleIds: readonly number[]): Promise<PositionRow[]>;
  /** A vehicle's rows with from <= gps_time < to, oldest first. */
  range(vehicleId: number, from: number, to: number, limit: number): Promise<PositionRow[]>;
}

/** Reading position history for track playback and reports (columns, counts, pages, fleet box search). */
export interface TrackRepository {
  /**
   * A vehicle's track as columns (track playback, reports): rows with from <= gps_time < to, oldest
   * first, at most `limit` (`count`), and `total` = rows in the period. Header fields other than
   * vehicleId, startTime (= from), endTime (= to) and the counts are empty: the caller labels it.
   * With `box`, only points inside the rectangle (edges included) count.
   */
  readTrack(vehicleId: number, from: number, to: number, limit: number, box?: GeoBox): Promise<TrackData>;
  /** readTrack with the header set from `label`, encoded as proto/track.proto bytes (the binary trail). */
  readTrackEncoded(vehicleId: number, from: number, to: number, limit: number, label: { plate: string; deviceNo: string; startTime: number; endTime: number }): Promise<Uint8Array>;
  /** Rows with from <= gps_time < to. */
  count(vehicleId: number, from: number, to: number): Promise<number>;
  /** One page of a vehicle's rows (from <= gps_time < to, oldest first), skipping `offset`. */
  page(vehicleId: number, from: number, to: number, offset: number, limit: number): Promise<PositionRow[]>;
  /**
   * Keyset paging (the JSON trail): rows after `after` in (gps_time, row id) order, or from the
   * `offset`-th row when `after` is undefined (an index-only skip); `last` is the key of the page's last
   * row, to pass as `after` for the next page. Each page costs its own rows, not the ones before it.
   */
  pageAfter(vehicleId: number, from: number, to: number, after: TrailKey | undefined, offset: number, limit: number): Promise<{ rows: PositionRow[]; last: TrailKey | undefined }>;
  /**
   * Vehicles in the scope with at least one point inside the box with from <= gps_time < to: first
   * and last time inside and the point count, by vehicle id; at most `limit`, with the total.
   */
  vehiclesInBox(scope: Scope, from: number, to: number, box: GeoBox, limit: number): Promise<{ rows: VehicleInBox[]; total: number }>;
}

/** A position row's place in a vehicle's history: its gps_time, then its row id (ties in time). */
export interface TrailKey {
  readonly time: number;
  readonly rowid: number;
}

/** A WGS-84 rectangle in degrees, edges included. */
export interface GeoBox {
  readonly minLng: number;
  readonly minLat: number;
  readonly maxLng: number;
  readonly maxLat: number;
}

export interface VehicleInBox {
  readonly vehicleId: number;
  readonly firstTime: number;
  readonly lastTime: number;
  readonly points: number;
}

/** A vehicle as the gateway and the live store see it. */
export interface LiveVehicleRow {
  readonly vehicleId: number;
  readonly companyId: number;
  readonly companyPath: string;
  readonly deviceNo: string;
  /** The terminal's current auth code; null before it registers. */
  readonly authCode: string | null;
}

/**
 * A device as the gateway's directory sees it (issue 15): its vehicle (null: in stock or unassigned)
 * with that vehicle's company, and the current auth code.
 */
export interface DeviceDirectoryRow {
  readonly deviceNo: string;
  readonly vehicleId: number | null;
  /** The vehicle's company (null without a vehicle). */
  readonly companyId: number | null;
  readonly companyPath: string | null;
  readonly authCode: string | null;
}

/** A vehicle as the live store holds it (with or without a device). */
export interface StoreVehicleRow {
  readonly vehicleId: number;
  readonly companyId: number;
  readonly companyPath: string;
  readonly deviceNo: string | null;
}

/** What a terminal sent in a refused 0x0100 (kept on the device page, `device/error`). */
export interface RegisterRefusalInput {
  readonly deviceNo: string;
  /** 0x8100 result: 4 no such terminal, 2 the device has no vehicle. */
  readonly result: number;
  readonly at: number;
  readonly remoteAddress: string;
  readonly makerId: string;
  readonly model: string;
  readonly terminalId: string;
  readonly plateColor: number;
  readonly plate: string;
}

/** Refused-registration rows kept at most (the oldest by last time go): unknown numbers cannot fill the disk. */
export const REGISTER_REFUSALS_MAX = 10_000;

/** The vehicle directory the monitor calls show next to live state. */
export interface VehicleLabel {
  readonly vehicleId: number;
  readonly vehiidno: string;
  /** null: no device installed (migration 22). */
  readonly deviceNo: string | null;
  readonly companyId: number;
  readonly companyName: string;
}

export interface TerminalRegistration {
  readonly deviceNo: string;
  readonly authCode: string;
  readonly makerId: string;
  readonly model: string;
  readonly terminalId: string;
  readonly plateColor: number;
  readonly plate: string;
}

/** A vehicle's terminal registration as operators see it (migration 14): the console's view less the live `online`. */
export type TerminalRegistrationState = Omit<TerminalRegistrationView, 'online'>;

/** JT/T 808 terminals: registrations, auth codes, vehicle lookups by terminal number. */
export interface TerminalRepository {
  /** Every vehicle with its company path and auth code (loads the store and the gateway's cache). */
  allVehicles(): Promise<LiveVehicleRow[]>;
  byDeviceNo(deviceNo: string): Promise<LiveVehicleRow | undefined>;
  /** Records (or replaces) a terminal's registration and auth code. */
  register(reg: TerminalRegistration): Promise<void>;
  markAuthenticated(deviceNo: string, at: number): Promise<void>;
  /** Counts a refused re-registration (0x8100 result 3) on the terminal's row, with its time and remote address. */
  recordRefusedRegistration(deviceNo: string, at: number, remoteAddress: string | null): Promise<void>;
  /**
   * Ends a registration: the auth code is void, so the terminal must register again. `by` 'terminal'
   * (its 0x0003) or 'operator' (a reset from the console, `userId`). False when it was not registered.
   */
  unregister(deviceNo: string, at: number, by: 'terminal' | 'operator', userId?: number): Promise<boolean>;
  /** The registration state of a vehicle's terminal; undefined when the vehicle does not exist. */
  registrationOf(vehicleId: number): Promise<TerminalRegistrationState | undefined>;
  /** Every device with its vehicle and auth code (loads the gateway's directory). */
  allDevices(): Promise<DeviceDirectoryRow[]>;
  /** One device by its 12-digit number; undefined when no such device is entered. */
  deviceByNo(deviceNo: string): Promise<DeviceDirectoryRow | undefined>;
  /** Every vehicle (with or without a device), or the given ones, with its company path: the live store's rows. */
  storeVehicles(vehicleIds?: readonly number[]): Promise<StoreVehicleRow[]>;
  /**
   * autoRegister (issue 15): an unknown number becomes a device of `companyId` with source 'auto' and no
   * vehicle ("unassigned"), with its operator-log row (the terminal as the actor), in one transaction.
   */
  provisionDevice(input: { deviceNo: string; companyId: number; terminalId: string; model: string; at: number; remoteAddress: string }): Promise<DeviceDirectoryRow>;
  /** A refused 0x0100 (result 4 or 2): one row per number, counted; at most REGISTER_REFUSALS_MAX rows. */
  recordRegisterRefusal(input: RegisterRefusalInput): Promise<void>;
  /** The first root company (lowest id), the default home of provisioned devices. */
  defaultCompanyId(): Promise<number | undefined>;
  /** Labels of the given vehicles inside the scope (others are left out). */
  labels(scope: Scope, vehicleIds: readonly number[]): Promise<Map<number, VehicleLabel>>;
}

export interface Repositories {
  readonly companies: CompanyRepository;
  readonly users: UserRepository;
  readonly roles: RoleRepository;
  readonly permissions: PermissionRepository;
  readonly sessions: SessionRepository;
  readonly loginGuard: LoginGuardRepository;
  readonly fleet: FleetRepository;
  readonly positions: PositionRepository;
  readonly tracks: TrackRepository;
  readonly terminals: TerminalRepository;
  /** Safety alarms (issue 5): types, settings, alarms, deal log. */
  readonly alarms: AlarmRepository;
  /** Safety board (issue 5): vehicles' open risks, their alarms and action log. */
  readonly board: BoardRepository;
  /** Alarm statistics (issue 5, migration 11): aggregates over the stored alarms. */
  readonly alarmStats: AlarmStatsRepository;
  /** Live video (issue 6): stream log and daily connection limits. */
  readonly streams: StreamRepository;
  /** Vehicle appraisal (issue 5): settings per company, alarm counts per vehicle and day. */
  readonly appraisal: AppraisalRepository;
  /** Multimedia (issue 6): photos uploaded by terminals. */
  readonly media: MediaRepository;
  /** Recordings pulled to the server (issue 6): upload tasks and received files. */
  readonly recordingUploads: RecordingUploadRepository;
  /** Issue 12 §5 (migration 16): latest CAN readings, stored-media search results, export jobs. */
  readonly obd: ObdRepository;
  readonly mediaSearches: MediaSearchRepository;
  readonly exportFiles: ExportFileRepository;
  /** Issue 12 §5: batched deletes of history past its retention (server/retention/). */
  readonly retention: RetentionRepository;
  /** Issue 12 §4 (migration 15): a device's channels from its record and its terminal's 0x1003. */
  readonly channels: ChannelRepository;
  /** Issue 13 (migration 18): device types per company, the first resource of server/resources/. */
  readonly deviceTypes: DeviceTypeRepository;
  /** Issue 15 (migration 22): vehicles as master data (/information/vehicle, /service-priv/vehicle). */
  readonly vehicles: VehicleRepository;
  /** Issue 15: devices (terminals) apart from vehicles, unassigned devices, refused registrations. */
  readonly devices: DeviceRepository;
  /** Issue 15: drivers, their photos, vehicles driven and 0x0702 sign-ins. */
  readonly drivers: DriverRepository;
  /** Issue 15: installation records (bind, remove, replace a device) with photos. */
  readonly installations: InstallationRepository;
  /** Issue 15: lines with their stations in order (/information/lineManagement). */
  readonly lines: LineRepository;
  /** Issue 15: the operator log: every change to a vehicle, device, driver, … with who, when, from where, before and after. */
  readonly changeLog: ChangeLogRepository;
}

export interface Storage extends Repositories {
  /**
   * Runs `fn` atomically: every write through `tx` commits together or not at all.
   * Await only repository calls inside; the SQLite backend serialises transactions.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  close(): void;
}
