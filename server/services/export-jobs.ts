/**
 * Asynchronous .xlsx exports (`…/excel` → `…/export_status` → `…/excel_file`), used by the
 * positioning export (track/export.ts) and the alarm export (safe/aggregate.ts): a job per request
 * runs after the answer and belongs to the user who started it. Jobs are rows of `export_file`
 * (migration 16) and a finished file is DATA_DIR/exports/<id>.xlsx, so a restart keeps every finished
 * export for its lifetime: EXPORT_RETENTION_MINUTES (30) after it finished, at most MAX_EXPORT_JOBS
 * (100) jobs, the oldest deleted first (files, then rows). A job still running when the server stopped
 * is failed at the next start (its work died with the process): the user is told to try again rather
 * than polling a job that never ends.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Lang } from '../../domain/errors/catalogue.ts';
import type { Storage } from '../db/repositories.ts';
import type { ExportFileRow } from '../db/retention-types.ts';
import { fail } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';

/** Jobs kept at most (the oldest are deleted first): ≈ 2–3 MB each at 50,000 rows. */
export const MAX_EXPORT_JOBS = 100;
/** Rows deleted per batch of a sweep. */
const SWEEP_BATCH = 100;
/**
 * In a cluster (issue 20) a `running` job older than this has died with its node: an export of 50,000 rows takes
 * seconds. A node's start cannot fail every running job there (other nodes run theirs); its status reads as failed
 * from then on, on every node, and the leader's sweep writes it so.
 */
export const EXPORT_STALE_MS = 10 * 60_000;

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

export interface ExportFilesOptions {
  readonly storage: Storage;
  /** DATA_DIR/exports. */
  readonly dir: string;
  /** A finished job is kept this long after it finished. */
  readonly keepMs: number;
  readonly clock?: () => number;
  readonly log?: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
  /** Several nodes share the table (PostgreSQL, issue 20): running jobs fail by age, not all at a start. */
  readonly shared?: boolean;
}

export interface ExportSweepResult {
  /** Jobs removed (expired or over the cap). */
  removed: number;
  /** Files that could not be removed (their rows stay for the next sweep). */
  failed: number;
}

/** The export jobs' table and directory, shared by every export family of the app. */
export class ExportFiles {
  readonly clock: () => number;
  /** Work still running in this process, so shutdown waits for it to finish (or fail) and record it. */
  private readonly working = new Set<Promise<unknown>>();

  constructor(private readonly options: ExportFilesOptions) {
    this.clock = options.clock ?? Date.now;
  }

  get storage(): Storage {
    return this.options.storage;
  }

  /** The finished file of a job (ids are UUIDs the server made, never user paths). */
  fileOf(id: string): string {
    return path.join(this.options.dir, `${id}.xlsx`);
  }

  /**
   * At start: jobs left running by the previous process have failed (the retention scheduler sweeps expired ones). In a
   * cluster only those past EXPORT_STALE_MS: the newer ones may be running on another node.
   */
  async start(): Promise<void> {
    await mkdir(this.options.dir, { recursive: true });
    const now = this.clock();
    const failed = await this.options.storage.exportFiles.failRunning(now, this.options.shared ? now - EXPORT_STALE_MS : undefined);
    if (failed > 0) this.options.log?.warn({ failed }, 'export jobs interrupted by the last shutdown marked failed');
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.working]);
  }

  /** Deletes jobs finished more than the lifetime ago and jobs beyond the cap: files first, then rows. */
  async sweep(): Promise<ExportSweepResult> {
    const { storage } = this.options;
    const result: ExportSweepResult = { removed: 0, failed: 0 };
    const before = this.clock() - this.options.keepMs;
    if (this.options.shared) await storage.exportFiles.failRunning(this.clock(), this.clock() - EXPORT_STALE_MS);
    for (const pick of [() => storage.exportFiles.expired(before, SWEEP_BATCH), () => storage.exportFiles.overCap(MAX_EXPORT_JOBS, SWEEP_BATCH)]) {
      for (;;) {
        const ids = await pick();
        const gone: string[] = [];
        for (const id of ids) {
          try {
            await rm(this.fileOf(id), { force: true });
            gone.push(id);
          } catch (err) {
            result.failed++;
            this.options.log?.warn({ err, id }, 'export file could not be removed');
          }
        }
        await storage.exportFiles.delete(gone);
        result.removed += gone.length;
        // A file that cannot be removed keeps its row: stop rather than pick it again.
        if (ids.length < SWEEP_BATCH || gone.length < ids.length) break;
      }
    }
    if (result.removed + result.failed > 0) this.options.log?.info({ ...result }, 'export files sweep');
    return result;
  }

  /** Runs `p` as tracked work (shutdown waits for it). */
  track(p: Promise<unknown>): void {
    this.working.add(p);
    void p.finally(() => this.working.delete(p));
  }

  /** A finished job's row, unless past its lifetime (a sweep may not have run yet); a cluster's stale running job as failed. */
  live(row: ExportFileRow | undefined): ExportFileRow | undefined {
    if (!row || (row.finishedAt !== null && row.finishedAt < this.clock() - this.options.keepMs)) return undefined;
    if (this.options.shared && row.status === 'running' && row.createdAt < this.clock() - EXPORT_STALE_MS) return { ...row, status: 'failed' };
    return row;
  }
}

