/** Fence calls (server/services/fences/api.md). Bodies carry `geometry` and `rule` as domain/fence/types.ts has them. */
import type { FenceGeometry, FenceRule, FenceShape } from '../../../domain/fence/types.ts';
import { heldApi, type HeldTask, type HeldVehicle } from '../terminal-held/api.ts';

export const FENCES_ROUTE = '/monitor/shape_map';
const BASE = '/service-monitor/fence';

/** `Fence view` of api.md: a row of the list. */
export interface FenceView {
  id: number;
  companyId: number;
  companyName: string;
  name: string;
  shape: FenceShape;
  geometry: FenceGeometry;
  rule: FenceRule;
  remark: string;
  vehicleCount: number;
  createdByName: string;
  createTime: number;
  updateTime: number;
}

export type FenceVehicle = HeldVehicle;

export interface FenceDetail extends FenceView {
  vehicles: FenceVehicle[];
}

export interface FenceTask extends HeldTask {
  kind: 'fenceSet' | 'fenceDelete';
  fenceId: number;
  fenceName: string;
  createTime: number;
  expireTime: number;
  vehicles: (HeldTask['vehicles'][number] & { recordId: number | null; updateTime: number })[];
}

export interface FenceInput {
  name: string;
  geometry: FenceGeometry;
  rule: FenceRule;
  remark: string;
}

// The company picked in the tree travels as `companyId` (added by the http client): the list and a new fence follow the tree.
export const fenceApi = heldApi<FenceView, FenceDetail, FenceInput, FenceTask>(BASE);
