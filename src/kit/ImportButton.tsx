/**
 * The list kit's 导入 button: pick an .xlsx, see it in a dialog, import it through the resource's
 * import call (server/resources/ `import`: every row is checked first, one bad row writes nothing),
 * then either "已导入 N 条" (the list refreshes) or the server's refusal listed by row (row number +
 * reason). The picked file stays in the dialog after a refusal, so nothing the user did is lost.
 * 下载模板 fetches the resource's template (`import.template`) when the screen passes one.
 * Behind the route's `import` bit when the registry has one, else `create` (the server's rule).
 */
import { useState } from 'react';
import { Alert, Anchor, Button, FileInput, Group, List, Modal, Stack, Text } from '@mantine/core';
import { entryByKey } from '../../domain/permissions/access.ts';
import { isApiError, saveBlob, type ExportResult } from '../api/http.ts';
import { Perm } from '../app/Perm.tsx';
import { useT } from '../i18n/index.ts';
import { KIT_NS } from './messages.ts';

/** The server's import call takes at most 6 MB of base64, i.e. 4.5 MB of file: 4 MB is stated and checked before upload. */
export const IMPORT_MAX_BYTES = 4 * 1024 * 1024;

export interface ImportCall {
  /** Sends the picked file (base64) to the resource's import; answers how many rows were written. */
  call: (fileBase64: string) => Promise<{ imported: number }>;
  /** Downloads the resource's template (the import's header row in the UI language). */
  template?: () => Promise<ExportResult>;
  /** Rows one file may hold (stated in the dialog). */
  maxRows?: number;
}

/** One problem of a refused file: the sheet's row when the server names one, and the reason. */
export interface ImportProblem {
  row?: number;
  reason: string;
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

type Outcome = { kind: 'done'; imported: number } | { kind: 'refused'; problems: ImportProblem[] } | undefined;

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
  const button = entryByKey(`${route}:import`) ? 'import' : 'create';
  const tooBig = file !== null && file.size > IMPORT_MAX_BYTES;
  const notXlsx = file !== null && !file.name.toLowerCase().endsWith('.xlsx');

  const close = () => {
    setOpen(false);
    setFile(null);
    setOutcome(undefined);
    setTemplateError(null);
  };

  const run = async () => {
    if (!file || tooBig || notXlsx) return;
    setBusy(true);
    setOutcome(undefined);
    try {
      const { imported } = await importCall.call(await readBase64(file));
      setOutcome({ kind: 'done', imported });
      setFile(null);
      onImported();
    } catch (e) {
      const msg = isApiError(e) ? e.msg : e instanceof Error ? e.message : '';
      setOutcome({ kind: 'refused', problems: msg ? importProblems(msg) : [{ reason: t('importFailed') }] });
    } finally {
      setBusy(false);
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
            {importCall.maxRows ? t('importLimitsRows', { size: sizeText(IMPORT_MAX_BYTES), rows: importCall.maxRows }) : t('importLimits', { size: sizeText(IMPORT_MAX_BYTES) })}
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
            error={tooBig ? t('importTooBig', { size: sizeText(IMPORT_MAX_BYTES) }) : notXlsx ? t('importNotXlsx') : undefined}
            description={file && !tooBig && !notXlsx ? sizeText(file.size) : undefined}
            fileInputProps={{ 'data-testid': `${testId}-file` } as React.ComponentProps<'input'>}
          />
          {outcome?.kind === 'done' && (
            <Alert color="green" data-testid={`${testId}-done`}>
              {t('imported', { n: outcome.imported })}
            </Alert>
          )}
          {outcome?.kind === 'refused' && (
            <Alert color="red" title={t('importRefused')} data-testid={`${testId}-errors`}>
              <List size="sm" spacing={4}>
                {outcome.problems.map((p, i) => (
                  <List.Item key={i} data-row={p.row}>
                    {p.row !== undefined && <Text span fw={600}>{t('importRow', { row: p.row })}</Text>}
                    {p.row !== undefined && ' '}
                    {p.reason}
                  </List.Item>
                ))}
              </List>
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
