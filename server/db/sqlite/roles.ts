import type { RoleRepository } from '../repositories.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page, PageRequest, Role } from '../types.ts';
import { likePattern } from './rows.ts';

interface RoleRowDb {
  id: number; name: string; company_id: number; remark: string; create_time: number; update_time: number; permission_ids: string | null;
}

const SELECT = `SELECT r.*, (SELECT group_concat(permission_id) FROM role_permission rp WHERE rp.role_id = r.id) AS permission_ids
  FROM role r JOIN company c ON c.id = r.company_id`;

function toRole(r: RoleRowDb): Role {
  return {
    id: r.id, name: r.name, companyId: r.company_id, remark: r.remark, createTime: r.create_time, updateTime: r.update_time,
    permissionIds: r.permission_ids ? r.permission_ids.split(',').map(Number).sort((a, b) => a - b) : [],
  };
}

export class SqliteRoleRepository implements RoleRepository {
  constructor(private readonly db: SqliteDb) {}

  async get(scope: Scope, id: number): Promise<Role | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`${SELECT} WHERE r.id = ? AND ${s.sql}`).get(id, ...s.params) as RoleRowDb | undefined;
    return row && toRole(row);
  }

  async page(scope: Scope, req: PageRequest & { keyword?: string }): Promise<Page<Role>> {
    const s = scopeCondition(scope, 'c');
    let where = s.sql;
    const params: unknown[] = [...s.params];
    if (req.keyword) {
      where += ` AND r.name LIKE ? ESCAPE '\\'`;
      params.push(likePattern(req.keyword));
    }
    const total = (this.db.prepare(`SELECT count(*) n FROM role r JOIN company c ON c.id = r.company_id WHERE ${where}`)
      .get(...params) as { n: number }).n;
    const rows = this.db.prepare(`${SELECT} WHERE ${where} ORDER BY r.id LIMIT ? OFFSET ?`)
      .all(...params, req.size, (req.current - 1) * req.size) as RoleRowDb[];
    return { records: rows.map(toRole), total, current: req.current, size: req.size };
  }

  async list(scope: Scope): Promise<Role[]> {
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`${SELECT} WHERE ${s.sql} ORDER BY r.id`).all(...s.params) as RoleRowDb[]).map(toRole);
  }

  async create(input: { name: string; companyId: number; remark: string }, permissionIds: readonly number[]): Promise<number> {
    const now = Date.now();
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO role (name, company_id, remark, create_time, update_time) VALUES (?, ?, ?, ?, ?)')
      .run(input.name, input.companyId, input.remark, now, now);
    const id = Number(lastInsertRowid);
    await this.addPermissions(id, permissionIds);
    return id;
  }

  async update(id: number, patch: { name?: string; remark?: string }): Promise<void> {
    const sets: string[] = ['update_time = ?'];
    const params: unknown[] = [Date.now()];
    if (patch.name !== undefined) { sets.push('name = ?'); params.push(patch.name); }
    if (patch.remark !== undefined) { sets.push('remark = ?'); params.push(patch.remark); }
    this.db.prepare(`UPDATE role SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
  }

  async delete(id: number): Promise<void> {
    this.db.prepare('DELETE FROM role WHERE id = ?').run(id);
  }

  async userCount(id: number): Promise<number> {
    return (this.db.prepare('SELECT count(*) n FROM user_role WHERE role_id = ?').get(id) as { n: number }).n;
  }

  async setPermissions(id: number, permissionIds: readonly number[]): Promise<void> {
    this.db.prepare('DELETE FROM role_permission WHERE role_id = ?').run(id);
    await this.addPermissions(id, permissionIds);
  }

  async addPermissions(id: number, permissionIds: readonly number[]): Promise<void> {
    const insert = this.db.prepare('INSERT OR IGNORE INTO role_permission (role_id, permission_id) VALUES (?, ?)');
    for (const pid of permissionIds) insert.run(id, pid);
    this.db.prepare('UPDATE role SET update_time = ? WHERE id = ?').run(Date.now(), id);
  }

  async removePermissions(id: number, permissionIds: readonly number[]): Promise<void> {
    const del = this.db.prepare('DELETE FROM role_permission WHERE role_id = ? AND permission_id = ?');
    for (const pid of permissionIds) del.run(id, pid);
    this.db.prepare('UPDATE role SET update_time = ? WHERE id = ?').run(Date.now(), id);
  }

  async grantsOf(scope: Scope, permissionId: number): Promise<{ id: number; name: string; granted: boolean }[]> {
    const s = scopeCondition(scope, 'c');
    const rows = this.db
      .prepare(`SELECT r.id, r.name, EXISTS (SELECT 1 FROM role_permission rp WHERE rp.role_id = r.id AND rp.permission_id = ?) AS granted
                FROM role r JOIN company c ON c.id = r.company_id WHERE ${s.sql} ORDER BY r.id`)
      .all(permissionId, ...s.params) as { id: number; name: string; granted: number }[];
    return rows.map((r) => ({ id: r.id, name: r.name, granted: r.granted === 1 }));
  }
}
