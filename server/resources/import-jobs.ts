/**
 * The import pipeline of the resource layer and its large-file job (issue 15: `vehicle/v3/batchimp` +
 * `vehicle/batch/status`, the same for devices and drivers).
 *
 * One pipeline serves both import calls: the JSON `…/import` (base64 file, answered when done) and the
 * job (multipart upload answered at once with a task id, progress through the status call).
 *   reading  — the sheet streamed (import.ts), every cell of every row checked against its column's schema;
 *   checking — per row the resource's `prepareCreate` (outside any transaction) and `checkWrite` (on a
 *              transaction that is always rolled back, 500 rows at a time), the event loop given back
 *              between slices: the gateway shares the process;
 *   writing  — only when no row has a problem: ONE transaction through the write hook point with
 *              checkWrite + create + afterWrite + the change-log row per row (as a single create does),
 *              so rows of the same file that clash (a plate twice) are found here and roll everything back.
 * Every problem is collected (up to 200 listed, in row order, with the column in the caller's language).
 *
 * The write transaction awaits only repository calls (server/CONTEXT.md pitfalls): better-sqlite3 is
 * synchronous, so it holds the event loop for its whole length. Its rows cannot be counted by a status
 * call while it runs; `writeMs` (logged) says how long it held (bench/fleet-assets.bench.ts measures it).
 * What keeps it short: compiled statements kept by SQL text in the repositories (sqlite/statements.ts),
 * the change-log row of a created record built from its written fields (`changeLog.created`) instead of
 * a read-back with its channels and drivers, one store adapter per transaction. Per row it is then one
 * plate look-up and two inserts (the vehicle with its 5 indexes, the log row with 2). Measured on the
 * shared 2-core machine, 10,000 vehicles, same-run pairs: 550–750 ms before, 210–320 ms after.
 *
 * Jobs live in the memory of the node running them: per user, one running at a time, the last 10 finished kept
 * for 30 minutes; the server runs 4 at most. With several API nodes on one database both limits count every node's
 * running tasks from the shared rows (`begin`: a check and the new row in one write transaction). Someone else's task is 404, as is a task of another resource. Their
 * status is also written to the database (import-jobs-store.ts, table `import_job`: at the start, on progress at
 * most once a second, at the end with the outcome), so behind a balancer a status call reaching another API node
 * answers it too (issue 20). A task whose row stopped moving for IMPORT_STALE_MS (its node died) reads failed;
 * on the embedded database (one process) an unfinished task last written before this process started reads
 * failed at once (a restart: nothing half-written survives one, the transaction is atomic).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Type } from '@fastify/type-provider-typebox';
import type { Lang } from '../../domain/errors/catalogue.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { IMPORT_JOB_LIMITS, type ImportJobState, type ImportPhase, type ImportProblemView } from '../../domain/fleet/import-job.ts';
import type { Repositories, Storage } from '../db/repositories.ts';
import { narrowedScope } from '../http/auth.ts';
import { AppError, fail, ok } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { MAX_ID, Strict, type App } from '../http/route.ts';
import { fileProblem, ProblemList, readImportSheet, ruleProblem, type ImportColumn, type ImportProblem } from './import.ts';
import { IMPORT_STALE_MS, IMPORT_WRITE_MS, ImportJobStore, type ImportJobRow, type RunningImport } from './import-jobs-store.ts';
import type { CallContext, Endpoint, Fields } from './resource.ts';

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
const mib = (bytes: number) => `${bytes / 1024 / 1024} MB`;

export const ImportJobMessages = {
  taskNotFound: pair('导入任务不存在或已过期', 'The import task does not exist or has expired'),
  notMultipart: pair('请以 multipart/form-data 上传 .xlsx 文件（字段 file）', 'Upload the .xlsx file as multipart/form-data (field "file")'),
  noFile: pair('没有收到文件（字段 file）', 'No file was received (field "file")'),
  unknownPart: (name: string): Message => pair(`无法识别的上传字段「${name}」`, `Unknown upload field "${name}"`),
  tooBig: pair(`文件超过 ${mib(IMPORT_JOB_LIMITS.fileMaxBytes)}，请拆分后再导入`, `The file is larger than ${mib(IMPORT_JOB_LIMITS.fileMaxBytes)}; split it and import the parts`),
  tooManyParts: pair('上传内容过多：只需一个文件（file）和可选的 companyId', 'Too many upload parts: one file ("file") and an optional companyId'),
  badUpload: pair('上传内容不完整或格式有误', 'The upload is incomplete or malformed'),
  companyId: pair('字段 companyId 不合法：应为正整数', 'Field companyId is invalid: must be a positive integer'),
  oneRunning: pair('您已有一个导入正在进行，请等待其完成', 'An import of yours is still running; wait until it ends'),
  busy: pair('服务器正在处理其他导入，请稍后再试', 'The server is busy with other imports; try again shortly'),
  refused: (count: number): Message => pair(`共 ${count} 处错误，未导入任何数据`, `${count} problem${count === 1 ? '' : 's'} found; nothing was imported`),
  failed: pair('导入失败，未写入任何数据，请重试', 'The import failed and nothing was written; please try again'),
} as const;

// ── the pipeline ──

/** What the pipeline needs of a resource declaration (built by registerResource). */
export interface ImportRunner {
  readonly resource: string;
  readonly columns: readonly ImportColumn[];
  readonly maxRows: number;
  /** Before any transaction: a row's fields → the fields to write (`prepareCreate`). */
  prepare(c: CallContext, fields: Fields): Promise<Fields>;
  /** Inside a transaction: the resource's rules for a new record (`checkWrite`). Absent: no dry run. */
  readonly check?: (tx: Repositories, fields: Fields, c: CallContext) => Promise<void>;
  /**
   * `check` guards only what the tables' UNIQUE constraints guard: inside the write transaction a row is
   * checked only when its insert breaks one (see ImportDeclaration.checkOnConflict).
   */
  readonly checkOnConflict?: boolean;
  /** Inside the write transaction: create + afterWrite + the change-log row; answers the new id. */
  write(tx: Repositories, fields: Fields, c: CallContext): Promise<number>;
  /** The write transaction through the write hook point (operation 'import'). */
  transaction<T>(c: CallContext, fn: (tx: Repositories) => Promise<{ ids: readonly number[]; result: T }>): Promise<T>;
  /** After the write committed (the live side follows: gateway directory, store). */
  readonly committed?: (ids: readonly number[], c: CallContext) => Promise<void> | void;
}

