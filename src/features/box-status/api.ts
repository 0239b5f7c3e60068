/** The cargo box calls (server/services/box-status/api.md). */
import { http } from '../../api/http.ts';
import type { BoxFilter } from '../../../domain/box/status.ts';
import type { Page } from '../../kit/useResourceList.ts';

export const BOX_ROUTE = '/monitor/boxStatus';

export interface BoxNow {
  lifted: boolean;
  sealed: boolean;
  loaded: boolean;
  loadT: number | null;
  /** GPS time the state began. */
  since: number;
  time: number;
  speed: number;
  lng: number;
  lat: number;
}

export interface BoxRow {
  /** The vehicle id (the list's row key). */
  id: number;
  vehicleId: number;
  vehiidno: string;
  deviceNo: string | null;
  companyId: number;
  companyName: string;
  online: boolean;
  /** Null before the truck's first report with the box item. */
  box: BoxNow | null;
}

export interface BoxChange {
  time: number;
  lifted: boolean;
  sealed: boolean;
  loaded: boolean;
  loadT: number | null;
  speed: number;
  lng: number;
  lat: number;
}

export interface BoxDay {
  vehicleId: number;
  day: string;
  start: number;
  end: number;
  initial: BoxChange | null;
  changes: BoxChange[];
}

export interface DisposalSite {
  id: number;
  companyId: number;
  name: string;
  lng: number;
  lat: number;
  radiusM: number;
  /** Owned by a company above the selection: applies, but only that company edits it. */
  inherited: boolean;
}

/** A transport permit (准运证); `validTo` exclusive (the midnight after the last valid day). */
export interface BoxPermit {
  id: number;
  companyId: number;
  companyName: string;
  vehicleId: number;
  vehiidno: string;
  permitNo: string;
  validFrom: number;
  validTo: number;
  siteId: number | null;
  siteName: string | null;
  route: string;
  /** Valid now. */
  valid: boolean;
}

export interface BoxSearch {
  state?: BoxFilter;
  online?: 0 | 1;
}

const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

export const boxApi = {
  /** One page of slag trucks; failures show in the list (silent). */
  page: (q: BoxSearch & { current: number; size: number; keyword?: string }) => http.get<Page<BoxRow>>('/service-monitor/box/page', defined({ ...q }), { silent: true }),
  /** A China day of one truck's box states. */
  sites: () => http.get<DisposalSite[]>('/service-monitor/box/sites', {}, { silent: true }),
  saveSite: (site: { name: string; lng: number; lat: number; radiusM: number }) => http.post<{ id: number }>('/service-monitor/box/site/save', site),
  deleteSite: (id: number) => http.post<null>('/service-monitor/box/site/delete', { id }),
  /** The selected company's permits (the first 500). */
  permits: () => http.get<Page<BoxPermit>>('/service-monitor/box/permit/page', { current: 1, size: 500 }, { silent: true }),
  savePermit: (p: { vehicleId: number; permitNo: string; validFrom: number; validTo: number; siteId: number | null; route: string }) => http.post<{ id: number }>('/service-monitor/box/permit/save', p),
  deletePermit: (id: number) => http.post<null>('/service-monitor/box/permit/delete', { id }),
  day: (vehicleId: number, day: string) => http.get<BoxDay>('/service-monitor/box/history', { vehicleId, day }, { silent: true, noCompanyId: true }),
};
