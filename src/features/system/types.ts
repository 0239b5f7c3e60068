/** Shapes of the management calls (server/API.md "Shapes"). */

export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
}

/** 0 administrator, 1 company administrator, 2 user. */
export type UserLevel = 0 | 1 | 2;
export const USER_LEVELS: readonly UserLevel[] = [0, 1, 2];

export interface User {
  id: number;
  username: string;
  realName: string;
  userLevel: UserLevel;
  companyId: number;
  companyName: string;
  roleIds: number[];
  phone: string;
  email: string;
  /** 1 active, 0 disabled. */
  status: 0 | 1;
  /** Epoch ms, or null for never. */
  expireTime: number | null;
  /** Comma-separated IPv4 addresses or CIDR ranges; '' = anywhere. */
  allowedIps: string;
  geoInverse: boolean;
  createTime: number;
  updateTime: number;
}

export interface Role {
  id: number;
  name: string;
  companyId: number;
  remark: string;
  createTime: number;
  updateTime: number;
  permissionIds: number[];
}

export interface PermissionRecord {
  id: number;
  pid: number;
  /** 1 route, 2 button or element. */
  type: 1 | 2;
  name: string;
  nameEn: string;
  routeKey: string;
  offset: number;
  permissions: number;
  sort: number;
}

export interface RolePermissions {
  roleId: number;
  permissionIds: number[];
  permissions: { offset: number; permissions: number }[];
}

/** A node of findAllPrivTree: the root has id 0 and the localised name 'all permissions'. */
export interface PrivTreeNode extends Partial<PermissionRecord> {
  id: number;
  name: string;
  children?: PrivTreeNode[];
}

export interface PrivDetail {
  record: PermissionRecord;
  roles: { id: number; name: string; granted: boolean }[];
}

export interface CompanyOption {
  id: number;
  pid: number;
  name: string;
  childCount: number;
  vehicleCount: number;
}

export interface LoginTicket {
  ticket: string;
  expireTime: number;
  path: string;
}
