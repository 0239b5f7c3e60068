/**
 * Asynchronous .xlsx exports (`…/excel` → `…/export_status` → `…/excel_file`), used by the
 * positioning export (track/export.ts) and the alarm export (safe/aggregate.ts): a job per request
 * runs after the answer, belongs to the user who started it, and its file is kept in memory 30
 * minutes after it ends (at most 100 jobs; the oldest are forgotten first).
 */
import { randomUUID } from 'node:crypto';
import type { Lang } from '../../domain/errors/catalogue.ts';
import { fail } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';

/** A finished file is kept this long for its download (≈ 2–3 MB each at 50,000 rows). */
const TASK_TTL_MS = 30 * 60_000;
const MAX_TASKS = 100;

export interface ExportJob {
  readonly id: string;
  readonly userId: number;
  readonly createdAt: number;
  status: 'running' | 'done' | 'failed';
  /** Rows that matched. */
  total: number;
  /** Rows written. */
  exported: number;
  file?: Buffer;
  readonly fileName: readonly [zh: string, en: string];
  readonly asciiName: string;
}

export interface ExportJobMessages {
  readonly notFound: Message;
  readonly failed: Message;
  readonly notDone: Message;
}

export interface ExportJobStart {
  readonly userId: number;
  /** The download's name without `.xlsx`, in Chinese and English. */
  readonly fileName: readonly [zh: string, en: string];
  /** The plain-ASCII fallback name. */
  readonly asciiName: string;
  /** Where a failure is logged (the request's log). */
  readonly log: { error(o: object, msg: string): void };
}

export class ExportJobs {
  private readonly jobs = new Map<string, ExportJob>();

  /** `what` names the export in the failure log ("track export failed"). */
  constructor(private readonly messages: ExportJobMessages, private readonly what: string) {}

  /** Starts `work` after the current answer; it answers the matched total, the rows written and the file. */
  start(owner: ExportJobStart, work: () => Promise<{ total: number; exported: number; file: Buffer }>): ExportJob {
    this.forget();
    const job: ExportJob = {
      id: randomUUID(), userId: owner.userId, createdAt: Date.now(), status: 'running', total: 0, exported: 0, fileName: owner.fileName, asciiName: owner.asciiName,
    };
    this.jobs.set(job.id, job);
    // After the answer: reading and writing the workbook take a second or two at 50,000 rows.
    setImmediate(() => {
      void (async () => {
        try {
          const r = await work();
          job.total = r.total;
          job.exported = r.exported;
          job.file = r.file;
          job.status = 'done';
        } catch (err) {
          owner.log.error({ err }, `${this.what} failed`);
          job.status = 'failed';
        }
      })();
    });
    return job;
  }

  /** The caller's own job; another user's id answers 404 like an unknown one. */
  own(userId: number, id: string): ExportJob {
    const job = this.jobs.get(id);
    if (!job || job.userId !== userId) throw fail.notFound(this.messages.notFound);
    return job;
  }

  /** The finished file, or 400 (failed) / 409 (still running). */
  file(userId: number, id: string, lang: Lang): { body: Buffer; name: string; asciiName: string } {
    const job = this.own(userId, id);
    if (job.status === 'failed') throw fail.badRequest(this.messages.failed);
    if (job.status !== 'done' || !job.file) throw fail.conflict(this.messages.notDone);
    return { body: job.file, name: job.fileName[lang === 'zh' ? 0 : 1], asciiName: job.asciiName };
  }

  private forget(): void {
    const now = Date.now();
    for (const [id, j] of this.jobs) if (j.status !== 'running' && now - j.createdAt > TASK_TTL_MS) this.jobs.delete(id);
    while (this.jobs.size >= MAX_TASKS) this.jobs.delete(this.jobs.keys().next().value!);
  }
}
