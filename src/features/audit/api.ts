/** The audit and usage calls (server/services/audit/api.md). The company picked in the tree travels as `companyId`. */
import { http } from '../../api/http.ts';
import type { Page } from '../../kit/useResourceList.ts';

export type AuditResult = 'ok' | 'refused' | 'invalid' | 'error';

/** One audited call. */
export interface AuditRow {
  id: number;
  time: number;
  userId: number | null;
  userName: string;
  realName: string;
  companyName: string;
  ip: string;
  method: string;
  route: string;
  permission: string;
  page: string;
  pageName: string;
  button: string;
  buttonName: string;
  result: AuditResult;
  status: number;
  code: number;
  targets: Array<{ kind: string; id: number }>;
}

/** One group of the by-page / by-button summary. */
export interface AuditGroup { key: string; name: string; total: number; ok: number; refused: number; invalid: number; error: number; users: number; lastTime: number }
/** One vehicle or device of the by-device summary. */
export interface AuditTargetGroup { kind: 'vehicle' | 'device'; id: number; name: string; total: number; ok: number; failed: number; users: number; lastTime: number }

export interface AuditSearch {
  from?: number;
  to?: number;
  page?: string;
  button?: string;
  vehicleId?: number;
  deviceId?: number;
  userName?: string;
  result?: AuditResult;
  /** One list row's calls: its screen's page key and id (server/services/audit/routes.ts rowTargets). */
  recordPage?: string;
  recordId?: number;
}

export interface PageViewRow { id: number; time: number; page: string; pageName: string; ip: string; userId: number; userName: string; realName: string; companyName: string }
export interface OnlineRow { id: number; userId: number; userName: string; realName: string; companyName: string; date: string; seconds: number; sessions: number }

const defined = (q: object) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '' && v !== null));

export const auditApi = {
  byPage: (q: { from?: number; to?: number }) => http.get<AuditGroup[]>('/service-priv/useroperate/byPage', defined(q), { silent: true }),
  byButton: (q: { from?: number; to?: number }) => http.get<AuditGroup[]>('/service-priv/useroperate/byButton', defined(q), { silent: true }),
  byDevice: (q: { from?: number; to?: number }) => http.get<AuditTargetGroup[]>('/service-priv/useroperate/byDevice', defined(q), { silent: true }),
  page: (q: AuditSearch & { current: number; size: number }) => http.get<Page<AuditRow>>('/service-priv/useroperate/page', defined(q), { silent: true }),
  views: (q: { from?: number; to?: number; page?: string; userName?: string; current: number; size: number }) =>
    http.get<Page<PageViewRow>>('/service-priv/pageview/page', defined(q), { silent: true }),
  online: async (q: { from?: number; to?: number; userName?: string; current: number; size: number }) => {
    const p = await http.get<Page<Omit<OnlineRow, 'id'>>>('/service-priv/useraction/onlineDuration', defined(q), { silent: true });
    // Rows are a user and a day: the list needs a key of its own.
    return { ...p, records: p.records.map((r, i) => ({ ...r, id: (q.current - 1) * q.size + i + 1 })) };
  },
  /** A page visit (the router calls it); failures are nobody's business but the log's. */
  visit: (page: string) => http.post<null>('/service-priv/pageview/add', { page }, { silent: true, noCompanyId: true }),
};
