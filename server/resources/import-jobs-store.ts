/**
 * The import tasks' status rows (table `import_job`, migration 58; issue 20): what a status call on any API node
 * of a cluster reads (resources/import-jobs.ts). Every write waits until the connection is outside a
 * transaction: the storage has one connection per process, an import's own transactions await repository calls
 * (and other imports may run), and a row written inside someone's transaction would go with its rollback. So
 * writes are queued per task (the latest state wins) and flushed as soon as no transaction is open.
 *
 * The one exception is a task's first row (`claim`): it is written inside the write transaction that counts the
 * tasks running on every node, queued behind the other transactions of this process (Storage.transaction), so
 * the limits hold across a cluster (one per user, the server-wide maximum) and two nodes racing cannot both pass:
 * BEGIN IMMEDIATE takes SQLite's write lock, and on PostgreSQL the facade's cluster-wide write advisory lock
 * (db/pg/sync-db.ts WRITE_LOCK_KEY), so the second node's count, read after the first one's commit, sees its row.
 */
import type { ImportPhase, ImportProblemView } from '../../domain/fleet/import-job.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import type { Storage } from '../db/repositories.ts';

/** An unfinished task whose row has not moved this long reads failed: its node died (or stopped mid-import). */
export const IMPORT_STALE_MS = 10 * 60_000;
/** How often a running task's row is written at most (progress and heartbeat). */
export const IMPORT_WRITE_MS = 1000;

export interface ImportJobRow {
  readonly id: string;
  readonly userId: number;
  readonly resource: string;
  readonly phase: ImportPhase;
  readonly done: number;
  readonly total: number;
  readonly imported: number | null;
  readonly problemCount: number | null;
  /** The problems listed, in each language. */
  readonly problems: { readonly zh: readonly ImportProblemView[]; readonly en: readonly ImportProblemView[] } | null;
  /** The outcome's sentence [zh, en]. */
  readonly message: readonly [string, string] | null;
  readonly createTime: number;
  readonly updateTime: number;
  readonly finishTime: number | null;
}

/** A task some node runs (or ran and died: the caller decides by `updateTime`). */
export interface RunningImport {
  readonly id: string;
  readonly userId: number;
  readonly updateTime: number;
}

type Raw = {
  id: string; user_id: number; resource: string; phase: string; done: number; total: number; imported: number | null; problem_count: number | null;
  problems: string | null; message: string | null; create_time: number; update_time: number; finish_time: number | null;
};

export class ImportJobStore {
  private readonly db: SqliteStorage['db'];
  /** Writes waiting for the connection to leave a transaction: a task's latest row, or null to delete it. */
  private readonly pending = new Map<string, ImportJobRow | null>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(private readonly storage: Storage, private readonly log?: { error(obj: object, msg: string): void }) {
    this.db = (storage as SqliteStorage).db;
  }

  /**
   * Admits a new task and writes its first row in one write transaction: `admit` gets the unfinished rows written
   * since `row.updateTime - IMPORT_STALE_MS` (the tasks running on any node; a dead node's stop counting) and
   * throws to refuse, in which case nothing is written.
   */
  async claim(row: ImportJobRow, admit: (running: readonly RunningImport[]) => void): Promise<void> {
    await this.storage.transaction(() => {
      const rows = this.db.prepare('SELECT id, user_id, update_time FROM import_job WHERE finish_time IS NULL AND update_time >= ?')
        .all(row.updateTime - IMPORT_STALE_MS) as Pick<Raw, 'id' | 'user_id' | 'update_time'>[];
      admit(rows.map((r) => ({ id: r.id, userId: r.user_id, updateTime: r.update_time })));
      this.upsert().run(this.bind(row));
      return Promise.resolve();
    });
  }

  private upsert() {
    return this.db.prepare(`INSERT INTO import_job (id, user_id, resource, phase, done, total, imported, problem_count, problems, message, create_time, update_time, finish_time)
                            VALUES (@id, @userId, @resource, @phase, @done, @total, @imported, @problemCount, @problems, @message, @createTime, @updateTime, @finishTime)
                            ON CONFLICT (id) DO UPDATE SET phase = excluded.phase, done = excluded.done, total = excluded.total, imported = excluded.imported,
                              problem_count = excluded.problem_count, problems = excluded.problems, message = excluded.message,
                              update_time = excluded.update_time, finish_time = excluded.finish_time`);
  }

  private bind(row: ImportJobRow) {
    return { ...row, problems: row.problems && JSON.stringify(row.problems), message: row.message && JSON.stringify(row.message) };
  }

  /** The task's row as it stands (written now unless a transaction is open, else as soon as none is). */
  save(row: ImportJobRow): void {
    this.pending.set(row.id, row);
    this.flush();
  }

  /** Forgets tasks (the node no longer answers them either). */
  delete(ids: readonly string[]): void {
    for (const id of ids) this.pending.set(id, null);
    if (ids.length > 0) this.flush();
  }

  get(id: string): ImportJobRow | undefined {
    const queued = this.pending.get(id);
    if (queued !== undefined) return queued ?? undefined;
    const r = this.db.prepare('SELECT * FROM import_job WHERE id = ?').get(id) as Raw | undefined;
    return r && {
      id: r.id, userId: r.user_id, resource: r.resource, phase: r.phase as ImportPhase, done: r.done, total: r.total, imported: r.imported,
      problemCount: r.problem_count, problems: r.problems === null ? null : JSON.parse(r.problems) as ImportJobRow['problems'],
      message: r.message === null ? null : JSON.parse(r.message) as [string, string], createTime: r.create_time, updateTime: r.update_time, finishTime: r.finish_time,
    };
  }

  /** Deletes up to 100 rows finished before `finishedBefore` or not updated since `staleBefore` (tasks no node answers any more). */
  deleteExpired(finishedBefore: number, staleBefore: number): void {
    if (this.db.inTransaction) return;
    this.db.prepare(`DELETE FROM import_job WHERE id IN (SELECT id FROM import_job
                       WHERE (finish_time IS NOT NULL AND finish_time < ?) OR update_time < ? ORDER BY update_time LIMIT 100)`).run(finishedBefore, staleBefore);
  }

  /** Writes what is queued unless a transaction is open (then retries shortly). */
  flush(): void {
    if (this.closed || this.pending.size === 0) return;
    if (this.db.inTransaction || !this.db.open) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, 20);
      return;
    }
    const upsert = this.upsert();
    const del = this.db.prepare('DELETE FROM import_job WHERE id = ?');
    const batch = [...this.pending];
    this.pending.clear();
    try {
      this.db.transaction(() => {
        for (const [id, row] of batch) {
          if (row === null) del.run(id);
          else upsert.run(this.bind(row));
        }
      })();
    } catch (err) {
      // The status stays in this node's memory; other nodes read the last row written.
      this.log?.error({ err }, 'import job status not written');
    }
  }

  /** Writes what is left (the last outcomes) and stops. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.db.open && !this.db.inTransaction) this.flush();
    this.closed = true;
  }
}
