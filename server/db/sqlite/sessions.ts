import type { LoginGuardRepository, SessionRepository } from '../repositories.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Session } from '../types.ts';

interface SessionRowDb { id: string; user_id: number; login_type: string; create_time: number; last_seen: number; revoked_time: number | null }

export class SqliteSessionRepository implements SessionRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(s: { id: string; userId: number; loginType: string; ip: string }): Promise<void> {
    const now = Date.now();
    this.db.prepare('INSERT INTO session (id, user_id, login_type, ip, create_time, last_seen) VALUES (?, ?, ?, ?, ?, ?)')
      .run(s.id, s.userId, s.loginType, s.ip, now, now);
  }

  async get(id: string): Promise<Session | undefined> {
    const r = this.db.prepare('SELECT * FROM session WHERE id = ?').get(id) as SessionRowDb | undefined;
    return r && { id: r.id, userId: r.user_id, loginType: r.login_type, createTime: r.create_time, lastSeen: r.last_seen, revokedTime: r.revoked_time };
  }

  async touch(id: string): Promise<void> {
    this.db.prepare('UPDATE session SET last_seen = ? WHERE id = ?').run(Date.now(), id);
  }

  async revoke(id: string): Promise<void> {
    this.db.prepare('UPDATE session SET revoked_time = ? WHERE id = ? AND revoked_time IS NULL').run(Date.now(), id);
  }

  async liveIds(userId: number): Promise<string[]> {
    return (this.db.prepare('SELECT id FROM session WHERE user_id = ? AND revoked_time IS NULL').all(userId) as { id: string }[]).map((r) => r.id);
  }

  async revokeAllForUser(userId: number): Promise<number> {
    return this.db.prepare('UPDATE session SET revoked_time = ? WHERE user_id = ? AND revoked_time IS NULL').run(Date.now(), userId).changes;
  }
}

export class SqliteLoginGuardRepository implements LoginGuardRepository {
  constructor(private readonly db: SqliteDb) {}

  async accountFailures(username: string, since: number): Promise<number[]> {
    return (this.db.prepare('SELECT at FROM login_failure WHERE username = ? AND at >= ?').all(username, since) as { at: number }[]).map((r) => r.at);
  }

  // Read through login_failure_ip (ip, at; migration 19): every sign-in asks, so it must not scan the window's failures of all addresses.
  async addressFailures(ip: string, since: number): Promise<number[]> {
    return (this.db.prepare('SELECT at FROM login_failure WHERE ip = ? AND at >= ?').all(ip, since) as { at: number }[]).map((r) => r.at);
  }

  async recordFailure(username: string, ip: string, at: number, forgetBefore: number): Promise<void> {
    this.db.prepare('INSERT INTO login_failure (username, ip, at) VALUES (?, ?, ?)').run(username, ip, at);
    this.db.prepare('DELETE FROM login_failure WHERE at < ?').run(forgetBefore);
  }

  async clearFailures(username: string, ip: string): Promise<void> {
    this.db.prepare('DELETE FROM login_failure WHERE username = ? AND ip = ?').run(username, ip);
  }

  async createTicket(t: { hash: string; userId: number; createdBy: number; expireTime: number }): Promise<void> {
    const now = Date.now();
    this.db.prepare('DELETE FROM login_ticket WHERE expire_time < ?').run(now - 24 * 3600_000);
    this.db.prepare('INSERT INTO login_ticket (ticket_hash, user_id, created_by, create_time, expire_time) VALUES (?, ?, ?, ?, ?)')
      .run(t.hash, t.userId, t.createdBy, now, t.expireTime);
  }

  async consumeTicket(hash: string, now: number): Promise<number | undefined> {
    // One conditional UPDATE makes the ticket single-use even under concurrent requests.
    const row = this.db
      .prepare('UPDATE login_ticket SET used_time = ? WHERE ticket_hash = ? AND used_time IS NULL AND expire_time > ? RETURNING user_id')
      .get(now, hash, now) as { user_id: number } | undefined;
    return row?.user_id;
  }
}
