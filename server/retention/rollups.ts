/**
 * Rollups of vehicle-days about to be deleted, computed off the main thread (rollup-worker.ts), so the
 * retention sweep's largest step does not stall the gateway. One worker, started on the first request
 * and ended with the app; requests are answered in order.
 */
import { Worker } from 'node:worker_threads';
import type { RollupDay } from './data-retention.ts';
import type { RollupReply, RollupRequest } from './rollup-worker.ts';

export class RollupWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(computed: boolean): void; reject(err: Error): void }>();

  constructor(
    /** The SQLite file or the PostgreSQL URL (the worker opens its own connection). */
    private readonly database: { readonly file: string } | { readonly url: string },
    private readonly keptFromDay: (now: number) => number,
  ) {}

  /** The sweep's `rollupDay`: true when the day was computed (false: it was stored already). */
  readonly rollupDay = (clock: () => number): RollupDay => (vehicleId, day) => {
    const now = clock();
    const req: RollupRequest = { id: this.nextId++, vehicleId, day, now, keptFromDay: this.keptFromDay(now) };
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.set(req.id, { resolve, reject });
      this.start().postMessage(req);
    });
  };

  private start(): Worker {
    if (this.worker) return this.worker;
    // The server runs TypeScript through tsx; a worker does not inherit a loader registered in code (tests),
    // so the worker registers tsx itself before importing its TypeScript entry.
    const entry = new URL('./rollup-worker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
    const w = new Worker(boot, { eval: true, workerData: this.database });
    w.unref();
    w.on('message', (reply: RollupReply) => {
      const p = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ('error' in reply) p?.reject(new Error(`rollup worker: ${reply.error}`));
      else p?.resolve(reply.computed);
    });
    const fail = (err: Error) => {
      for (const p of this.waiting.values()) p.reject(err);
      this.waiting.clear();
      this.worker = undefined;
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`rollup worker exited (${code})`)));
    this.worker = w;
    return w;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}
