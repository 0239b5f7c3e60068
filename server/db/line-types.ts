/**
 * Issue 15: lines with their stations in order (/information/lineManagement; migration 22 `line`,
 * `line_station`, and `vehicle.line_id`). Rules of stations: domain/fleet/line.ts.
 */
import type { LineDirection, Station } from '../../domain/fleet/line.ts';
import type { Scope } from './scope.ts';
import type { Page, PageRequest } from './types.ts';

export interface LineRecord {
  readonly id: number;
  readonly companyId: number;
  readonly companyName: string;
  readonly name: string;
  /** The operator's line number (e.g. the bus company's own code); '' = not entered. */
  readonly code: string;
  readonly remark: string;
  /** Vehicles on the line (all of them, whoever reads). */
  readonly vehicleCount: number;
  readonly upStationCount: number;
  readonly downStationCount: number;
  /** km along the stations of each direction (domain/fleet/line.ts `directionLengthKm`), 2 decimals. */
  readonly upLengthKm: number;
  readonly downLengthKm: number;
  readonly createTime: number;
  readonly updateTime: number;
}

export interface LineInput {
  readonly companyId: number;
  readonly name: string;
  readonly code: string;
  readonly remark: string;
}

export interface LineFilter {
  /** Part of the name or the code. */
  readonly keyword?: string;
}

export interface LineStations {
  readonly up: Station[];
  readonly down: Station[];
}

/** A vehicle as the line screen shows it (and as the vehicle assignment checks it). */
export interface LineVehicle {
  readonly id: number;
  readonly vehiidno: string;
  readonly companyId: number;
  readonly companyName: string;
  /** The company's materialised path: the line-company subtree check. */
  readonly companyPath: string;
  readonly lineId: number | null;
  readonly deviceNo: string | null;
}

export interface LineRepository {
  get(scope: Scope, id: number): Promise<LineRecord | undefined>;
  /** Ordered by company path, then name. */
  page(scope: Scope, req: PageRequest & LineFilter): Promise<Page<LineRecord>>;
  /** Another line of the company already has this name (case-insensitively). */
  nameTaken(companyId: number, name: string, exceptId?: number): Promise<boolean>;
  /** Another line of the company already has this non-empty code (case-insensitively). */
  codeTaken(companyId: number, code: string, exceptId?: number): Promise<boolean>;
  create(input: LineInput): Promise<number>;
  update(id: number, patch: Partial<Omit<LineInput, 'companyId'>>): Promise<void>;
  /** Deletes the line and its stations (a line with vehicles is refused before: see `vehicleCount`). */
  delete(id: number): Promise<void>;
  /** Marks the line changed now (stations or vehicles changed). */
  touch(id: number): Promise<void>;
  /** Vehicles on the line, unscoped (the delete check). */
  vehicleCount(id: number): Promise<number>;
  stations(id: number): Promise<LineStations>;
  /** Replaces one direction's stations (within the caller's transaction). */
  replaceStations(id: number, direction: LineDirection, stations: readonly Station[]): Promise<void>;
  /** Vehicles on the line in the scope, by plate, at most `limit`. */
  vehiclesOf(scope: Scope, id: number, limit: number): Promise<LineVehicle[]>;
  /** These vehicles as far as they lie in the scope (missing ids are outside it or do not exist). */
  vehiclesByIds(scope: Scope, ids: readonly number[]): Promise<LineVehicle[]>;
  /** Puts the vehicles on `lineId` (null: off any line) and stamps their update time. */
  setVehiclesLine(vehicleIds: readonly number[], lineId: number | null): Promise<void>;
  /** The company path of a company (the line's subtree). */
  companyPath(companyId: number): Promise<string | undefined>;
}
