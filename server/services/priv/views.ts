/** Shapes the answers of server/API.md from repository records. */
import { bitOf, slotOf, type PermissionMask } from '../../../domain/permissions/bits.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { Scope } from '../../db/scope.ts';
import type { Company, PermissionRow, User } from '../../db/types.ts';

export interface PermissionRecord extends PermissionRow {
  readonly offset: number;
  readonly permissions: number;
}

export function toPermissionRecord(row: PermissionRow): PermissionRecord {
  return { ...row, offset: slotOf(row.id), permissions: bitOf(row.id) };
}

export type SessionUser = User & { readonly permissions: readonly PermissionMask[] };

export function sessionUser(user: User, permissions: readonly PermissionMask[]): SessionUser {
  return { ...user, permissions };
}

export interface CompanyView {
  readonly id: number;
  readonly pid: number;
  readonly name: string;
  readonly contact: string;
  readonly phone: string;
  readonly address: string;
  readonly remark: string;
  readonly createTime: number;
  readonly updateTime: number;
  readonly childCount: number;
  readonly vehicleCount: number;
}

export async function companyViews(repos: Repositories, companies: readonly Company[]): Promise<CompanyView[]> {
  const ids = companies.map((c) => c.id);
  const [children, vehicles] = await Promise.all([repos.companies.childCounts(ids), repos.companies.subtreeVehicleCounts(ids)]);
  return companies.map(({ path: _path, ...c }) => ({ ...c, childCount: children.get(c.id) ?? 0, vehicleCount: vehicles.get(c.id) ?? 0 }));
}

/** Names of the companies in `scope` by id (exports name a record's company; one outside the scope stays unnamed). */
export async function companyNames(repos: Repositories, scope: Scope): Promise<Map<number, string>> {
  return new Map((await repos.companies.listAll(scope)).map((c) => [c.id, c.name]));
}
