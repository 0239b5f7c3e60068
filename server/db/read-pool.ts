/**
 * Track reads off the event loop: better-sqlite3 is synchronous, so a week's read on the main thread
 * (≈ 1–2 s without day blocks, a report's big scan likewise) stalls everything sharing that thread,
 * the JT/T 808 gateway's acknowledgements included. This pool runs them in worker threads, each with a
 * read-only connection to the same file (WAL: readers never wait for the writer, the writer never for
 * them). Attached by `attachTrackReadPool` for a file database; reads shorter than OFFLOAD_MIN_MS and
 * in-memory databases stay in process (tracks.ts).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Storage } from './repositories.ts';
import type { PoolReply, PoolRequest } from './read-pool-worker.ts';
import type { SqliteStorage } from './sqlite/storage.ts';
import type { TrackReadRequest, TrackReadResult } from './sqlite/tracks.ts';

interface Slot { worker: Worker | undefined; busy: number }

export class TrackReadPool {
  private readonly slots: Slot[];
  private nextId = 1;
  private closed = false;
  private readonly waiting = new Map<number, { slot: Slot; resolve(r: TrackReadResult): void; reject(err: Error): void }>();

  constructor(
    /** The SQLite file (each worker opens its own read-only connection). */
    private readonly file: string,
    size = defaultPoolSize(),
    private readonly onClose: () => void = () => undefined,
  ) {
    this.slots = Array.from({ length: size }, () => ({ worker: undefined, busy: 0 }));
  }

  /** Answers on the least busy worker (started on first use). */
  read(req: TrackReadRequest): Promise<TrackReadResult> {
    if (this.closed) return Promise.reject(new Error('track read pool closed'));
    const slot = this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextId++;
    return new Promise<TrackReadResult>((resolve, reject) => {
      this.waiting.set(id, { slot, resolve, reject });
      slot.busy++;
      this.start(slot).postMessage({ ...req, id } satisfies PoolRequest);
    });
  }

  private start(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    // The server runs TypeScript through tsx; a worker does not inherit a loader registered in code
    // (tests), so it registers tsx itself before importing its TypeScript entry (as retention/rollups.ts).
    const entry = new URL('./read-pool-worker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
    const w = new Worker(boot, { eval: true, workerData: { file: this.file } });
    // An idle pool never keeps the process alive.
    w.unref();
    w.on('message', (reply: PoolReply) => {
      const p = this.waiting.get(reply.id);
      if (!p) return;
      this.waiting.delete(reply.id);
      slot.busy--;
      if ('error' in reply) p.reject(new Error(`track read worker: ${reply.error}`));
      else p.resolve(reply);
    });
    const fail = (err: Error) => {
      if (slot.worker !== w) return;
      slot.worker = undefined;
      slot.busy = 0;
      for (const [id, p] of this.waiting) {
        if (p.slot !== slot) continue;
        this.waiting.delete(id);
        p.reject(err);
      }
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`track read worker exited (${code})`)));
    slot.worker = w;
    return w;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onClose();
    await Promise.all(this.slots.map(async (slot) => {
      const w = slot.worker;
      if (w) await w.terminate();
    }));
  }
}

/** Two workers on this class of machine: one week read in flight never queues another user's. */
function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

/**
 * Sends the storage's long track reads to a new pool (SQLite file databases only; returns undefined
 * otherwise, and reads stay in process). The caller closes the pool before the storage.
 */
export function attachTrackReadPool(storage: Storage, size?: number): TrackReadPool | undefined {
  const s = storage as Partial<SqliteStorage>;
  const db = s.db;
  if (!db || !s.tracks || !s.positions || db.memory || db.name === '') return undefined;
  const tracks = s.tracks;
  const positions = s.positions;
  // Closing the pool sends reads back in process (a read during shutdown still answers).
  const pool = new TrackReadPool(db.name, size, () => tracks.offload(undefined));
  tracks.offload({ read: (req) => pool.read(req), lateWrites: (v) => positions.lateWrites(v) });
  return pool;
}
