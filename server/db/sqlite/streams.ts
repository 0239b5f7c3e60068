import type { StreamLogEntry, StreamRepository } from '../stream-types.ts';
import type { SqliteDb } from '../sqlite.ts';

interface Row { id: number; user_id: number; vehicle_id: number; channel: number; stream: number; started_at: number; ended_at: number | null; bytes: number; outcome: string }

const toEntry = (r: Row): StreamLogEntry => ({ id: r.id, userId: r.user_id, vehicleId: r.vehicle_id, channel: r.channel, stream: r.stream, startedAt: r.started_at, endedAt: r.ended_at, bytes: r.bytes, outcome: r.outcome });

export class SqliteStreamRepository implements StreamRepository {
  constructor(private readonly db: SqliteDb) {}

  async countSince(userId: number, dayStart: number): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM stream_log WHERE user_id = ? AND started_at >= ?').get(userId, dayStart) as { n: number }).n;
  }

  async limitFor(userId: number, day: string, fallback: number): Promise<number> {
    const row = this.db.prepare('SELECT daily_limit, extra_day, extra_times FROM user_stream_setting WHERE user_id = ?').get(userId) as
      | { daily_limit: number | null; extra_day: string | null; extra_times: number }
      | undefined;
    if (!row) return fallback;
    return (row.daily_limit ?? fallback) + (row.extra_day === day ? row.extra_times : 0);
  }

  async setDailyLimit(userId: number, limit: number | null): Promise<void> {
    this.db.prepare(`INSERT INTO user_stream_setting (user_id, daily_limit) VALUES (?, ?)
                     ON CONFLICT (user_id) DO UPDATE SET daily_limit = excluded.daily_limit`).run(userId, limit);
  }

  async addExtraTimes(userId: number, day: string, times: number): Promise<void> {
    // Extra times belong to one day: granting on a new day replaces yesterday's.
    this.db.prepare(`INSERT INTO user_stream_setting (user_id, extra_day, extra_times) VALUES (?, ?, ?)
                     ON CONFLICT (user_id) DO UPDATE SET
                       extra_times = CASE WHEN user_stream_setting.extra_day = excluded.extra_day THEN user_stream_setting.extra_times + excluded.extra_times ELSE excluded.extra_times END,
                       extra_day = excluded.extra_day`).run(userId, day, times);
  }

  async start(e: Omit<StreamLogEntry, 'id' | 'endedAt' | 'bytes' | 'outcome'>): Promise<number> {
    const r = this.db.prepare('INSERT INTO stream_log (user_id, vehicle_id, channel, stream, started_at) VALUES (?, ?, ?, ?, ?)').run(e.userId, e.vehicleId, e.channel, e.stream, e.startedAt);
    return Number(r.lastInsertRowid);
  }

  async end(id: number, at: number, bytes: number, outcome: string): Promise<void> {
    this.db.prepare('UPDATE stream_log SET ended_at = ?, bytes = ?, outcome = ? WHERE id = ? AND ended_at IS NULL').run(at, bytes, outcome, id);
  }

  async page(f: { userIds: readonly number[] | null; from: number; to: number; offset: number; limit: number }): Promise<{ total: number; records: StreamLogEntry[] }> {
    const users = f.userIds === null ? '' : `AND user_id IN (${f.userIds.map(() => '?').join(',') || 'NULL'})`;
    const params = [f.from, f.to, ...(f.userIds ?? [])];
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM stream_log WHERE started_at >= ? AND started_at < ? ${users}`).get(...params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * FROM stream_log WHERE started_at >= ? AND started_at < ? ${users} ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`).all(...params, f.limit, f.offset) as Row[];
    return { total, records: rows.map(toEntry) };
  }
}
