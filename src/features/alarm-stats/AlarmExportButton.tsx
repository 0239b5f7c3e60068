/**
 * The processing page's export: its current query as an .xlsx through the server's job
 * (alarmInfo/excel → poll export_status each second → excel_file). Any failure shows the spec's
 * "export failed" message (with the server's reason when it gave one).
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { isApiError, saveBlob } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { alarmExportFile, alarmExportStatus, startAlarmExport } from './api.ts';
import { ALARM_STATS_NS } from './messages.ts';

export const EXPORT_POLL_MS = 1000;

export function AlarmExportButton({ query }: { query: Record<string, unknown> | null }) {
  const t = useT(ALARM_STATS_NS);
  const [busy, setBusy] = useState(false);
  const [cap, setCap] = useState<string | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const run = async () => {
    if (!query) return;
    const { current: _c, size: _s, ...body } = query;
    setBusy(true);
    setCap(null);
    try {
      const { taskId } = await startAlarmExport(body);
      for (;;) {
        await new Promise((r) => setTimeout(r, EXPORT_POLL_MS));
        if (!alive.current) return;
        const s = await alarmExportStatus(taskId);
        if (s.status === 'failed') throw new Error(s.message ?? '');
        if (s.status === 'done') {
          if (s.message) setCap(s.message);
          saveBlob(await alarmExportFile(taskId));
          break;
        }
      }
    } catch (e) {
      const reason = isApiError(e) ? e.msg : e instanceof Error ? e.message : '';
      notifications.show({ color: 'red', autoClose: 2000, message: reason && reason !== t('exportFailed') ? `${t('exportFailed')}: ${reason}` : t('exportFailed'), id: 'alarm-export-failed' });
    } finally {
      if (alive.current) setBusy(false);
    }
  };

  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" loading={busy} disabled={!query} onClick={() => void run()} data-testid="alarm-export">{t('exportButton')}</Button>
      {cap && (
        <Alert color="yellow" p={4} withCloseButton onClose={() => setCap(null)} data-testid="alarm-export-cap">
          <Text size="xs">{cap}</Text>
        </Alert>
      )}
    </Group>
  );
}
