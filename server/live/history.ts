/**
 * Position history writing. Rows are written in batches — one transaction per `flushMs` or per
 * `maxRows` rows — so 100k positions/s cost a few transactions per second, not 100k. Group commit
 * (issue 20): the gateway acknowledges a report only once the transaction holding its row committed
 * (`afterCommit`), so a process killed at any moment has lost nothing it acknowledged; what was
 * queued and not yet committed was not acknowledged either, and terminals send it again. Barriers
 * (`addBarrier`: the alarm service) extend this to the alarm rows a report raised: a batch commits
 * after the alarm rows queued with it, and an ack waits for both. The gateway sees only `HistorySink`: a per-vehicle-day block store can replace the SQLite table later.
 */
import type { PositionRepository, PositionRow } from '../db/repositories.ts';

/**
 * Another writer whose rows an acknowledgement promises too (issue 20): the alarm rows a report
 * raised are written by the alarm service in its own batches, so a report's ack waits for them as
 * well. Two counters of items: `queued` grows when the writer takes an item, `settled` when the
 * batch holding it finished (committed, or given up and logged). The writer calls `onSettled`.
 */
export interface CommitBarrier {
  readonly queued: number;
  readonly settled: number;
  onSettled: (() => void) | undefined;
}

/** The longest a flush waits for the alarm rows of its positions before writing them anyway. */
export const BARRIER_WAIT_MAX_MS = 5000;

export interface HistorySink {
  /** Queues one row; durable after the next flush. Throws once the sink is closed. */
  enqueue(row: PositionRow): void;
  /** Writes everything queued so far; resolves when it is committed. */
  flush(): Promise<void>;
  /** Flushes and stops; later enqueues throw. */
  close(): Promise<void>;
  /**
   * Runs `callback` once every row enqueued before this call is committed (at once when all are).
   * Callbacks run in the order they were given; a failed flush holds them until a retry commits.
   * The gateway sends its 0x8001 acknowledgements here.
   */
  afterCommit(callback: () => void): void;
  /**
   * From now on `afterCommit` callbacks also wait for everything `barrier` had queued when they were
   * given (in order: a later callback never overtakes an earlier one).
   */
  addBarrier?(barrier: CommitBarrier): void;
  /** Rows queued and not yet committed. */
  readonly pending: number;
  readonly stats: HistoryStats;
  /**
   * Called with each batch right after its transaction committed (the report engine folds it into
   * the day figures, issue 18). Runs after the acknowledgement was sent; a throw is logged, never retried.
   */
  onCommitted?: ((rows: readonly PositionRow[]) => void) | undefined;
}

export interface HistoryStats {
  rowsWritten: number;
  /** Rows the database already held (same vehicle and GPS time: a terminal's resend after a lost ack), not stored again. */
  duplicates?: number;
  flushes: number;
  failedFlushes: number;
  /** Duration of the last flush, ms. */
  lastFlushMs: number;
}

export interface BatchedHistoryOptions {
  /** Flush this long after the first row queued since the last flush. */
  readonly flushMs: number;
  /** Flush as soon as this many rows are queued. */
  readonly maxRows: number;
  /**
   * False while the single SQLite connection is inside another transaction (a request's
   * `storage.transaction`): the batch would join it, so the flush waits a tick instead.
   */
  readonly canWrite?: () => boolean;
  readonly onError?: (err: unknown) => void;
}

