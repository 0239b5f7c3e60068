/**
 * Positioning export as a server task: trail/excel → poll export_status every second → excel_file.
 * The cap message (first 50,000 positions, shorten the range) shows when the status carries one, or
 * when the total is over the cap.
 */
import { notifications } from '@mantine/notifications';
import { exportCapMessage, TRAIL_EXPORT_MAX_POINTS } from '../../../domain/track/limits.ts';
import { isApiError } from '../../api/http.ts';
import { currentLang, useT } from '../../i18n/index.ts';
import { ExportJobButton } from '../shared/ExportJobButton.tsx';
import { startTrailExport, trailExportFile, trailExportStatus } from './api.ts';
import { TRACK_NS } from './messages.ts';

export function ExportButton({ vehicleId, startTime, endTime, stopMinutes }: { vehicleId: number; startTime: number; endTime: number; stopMinutes?: number }) {
  const t = useT(TRACK_NS);
  return (
    <ExportJobButton
      label={t('export')}
      job={{
        start: () => startTrailExport(vehicleId, startTime, endTime, stopMinutes === undefined ? undefined : Math.round(stopMinutes)),
        status: trailExportStatus,
        file: trailExportFile,
        capOf: (s) => s.message || (s.total > TRAIL_EXPORT_MAX_POINTS ? exportCapMessage(s.total, currentLang()) : null),
      }}
      // The request client has shown its own message for a failed call.
      onError={(e) => {
        if (!isApiError(e)) notifications.show({ color: 'red', autoClose: 2000, message: e instanceof Error && e.message ? e.message : t('exportFailed') });
      }}
      progressText={(p) => t('exporting', p)}
      testId="track-export"
      capTestId="export-cap"
    />
  );
}
