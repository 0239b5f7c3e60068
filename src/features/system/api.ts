import { http } from '../../api/http.ts';
import { serverExportJob } from '../../kit/export-job.ts';
import type { CompanyOption, LoginTicket, Page, PermissionRecord, PrivDetail, PrivTreeNode, Role, RolePermissions, User } from './types.ts';

/** Fields the user form sends; `password` only on create or to reset it. */
export interface UserInput {
  username: string;
  password?: string;
  realName: string;
  companyId: number;
  userLevel: number;
  roleIds: number[];
  phone: string;
  email: string;
  status: 0 | 1;
  expireTime: number | null;
  allowedIps: string;
  geoInverse: boolean;
}

export interface PageQuery {
  current: number;
  size: number;
  keyword?: string;
}

const compact = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;

export const userApi = {
  // companyId is explicit: the page filters by the company picked in its own tree.
  page: (q: PageQuery & { companyId: number | null }) =>
    http.get<Page<User>>('/service-priv/user/page', compact({ ...q, companyId: q.companyId ?? undefined }), { noCompanyId: q.companyId === null }),
  create: (u: UserInput) => http.post<User>('/service-priv/user', u, { silent: true }),
  update: (u: Partial<UserInput> & { id: number }) => http.put<User>('/service-priv/user', u, { silent: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>('/service-priv/user', { ids }, { noCompanyId: true, silent: true }),
  /** The export job for the page's filters (the file is the caller's subtree, built on the server). */
  exportJob: (q: { keyword?: string; companyId: number | null }) =>
    serverExportJob('/service-priv/user', compact({ keyword: q.keyword, companyId: q.companyId ?? undefined }), { noCompanyId: q.companyId === null }),
  revokeSessions: (id: number) => http.post<{ revoked: number }>('/service-priv/user/revokeSessions', { id }, { noCompanyId: true, silent: true }),
  loginTicket: (userId: number, minutes: number) =>
    http.post<LoginTicket>('/service-priv/loginTicket', { userId, minutes }, { noCompanyId: true, silent: true }),
};

export const roleApi = {
  page: (q: PageQuery) => http.get<Page<Role>>('/service-priv/role/page', compact({ ...q }), { noCompanyId: true }),
  list: () => http.get<Role[]>('/service-priv/role/list', undefined, { noCompanyId: true }),
  // Like the page: every role of the caller's subtree (the role screen has no company tree).
  exportJob: (q: { keyword?: string }) => serverExportJob('/service-priv/role', compact({ keyword: q.keyword }), { noCompanyId: true }),
  create: (r: { name: string; remark: string }) => http.post<Role>('/service-priv/role', r, { silent: true, noCompanyId: true }),
  update: (r: { id: number; name: string; remark: string }) => http.put<Role>('/service-priv/role', r, { silent: true, noCompanyId: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>('/service-priv/role', { ids }, { noCompanyId: true, silent: true }),
  permissions: (roleId: number) => http.get<RolePermissions>('/service-priv/role/role_permissions', { roleId }, { noCompanyId: true }),
  savePermissions: (roleId: number, permissionIds: number[]) =>
    http.post<RolePermissions>('/service-priv/role/role_permissions', { roleId, permissionIds }, { noCompanyId: true }),
};

export const privApi = {
  registry: () => http.get<PermissionRecord[]>('/service-priv/permissions', undefined, { noCompanyId: true }),
  tree: () => http.get<PrivTreeNode>('/service-priv/priv/findAllPrivTree', undefined, { noCompanyId: true }),
  detail: (id: number) => http.get<PrivDetail>('/service-priv/priv/findPrivDetail', { id }, { noCompanyId: true }),
  grant: (roleId: number, ids: number[]) =>
    http.post<{ roleId: number; permissionIds: number[] }>('/service-priv/priv/addPriv', { roleId, ids }, { noCompanyId: true }),
  revoke: (roleId: number, ids: number[]) =>
    http.post<{ roleId: number; permissionIds: number[] }>('/service-priv/priv/delPriv', { roleId, ids }, { noCompanyId: true }),
  rename: (p: { id: number; name: string; nameEn?: string }) =>
    http.post<PermissionRecord>('/service-priv/permissions', p, { noCompanyId: true, silent: true }),
  move: (id: number, direction: 'up' | 'down') =>
    http.get<PermissionRecord[]>('/service-priv/permissions/move', { id, direction }, { noCompanyId: true }),
};

export const companyOptionsApi = {
  /** The caller's company subtree, flat (for pickers). */
  tree: () => http.get<CompanyOption[]>('/service-priv/company/tree', undefined, { noCompanyId: true }),
};
