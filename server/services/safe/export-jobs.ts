/**
 * Export jobs of the alarm exports (`alarmInfo/excel` → `export_status` → `excel_file`), the same
 * pattern as the positioning export (services/track/export.ts): a job per request runs after the
 * answer, belongs to the user who started it, and is kept 30 minutes after it ends (at most 100).
 */
import { randomUUID } from 'node:crypto';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { fail } from '../../http/envelope.ts';
import type { Message } from '../../http/messages.ts';

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

export class ExportJobs {
  private readonly jobs = new Map<string, ExportJob>();

  constructor(private readonly messages: ExportJobMessages, private readonly log: { error(o: object, msg: string): void }) {}

  /** Starts `work` after the current answer; it answers the matched total and the file. */
  start(userId: number, fileName: readonly [string, string], asciiName: string, work: () => Promise<{ total: number; exported: number; file: Buffer }>): ExportJob {
    this.forget();
    const job: ExportJob = { id: randomUUID(), userId, createdAt: Date.now(), status: 'running', total: 0, exported: 0, fileName, asciiName };
    this.jobs.set(job.id, job);
    setImmediate(() => {
      void (async () => {
        try {
          const r = await work();
          job.total = r.total;
          job.exported = r.exported;
          job.file = r.file;
          job.status = 'done';
        } catch (err) {
          this.log.error({ err }, 'alarm export failed');
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
