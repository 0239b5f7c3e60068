import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import type { ImportJobState } from '../../domain/fleet/import-job.ts';
import { importProgress } from '../../domain/fleet/import-job.ts';
import { ApiError } from '../api/http.ts';
import { runImportJob, type ImportJobCall, type ImportJobEvent } from './import-job.ts';

const file = new File([new Uint8Array(4)], 'v.xlsx');
const st = (s: Partial<ImportJobState>): ImportJobState => ({ taskId: 't', phase: 'reading', done: 0, total: 0, ...s });

describe('runImportJob', () => {
  it('uploads, then polls until the task ends, riding out a lost status call; a refused status call ends it', async () => {
    const answers: (ImportJobState | ApiError)[] = [st({ phase: 'checking', done: 1, total: 2 }), new ApiError(ErrorCode.Network, 'offline'), st({ phase: 'done', done: 2, total: 2, imported: 2 })];
    const job: ImportJobCall = {
      start: vi.fn(async (_f: File, onUpload: (x: number) => void) => {
        onUpload(0.25);
        return { taskId: 't' };
      }),
      status: vi.fn(async () => {
        const a = answers.shift()!;
        if (a instanceof ApiError) throw a;
        return a;
      }),
    };
    const events: ImportJobEvent[] = [];
    const final = await runImportJob(job, file, (e) => events.push(e), { sleep: async () => undefined });
    expect(final).toMatchObject({ phase: 'done', imported: 2 });
    expect(events.map((e) => (e.kind === 'upload' ? `upload ${e.fraction}` : e.state.phase))).toEqual(['upload 0.25', 'upload 1', 'checking', 'done']);

    const gone: ImportJobCall = { start: async () => ({ taskId: 'x' }), status: () => Promise.reject(new ApiError(404, 'The import task does not exist or has expired')) };
    await expect(runImportJob(gone, file, () => undefined, { sleep: async () => undefined })).rejects.toMatchObject({ code: 404 });
  });

  it('the server bar: reading a sliver, checking up to 80 %, writing the rest, an ended task full', () => {
    expect(importProgress({ phase: 'reading', done: 900, total: 0 })).toBe(5);
    expect(importProgress({ phase: 'checking', done: 5000, total: 10000 })).toBe(45);
    expect(importProgress({ phase: 'writing', done: 0, total: 10000 })).toBe(80);
    expect(importProgress({ phase: 'refused', done: 1, total: 10000 })).toBe(100);
  });
});
