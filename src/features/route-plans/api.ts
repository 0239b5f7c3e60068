/** Route calls (server/services/routes/api.md). Bodies carry `points` and `sections` as domain/route/types.ts has them. */
import type { LngLat, RouteKeyPoint, RouteSection } from '../../../domain/route/types.ts';
import { heldApi, type HeldTask, type HeldVehicle } from '../terminal-held/api.ts';

export type { SendState } from '../terminal-held/api.ts';

export const ROUTES_ROUTE = '/monitor/route_map';
const BASE = '/service-monitor/route-plan';

export interface RouteView {
  id: number;
  companyId: number;
  companyName: string;
  name: string;
  points: LngLat[];
  sections: RouteSection[];
  deviationSeconds: number;
  startTime: string | null;
  endTime: string | null;
  keyPoints: RouteKeyPoint[];
  remark: string;
  vehicleCount: number;
  createdByName: string;
  createTime: number;
  updateTime: number;
}

export type Track = 'onRoute' | 'offRoute' | 'deviating' | 'unknown';

export interface RouteVehicle extends HeldVehicle {
  track: Track;
  /** 1-based section the vehicle is on (track onRoute). */
  section: number | null;
}

export interface RouteDetail extends RouteView {
  vehicles: RouteVehicle[];
}

export interface RouteTask extends HeldTask {
  kind: 'routeSet' | 'routeDelete';
  routeId: number;
  routeName: string;
}

export interface RouteInput {
  name: string;
  points: LngLat[];
  sections: RouteSection[];
  deviationSeconds: number;
  startTime: string | null;
  endTime: string | null;
  keyPoints: RouteKeyPoint[];
  remark: string;
}

export const routeApi = heldApi<RouteView, RouteDetail, RouteInput, RouteTask>(BASE);
