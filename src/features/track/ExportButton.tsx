/**
 * Positioning export as a server task: trail/excel → poll export_status every second → excel_file.
 * The cap message (first 50,000 positions, shorten the range) shows when the status carries one, or
 * when the total is over the cap.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { exportCapMessage, TRAIL_EXPORT_MAX_POINTS } from '../../../domain/track/limits.ts';
import { isApiError, saveBlob } from '../../api/http.ts';
import { currentLang, useT } from '../../i18n/index.ts';
import { startTrailExport, trailExportFile, trailExportStatus } from './api.ts';
import { TRACK_NS } from './messages.ts';

export const EXPORT_POLL_MS = 1000;

export function ExportButton({ vehicleId, startTime, endTime }: { vehicleId: number; startTime: number; endTime: number }) {
  const t = useT(TRACK_NS);
  const [progress, setProgress] = useState<{ exported: number; total: number } | null>(null);
  const [cap, setCap] = useState<string | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const run = async () => {
    setCap(null);
    setProgress({ exported: 0, total: 0 });
    try {
      const { taskId } = await startTrailExport(vehicleId, startTime, endTime);
      for (;;) {
        await new Promise((r) => setTimeout(r, EXPORT_POLL_MS));
        if (!alive.current) return;
        const s = await trailExportStatus(taskId);
        setProgress({ exported: s.exported, total: s.total });
        if (s.status === 'failed') throw new Error(s.message ?? t('exportFailed'));
        if (s.status === 'done') {
          if (s.message) setCap(s.message);
          else if (s.total > TRAIL_EXPORT_MAX_POINTS) setCap(exportCapMessage(s.total, currentLang()));
          saveBlob(await trailExportFile(taskId));
          break;
        }
      }
    } catch (e) {
      // The request client has shown its own message for a failed call.
      if (!isApiError(e)) notifications.show({ color: 'red', autoClose: 2000, message: e instanceof Error && e.message ? e.message : t('exportFailed') });
    } finally {
      if (alive.current) setProgress(null);
    }
  };

  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" loading={progress !== null} onClick={() => void run()} data-testid="track-export">
        {t('export')}
      </Button>
      {progress && progress.total > 0 ? <Text size="xs">{t('exporting', progress)}</Text> : null}
      {cap ? (
        <Alert color="yellow" p={4} withCloseButton onClose={() => setCap(null)} data-testid="export-cap">
          <Text size="xs">{cap}</Text>
        </Alert>
      ) : null}
    </Group>
  );
}
