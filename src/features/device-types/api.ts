import { http, type ExportResult } from '../../api/http.ts';
import type { DeviceProtocol } from '../../../domain/device-type/limits.ts';
import { serverExportJob } from '../../kit/export-job.ts';
import type { Page } from '../system/types.ts';

/** server/API.md `DeviceType` (`/service-priv/devtype`). */
export interface DeviceType {
  id: number;
  companyId: number;
  devTypeName: string;
  protocol: DeviceProtocol;
  makerId: string;
  model: string;
  remark: string;
  createTime: number;
  updateTime: number;
}

export interface DeviceTypeInput {
  devTypeName: string;
  protocol: DeviceProtocol;
  makerId: string;
  model: string;
  remark: string;
}

const BASE = '/service-priv/devtype';
const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

// The company picked in the tree travels as `companyId` (the http client adds it): the list, a new
// type's company and the import's company follow the tree.
export const deviceTypeApi = {
  page: (q: { current: number; size: number; keyword?: string }) => http.get<Page<DeviceType>>(`${BASE}/search`, defined(q)),
  /** Without `id` a create, with it an update (the spec's one save call). */
  save: (d: DeviceTypeInput & { id?: number }) => http.post<DeviceType>(`${BASE}/save`, d, { silent: true }),
  remove: (ids: number[]) => http.get<{ deleted: number }>(`${BASE}/remove`, { ids }, { noCompanyId: true, silent: true }),
  /** The .xlsx (base64): every row checked first, one bad row writes nothing. */
  import: (file: string) => http.post<{ imported: number; ids: number[] }>(`${BASE}/import`, { file }, { silent: true }),
  /** The import's header row in the UI language. */
  template: (): Promise<ExportResult> => http.export(`${BASE}/import_template`, undefined, { noCompanyId: true, silent: true }),
  exportJob: (q: { keyword?: string }) => serverExportJob(BASE, defined(q)),
};
