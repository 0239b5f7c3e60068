import type { DeviceEdition } from '../../../domain/fleet/limits.ts';
import { http, type ExportResult } from '../../api/http.ts';
import { serverExportJob } from '../../kit/export-job.ts';
import type { Page } from '../system/types.ts';

export type DeviceSource = 'operator' | 'import' | 'auto';

/** server/services/fleet-assets/api/devices.md `Device`. */
export interface Device {
  id: number;
  deviceNo: string;
  companyId: number;
  companyName: string;
  terminalId: string;
  model: string;
  maker: string;
  deviceTypeId: number | null;
  deviceTypeName: string;
  protocol: DeviceEdition;
  channelCount: number;
  simIccid: string;
  installDate: number | null;
  source: DeviceSource;
  remark: string;
  createTime: number;
  updateTime: number;
  vehicleId: number | null;
  plate: string | null;
  registered: boolean;
  registerTime: number | null;
  authTime: number | null;
  online: boolean;
  unassigned: boolean;
}

export interface DeviceInput {
  deviceNo: string;
  terminalId: string;
  model: string;
  maker: string;
  deviceTypeId: number | null;
  protocol: DeviceEdition;
  channelCount: number;
  simIccid: string;
  installDate: number | null;
  remark: string;
  companyId?: number;
}

export interface DeviceFilters {
  keyword?: string;
  deviceTypeId?: number;
  protocol?: DeviceEdition;
  bound?: boolean;
  unassigned?: boolean;
}

/** One option of the device pickers (`device/pp/search`). */
export interface DeviceOption {
  id: number;
  deviceNo: string;
  companyId: number;
  companyName: string;
  model: string;
  channelCount: number;
  vehicleId: number | null;
  plate: string | null;
}

/** A refused registration (`device/error`). */
export interface RegisterRefusal {
  deviceNo: string;
  /** 0x8100 result: 4 no such terminal, 2 the device is installed on no vehicle. */
  result: number;
  count: number;
  firstTime: number;
  lastTime: number;
  remoteAddress: string;
  makerId: string;
  model: string;
  terminalId: string;
  plateColor: number;
  plate: string;
  entered: boolean;
}

const BASE = '/service-priv/device';
const defined = (q: object) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

// The company picked in the tree travels as `companyId` (the http client adds it): the list, a new
// device's company (unless the form names one) and the import's company follow the tree.
export const deviceApi = {
  page: (q: { current: number; size: number } & DeviceFilters) => http.get<Page<Device>>(BASE, defined(q)),
  create: (d: DeviceInput) => http.post<Device>(BASE, d, { silent: true }),
  update: (d: Partial<DeviceInput> & { id: number }) => http.put<Device>(BASE, d, { silent: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>(BASE, { ids }, { jsonBody: true }),
  /** The .xlsx (base64): every row checked first, one bad row writes nothing. */
  import: (file: string) => http.post<{ imported: number; ids: number[] }>(`${BASE}/import`, { file }, { silent: true }),
  template: (): Promise<ExportResult> => http.export(`${BASE}/import_template`, undefined, { noCompanyId: true, silent: true }),
  exportJob: (q: DeviceFilters) => serverExportJob(BASE, defined(q)),
  /** Picker options in the caller's scope (`unbound`: devices installed on no vehicle). */
  search: (q: { keyword?: string; unbound?: boolean; size?: number }) =>
    http.post<DeviceOption[]>(`${BASE}/pp/search`, defined(q), { noCompanyId: true, silent: true }),
  /** Voids the device's auth code: the terminal must register again (its connection is closed). */
  resetRegistration: (deviceId: number) =>
    http.post<{ deviceId: number; registered: boolean; online: boolean }>(`${BASE}/resetRegistration`, { deviceId }, { noCompanyId: true, silent: true }),
  refusals: (q: { current: number; size: number; keyword?: string; result?: number }) =>
    http.get<Page<RegisterRefusal>>(`${BASE}/error`, defined(q), { noCompanyId: true }),
};
