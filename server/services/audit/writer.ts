/**
 * The audit trail's batched writer. The request hook only pushes a row onto an array (no SQL on the
 * hot path); one transaction per `flushMs` (or per `maxRows` rows) writes them all with cached
 * statements. The company path and, for a sign-in, the user come from sub-selects inside the insert,
 * so the hook never reads the database either. A batch never joins a request's own transaction
 * (`storage.transaction` on the single connection): it waits a tick instead, as the history writer does.
 */
import type { SqliteDb } from '../../db/sqlite.ts';

/** Target rows per INSERT statement (a batch call's 500 ids take 32 statements instead of 500). */
const TARGETS_PER_STATEMENT = 16;

export type AuditResult = 'ok' | 'refused' | 'invalid' | 'error';

export interface AuditRow {
  readonly time: number;
  /** The signed-in caller; null for an anonymous call (then `userName` may name who tried to sign in). */
  readonly userId: number | null;
  readonly userName: string;
  readonly companyId: number | null;
  readonly sessionId: string | null;
  readonly ip: string;
  readonly method: string;
  /** The route pattern as registered (`/service-priv/vehicle/:id`). */
  readonly route: string;
  /** The declared policy as text (`/a:x`, `[/a:x|/b:y]`, `session`, `public`). */
  readonly permission: string;
  /** The registry page (type 1 key) and button (type 2 key) the policy names; '' for session/public routes. */
  readonly page: string;
  readonly button: string;
  readonly result: AuditResult;
  readonly status: number;
  readonly code: number;
  /** Target ids by kind (`vehicle`, `device`, `record`, …): see hook.ts `targetsOf`. */
  readonly targets: ReadonlyArray<readonly [kind: string, id: number]>;
}

export interface PageViewRow {
  readonly time: number;
  readonly userId: number;
  readonly companyId: number;
  readonly sessionId: string | null;
  readonly page: string;
  readonly ip: string;
}

export interface AuditWriterOptions {
  readonly flushMs?: number;
  readonly maxRows?: number;
  /**
   * Rows (audit and page views together) kept while the store refuses them. Past it the oldest are dropped
   * in chunks of a tenth, counted in `stats.dropped` and reported to `onDrop`: a failing database must not
   * grow the server's memory without bound. @default 50_000 (≈ a few tens of MB of rows).
   */
  readonly maxQueued?: number;
  readonly onError?: (err: unknown) => void;
  /** Rows dropped just now and in all since start (the server logs it). */
  readonly onDrop?: (dropped: number, droppedTotal: number) => void;
}

/** Longest wait between retries of a failing batch (doubling from flushMs). */
const RETRY_MAX_MS = 10_000;

