import { http } from '../../api/http.ts';
import { serverExportJob } from '../../kit/export-job.ts';
import type { Page } from '../system/types.ts';

/** server/API.md `Company`. */
export interface Company {
  id: number;
  pid: number;
  name: string;
  contact: string;
  phone: string;
  address: string;
  remark: string;
  createTime: number;
  updateTime: number;
  childCount: number;
  vehicleCount: number;
}

export interface CompanyInput {
  pid: number;
  name: string;
  contact: string;
  phone: string;
  address: string;
  remark: string;
}

// The page filters by `pid` itself, so the selected company is not injected a second time.
export const companyApi = {
  page: (q: { current: number; size: number; keyword?: string; pid?: number }) =>
    http.get<Page<Company>>('/service-priv/company/page', Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '')), { noCompanyId: true }),
  create: (c: CompanyInput) => http.post<Company>('/service-priv/company', c, { noCompanyId: true, silent: true }),
  update: (c: CompanyInput & { id: number }) => http.put<Company>('/service-priv/company', c, { noCompanyId: true, silent: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>('/service-priv/company', { ids }, { noCompanyId: true, silent: true }),
  /** The export job for the page's filters (children of `pid` when a company is picked, else the caller's subtree). */
  exportJob: (q: { keyword?: string; pid?: number }) =>
    serverExportJob('/service-priv/company', Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '')), { noCompanyId: true }),
};
