/** Records as repositories hand them to handlers (camelCase, times in epoch ms). */

export interface Page<T> {
  readonly records: T[];
  readonly total: number;
  readonly current: number;
  readonly size: number;
}

export interface PageRequest {
  readonly current: number;
  readonly size: number;
}

export interface Company {
  readonly id: number;
  /** 0 for a root. */
  readonly pid: number;
  readonly name: string;
  readonly contact: string;
  readonly phone: string;
  readonly address: string;
  readonly remark: string;
  /** Materialised ancestor path, e.g. `/1/3/12/`; never sent to the console. */
  readonly path: string;
  readonly createTime: number;
  readonly updateTime: number;
}

export interface CompanyInput {
  readonly name: string;
  readonly contact: string;
  readonly phone: string;
  readonly address: string;
  readonly remark: string;
}

export interface CompanyUsage {
  readonly children: number;
  readonly vehicles: number;
  readonly users: number;
  readonly roles: number;
  readonly lines: number;
}

export interface User {
  readonly id: number;
  readonly username: string;
  readonly realName: string;
  readonly userLevel: number;
  readonly companyId: number;
  readonly companyName: string;
  readonly phone: string;
  readonly email: string;
  readonly status: number;
  readonly expireTime: number | null;
  readonly allowedIps: string;
  readonly geoInverse: boolean;
  readonly createTime: number;
  readonly updateTime: number;
  readonly roleIds: number[];
}

export interface UserWithSecret extends User {
  readonly passwordHash: string;
}

export interface UserInput {
  readonly username: string;
  readonly passwordHash: string;
  readonly realName: string;
  readonly userLevel: number;
  readonly companyId: number;
  readonly phone: string;
  readonly email: string;
  readonly status: number;
  readonly expireTime: number | null;
  readonly allowedIps: string;
  readonly geoInverse: boolean;
}

export type UserPatch = Partial<UserInput>;

export interface Role {
  readonly id: number;
  readonly name: string;
  readonly companyId: number;
  readonly remark: string;
  readonly createTime: number;
  readonly updateTime: number;
  readonly permissionIds: number[];
}

export interface PermissionRow {
  readonly id: number;
  readonly pid: number;
  readonly type: 1 | 2;
  readonly routeKey: string;
  readonly name: string;
  readonly nameEn: string;
  readonly sort: number;
}

export interface Session {
  readonly id: string;
  readonly userId: number;
  readonly loginType: string;
  readonly createTime: number;
  readonly lastSeen: number;
  readonly revokedTime: number | null;
}

export interface Line {
  readonly id: number;
  readonly name: string;
  readonly companyId: number;
  readonly path: string;
}

export interface Vehicle {
  readonly id: number;
  readonly vehiidno: string;
  readonly companyId: number;
  readonly lineId: number | null;
  /** The bound device's terminal number; null when no device is installed (migration 22). */
  readonly deviceNo: string | null;
  readonly vin: string;
  readonly createTime: number;
  /** Path of the owning company. */
  readonly path: string;
}

export interface VehicleInput {
  readonly vehiidno: string;
  readonly companyId: number;
  readonly lineId: number | null;
  readonly deviceNo: string | null;
  readonly vin: string;
}
