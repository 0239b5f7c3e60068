import type { DeviceProtocol } from '../../../domain/device-type/limits.ts';
import type { DeviceType, DeviceTypeFilter, DeviceTypeInput, DeviceTypeRepository } from '../device-type-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page, PageRequest } from '../types.ts';
import { likePattern } from './rows.ts';

interface Row {
  id: number; company_id: number; name: string; protocol: number; maker_id: string; model: string; remark: string;
  create_time: number; update_time: number;
}

const FROM = 'FROM device_type d JOIN company c ON c.id = d.company_id';

function toDeviceType(r: Row): DeviceType {
  return {
    id: r.id, companyId: r.company_id, devTypeName: r.name, protocol: r.protocol as DeviceProtocol, makerId: r.maker_id,
    model: r.model, remark: r.remark, createTime: r.create_time, updateTime: r.update_time,
  };
}

export class SqliteDeviceTypeRepository implements DeviceTypeRepository {
  constructor(private readonly db: SqliteDb) {}

  private where(scope: Scope, filter: DeviceTypeFilter): { sql: string; params: unknown[] } {
    const s = scopeCondition(scope, 'c');
    let sql = s.sql;
    const params: unknown[] = [...s.params];
    if (filter.keyword) {
      sql += ` AND (d.name LIKE ? ESCAPE '\\' OR d.maker_id LIKE ? ESCAPE '\\' OR d.model LIKE ? ESCAPE '\\')`;
      const p = likePattern(filter.keyword);
      params.push(p, p, p);
    }
    if (filter.protocol !== undefined) {
      sql += ' AND d.protocol = ?';
      params.push(filter.protocol);
    }
    return { sql, params };
  }

  async get(scope: Scope, id: number): Promise<DeviceType | undefined> {
    const w = this.where(scope, {});
    const row = this.db.prepare(`SELECT d.* ${FROM} WHERE d.id = ? AND ${w.sql}`).get(id, ...w.params) as Row | undefined;
    return row && toDeviceType(row);
  }

  async page(scope: Scope, req: PageRequest & DeviceTypeFilter): Promise<Page<DeviceType>> {
    const w = this.where(scope, req);
    const total = (this.db.prepare(`SELECT count(*) n ${FROM} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT d.* ${FROM} WHERE ${w.sql} ORDER BY d.id LIMIT ? OFFSET ?`)
      .all(...w.params, req.size, (req.current - 1) * req.size) as Row[];
    return { records: rows.map(toDeviceType), total, current: req.current, size: req.size };
  }

  async list(scope: Scope, filter: DeviceTypeFilter, limit: number): Promise<{ total: number; records: DeviceType[] }> {
    const w = this.where(scope, filter);
    const total = (this.db.prepare(`SELECT count(*) n ${FROM} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT d.* ${FROM} WHERE ${w.sql} ORDER BY d.id LIMIT ?`).all(...w.params, limit) as Row[];
    return { total, records: rows.map(toDeviceType) };
  }

  async nameTaken(companyId: number, name: string, exceptId?: number): Promise<boolean> {
    return this.db.prepare('SELECT 1 FROM device_type WHERE company_id = ? AND name = ? COLLATE NOCASE AND id != ?')
      .get(companyId, name, exceptId ?? 0) !== undefined;
  }

  async create(input: DeviceTypeInput): Promise<number> {
    const now = Date.now();
    const r = this.db.prepare(`INSERT INTO device_type (company_id, name, protocol, maker_id, model, remark, create_time, update_time)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(input.companyId, input.devTypeName, input.protocol, input.makerId, input.model, input.remark, now, now);
    return Number(r.lastInsertRowid);
  }

  async update(id: number, patch: Partial<DeviceTypeInput>): Promise<void> {
    const columns: [string, unknown][] = [
      ['company_id', patch.companyId], ['name', patch.devTypeName], ['protocol', patch.protocol], ['maker_id', patch.makerId],
      ['model', patch.model], ['remark', patch.remark],
    ];
    const set = columns.filter(([, v]) => v !== undefined);
    this.db.prepare(`UPDATE device_type SET ${[...set.map(([c]) => `${c} = ?`), 'update_time = ?'].join(', ')} WHERE id = ?`)
      .run(...set.map(([, v]) => v), Date.now(), id);
  }

  async delete(id: number): Promise<void> {
    this.db.prepare('DELETE FROM device_type WHERE id = ?').run(id);
  }

  async countOfCompany(companyId: number): Promise<number> {
    return (this.db.prepare('SELECT count(*) n FROM device_type WHERE company_id = ?').get(companyId) as { n: number }).n;
  }
}
