/**
 * WAL checkpoints off the event loop. With `synchronous = NORMAL` a commit writes the log and syncs nothing;
 * the syncs come at a checkpoint, which SQLite runs by default inside the commit that takes the log past
 * 1,000 pages: on the main thread, where the JT/T 808 gateway, the alarm engine and the push share the loop.
 * Under an alarm storm (5,000 alarms and positions per second) that is a checkpoint every second or two,
 * and on slow disks each one held the loop for tens to hundreds of ms (bench/alarm-storm.bench.ts).
 *
 * Attached for a file database (`attachWalCheckpointer`), a worker thread with its own connection runs a
 * PASSIVE checkpoint every second (it never blocks the writer or readers), and the writer's automatic
 * checkpoint moves from 1,000 pages to BACKSTOP_PAGES: it still runs if the worker falls behind or dies,
 * so the log cannot grow without bound.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { CheckpointerIn, CheckpointerOut } from './wal-checkpoint-worker.ts';

/** 64 MiB of 4 KiB pages: the log size at which the writer checkpoints itself after all. */
export const BACKSTOP_PAGES = 16_384;
const DEFAULT_INTERVAL_MS = 1000;

export interface CheckpointStats {
  checkpoints: number;
  /** Time the checkpoints took in all, and the longest, ms (the worker's time, not the event loop's). */
  totalMs: number;
  maxMs: number;
  /** Frames in the log at the last checkpoint. */
  lastLogFrames: number;
}

export class WalCheckpointer {
  readonly stats: CheckpointStats = { checkpoints: 0, totalMs: 0, maxMs: 0, lastLogFrames: 0 };
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, intervalMs = DEFAULT_INTERVAL_MS) {
    // A worker does not inherit a loader registered in code (tests): it registers tsx itself (as read-pool.ts).
    const entry = new URL('./wal-checkpoint-worker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
    this.worker = new Worker(boot, { eval: true, workerData: { file, intervalMs } });
    this.worker.unref();
    this.worker.on('message', (m: CheckpointerOut) => {
      this.stats.checkpoints++;
      this.stats.totalMs += m.ms;
      this.stats.maxMs = Math.max(this.stats.maxMs, m.ms);
      this.stats.lastLogFrames = m.log;
    });
    // A failed worker leaves the writer's backstop checkpoint in charge; nothing else depends on it.
    this.worker.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Stops the worker (its connection closes cleanly; the writer's connection checkpoints at its own close). */
  async close(): Promise<void> {
    this.worker.postMessage({ type: 'close' } satisfies CheckpointerIn);
    const timeout = setTimeout(() => void this.worker.terminate(), 5000);
    await this.exited;
    clearTimeout(timeout);
  }
}

/** For a SQLite file database: checkpoints move to a worker thread. Undefined for PostgreSQL and in-memory databases. */
export function attachWalCheckpointer(db: Database.Database | undefined, options: { intervalMs?: number; backstopPages?: number } = {}): WalCheckpointer | undefined {
  if (!db || db.memory || db.name === '') return undefined;
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
  const checkpointer = new WalCheckpointer(db.name, options.intervalMs);
  db.pragma(`wal_autocheckpoint = ${options.backstopPages ?? BACKSTOP_PAGES}`);
  return checkpointer;
}