export class AuditWriter {
  private audits: AuditRow[] = [];
  private views: PageViewRow[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  readonly stats = { rowsWritten: 0, flushes: 0, failedFlushes: 0, dropped: 0 };
  private readonly insertAudit;
  private readonly targetStatements: Array<{ run(...args: unknown[]): unknown } | undefined> = [];
  private readonly insertView;
  private readonly writeBatch;
  private readonly flushMs: number;
  private readonly maxRows: number;
  private readonly maxQueued: number;
  /** Delay before the next try after a failed flush; 0 while the store is answering. */
  private retryMs = 0;

  constructor(private readonly db: SqliteDb, private readonly options: AuditWriterOptions = {}) {
    this.flushMs = options.flushMs ?? 250;
    this.maxRows = options.maxRows ?? 500;
    this.maxQueued = Math.max(1, options.maxQueued ?? 50_000);
    // Positional parameters: named ones cost an object spread and a name lookup per column per row, which
    // the profile (node --cpu-prof on bench/audit.bench.ts) showed as a good part of the flush.
    this.insertAudit = db.prepare(`INSERT INTO audit_log (time, user_id, user_name, company_id, company_path, session_id, ip, method, route, permission, page, button, result, status, code, targets)
      SELECT ?, u.id, COALESCE(u.username, ?), u.company_id, COALESCE(c.path, ''), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
      FROM (SELECT 1) LEFT JOIN user u ON u.id = COALESCE(?, (SELECT id FROM user WHERE username = ? AND ? != ''))
      LEFT JOIN company c ON c.id = COALESCE(?, u.company_id)`);
    this.insertView = db.prepare(`INSERT INTO page_view (time, user_id, company_path, session_id, page, ip)
      VALUES (@time, @userId, COALESCE((SELECT path FROM company WHERE id = @companyId), ''), @sessionId, @page, @ip)`);
    this.writeBatch = db.transaction((audits: AuditRow[], views: PageViewRow[]) => {
      for (const r of audits) {
        let targets = '';
        for (const [k, id] of r.targets) targets += targets ? `,${k}:${id}` : `${k}:${id}`;
        const { lastInsertRowid } = this.insertAudit.run(r.time, r.userName, r.sessionId, r.ip, r.method, r.route, r.permission,
          r.page, r.button, r.result, r.status, r.code, targets, r.userId, r.userName, r.userName, r.companyId);
        this.insertTargets(r.targets, lastInsertRowid, r.time);
      }
      for (const v of views) this.insertView.run(v);
    });
  }

  /** A call's target rows in multi-row INSERTs of up to TARGETS_PER_STATEMENT rows (one statement step instead of one per id). */
  private insertTargets(targets: AuditRow['targets'], auditId: number | bigint, time: number): void {
    for (let at = 0; at < targets.length; at += TARGETS_PER_STATEMENT) {
      const n = Math.min(TARGETS_PER_STATEMENT, targets.length - at);
      let stmt = this.targetStatements[n];
      if (!stmt) {
        stmt = this.db.prepare(`INSERT OR IGNORE INTO audit_target (kind, target_id, audit_id, time) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?)').join(', ')}`);
        this.targetStatements[n] = stmt;
      }
      const args: unknown[] = new Array(n * 4);
      for (let i = 0; i < n; i++) {
        const [kind, id] = targets[at + i]!;
        args[i * 4] = kind;
        args[i * 4 + 1] = id;
        args[i * 4 + 2] = auditId;
        args[i * 4 + 3] = time;
      }
      stmt.run(...args);
    }
  }

  get pending(): number {
    return this.audits.length + this.views.length;
  }

  add(row: AuditRow): void {
    if (this.closed) return;
    this.audits.push(row);
    if (this.pending > this.maxQueued) this.trim();
    this.schedule();
  }

  addView(row: PageViewRow): void {
    if (this.closed) return;
    this.views.push(row);
    if (this.pending > this.maxQueued) this.trim();
    this.schedule();
  }

  /**
   * Drops the oldest rows down to nine tenths of the cap (a chunk, so that a queue at its cap does not shift
   * an array per call). Page views go first: they are the usage figures, audit rows the trail.
   */
  private trim(): void {
    let excess = this.pending - Math.floor(this.maxQueued * 0.9);
    if (excess <= 0) return;
    const dropped = excess;
    const views = Math.min(excess, this.views.length);
    if (views > 0) { this.views.splice(0, views); excess -= views; }
    if (excess > 0) this.audits.splice(0, excess);
    this.stats.dropped += dropped;
    this.options.onDrop?.(dropped, this.stats.dropped);
  }

  /** Writes what is queued now (tests call it before reading; close calls it at shutdown). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.db.inTransaction) await new Promise((r) => setImmediate(r));
    if (this.pending === 0) return;
    const audits = this.audits;
    const views = this.views;
    this.audits = [];
    this.views = [];
    try {
      this.writeBatch(audits, views);
      this.stats.rowsWritten += audits.length + views.length;
      this.stats.flushes++;
      this.retryMs = 0;
    } catch (err) {
      // Keep the rows for the next flush rather than lose them, up to the cap.
      this.audits = audits.concat(this.audits);
      this.views = views.concat(this.views);
      this.stats.failedFlushes++;
      this.retryMs = Math.min(RETRY_MAX_MS, Math.max(this.flushMs, this.retryMs * 2));
      if (this.pending > this.maxQueued) this.trim();
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private schedule(): void {
    if (this.timer) {
      // While the store fails, a full queue waits for the retry instead of trying again at once (no busy loop).
      if (this.pending < this.maxRows || this.retryMs > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((err: unknown) => {
        this.options.onError?.(err);
        this.schedule();
      });
    }, this.retryMs > 0 ? this.retryMs : this.pending >= this.maxRows ? 0 : this.flushMs);
    this.timer.unref();
  }
}
