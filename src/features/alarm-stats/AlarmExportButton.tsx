/**
 * The processing page's export: its current query as an .xlsx through the server's job
 * (alarmInfo/excel → poll export_status each second → excel_file). Any failure shows the spec's
 * "export failed" message (with the server's reason when it gave one).
 */
import { notifications } from '@mantine/notifications';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { ExportJobButton } from '../shared/ExportJobButton.tsx';
import { alarmExportFile, alarmExportStatus, startAlarmExport } from './api.ts';
import { ALARM_STATS_NS } from './messages.ts';

export function AlarmExportButton({ query }: { query: Record<string, unknown> | null }) {
  const t = useT(ALARM_STATS_NS);
  const body = query && (({ current: _c, size: _s, ...rest }) => rest)(query);
  return (
    <ExportJobButton
      label={t('exportButton')}
      job={body && { start: () => startAlarmExport(body), status: alarmExportStatus, file: alarmExportFile }}
      onError={(e) => {
        const reason = isApiError(e) ? e.msg : e instanceof Error ? e.message : '';
        notifications.show({ color: 'red', autoClose: 2000, message: reason && reason !== t('exportFailed') ? `${t('exportFailed')}: ${reason}` : t('exportFailed'), id: 'alarm-export-failed' });
      }}
      testId="alarm-export"
      capTestId="alarm-export-cap"
    />
  );
}
