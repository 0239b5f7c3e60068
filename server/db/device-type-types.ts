/** Storage contract of device types (migration 18, server/db/migration-device-types.ts). */
import type { DeviceProtocol } from '../../domain/device-type/limits.ts';
import type { Scope } from './scope.ts';
import type { Page, PageRequest } from './types.ts';

export interface DeviceType {
  readonly id: number;
  readonly companyId: number;
  /** The spec's `devTypeName`. */
  readonly devTypeName: string;
  readonly protocol: DeviceProtocol;
  readonly makerId: string;
  readonly model: string;
  readonly remark: string;
  readonly createTime: number;
  readonly updateTime: number;
}

export type DeviceTypeInput = Omit<DeviceType, 'id' | 'createTime' | 'updateTime'>;

export interface DeviceTypeFilter {
  /** Part of the name, maker id or model. */
  readonly keyword?: string;
  readonly protocol?: DeviceProtocol;
}

export interface DeviceTypeRepository {
  get(scope: Scope, id: number): Promise<DeviceType | undefined>;
  page(scope: Scope, req: PageRequest & DeviceTypeFilter): Promise<Page<DeviceType>>;
  /** Every row the filter matches in the scope, by id, at most `limit` (exports). */
  list(scope: Scope, filter: DeviceTypeFilter, limit: number): Promise<{ total: number; records: DeviceType[] }>;
  /** The type of that company named `name` (case-insensitively), other than `exceptId`. */
  nameTaken(companyId: number, name: string, exceptId?: number): Promise<boolean>;
  create(input: DeviceTypeInput): Promise<number>;
  update(id: number, patch: Partial<DeviceTypeInput>): Promise<void>;
  delete(id: number): Promise<void>;
  /** Device types a company owns (a company that still has some cannot be deleted). */
  countOfCompany(companyId: number): Promise<number>;
}
