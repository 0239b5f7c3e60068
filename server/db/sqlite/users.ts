import type { UserRepository } from '../repositories.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page, PageRequest, User, UserInput, UserPatch, UserWithSecret } from '../types.ts';
import { likePattern } from './rows.ts';

interface UserRowDb {
  id: number; username: string; password_hash: string; real_name: string; user_level: number; company_id: number;
  company_name: string; phone: string; email: string; status: number; expire_time: number | null; allowed_ips: string;
  geo_inverse: number; create_time: number; update_time: number; role_ids: string | null;
}

const SELECT = `SELECT u.*, c.name AS company_name,
  (SELECT group_concat(role_id) FROM user_role ur WHERE ur.user_id = u.id) AS role_ids
  FROM user u JOIN company c ON c.id = u.company_id`;

function toUser(r: UserRowDb): UserWithSecret {
  return {
    id: r.id, username: r.username, passwordHash: r.password_hash, realName: r.real_name, userLevel: r.user_level,
    companyId: r.company_id, companyName: r.company_name, phone: r.phone, email: r.email, status: r.status,
    expireTime: r.expire_time, allowedIps: r.allowed_ips, geoInverse: r.geo_inverse === 1,
    createTime: r.create_time, updateTime: r.update_time,
    roleIds: r.role_ids ? r.role_ids.split(',').map(Number).sort((a, b) => a - b) : [],
  };
}

function withoutSecret(u: UserWithSecret): User {
  const { passwordHash: _omit, ...rest } = u;
  return rest;
}

const COLUMNS: Record<keyof UserInput, string> = {
  username: 'username', passwordHash: 'password_hash', realName: 'real_name', userLevel: 'user_level',
  companyId: 'company_id', phone: 'phone', email: 'email', status: 'status', expireTime: 'expire_time',
  allowedIps: 'allowed_ips', geoInverse: 'geo_inverse',
};

function dbValue(key: keyof UserInput, v: unknown): unknown {
  return key === 'geoInverse' ? (v ? 1 : 0) : v;
}

export class SqliteUserRepository implements UserRepository {
  constructor(private readonly db: SqliteDb) {}

  async findByUsername(username: string): Promise<UserWithSecret | undefined> {
    const row = this.db.prepare(`${SELECT} WHERE u.username = ?`).get(username) as UserRowDb | undefined;
    return row && toUser(row);
  }

  async getById(id: number): Promise<User | undefined> {
    const row = this.db.prepare(`${SELECT} WHERE u.id = ?`).get(id) as UserRowDb | undefined;
    return row && withoutSecret(toUser(row));
  }

  async get(scope: Scope, id: number): Promise<User | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`${SELECT} WHERE u.id = ? AND ${s.sql}`).get(id, ...s.params) as UserRowDb | undefined;
    return row && withoutSecret(toUser(row));
  }

  async page(scope: Scope, req: PageRequest & { keyword?: string }): Promise<Page<User>> {
    const s = scopeCondition(scope, 'c');
    let where = s.sql;
    const params: unknown[] = [...s.params];
    if (req.keyword) {
      where += ` AND (u.username LIKE ? ESCAPE '\\' OR u.real_name LIKE ? ESCAPE '\\')`;
      params.push(likePattern(req.keyword), likePattern(req.keyword));
    }
    const total = (this.db.prepare(`SELECT count(*) n FROM user u JOIN company c ON c.id = u.company_id WHERE ${where}`)
      .get(...params) as { n: number }).n;
    const rows = this.db.prepare(`${SELECT} WHERE ${where} ORDER BY u.id LIMIT ? OFFSET ?`)
      .all(...params, req.size, (req.current - 1) * req.size) as UserRowDb[];
    return { records: rows.map((r) => withoutSecret(toUser(r))), total, current: req.current, size: req.size };
  }

  async usernameTaken(username: string, exceptId?: number): Promise<boolean> {
    return this.db.prepare('SELECT 1 FROM user WHERE username = ? AND id IS NOT ?').get(username, exceptId ?? null) !== undefined;
  }

  async create(input: UserInput, roleIds: readonly number[]): Promise<number> {
    const now = Date.now();
    const keys = Object.keys(COLUMNS) as (keyof UserInput)[];
    const { lastInsertRowid } = this.db
      .prepare(`INSERT INTO user (${keys.map((k) => COLUMNS[k]).join(', ')}, create_time, update_time)
                VALUES (${keys.map(() => '?').join(', ')}, ?, ?)`)
      .run(...keys.map((k) => dbValue(k, input[k])), now, now);
    const id = Number(lastInsertRowid);
    this.setRoles(id, roleIds);
    return id;
  }

  async update(id: number, patch: UserPatch, roleIds?: readonly number[]): Promise<void> {
    const keys = (Object.keys(patch) as (keyof UserInput)[]).filter((k) => patch[k] !== undefined);
    const sets = keys.map((k) => `${COLUMNS[k]} = ?`);
    this.db.prepare(`UPDATE user SET ${[...sets, 'update_time = ?'].join(', ')} WHERE id = ?`)
      .run(...keys.map((k) => dbValue(k, patch[k])), Date.now(), id);
    if (roleIds) this.setRoles(id, roleIds);
  }

  async delete(id: number): Promise<void> {
    this.db.prepare('DELETE FROM user WHERE id = ?').run(id);
  }

  async permissionIds(userId: number): Promise<number[]> {
    return (this.db
      .prepare(`SELECT DISTINCT rp.permission_id id FROM user_role ur JOIN role_permission rp ON rp.role_id = ur.role_id
                WHERE ur.user_id = ? ORDER BY rp.permission_id`)
      .all(userId) as { id: number }[]).map((r) => r.id);
  }

  private setRoles(userId: number, roleIds: readonly number[]): void {
    this.db.prepare('DELETE FROM user_role WHERE user_id = ?').run(userId);
    const insert = this.db.prepare('INSERT OR IGNORE INTO user_role (user_id, role_id) VALUES (?, ?)');
    for (const roleId of roleIds) insert.run(userId, roleId);
  }
}
