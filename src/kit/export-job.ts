/** The calls of a server export job (server/resources/ `export`), for the kit's 导出 button (ExportButton.tsx). */
import { http } from '../api/http.ts';
import type { ExportJob, ExportJobStatus } from '../features/shared/ExportJobButton.tsx';

/**
 * The three calls of a resource's export job under `base` (`/service-priv/user` → `/service-priv/user/excel` …).
 * `body` is the page's filters; `noCompanyId` when the screen passes the company itself (or shows every company).
 */
export function serverExportJob(base: string, body: Record<string, unknown>, opts: { noCompanyId?: boolean } = {}): ExportJob {
  const quiet = { noCompanyId: true, silent: true } as const;
  return {
    start: () => http.post<{ taskId: string }>(`${base}/excel`, body, { silent: true, noCompanyId: opts.noCompanyId }),
    status: (taskId) => http.get<ExportJobStatus>(`${base}/export_status`, { taskId }, quiet),
    file: (taskId) => http.export(`${base}/excel_file`, { taskId }, quiet),
  };
}
