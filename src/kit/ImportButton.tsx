/**
 * The list kit's 导入 button: pick an .xlsx, see it in a dialog, import it through the resource's
 * import call (server/resources/ `import`: every row is checked first, one bad row writes nothing),
 * then either "已导入 N 条" (the list refreshes) or the server's refusal listed by row (row number,
 * column, reason: every problem, up to 200). The picked file stays in the dialog after a refusal, so
 * nothing the user did is lost.
 * Two paths: `call` sends the file as base64 JSON (`…/import`, small files: device types); `job`
 * (issue 15: vehicles, devices, drivers) uploads it as multipart to the resource's import job with a
 * progress bar for the upload and one for the server's phases (read, checked n of N, written).
 * 下载模板 fetches the resource's template (`import.template`) when the screen passes one.
 * Behind the route's `import` bit when the registry has one, else `create` (the server's rule).
 */
import { useRef, useState } from 'react';
import { Alert, Anchor, Button, FileInput, Group, List, Modal, Progress, ScrollArea, Stack, Text } from '@mantine/core';
import { IMPORT_JOB_LIMITS, importProgress, type ImportJobState, type ImportProblemView } from '../../domain/fleet/import-job.ts';
import { entryByKey } from '../../domain/permissions/access.ts';
import { isApiError, saveBlob, type ExportResult } from '../api/http.ts';
import { Perm } from '../app/Perm.tsx';
import { useT } from '../i18n/index.ts';
import { runImportJob, type ImportJobCall } from './import-job.ts';
import { KIT_NS } from './messages.ts';

/** The server's import call takes at most 6 MB of base64, i.e. 4.5 MB of file: 4 MB is stated and checked before upload. */
export const IMPORT_MAX_BYTES = 4 * 1024 * 1024;

export interface ImportCall {
  /** Sends the picked file (base64) to the resource's import; answers how many rows were written. */
  call?: (fileBase64: string) => Promise<{ imported: number }>;
  /** The multipart import job (`importJob(start, status)` of ./import-job.ts); used instead of `call` when given. */
  job?: ImportJobCall;
  /** Downloads the resource's template (the import's header row in the UI language). */
  template?: () => Promise<ExportResult>;
  /** Rows one file may hold (stated in the dialog). */
  maxRows?: number;
  /** Between two status calls of a job (default 500 ms; tests shorten it). */
  pollMs?: number;
}

/** One problem of a refused file: the sheet's row and column when the server names them, and the reason. */
export interface ImportProblem {
  row?: number;
  column?: string;
  reason: string;
}

/** The server's listed problems (`data.problems` of a refusal, or a refused task's `problems`). */
function listedProblems(problems: readonly ImportProblemView[]): ImportProblem[] {
  return problems.map((p) => ({ ...(p.row === undefined ? {} : { row: p.row }), ...(p.column === undefined ? {} : { column: p.column }), reason: p.msg }));
}

/** A refusal's `data` when it lists its problems (the import calls since issue 15). */
function refusalData(e: unknown): { problems: ImportProblemView[]; problemCount?: number } | undefined {
  const data = isApiError(e) ? (e.body as { data?: unknown } | undefined)?.data : undefined;
  const problems = (data as { problems?: unknown } | null | undefined)?.problems;
  return Array.isArray(problems) ? (data as { problems: ImportProblemView[]; problemCount?: number }) : undefined;
}

/**
 * Splits the server's refusal into row + reason (`第 3 行「协议版本」：…`, `第 3 行：…`, `Row 3, column "Protocol": …`,
 * `Row 3: …`; several lines give several problems). A message naming no row is one problem of the whole file.
 */
export function importProblems(message: string): ImportProblem[] {
  return message
    .split(/\n+/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const zh = /^第\s*(\d+)\s*行[：:]?\s*(.*)$/.exec(line);
      if (zh) return { row: Number(zh[1]), reason: zh[2]!.replace(/^[：:]\s*/, '') };
      const en = /^Row\s+(\d+)(?::\s*|,\s*)(.*)$/i.exec(line);
      if (en) return { row: Number(en[1]), reason: en[2]! };
      return { reason: line };
    });
}

