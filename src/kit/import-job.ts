/**
 * The large import's calls from the console (issue 15, server/resources/import-jobs.ts): the .xlsx goes
 * up as multipart (`http.upload`, with upload progress and the selected company added to the form), the
 * server answers a task id at once, and the status call is polled until the task is done, refused or
 * failed. `importJob(start, status)` gives a screen the pair; `runImportJob` drives one file through it.
 */
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { importFinished, type ImportJobState } from '../../domain/fleet/import-job.ts';
import { http, isApiError } from '../api/http.ts';

export interface ImportJobCall {
  /** Uploads the file; `onUpload` gets the part sent (0–1). Answers the server's task id. */
  start(file: File, onUpload: (fraction: number) => void, signal?: AbortSignal): Promise<{ taskId: string }>;
  status(taskId: string, signal?: AbortSignal): Promise<ImportJobState>;
}

/** The job calls of a resource: `start` the multipart POST (`…/batchimp`), `status` the GET (`…/batch/status`). */
export function importJob(startUrl: string, statusUrl: string): ImportJobCall {
  return {
    start(file, onUpload, signal) {
      const form = new FormData();
      form.append('file', file, file.name);
      return http.upload<{ taskId: string }>(startUrl, form, { silent: true, signal, onProgress: (loaded, total) => onUpload(total > 0 ? loaded / total : 0) });
    },
    status: (taskId, signal) => http.get<ImportJobState>(statusUrl, { taskId }, { silent: true, noCompanyId: true, signal }),
  };
}

export type ImportJobEvent = { kind: 'upload'; fraction: number } | { kind: 'state'; state: ImportJobState };

export interface RunImportOptions {
  /** Between two status calls (default 500 ms). */
  intervalMs?: number;
  signal?: AbortSignal;
  /** Tests pass a fake timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Network failures of the status call tolerated in a row before giving up (default 5). */
  networkRetries?: number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Uploads `file`, then follows the task until it ends; every upload step and every state goes to
 * `onEvent`. Answers the final state (done, refused or failed). A refused start (400, 403, 429)
 * rejects with the server's error; a status call lost to the network is retried.
 */
export async function runImportJob(job: ImportJobCall, file: File, onEvent: (e: ImportJobEvent) => void, opts: RunImportOptions = {}): Promise<ImportJobState> {
  const sleep = opts.sleep ?? wait;
  const retries = opts.networkRetries ?? 5;
  const { taskId } = await job.start(file, (fraction) => onEvent({ kind: 'upload', fraction }), opts.signal);
  onEvent({ kind: 'upload', fraction: 1 });
  let lost = 0;
  for (;;) {
    let state: ImportJobState;
    try {
      state = await job.status(taskId, opts.signal);
      lost = 0;
    } catch (err) {
      if (isApiError(err) && err.code === ErrorCode.Network && lost < retries && !opts.signal?.aborted) {
        lost += 1;
        await sleep(opts.intervalMs ?? 500);
        continue;
      }
      throw err;
    }
    onEvent({ kind: 'state', state });
    if (importFinished(state.phase)) return state;
    await sleep(opts.intervalMs ?? 500);
  }
}
