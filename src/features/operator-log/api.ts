/** The operator-log calls (server/services/fleet-assets/api/operator-log.md). */
import { http } from '../../api/http.ts';
import type { ChangeNames, ChangeResourceName } from '../../../domain/fleet/change-fields.ts';
import { serverExportJob } from '../../kit/export-job.ts';
import type { Page } from '../../kit/useResourceList.ts';

/** The two log screens: the vehicles' and the devices'. */
export type LogKind = 'vehicle' | 'device';

/** One operator-log row as the server answers it. */
export interface LogRow {
  id: number;
  resource: ChangeResourceName;
  recordId: number;
  /** Plate / device number / name at the time. */
  label: string;
  companyId: number;
  companyName: string;
  operation: string;
  userName: string;
  ip: string;
  time: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Names of the ids the values reference, within the reader's scope. */
  names: ChangeNames;
}

export interface LogSearch {
  keyword?: string;
  operation?: string;
  /** Inclusive epoch-ms bounds, at most 92 days apart. */
  from?: number;
  to?: number;
}

const defined = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

// The company picked in the tree travels as `companyId` (the http client adds it).
export const operatorLogApi = {
  /** One page of a log screen; failures show in the list (silent). */
  page: (kind: LogKind, q: LogSearch & { current: number; size: number }) => http.post<Page<LogRow>>(`/service-priv/binlog/${kind}`, defined({ ...q }), { silent: true }),
  exportJob: (kind: LogKind, q: LogSearch) => serverExportJob(`/service-priv/binlog/${kind}`, defined({ ...q })),
  /** One record's trail (the list screens' 操作记录): the caller's whole scope, whatever the tree shows. */
  trail: (resource: ChangeResourceName, recordId: number, q: { current: number; size: number }) =>
    http.get<Page<LogRow>>('/service-priv/binlog/record', { resource, recordId, ...q }, { silent: true, noCompanyId: true }),
};
