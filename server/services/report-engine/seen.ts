/**
 * Heartbeat contact (issue 18 leftovers): a terminal that only sends heartbeats (0x0002) is talking to the
 * platform, so it is online, but it stores no position, and the report engine's modules see positions only.
 * The gateway hands every heartbeat of an AUTHENTICATED terminal here (session.ts rule: an unauthenticated
 * connection's heartbeat never reaches a handler); this keeps spans of contact per vehicle in `terminal_seen`
 * (migration 54, migration-seen.ts), which the online and device-work reports lay over the positions' sessions
 * (domain/report-day/device.ts `withSeen`).
 *
 * Decisions
 * - No row per heartbeat: a heartbeat within OFFLINE_AFTER_MS (3 min) of its vehicle's open span extends it in
 *   memory; a longer silence opens a new span. Spans changed since their last write are written every
 *   `writeMs` (30 s) in ONE transaction, so a vehicle's row is rewritten at most every 30 s whatever its
 *   heartbeat rate, and 100,000 heartbeating terminals cost one transaction of ≤ 100,000 upserts per 30 s.
 * - Reads (`spans`) take the stored rows and the newer in-memory ends, so a report sees heartbeats up to now.
 * - A crash loses at most the last `writeMs` of span ends (the figures are minutes of contact, not data).
 * - On start the live store learns each vehicle's last heartbeat (`lastSeen`): after a restart a terminal that
 *   was heartbeating is online from its last heartbeat, as one that reported positions is from its last position.
 * - Retention: spans that ended before the first kept report day go with the engine's rows.
 */
import { chinaDayIndex, chinaDayStartMs, DAY_MS, OFFLINE_AFTER_MS } from '../../../domain/track/days.ts';
import type { SeenSpan } from '../../../domain/report-day/device.ts';
import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../../db/sqlite.ts';

/** How often a vehicle's span row is rewritten at most (and the dirty spans flushed). */
export const SEEN_WRITE_MS = 30_000;

interface Open { start: number; end: number }

export class HeartbeatSeen {
  private readonly open = new Map<number, Open>();
  private readonly dirty = new Set<number>();
  private readonly upsert: Statement<unknown[]>;
  private readonly read: Statement<unknown[]>;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: SqliteDb, private readonly writeMs = SEEN_WRITE_MS) {
    this.upsert = db.prepare('INSERT INTO terminal_seen (vehicle_id, start, "end") VALUES (?, ?, ?) ON CONFLICT (vehicle_id, start) DO UPDATE SET "end" = excluded."end"');
    // Spans never cross a China midnight (see `heartbeat`), so one that meets [from, to) started at most a day before `from`.
    this.read = db.prepare('SELECT start, "end" FROM terminal_seen WHERE vehicle_id = ? AND start >= ? AND start < ? AND "end" >= ? ORDER BY start');
  }

  /** A heartbeat of the vehicle's authenticated terminal at `now` (server time). */
  heartbeat(vehicleId: number, now: number): void {
    const span = this.open.get(vehicleId);
    const continues = span !== undefined && now >= span.start && now - span.end <= OFFLINE_AFTER_MS;
    if (continues && chinaDayIndex(now) === chinaDayIndex(span.start)) {
      if (now <= span.end) return;
      span.end = now;
    } else {
      // A new span: after a silence over the threshold (or a clock step back), or on a new China day — a span never
      // crosses midnight (a day's spans are one index range); contact running across it is cut there, both sides.
      const midnight = chinaDayStartMs(chinaDayIndex(now));
      if (span && continues) span.end = midnight;
      if (span && (continues || this.dirty.has(vehicleId))) this.write(vehicleId, span);
      this.open.set(vehicleId, { start: continues ? midnight : now, end: now });
    }
    this.dirty.add(vehicleId);
  }

  /** Writes every span changed since its last write, in one transaction. */
  flush(): void {
    if (this.dirty.size === 0) return;
    const ids = [...this.dirty];
    this.dirty.clear();
    this.db.transaction(() => {
      for (const v of ids) {
        const span = this.open.get(v);
        if (span) this.write(v, span);
      }
    })();
  }

  private write(vehicleId: number, span: Open): void {
    this.upsert.run(vehicleId, span.start, span.end);
  }

  /** Starts the write timer (every `writeMs`). */
  start(): void {
    this.timer ??= setInterval(() => this.flush(), this.writeMs);
    this.timer.unref();
  }

  /** Writes what is pending and stops the timer. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }

  /** Each asked vehicle's spans meeting [from, to) (ms), oldest first, with the newest in-memory ends; vehicles without one are left out. */
  spans(vehicleIds: readonly number[], from: number, to: number): Map<number, SeenSpan[]> {
    const out = new Map<number, SeenSpan[]>();
    for (const v of vehicleIds) {
      const list = (this.read.all(v, from - DAY_MS, to, from) as { start: number; end: number }[]).map((r) => ({ start: r.start, end: r.end }));
      const span = this.open.get(v);
      if (span && span.start < to && span.end >= from) {
        const i = list.findIndex((s) => s.start === span.start);
        if (i >= 0) list[i] = { start: span.start, end: span.end };
        else list.push({ start: span.start, end: span.end });
      }
      if (list.length > 0) out.set(v, list);
    }
    return out;
  }

  /** Each vehicle's last stored heartbeat (for the live store at start). */
  lastSeen(): { vehicleId: number; at: number }[] {
    return this.db.prepare('SELECT vehicle_id AS vehicleId, MAX("end") AS at FROM terminal_seen GROUP BY vehicle_id').all() as { vehicleId: number; at: number }[];
  }

  /** Retention: spans that ended before `before` (ms). Answers the rows deleted. */
  deleteBefore(before: number): number {
    return this.db.prepare('DELETE FROM terminal_seen WHERE "end" < ?').run(before).changes;
  }
}