export interface ImportProgress {
  readonly phase: Extract<ImportPhase, 'reading' | 'checking' | 'writing'>;
  readonly done: number;
  readonly total: number;
}

export type ImportOutcome =
  | { readonly kind: 'done'; readonly ids: number[]; readonly total: number; readonly writeMs: number }
  | { readonly kind: 'refused'; readonly problems: ImportProblem[]; readonly count: number; readonly total: number };

/** Thrown inside the write transaction to roll it back when a row broke a rule. */
class Refusal extends Error {
  constructor(readonly problems: ProblemList) {
    super('import refused');
  }
}
/** Thrown inside the dry-run transaction: checks never write. */
const DRY_RUN = Symbol('dry run');

export class ImportCancelled extends Error {
  constructor() {
    super('import cancelled: the server is closing');
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** better-sqlite3's error for an insert that breaks a UNIQUE constraint or the primary key. */
const isUniqueViolation = (err: unknown) => ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes((err as { code?: string } | null)?.code ?? '');

export interface RunOptions {
  /** Fields every row gets (the selected company). */
  readonly extra?: Fields;
  readonly onProgress?: (p: ImportProgress) => void;
  readonly cancelled?: () => boolean;
  readonly rowsPerChunk?: number;
}

/**
 * Reads, checks and (when every row passes) writes one file. A problem of the whole file or of any
 * row answers `refused` with nothing written; anything unexpected (a bug, a closed database) throws.
 */
export async function runImport(storage: Storage, runner: ImportRunner, c: CallContext, file: Buffer, opts: RunOptions = {}): Promise<ImportOutcome> {
  const chunk = opts.rowsPerChunk ?? IMPORT_JOB_LIMITS.rowsPerChunk;
  const progress = opts.onProgress ?? (() => undefined);
  const stop = () => {
    if (opts.cancelled?.()) throw new ImportCancelled();
  };
  const problems = new ProblemList(runner.columns, IMPORT_JOB_LIMITS.problemsListed);
  const refused = (total: number): ImportOutcome => ({ kind: 'refused', problems: problems.listed(), count: problems.count, total });
  /** A row's AppError is a problem of that row; anything else is not the file's fault and ends the import. */
  const asProblem = (row: number, err: unknown) => {
    if (!(err instanceof AppError)) throw err;
    problems.add(ruleProblem(row, err, runner.columns));
  };

  progress({ phase: 'reading', done: 0, total: 0 });
  let sheet;
  try {
    sheet = await readImportSheet(file, runner.columns, runner.maxRows, problems, {
      every: chunk,
      onProgress: (read) => {
        stop();
        progress({ phase: 'reading', done: read, total: 0 });
      },
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    problems.add(fileProblem(err));
    return refused(0);
  }
  const { total } = sheet;

  // Checking: prepare each good row, then the rules of a slice on a transaction that is rolled back.
  const prepared: { row: number; fields: Fields }[] = [];
  let done = sheet.badRows;
  progress({ phase: 'checking', done, total });
  for (let at = 0; at < sheet.rows.length; at += chunk) {
    stop();
    const slice: { row: number; fields: Fields }[] = [];
    for (const r of sheet.rows.slice(at, at + chunk)) {
      try {
        slice.push({ row: r.row, fields: await runner.prepare(c, { ...r.fields, ...opts.extra }) });
      } catch (err) {
        asProblem(r.row, err);
      }
    }
    if (runner.check && slice.length > 0) {
      const check = runner.check;
      await storage.transaction(async (tx) => {
        for (const p of slice) {
          try {
            await check(tx, p.fields, c);
          } catch (err) {
            asProblem(p.row, err);
          }
        }
        throw DRY_RUN;
      }).catch((err: unknown) => {
        if (err !== DRY_RUN) throw err;
      });
    }
    prepared.push(...slice);
    done += Math.min(chunk, sheet.rows.length - at);
    progress({ phase: 'checking', done, total });
    await nextTurn();
  }
  if (problems.count > 0) return refused(total);

  // Writing: one transaction, every row or none.
  stop();
  progress({ phase: 'writing', done: 0, total });
  let writeMs = 0;
  try {
    const ids = await runner.transaction(c, async (tx) => {
      const started = performance.now();
      const rowProblems = new ProblemList(runner.columns, IMPORT_JOB_LIMITS.problemsListed);
      const created: number[] = [];
      for (const p of prepared) {
        try {
          if (!runner.checkOnConflict) await runner.check?.(tx, p.fields, c);
          created.push(await runner.write(tx, p.fields, c));
        } catch (thrown) {
          let err = thrown;
          // A UNIQUE constraint broken (the same plate twice in the file, or entered since the check): the rule says which and how.
          if (runner.checkOnConflict && isUniqueViolation(thrown)) err = await runner.check?.(tx, p.fields, c).then(() => thrown, (rule: unknown) => rule);
          if (!(err instanceof AppError)) throw err;
          rowProblems.add(ruleProblem(p.row, err, runner.columns));
          if (rowProblems.count >= IMPORT_JOB_LIMITS.problemsListed) break;
        }
      }
      writeMs = performance.now() - started;
      if (rowProblems.count > 0) throw new Refusal(rowProblems);
      return { ids: created, result: created };
    });
    return { kind: 'done', ids, total, writeMs };
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    return { kind: 'refused', problems: err.problems.listed(), count: err.problems.count, total };
  }
}

/** A problem as the answer lists it, in `lang`. */
export function problemView(p: ImportProblem, lang: Lang): ImportProblemView {
  return { ...(p.row === undefined ? {} : { row: p.row }), ...(p.column ? { column: p.column.header[lang === 'zh' ? 0 : 1] } : {}), msg: p.detail(lang) };
}

/**
 * The JSON import's refusal: the first problem's status and sentence (`第 3 行「协议版本」：…`, as
 * before every problem was collected), and all of them listed in `data`.
 */
export function refusalError(outcome: Extract<ImportOutcome, { kind: 'refused' }>, lang: Lang): AppError {
  const first = outcome.problems[0]!;
  return new AppError(first.code, first.message, { problems: outcome.problems.map((p) => problemView(p, lang)), problemCount: outcome.count });
}

// ── the jobs ──

interface Job {
  readonly id: string;
  readonly userId: number;
  readonly resource: string;
  readonly created: number;
  phase: ImportPhase;
  done: number;
  total: number;
  imported?: number;
  problems?: ImportProblem[];
  problemCount?: number;
  message?: Message;
  finished?: number;
  writeMs?: number;
  /** When its row was last written (import-jobs-store.ts). */
  written?: number;
}

export interface ImportJobLimits {
  readonly keepMinutes: number;
  readonly runningPerUser: number;
  readonly runningMax: number;
  readonly keptPerUser: number;
}

/** The import tasks of one server, in memory, their status also in the database when a store is given (any node reads it). */
export class ImportJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly running = new Set<Promise<void>>();
  /** Tasks this node forgot whose rows are still to be deleted (at the next start). */
  private readonly forgotten = new Set<string>();
  private closing = false;

  constructor(
    private readonly limits: ImportJobLimits = IMPORT_JOB_LIMITS,
    private readonly now: () => number = Date.now,
    private readonly store?: ImportJobStore,
    /** Other nodes share the database (their tasks are not in this node's memory but may be running). */
    private readonly shared = false,
  ) {
    this.startedAt = now();
  }

  /** When this process's task list began (tasks written before, on the embedded database, died with the last process). */
  private readonly startedAt: number;

  private row(job: Job): ImportJobRow {
    const now = this.now();
    job.written = now;
    return {
      id: job.id, userId: job.userId, resource: job.resource, phase: job.phase, done: job.done, total: job.total, imported: job.imported ?? null,
      problemCount: job.problems ? job.problemCount ?? job.problems.length : null,
      problems: job.problems ? { zh: job.problems.map((p) => problemView(p, 'zh')), en: job.problems.map((p) => problemView(p, 'en')) } : null,
      message: job.message ? [job.message('zh'), job.message('en')] : null,
      createTime: job.created, updateTime: now, finishTime: job.finished ?? null,
    };
  }

  /**
   * A new task of `userId`, or 429 when the user already runs one or the server runs its maximum. With a store the
   * count is the shared database's (every node's running tasks, a dead node's only until IMPORT_STALE_MS after its
   * last write), read and followed by the new row in one write transaction (ImportJobStore.claim): two nodes racing
   * cannot both pass. This node's own tasks count from its memory (their latest rows may still be queued).
   */
  async begin(userId: number, resource: string): Promise<Job> {
    this.sweep(1);
    const job: Job = { id: randomUUID(), userId, resource, created: this.now(), phase: 'reading', done: 0, total: 0 };
    const forgotten = new Set(this.forgotten);
    const admit = (elsewhere: readonly RunningImport[]) => {
      const active = [...this.jobs.values()].filter((j) => j.finished === undefined).map((j) => j.userId);
      for (const r of elsewhere) {
        // On the embedded database (one process) a row written before this process started is its previous run's.
        if (!this.jobs.has(r.id) && !forgotten.has(r.id) && (this.shared || r.updateTime >= this.startedAt)) active.push(r.userId);
      }
      if (active.filter((u) => u === userId).length >= this.limits.runningPerUser) throw new AppError(ErrorCode.TooManyRequests, ImportJobMessages.oneRunning);
      if (this.closing || active.length >= this.limits.runningMax) throw new AppError(ErrorCode.TooManyRequests, ImportJobMessages.busy);
      this.jobs.set(job.id, job);
    };
    if (!this.store) {
      admit([]);
      return job;
    }
    const now = this.now();
    // Rows no node answers any more: finished past the keeping time, or stale (their node died) that long ago.
    this.store.deleteExpired(now - this.limits.keepMinutes * 60_000, now - IMPORT_STALE_MS - this.limits.keepMinutes * 60_000);
    this.store.delete([...this.forgotten]);
    this.forgotten.clear();
    try {
      await this.store.claim(this.row(job), admit);
    } catch (err) {
      this.jobs.delete(job.id);
      throw err;
    }
    return job;
  }

  /**
   * The caller's task of this resource as the status call answers it: this node's own from memory, another
   * node's from the database; anything else (someone else's, another resource's, expired) is 404.
   */
  status(userId: number, resource: string, taskId: string, lang: Lang): ImportJobState {
    this.sweep(0);
    const job = this.jobs.get(taskId);
    if (job) return this.view(this.own(userId, resource, taskId), lang);
    const row = this.forgotten.has(taskId) ? undefined : this.store?.get(taskId);
    const now = this.now();
    if (!row || row.userId !== userId || row.resource !== resource) throw fail.notFound(ImportJobMessages.taskNotFound);
    if (row.finishTime !== null && now - row.finishTime > this.limits.keepMinutes * 60_000) throw fail.notFound(ImportJobMessages.taskNotFound);
    const base = { taskId: row.id, done: row.done, total: row.total };
    if (row.finishTime === null) {
      // Not running here. Its node is gone when silent past the bound; on the embedded database (one process) a
      // task last written before this process started was its previous run's (a restart): gone at once.
      const lost = now - row.updateTime > IMPORT_STALE_MS || (!this.shared && row.updateTime < this.startedAt);
      if (!lost) return { ...base, phase: row.phase };
      if (now - row.updateTime > IMPORT_STALE_MS + this.limits.keepMinutes * 60_000) throw fail.notFound(ImportJobMessages.taskNotFound);
      return { ...base, phase: 'failed', msg: ImportJobMessages.failed(lang) };
    }
    return {
      ...base, phase: row.phase,
      ...(row.imported === null ? {} : { imported: row.imported }),
      ...(row.problems ? { problems: row.problems[lang], problemCount: row.problemCount ?? row.problems[lang].length } : {}),
      ...(row.message ? { msg: row.message[lang === 'zh' ? 0 : 1] } : {}),
    };
  }

  /** The caller's task of this resource; anything else (someone else's, another resource's, expired) is 404. */
  own(userId: number, resource: string, taskId: string): Job {
    this.sweep(0);
    const job = this.jobs.get(taskId);
    if (!job || job.userId !== userId || job.resource !== resource) throw fail.notFound(ImportJobMessages.taskNotFound);
    return job;
  }

  /** Runs the task's work; its promise is awaited by `close`. */
  run(job: Job, work: (cancelled: () => boolean) => Promise<void>, log: FastifyBaseLogger): void {
    const p = work(() => this.closing)
      .catch((err: unknown) => {
        if (!(err instanceof ImportCancelled)) log.error({ err, taskId: job.id, resource: job.resource }, 'import job failed');
        this.finish(job, 'failed', { message: ImportJobMessages.failed });
      })
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  progress(job: Job, p: ImportProgress): void {
    job.phase = p.phase;
    job.done = p.done;
    job.total = p.total;
    // At most once a second (IMPORT_WRITE_MS): a progress call comes every slice of rows.
    if (this.store && job.finished === undefined && this.now() - (job.written ?? 0) >= IMPORT_WRITE_MS) this.store.save(this.row(job));
  }

  finish(job: Job, phase: 'done' | 'refused' | 'failed', what: Partial<Pick<Job, 'imported' | 'problems' | 'problemCount' | 'message' | 'writeMs' | 'done'>> = {}): void {
    Object.assign(job, what);
    job.phase = phase;
    job.finished = this.now();
    this.store?.save(this.row(job));
  }

  view(job: Job, lang: Lang): ImportJobState {
    return {
      taskId: job.id, phase: job.phase, done: job.done, total: job.total,
      ...(job.imported === undefined ? {} : { imported: job.imported }),
      ...(job.problems ? { problems: job.problems.map((p) => problemView(p, lang)), problemCount: job.problemCount ?? job.problems.length } : {}),
      ...(job.message ? { msg: job.message(lang) } : {}),
    };
  }

  /** Stops running tasks at their next slice (they end failed, nothing written) and waits for them. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.running]);
    this.store?.close();
  }

  /** Tasks held now (tests). */
  get size(): number {
    return this.jobs.size;
  }

  /** Forgets expired tasks, and a user's oldest finished ones past `keptPerUser - room` (room for a new one). */
  private sweep(room: number): void {
    const now = this.now();
    const keep = this.limits.keepMinutes * 60_000;
    const finishedBy = new Map<number, Job[]>();
    const forgotten: string[] = [];
    const forget = (id: string) => {
      this.jobs.delete(id);
      forgotten.push(id);
    };
    for (const job of this.jobs.values()) {
      if (job.finished === undefined) continue;
      if (now - job.finished > keep) {
        forget(job.id);
        continue;
      }
      const list = finishedBy.get(job.userId) ?? [];
      list.push(job);
      finishedBy.set(job.userId, list);
    }
    for (const list of finishedBy.values()) {
      list.sort((a, b) => a.finished! - b.finished!);
      for (const old of list.slice(0, Math.max(0, list.length - this.limits.keptPerUser + room))) forget(old.id);
    }
    // Forgotten here, forgotten on every node: their rows go at the next start (a status call writes nothing).
    if (this.store) for (const id of forgotten) this.forgotten.add(id);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The import tasks of the resources' multipart imports (server/resources/import-jobs.ts). */
    importJobs: ImportJobs;
  }
}

function jobsOf(app: App, storage: Storage): ImportJobs {
  if (!app.hasDecorator('importJobs')) {
    const shared = app.hasDecorator('leadership') && app.leadership.shared;
    const jobs = new ImportJobs(IMPORT_JOB_LIMITS, Date.now, new ImportJobStore(storage, app.log), shared);
    app.decorate('importJobs', jobs);
    // Running tasks end (failed, nothing written) before the database closes.
    app.addHook('onClose', async () => jobs.close());
  }
  return app.importJobs;
}

// ── the upload ──

interface Upload {
  readonly file: Buffer;
  readonly companyId?: number;
}

const MULTIPART_LIMITS = { fileSize: IMPORT_JOB_LIMITS.fileMaxBytes, files: 1, fields: 1, parts: 2, fieldNameSize: 64, fieldSize: 32, headerPairs: 20 } as const;

/** Errors of the multipart parser that are the upload's fault (a 400 with our words, never a 5xx). */
function uploadError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fail.badRequest(ImportJobMessages.tooBig);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') return fail.badRequest(ImportJobMessages.tooManyParts);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION' || code.startsWith('FST_') || err instanceof Error) return fail.badRequest(ImportJobMessages.badUpload);
  return err;
}

/** The form's parts: one file `file` (≤ 8 MiB) and an optional `companyId`; anything else is 400. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) throw fail.badRequest(ImportJobMessages.notMultipart);
  let file: Buffer | undefined;
  let companyId: number | undefined;
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          throw fail.badRequest(ImportJobMessages.unknownPart(part.fieldname));
        }
        file = await part.toBuffer();
      } else {
        if (part.fieldname !== 'companyId') throw fail.badRequest(ImportJobMessages.unknownPart(part.fieldname));
        const text = String(part.value).trim();
        if (!/^[1-9][0-9]{0,15}$/.test(text) || Number(text) > MAX_ID) throw new AppError(ErrorCode.BadRequest, ImportJobMessages.companyId, null, { companyId: { code: 'type', params: { type: 'integer' } } });
        companyId = Number(text);
      }
    }
  } catch (err) {
    throw uploadError(err);
  }
  if (!file || file.length === 0) throw fail.badRequest(ImportJobMessages.noFile);
  return { file, companyId };
}

/**
 * The job's two routes. The start route lives in a context of its own with @fastify/multipart, so
 * only it accepts multipart bodies: every other route keeps JSON. It declares a query schema (the
 * companyId the console may also send there), so the fuzz test drives it like any route.
 */
export function registerImportJob(app: App, storage: Storage, runner: ImportRunner, endpoints: { start: Endpoint; status: Endpoint }, call: (request: FastifyRequest) => CallContext): void {
  const jobs = jobsOf(app, storage);
  const { start, status } = endpoints;
  app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    scope.route({
      method: start.method, url: start.url, config: { permission: start.permission },
      schema: { querystring: Strict({}) },
      handler: async (request) => {
        const c = call(request);
        const upload = await readUpload(request);
        const companyId = upload.companyId ?? (request.query as { companyId?: number }).companyId;
        // The company rows are imported into must lie in the caller's subtree (403 now, not one 403 per row later).
        await narrowedScope(storage, c.ctx, companyId);
        const job = await jobs.begin(c.ctx.user.id, runner.resource);
        jobs.run(job, async (cancelled) => {
          const outcome = await runImport(storage, runner, c, upload.file, {
            extra: companyId === undefined ? {} : { companyId }, cancelled, onProgress: (p) => jobs.progress(job, p),
          });
          if (outcome.kind === 'refused') {
            jobs.finish(job, 'refused', { problems: outcome.problems, problemCount: outcome.count, message: ImportJobMessages.refused(outcome.count) });
            return;
          }
          jobs.finish(job, 'done', { imported: outcome.ids.length, done: outcome.ids.length, writeMs: outcome.writeMs });
          request.log.info({ taskId: job.id, resource: runner.resource, rows: outcome.ids.length, writeMs: Math.round(outcome.writeMs) }, 'import written');
          try {
            await runner.committed?.(outcome.ids, c);
          } catch (err) {
            request.log.error({ err, taskId: job.id }, 'import committed; the follow-up after the commit failed');
          }
        }, request.log);
        return ok({ taskId: job.id }, c.lang);
      },
    });
  });
  const inQuery = status.input ? status.input === 'query' : status.method === 'GET' || status.method === 'DELETE';
  const TaskInput = Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) });
  app.route({
    method: status.method, url: status.url, config: { permission: status.permission },
    schema: inQuery ? { querystring: TaskInput } : { body: TaskInput },
    handler: async (request) => {
      const c = call(request);
      const { taskId } = (inQuery ? request.query : request.body) as { taskId: string };
      return ok(jobs.status(c.ctx.user.id, runner.resource, taskId, c.lang), c.lang);
    },
  });
}
