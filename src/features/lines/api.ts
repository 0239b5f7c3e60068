import { http } from '../../api/http.ts';
import type { LineDirection, Station } from '../../../domain/fleet/line.ts';
import type { Page } from '../system/types.ts';

/** server/services/fleet-assets/api/lines.md `Line`. */
export interface Line {
  id: number;
  companyId: number;
  companyName: string;
  name: string;
  code: string;
  remark: string;
  vehicleCount: number;
  upStationCount: number;
  downStationCount: number;
  upLengthKm: number;
  downLengthKm: number;
  createTime: number;
  updateTime: number;
}

export interface LineVehicle {
  id: number;
  vehiidno: string;
  companyId: number;
  companyName: string;
  deviceNo: string | null;
}

export interface LineDetail extends Line {
  stations: { up: Station[]; down: Station[] };
  vehicles: LineVehicle[];
  /** Where the map opens on a line without stations (its vehicles' or its company's vehicles' median position), or null. */
  mapHint: { lng: number; lat: number } | null;
}

export interface LineInput {
  name: string;
  code: string;
  remark: string;
}

const BASE = '/service-priv/line';
const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

// The company picked in the tree travels as `companyId` (the http client adds it): the list and a new line's company follow the tree.
export const lineApi = {
  page: (q: { current: number; size: number; keyword?: string }) => http.get<Page<Line>>(`${BASE}/page`, defined(q)),
  create: (d: LineInput) => http.post<Line>(BASE, d, { silent: true }),
  update: (d: LineInput & { id: number }) => http.put<Line>(BASE, d, { silent: true, noCompanyId: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>(BASE, { ids }, { noCompanyId: true, silent: true }),
  detail: (id: number) => http.get<LineDetail>(`${BASE}/${id}`, undefined, { noCompanyId: true }),
  /** Replaces one direction's stations (the whole ordered list). */
  saveStations: (lineId: number, direction: LineDirection, stations: readonly Station[]) =>
    http.put<LineDetail>(`${BASE}/stations`, { lineId, direction, stations }, { noCompanyId: true, silent: true }),
  /** Puts vehicles on the line, or takes them off with `remove`. */
  vehicles: (lineId: number, vehicleIds: number[], remove = false) =>
    http.post<{ changed: number; vehicleCount: number }>(`${BASE}/vehicles`, { lineId, vehicleIds, ...(remove ? { remove: true } : {}) }, { noCompanyId: true, silent: true }),
};
