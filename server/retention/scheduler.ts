/**
 * One scheduler for every retention sweep of the server (media files, history, export files, search
 * results): each task runs at start and then every interval, one task after another, so two sweeps
 * never compete for the single SQLite connection. Each task bounds its own work per step and yields
 * between steps (see data-retention.ts); the scheduler only decides when, and (in a cluster on one PostgreSQL
 * database) that a task deleting shared rows runs on the leader only.
 */
export const RETENTION_INTERVAL_MS = 3_600_000;

export interface RetentionTask {
  readonly name: string;
  /** One sweep; answers what it removed (logged). */
  sweep(): Promise<object>;
  /** Asks a sweep in progress to end after its current step (shutdown). */
  halt?(): void;
  /**
   * Runs on every node of a cluster (it cleans what only this node has: its own files). Without it a task runs on
   * the leader only (`isLeader`): it deletes shared rows, which one node must do once (server/cluster-jobs.md).
   */
  readonly perNode?: boolean;
}

export interface SchedulerOptions {
  readonly intervalMs?: number;
  /** This node runs the cluster's once-only tasks (issue 20: server/ops/leader.ts); absent: always. */
  readonly isLeader?: () => boolean;
  readonly log?: { warn(obj: object, msg: string): void };
}

export class RetentionScheduler {
  private readonly tasks: RetentionTask[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<Record<string, object>> | undefined;
  private stopped = false;

  constructor(private readonly options: SchedulerOptions = {}) {}

  add(task: RetentionTask): void {
    this.tasks.push(task);
  }

  /** Sweeps now (after the current turn) and then every interval. */
  start(): void {
    if (this.timer) return;
    this.stopped = false;
    setImmediate(() => void this.runAll());
    this.timer = setInterval(() => void this.runAll(), this.options.intervalMs ?? RETENTION_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in progress (its tasks finish their current step). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.tasks) t.halt?.();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Every task once, in order (a call while a round runs joins it); answers each task's result. */
  runAll(): Promise<Record<string, object>> {
    this.running ??= (async () => {
      const results: Record<string, object> = {};
      const leader = this.options.isLeader?.() ?? true;
      for (const task of this.tasks) {
        if (this.stopped) break;
        if (!leader && !task.perNode) continue;
        try {
          results[task.name] = await task.sweep();
        } catch (err) {
          this.options.log?.warn({ err, task: task.name }, 'retention sweep failed');
        }
      }
      return results;
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
