/**
 * Node presence (issue 20 scale-out): which nodes of a cluster on one PostgreSQL database are alive, for
 * recovering work a node held in its memory when it dies (today: recording uploads, whose one-time FTP
 * credentials live in the receiver of the node that made the task; server/cluster-jobs.md).
 *
 * Each node has a fresh id per start and checks in (`node_presence`, migration 57) every
 * PRESENCE_CHECKIN_MS; a row not moved for PRESENCE_STALE_MS is a node gone (killed, partitioned, stopped).
 * A clean stop deletes its row at once. The bound: a dead node's work is recovered ≤ PRESENCE_STALE_MS
 * + the recovering sweep's interval after its last check-in. A check-in is one statement every 10 s.
 * On the embedded database there is one process: `shared` is false, nothing is written, and a start
 * recovers everything left unfinished (what the previous process held died with it).
 */
import { randomBytes } from 'node:crypto';

export const PRESENCE_CHECKIN_MS = 10_000;
/** 4.5 check-ins: a node stalled for a long GC or a slow statement is not taken as gone. */
export const PRESENCE_STALE_MS = 45_000;
/** Rows of nodes gone longer than this are deleted by the recovering sweep (their work was recovered long ago). */
export const PRESENCE_FORGET_MS = 24 * 3_600_000;

interface PresenceDb {
  prepare(sql: string): { run(...params: unknown[]): unknown };
}

export class NodePresence {
  /** This process's node id (a new one at every start: work of a previous start is never taken as its own). */
  readonly id: string;
  private readonly startedAt: number;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly db: PresenceDb,
    /** True on a shared (PostgreSQL) database; false on the embedded one (nothing is written). */
    readonly shared: boolean,
    private readonly clock: () => number = Date.now,
    private readonly log?: { warn(obj: object, msg: string): void },
  ) {
    this.id = randomBytes(9).toString('base64url');
    this.startedAt = clock();
  }

  /** First check-in now (before any work is taken), then every PRESENCE_CHECKIN_MS. */
  start(): void {
    if (!this.shared || this.timer) return;
    this.checkIn();
    this.timer = setInterval(() => this.checkIn(), PRESENCE_CHECKIN_MS);
    this.timer.unref();
  }

  checkIn(): void {
    try {
      this.db.prepare(`INSERT INTO node_presence (node, started_at, seen_at) VALUES (?, ?, ?)
                       ON CONFLICT (node) DO UPDATE SET seen_at = excluded.seen_at`).run(this.id, this.startedAt, this.clock());
    } catch (err) {
      // Missed check-ins only bring the stale bound closer; the next one tries again.
      this.log?.warn({ err: String(err) }, 'presence: check-in failed');
    }
  }

  /** A clean stop: the row goes at once, so the survivors recover this node's work without waiting. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!this.shared) return;
    try {
      this.db.prepare('DELETE FROM node_presence WHERE node = ?').run(this.id);
    } catch (err) {
      this.log?.warn({ err: String(err) }, 'presence: could not remove this node at stop (it goes stale instead)');
    }
  }
}
