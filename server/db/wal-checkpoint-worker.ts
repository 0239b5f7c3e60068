/**
 * Worker thread of the WAL checkpointer (wal-checkpointer.ts): copies the write-ahead log back into the
 * database file on a connection of its own, so the fsyncs that a checkpoint ends with happen here and not
 * inside a commit on the gateway's event loop.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export type CheckpointerIn = { type: 'close' };
export interface CheckpointerOut {
  type: 'checkpointed';
  /** Wall time of this checkpoint, ms (the fsyncs included). */
  ms: number;
  /** Frames in the log, and how many of them are now in the database file (SQLite's own answer). */
  log: number;
  checkpointed: number;
}

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new Database(file, { fileMustExist: true });

const timer = setInterval(() => {
  const started = performance.now();
  // PASSIVE: copies what no reader still needs and never waits for the writer or a reader (nor blocks them).
  const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
  parentPort!.postMessage({ type: 'checkpointed', ms: performance.now() - started, log: r?.log ?? 0, checkpointed: r?.checkpointed ?? 0 } satisfies CheckpointerOut);
}, intervalMs);

parentPort!.on('message', (msg: CheckpointerIn) => {
  if (msg.type !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
