/**
 * The sending half of a one-file upload form (terminal upgrade packages, audio resources): the progress in per
 * cent while the file goes up, the error the form shows (the server's message in the UI language, or the form's
 * own check), and `UploadStatus`, the progress bar and error line under the fields.
 */
import { Alert, Progress, Text } from '@mantine/core';
import { useState } from 'react';
import { errorText } from '../../kit/errors.ts';

export type UploadProgress = (loaded: number, total: number) => void;

export interface Upload {
  /** Per cent sent, null while nothing is being sent. */
  pct: number | null;
  error: string | null;
  /** Shows a form check's message (returns nothing, so `return fail(...)` ends a submit). */
  fail: (message: string) => void;
  /** Sends with progress; `done` gets the answer, a failure becomes the error. */
  send: <R>(upload: (onProgress: UploadProgress) => Promise<R>, done: (answer: R) => void) => Promise<void>;
}

export function useUpload(): Upload {
  const [error, setError] = useState<string | null>(null);
  const [pct, setPct] = useState<number | null>(null);
  const send: Upload['send'] = async (upload, done) => {
    setError(null);
    setPct(0);
    try {
      done(await upload((loaded, total) => setPct(total > 0 ? Math.round((loaded / total) * 100) : 0)));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPct(null);
    }
  };
  return { pct, error, fail: setError, send };
}

/** The progress (`progressText` worded by the feature, e.g. 上传中 40%) and the error of an upload. */
export function UploadStatus({ upload, progressText, errorTestId }: { upload: Upload; progressText: (pct: number) => string; errorTestId: string }) {
  return (
    <>
      {upload.pct !== null && <><Text size="xs">{progressText(upload.pct)}</Text><Progress value={upload.pct} /></>}
      {upload.error && <Alert color="red" p={6} data-testid={errorTestId}>{upload.error}</Alert>}
    </>
  );
}