/** The picked file as base64 (the import travels in JSON). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

type Outcome = { kind: 'done'; imported: number } | { kind: 'refused'; problems: ImportProblem[]; count: number } | undefined;

/** The job's progress: the upload (0–1), then the server's state. */
interface JobProgress {
  upload: number;
  state?: ImportJobState;
}

export function ImportButton({ route, importCall, onImported, testId = 'list-import' }: {
  /** The screen's route: the button shows with its `import` bit (or `create` where the route has none). */
  route: string;
  importCall: ImportCall;
  /** After a successful import (the list refreshes). */
  onImported: () => void;
  testId?: string;
}) {
  const t = useT(KIT_NS);
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(undefined);
  const [templateError, setTemplateError] = useState<string | null>(null);
  const [progress, setProgress] = useState<JobProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const button = entryByKey(`${route}:import`) ? 'import' : 'create';
  const maxBytes = importCall.job ? IMPORT_JOB_LIMITS.fileMaxBytes : IMPORT_MAX_BYTES;
  const tooBig = file !== null && file.size > maxBytes;
  const notXlsx = file !== null && !file.name.toLowerCase().endsWith('.xlsx');

  const close = () => {
    // Closing stops following a running task (the server finishes it either way; the list shows what it wrote).
    abort.current?.abort();
    abort.current = null;
    setOpen(false);
    setFile(null);
    setOutcome(undefined);
    setTemplateError(null);
    setProgress(null);
  };

  const refusedBy = (e: unknown) => {
    const listed = refusalData(e);
    if (listed) return setOutcome({ kind: 'refused', problems: listedProblems(listed.problems), count: listed.problemCount ?? listed.problems.length });
    const msg = isApiError(e) ? e.msg : e instanceof Error ? e.message : '';
    const problems = msg ? importProblems(msg) : [{ reason: t('importFailed') }];
    setOutcome({ kind: 'refused', problems, count: problems.length });
  };

  const done = (imported: number) => {
    setOutcome({ kind: 'done', imported });
    setFile(null);
    onImported();
  };

  const runJob = async (job: ImportJobCall, picked: File) => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ upload: 0 });
    const final = await runImportJob(job, picked, (e) => {
      if (controller.signal.aborted) return;
      setProgress((p) => (e.kind === 'upload' ? { ...p, upload: e.fraction } : { upload: 1, state: e.state }));
    }, { signal: controller.signal, intervalMs: importCall.pollMs });
    if (controller.signal.aborted) return;
    if (final.phase === 'done') return done(final.imported ?? 0);
    const problems = final.problems?.length ? listedProblems(final.problems) : [{ reason: final.msg ?? t('importFailed') }];
    setOutcome({ kind: 'refused', problems, count: final.problemCount ?? problems.length });
  };

  const run = async () => {
    if (!file || tooBig || notXlsx) return;
    setBusy(true);
    setOutcome(undefined);
    setProgress(null);
    try {
      if (importCall.job) await runJob(importCall.job, file);
      else if (importCall.call) done((await importCall.call(await readBase64(file))).imported);
    } catch (e) {
      if (!(e instanceof DOMException && e.name === 'AbortError')) refusedBy(e);
    } finally {
      setBusy(false);
    }
  };

  const state = progress?.state;
  const phaseText = (s: ImportJobState) => {
    switch (s.phase) {
      case 'reading': return t('importReading', { n: s.done });
      case 'checking': return t('importChecking', { n: s.done, total: s.total });
      case 'writing': return t('importWriting', { total: s.total });
      case 'done': return t('importWritten', { n: s.imported ?? s.done });
      default: return t('importEnded');
    }
  };

  const downloadTemplate = async () => {
    setTemplateError(null);
    try {
      saveBlob(await importCall.template!());
    } catch (e) {
      setTemplateError(isApiError(e) ? e.msg : t('importFailed'));
    }
  };

  return (
    <>
      <Perm route={route} button={button}>
        <Button size="sm" variant="default" data-testid={testId} onClick={() => setOpen(true)}>
          {t('import')}
        </Button>
      </Perm>
      <Modal opened={open} onClose={close} title={t('importTitle')} size="lg" data-testid={`${testId}-dialog`}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed" data-testid={`${testId}-limits`}>
            {importCall.maxRows ? t('importLimitsRows', { size: sizeText(maxBytes), rows: importCall.maxRows }) : t('importLimits', { size: sizeText(maxBytes) })}
          </Text>
          {importCall.template && (
            <Anchor component="button" type="button" size="sm" data-testid={`${testId}-template`} onClick={() => void downloadTemplate()} style={{ alignSelf: 'flex-start' }}>
              {t('importTemplate')}
            </Anchor>
          )}
          {templateError && <Text size="sm" c="red">{templateError}</Text>}
          <FileInput
            label={t('importFile')}
            placeholder={t('importPick')}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            clearable
            onChange={(f) => {
              setFile(f);
              setOutcome(undefined);
            }}
            error={tooBig ? t('importTooBig', { size: sizeText(maxBytes) }) : notXlsx ? t('importNotXlsx') : undefined}
            description={file && !tooBig && !notXlsx ? sizeText(file.size) : undefined}
            fileInputProps={{ 'data-testid': `${testId}-file` } as React.ComponentProps<'input'>}
          />
          {progress && (
            <Stack gap={4} data-testid={`${testId}-progress`} data-phase={state?.phase ?? 'upload'}>
              <Text size="xs" c="dimmed">{t('importUploading', { pct: Math.round(progress.upload * 100) })}</Text>
              <Progress value={progress.upload * 100} size="sm" aria-label={t('importUploadBar')} data-testid={`${testId}-upload-bar`} />
              {state && (
                <>
                  <Text size="xs" c="dimmed" data-testid={`${testId}-phase`}>{phaseText(state)}</Text>
                  <Progress value={importProgress(state)} size="sm" animated={!['done', 'refused', 'failed'].includes(state.phase)} color={state.phase === 'refused' || state.phase === 'failed' ? 'red' : undefined} aria-label={t('importServerBar')} data-testid={`${testId}-server-bar`} />
                </>
              )}
            </Stack>
          )}
          {outcome?.kind === 'done' && (
            <Alert color="green" data-testid={`${testId}-done`}>
              {t('imported', { n: outcome.imported })}
            </Alert>
          )}
          {outcome?.kind === 'refused' && (
            <Alert color="red" title={t('importRefused')} data-testid={`${testId}-errors`} data-count={outcome.count}>
              {outcome.count > outcome.problems.length && (
                <Text size="sm" mb={4} data-testid={`${testId}-errors-count`}>{t('importProblemsListed', { n: outcome.count, listed: outcome.problems.length })}</Text>
              )}
              <ScrollArea.Autosize mah={320} type="auto">
                <List size="sm" spacing={4}>
                  {outcome.problems.map((p, i) => (
                    <List.Item key={i} data-row={p.row} data-column={p.column}>
                      {p.row !== undefined && <Text span fw={600}>{t('importRow', { row: p.row })}</Text>}
                      {p.row !== undefined && ' '}
                      {p.column !== undefined && t('importColumn', { column: p.column })}
                      {p.reason}
                    </List.Item>
                  ))}
                </List>
              </ScrollArea.Autosize>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" data-testid={`${testId}-close`} onClick={close}>
              {outcome?.kind === 'done' ? t('close') : t('cancel')}
            </Button>
            <Button data-testid={`${testId}-submit`} loading={busy} disabled={!file || tooBig || notXlsx} onClick={() => void run()}>
              {t('import')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
