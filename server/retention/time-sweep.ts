/**
 * The retention sweep of a table of time-stamped rows (CAN readings, box state changes): rows older than the
 * kept days go in batches, each batch one short DELETE, with a turn of the event loop between batches so the
 * single SQLite connection keeps answering requests during a large first sweep.
 */
import type { SqliteDb } from '../db/sqlite.ts';
import type { RetentionTask } from './scheduler.ts';

/** Rows one DELETE removes at the most. */
export const TIME_SWEEP_BATCH = 1000;

export interface TimeSweep {
  /** The task's name in the scheduler's log. */
  name: string;
  /** Table and its epoch-ms time column; constants of the code, never request input. */
  table: string;
  timeColumn: string;
  /** The key of the removed count in the sweep's answer (logged). */
  counter: string;
  keepDays: () => number;
  clock: () => number;
}

export function timeSweep(db: SqliteDb, s: TimeSweep): RetentionTask {
  return {
    name: s.name,
    sweep: async () => {
      const before = s.clock() - s.keepDays() * 86_400_000;
      const del = db.prepare(`DELETE FROM ${s.table} WHERE rowid IN (SELECT rowid FROM ${s.table} WHERE ${s.timeColumn} < ? LIMIT ?)`);
      let removed = 0;
      for (;;) {
        const n = del.run(before, TIME_SWEEP_BATCH).changes;
        removed += n;
        if (n < TIME_SWEEP_BATCH) break;
        await new Promise<void>((r) => setImmediate(r));
      }
      return { [s.counter]: removed };
    },
  };
}
