/** Terminal parameter calls (server/services/terminal-params/api.md). */
import type { ActiveSafetyBlock } from '../../../domain/terminal-params/active-safety.ts';
import { http } from '../../api/http.ts';
import type { Page } from '../system/types.ts';

export const BASE_PARAM_ROUTE = '/information/params/baseParam';

export interface ParamSpec { key: string; id: number; type: 'dword' | 'word' | 'byte' | 'string'; zh: string; unit: string | null; since: number }
/** A parameter value: a number or text, or the fields of an active-safety block (0xF364 / 0xF365). */
export type ParamValue = number | string | ActiveSafetyBlock;
export interface ParamItem { id: number; value: ParamValue; raw: boolean; zh: string | null; unit: string | null }
export interface ParamInput { id: number; value: ParamValue }
export interface QueryAnswer { recordId: number; vehicleId: number; vehiidno: string; answer: { params: ParamItem[] } }
export interface TaskVehicle { vehicleId: number; vehiidno: string; state: 'queued' | 'sent' | 'ok' | 'failed' | 'timeout'; result: number | null; updateTime: number }
export interface ParamTask { id: number; counts: Record<string, number>; vehicles: TaskVehicle[]; createTime: number; expireTime: number }
export interface ParamTemplate { id: number; companyId: number; companyName: string; name: string; params: ParamItem[]; remark: string; createdByName: string; createTime: number; updateTime: number }

export const paramsApi = {
  table: () => http.get<ParamSpec[]>('/service-command/params/table', undefined, { noCompanyId: true }),
  query: (vehicleId: number, ids?: number[]) => http.post<QueryAnswer>('/service-command/params/query', { vehicleId, ...(ids ? { ids } : {}) }, { noCompanyId: true, silent: true }),
  createTask: (vehicleIds: number[], params: ParamInput[]) =>
    http.post<ParamTask>('/service-command/params/task', { vehicleIds, params }, { noCompanyId: true, silent: true }),
  task: (id: number) => http.get<ParamTask>('/service-command/params/task', { id }, { noCompanyId: true }),
  /** One-off terminal functions (0x8107 / 0x8201 / 0x8202 / 0x8105), answered by the live terminal. */
  terminalFun: <A = unknown>(body: { vehicleId: number; fun: 'attributes' | 'position' | 'tracking' | 'control'; interval?: number; validity?: number; command?: number }) =>
    http.post<{ recordId: number; result: number; answer: A }>('/service-command/command/terminalFun', body, { noCompanyId: true, silent: true }),
};

/** 0x0107 as the server answers it. */
export interface TerminalAttributesView { terminalType: number; makerId: string; model: string; terminalId: string; iccid: string; hardwareVersion: string; firmwareVersion: string; gnss: number; comm: number }
/** 0x0201 as the server answers it (the location report's main fields). */
export interface PositionView { location: { lng: number; lat: number; speed: number; direction: number; time: number; altitude?: number } }

/** Parameter templates (参数模板) on the catalogue's paramconfig calls. */
export const templatesApi = {
  list: () => http.get<Page<ParamTemplate>>('/service-priv/paramconfig/findAll', { current: 1, size: 100 }, { noCompanyId: true }),
  save: (t: { name: string; params: ParamInput[]; remark?: string }) => http.post<ParamTemplate>('/service-priv/paramconfig/save', t, { noCompanyId: true, silent: true }),
  update: (t: { id: number; name: string; params: ParamInput[]; remark?: string }) => http.post<ParamTemplate>('/service-priv/paramconfig/update', t, { noCompanyId: true, silent: true }),
  remove: (ids: number[]) => http.get<{ deleted: number }>('/service-priv/paramconfig/remove', { ids }, { noCompanyId: true, silent: true }),
};

/** Most vehicles one task may carry (api.md `params/task`). */
export const TASK_VEHICLES_MAX = 500;

/** The standard's sections (JT/T 808-2019 table 14), by id range. */
export const SECTIONS: readonly { key: string; from: number; to: number }[] = [
  { key: 'comm', from: 0x0001, to: 0x001f },
  { key: 'report', from: 0x0020, to: 0x003f },
  { key: 'phone', from: 0x0040, to: 0x004f },
  { key: 'alarm', from: 0x0050, to: 0x005f },
  { key: 'camera', from: 0x0060, to: 0x007f },
  { key: 'vehicle', from: 0x0080, to: 0x008f },
  { key: 'gnss', from: 0x0090, to: 0x00ff },
  { key: 'can', from: 0x0100, to: 0xffff },
];

/** The usual parameters (常用参数): what operators change most (shared with the server's permission check). */
export { USUAL_IDS } from '../../../domain/terminal-params/usual.ts';
export const USUAL_PARAM_ROUTE = '/information/params/usualParam';