export class BatchedHistoryWriter implements HistorySink {
  readonly stats: HistoryStats & { duplicates: number } = { rowsWritten: 0, duplicates: 0, flushes: 0, failedFlushes: 0, lastFlushMs: 0 };
  onCommitted: ((rows: readonly PositionRow[]) => void) | undefined;
  /** Called with each committed batch's row count and duration in ms (the flush histogram of server/ops/metrics.ts). */
  onFlushed: ((rows: number, ms: number) => void) | undefined;
  private queue: PositionRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Rows ever enqueued / committed (in queue order: a batch is the queue's head). */
  private enqueuedSeq = 0;
  private committedSeq = 0;
  /** afterCommit callbacks, each with the enqueued count it waits for (non-decreasing). */
  private waiters: { seq: number; marks: number[] | null; callback: () => void }[] = [];
  private waiterHead = 0;
  private readonly barriers: CommitBarrier[] = [];
  /** A flush waiting for barriers (at most one: flushes run one at a time). */
  private readonly barrierWaits = new Set<() => void>();

  constructor(
    private readonly repo: PositionRepository,
    private readonly options: BatchedHistoryOptions,
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  enqueue(row: PositionRow): void {
    if (this.closed) throw new Error('the history writer is closed');
    this.queue.push(row);
    this.enqueuedSeq++;
    if (this.queue.length >= this.options.maxRows) this.schedule(0);
    else if (this.timer === null) this.schedule(this.options.flushMs);
  }

  addBarrier(barrier: CommitBarrier): void {
    this.barriers.push(barrier);
    barrier.onSettled = () => {
      for (const check of [...this.barrierWaits]) check();
      this.release();
    };
  }

  afterCommit(callback: () => void): void {
    const marks = this.openMarks();
    if (marks === null && this.waiterHead === this.waiters.length && this.committedSeq >= this.enqueuedSeq) {
      this.run(callback);
      return;
    }
    this.waiters.push({ seq: this.enqueuedSeq, marks, callback });
  }

  async flush(): Promise<void> {
    this.clearTimers();
    // One flush at a time; a flush asked for during another one writes what arrived since.
    while (this.running) await this.running;
    if (this.queue.length === 0) return;
    while (this.options.canWrite && !this.options.canWrite()) await new Promise((r) => setImmediate(r));
    const batch = this.queue;
    this.queue = [];
    // The alarm rows these positions raised commit first (their events were queued when the rows
    // were): a kill between the two commits then leaves an alarm whose position is resent and stored,
    // never a stored position whose alarm is lost (a resend of a stored position is not live and
    // raises nothing). Waits only while the alarm service is behind, and at most BARRIER_WAIT_MAX_MS.
    const marks = this.openMarks();
    const started = performance.now();
    this.running = (marks === null ? this.repo.append(batch) : this.reach(marks).then(async () => {
      while (this.options.canWrite && !this.options.canWrite()) await new Promise((r) => setImmediate(r));
      return this.repo.append(batch);
    })).then(
      (stored) => {
        // The repository answers the rows it stored when it skipped some (already there): the rest is what was written.
        const written = stored ?? batch;
        this.stats.duplicates += batch.length - written.length;
        this.stats.rowsWritten += written.length;
        this.stats.flushes++;
        this.stats.lastFlushMs = performance.now() - started;
        this.onFlushed?.(batch.length, this.stats.lastFlushMs);
        this.committedSeq += batch.length;
        this.release();
        try {
          if (written.length > 0) this.onCommitted?.(written);
        } catch (err) {
          this.options.onError?.(err);
        }
      },
      (err: unknown) => {
        // Keep the rows (oldest first) and retry on the next flush rather than lose acknowledged data.
        this.queue = batch.concat(this.queue);
        this.stats.failedFlushes++;
        throw err;
      },
    );
    try {
      await this.running;
    } finally {
      this.running = null;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** Runs the callbacks whose rows are all committed now, oldest first. */
  private release(): void {
    const w = this.waiters;
    let i = this.waiterHead;
    while (i < w.length && w[i]!.seq <= this.committedSeq && this.barriersPassed(w[i]!.marks)) this.run(w[i++]!.callback);
    if (i === w.length) {
      this.waiters = [];
      this.waiterHead = 0;
    } else if (i > 1024 && i * 2 > w.length) {
      // Under steady load the list never empties: drop the released head now and then.
      this.waiters = w.slice(i);
      this.waiterHead = 0;
    } else {
      this.waiterHead = i;
    }
  }

  /** What each barrier has queued, when one still writes; null in the common case (nothing in flight, no array). */
  private openMarks(): number[] | null {
    let marks: number[] | null = null;
    for (let i = 0; i < this.barriers.length; i++) {
      const b = this.barriers[i]!;
      if (b.settled < b.queued) (marks ??= new Array<number>(this.barriers.length).fill(0))[i] = b.queued;
    }
    return marks;
  }

  /** Resolves once the barriers settled up to `marks`, or after BARRIER_WAIT_MAX_MS (logged: positions are not held for ever). */
  private reach(marks: number[]): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.options.onError?.(new Error(`history flush: alarm rows still not stored after ${BARRIER_WAIT_MAX_MS} ms; positions written first`));
        done();
      }, BARRIER_WAIT_MAX_MS);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        this.barrierWaits.delete(check);
        resolve();
      };
      const check = () => {
        if (this.barriersPassed(marks)) done();
      };
      this.barrierWaits.add(check);
      check();
    });
  }

  private barriersPassed(marks: number[] | null): boolean {
    if (marks === null) return true;
    for (let i = 0; i < marks.length; i++) if (this.barriers[i]!.settled < marks[i]!) return false;
    return true;
  }

  private run(callback: () => void): void {
    try {
      callback();
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  private schedule(ms: number): void {
    if (ms === 0) {
      if (this.immediate !== null) return;
      this.immediate = setImmediate(() => {
        this.immediate = null;
        this.background();
      });
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.background();
    }, ms);
    this.timer.unref();
  }

  private background(): void {
    this.flush().then(
      () => {
        if (this.queue.length > 0 && this.timer === null) this.schedule(this.queue.length >= this.options.maxRows ? 0 : this.options.flushMs);
      },
      (err: unknown) => {
        this.options.onError?.(err);
        if (this.timer === null) this.schedule(this.options.flushMs);
      },
    );
  }

  private clearTimers(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }
}
