/**
 * The list kit's 导出 button: the screen's current filters as an .xlsx through the server's export job
 * (`…/excel` → poll `…/export_status` each second → `…/excel_file`; server/resources/ `export`), behind
 * the route's `export` bit. Never built in the browser: the file holds what the server's scope allows.
 * A failure says "export failed" with the server's reason, in the UI language.
 */
import { notifications } from '@mantine/notifications';
import { isApiError } from '../api/http.ts';
import { Perm } from '../app/Perm.tsx';
import { ExportJobButton, type ExportJob } from '../features/shared/ExportJobButton.tsx';
import { useT } from '../i18n/index.ts';
import { KIT_NS } from './messages.ts';

export function ExportButton({ route, job, testId }: {
  /** The screen's route: the button shows with its `export` bit. */
  route: string;
  /** The job for the screen's current filters. */
  job: ExportJob;
  /** `data-testid` of the button. @default 'list-export' */
  testId?: string;
}) {
  const t = useT(KIT_NS);
  const id = testId ?? 'list-export';
  return (
    <Perm route={route} button="export">
      <ExportJobButton
        label={t('export')}
        size="sm"
        job={job}
        onError={(e) => {
          const reason = isApiError(e) ? e.msg : e instanceof Error ? e.message : '';
          // A failed job's own reason already says so (导出失败，请重试 / The export failed; …): shown as it is.
          const message = !reason ? t('exportFailed') : reason.toLowerCase().includes(t('exportFailed').toLowerCase()) ? reason : t('exportFailedWhy', { reason });
          notifications.show({ color: 'red', autoClose: 3000, message, id: `${id}-failed` });
        }}
        testId={id}
        capTestId={`${id}-cap`}
      />
    </Perm>
  );
}
