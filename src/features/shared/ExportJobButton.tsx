/**
 * An export run as a server job: start → poll its status each second → fetch the file. The button is
 * busy while the job runs; a cap message from the finished job (or `capOf`) shows beside it. Failures
 * go to `onError` (the failed job's reason arrives as an Error with the server's message, maybe empty).
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { saveBlob, type ExportResult } from '../../api/http.ts';

export const EXPORT_POLL_MS = 1000;

export interface ExportJobStatus {
  status: 'running' | 'done' | 'failed';
  total: number;
  exported: number;
  /** The cap message when done, the reason when failed. */
  message?: string;
}

export interface ExportJob {
  start(): Promise<{ taskId: string }>;
  status(taskId: string): Promise<ExportJobStatus>;
  file(taskId: string): Promise<ExportResult>;
  /** The cap message of a finished job; the job's own message by default. */
  capOf?(s: ExportJobStatus): string | null;
}

export function ExportJobButton({ label, job, onError, progressText, testId, capTestId, size = 'xs' }: {
  label: string;
  /** A list toolbar's buttons are `sm` beside 新增 and 导入; report form lines keep `xs`. */
  size?: 'xs' | 'sm';
  /** The job for the current inputs, or null while there is nothing to export (the button is disabled). */
  job: ExportJob | null;
  onError(e: unknown): void;
  /** Shown while the job runs and knows its total. */
  progressText?(p: { exported: number; total: number }): string;
  testId: string;
  capTestId: string;
}) {
  const [progress, setProgress] = useState<{ exported: number; total: number } | null>(null);
  const [cap, setCap] = useState<string | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const run = async (j: ExportJob) => {
    setCap(null);
    setProgress({ exported: 0, total: 0 });
    try {
      const { taskId } = await j.start();
      for (;;) {
        await new Promise((r) => setTimeout(r, EXPORT_POLL_MS));
        if (!alive.current) return;
        const s = await j.status(taskId);
        setProgress({ exported: s.exported, total: s.total });
        if (s.status === 'failed') throw new Error(s.message ?? '');
        if (s.status === 'done') {
          const capText = j.capOf ? j.capOf(s) : s.message || null;
          if (capText) setCap(capText);
          saveBlob(await j.file(taskId));
          break;
        }
      }
    } catch (e) {
      onError(e);
    } finally {
      if (alive.current) setProgress(null);
    }
  };

  return (
    <Group gap="xs" wrap="nowrap">
      <Button size={size} variant="default" loading={progress !== null} disabled={!job} onClick={() => job && void run(job)} data-testid={testId}>
        {label}
      </Button>
      {progressText && progress && progress.total > 0 ? <Text size="xs">{progressText(progress)}</Text> : null}
      {cap ? (
        <Alert color="yellow" p={4} withCloseButton onClose={() => setCap(null)} data-testid={capTestId}>
          <Text size="xs">{cap}</Text>
        </Alert>
      ) : null}
    </Group>
  );
}