/** One export family's jobs (`kind` keeps a track task id from answering on the alarm calls). */
export class ExportJobs {
  /** `what` names the export in the failure log ("track export failed"). */
  constructor(
    private readonly files: ExportFiles,
    private readonly kind: string,
    private readonly messages: ExportJobMessages,
    private readonly what: string,
  ) {}

  /** Records the job and starts `work` after the current answer; it answers the matched total, the rows written and the file. */
  async start(owner: ExportJobStart, work: () => Promise<{ total: number; exported: number; file: Buffer }>): Promise<ExportFileRow> {
    const { storage } = this.files;
    const job: ExportFileRow = {
      id: randomUUID(), kind: this.kind, userId: owner.userId, status: 'running', total: 0, exported: 0, size: 0,
      fileName: owner.fileName, asciiName: owner.asciiName, createdAt: this.files.clock(), finishedAt: null,
    };
    await storage.exportFiles.create(job);
    // After the answer: reading and writing the workbook take a second or two at 50,000 rows.
    const run = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      try {
        const r = await work();
        // The file first, then the row that points at it: a crash in between leaves a running row (failed at start), never a dangling one.
        await writeFile(this.files.fileOf(job.id), r.file);
        const kept = await storage.exportFiles.finish(job.id, { status: 'done', total: r.total, exported: r.exported, size: r.file.length, finishedAt: this.files.clock() });
        // Its row went over the cap while it ran: nothing points at the file, so it goes too.
        if (!kept) await rm(this.files.fileOf(job.id), { force: true });
      } catch (err) {
        owner.log.error({ err }, `${this.what} failed`);
        await storage.exportFiles.finish(job.id, { status: 'failed', total: 0, exported: 0, size: 0, finishedAt: this.files.clock() }).catch(() => undefined);
      }
    });
    this.files.track(run);
    return job;
  }

  /** The caller's own job; another user's id answers 404 like an unknown or expired one. */
  async own(userId: number, id: string): Promise<ExportFileRow> {
    const job = this.files.live(await this.files.storage.exportFiles.get(this.kind, id));
    if (!job || job.userId !== userId) throw fail.notFound(this.messages.notFound);
    return job;
  }

  /** The finished file, or 400 (failed) / 409 (still running) / 404 (its file is gone). */
  async file(userId: number, id: string, lang: Lang): Promise<{ body: Buffer; name: string; asciiName: string }> {
    const job = await this.own(userId, id);
    if (job.status === 'failed') throw fail.badRequest(this.messages.failed);
    if (job.status !== 'done') throw fail.conflict(this.messages.notDone);
    const body = await readFile(this.files.fileOf(job.id)).catch(() => undefined);
    if (!body) throw fail.notFound(this.messages.notFound);
    return { body, name: job.fileName[lang === 'zh' ? 0 : 1], asciiName: job.asciiName };
  }
}
