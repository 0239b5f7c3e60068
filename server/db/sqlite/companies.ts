import type { CompanyRepository } from '../repositories.ts';
import { pathRange, scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Company, CompanyInput, CompanyUsage, Page, PageRequest } from '../types.ts';
import { likePattern, placeholders, toCompany, type CompanyRowDb } from './rows.ts';

export class SqliteCompanyRepository implements CompanyRepository {
  constructor(private readonly db: SqliteDb) {}

  async get(scope: Scope, id: number): Promise<Company | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`SELECT * FROM company c WHERE c.id = ? AND ${s.sql}`).get(id, ...s.params) as CompanyRowDb | undefined;
    return row && toCompany(row);
  }

  async page(scope: Scope, req: PageRequest & { keyword?: string; pid?: number }): Promise<Page<Company>> {
    const s = scopeCondition(scope, 'c');
    let where = s.sql;
    const params: unknown[] = [...s.params];
    if (req.keyword) {
      where += ` AND c.name LIKE ? ESCAPE '\\'`;
      params.push(likePattern(req.keyword));
    }
    if (req.pid !== undefined) {
      where += req.pid === 0 ? ' AND c.pid IS NULL' : ' AND c.pid = ?';
      if (req.pid !== 0) params.push(req.pid);
    }
    const total = (this.db.prepare(`SELECT count(*) n FROM company c WHERE ${where}`).get(...params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM company c WHERE ${where} ORDER BY c.path LIMIT ? OFFSET ?`)
      .all(...params, req.size, (req.current - 1) * req.size) as CompanyRowDb[];
    return { records: rows.map(toCompany), total, current: req.current, size: req.size };
  }

  async children(scope: Scope, pid: number | null): Promise<Company[]> {
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`SELECT * FROM company c WHERE c.pid IS ? AND ${s.sql} ORDER BY c.name, c.id`).all(pid, ...s.params) as CompanyRowDb[])
      .map(toCompany);
  }

  async listAll(scope: Scope): Promise<Company[]> {
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`SELECT * FROM company c WHERE ${s.sql} ORDER BY c.path`).all(...s.params) as CompanyRowDb[]).map(toCompany);
  }

  async create(pid: number | null, input: CompanyInput): Promise<Company> {
    const parentPath = pid === null ? '/' : (this.db.prepare('SELECT path FROM company WHERE id = ?').get(pid) as { path: string } | undefined)?.path;
    if (parentPath === undefined) throw new Error(`parent company ${pid} does not exist`);
    const now = Date.now();
    // The path needs the new id: insert with a unique placeholder, then set it (the caller runs this in a transaction).
    const placeholder = `#${now}-${Math.random()}`;
    const { lastInsertRowid } = this.db
      .prepare(`INSERT INTO company (pid, name, contact, phone, address, remark, path, create_time, update_time)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(pid, input.name, input.contact, input.phone, input.address, input.remark, placeholder, now, now);
    const id = Number(lastInsertRowid);
    this.db.prepare('UPDATE company SET path = ? WHERE id = ?').run(`${parentPath}${id}/`, id);
    return toCompany(this.db.prepare('SELECT * FROM company WHERE id = ?').get(id) as CompanyRowDb);
  }

  async update(id: number, patch: Partial<CompanyInput>): Promise<void> {
    const cols: string[] = [];
    const params: unknown[] = [];
    for (const key of ['name', 'contact', 'phone', 'address', 'remark'] as const) {
      const v = patch[key];
      if (v !== undefined) {
        cols.push(`${key} = ?`);
        params.push(v);
      }
    }
    cols.push('update_time = ?');
    params.push(Date.now());
    this.db.prepare(`UPDATE company SET ${cols.join(', ')} WHERE id = ?`).run(...params, id);
  }

  async move(id: number, newPid: number | null): Promise<void> {
    const own = this.db.prepare('SELECT path FROM company WHERE id = ?').get(id) as { path: string };
    const parentPath = newPid === null ? '/' : (this.db.prepare('SELECT path FROM company WHERE id = ?').get(newPid) as { path: string }).path;
    if (parentPath.startsWith(own.path)) throw new Error('a company cannot move under its own subtree');
    const newPath = `${parentPath}${id}/`;
    const [from, to] = pathRange(own.path);
    this.db.prepare('UPDATE company SET pid = ?, update_time = ? WHERE id = ?').run(newPid, Date.now(), id);
    this.db
      .prepare('UPDATE company SET path = ? || substr(path, ?) WHERE path >= ? AND path < ?')
      .run(newPath, own.path.length + 1, from, to);
  }

  async delete(id: number): Promise<void> {
    this.db.prepare('DELETE FROM company WHERE id = ?').run(id);
  }

  async usage(id: number): Promise<CompanyUsage> {
    const count = (sql: string) => (this.db.prepare(sql).get(id) as { n: number }).n;
    return {
      children: count('SELECT count(*) n FROM company WHERE pid = ?'),
      vehicles: count('SELECT count(*) n FROM vehicle WHERE company_id = ?'),
      users: count('SELECT count(*) n FROM user WHERE company_id = ?'),
      roles: count('SELECT count(*) n FROM role WHERE company_id = ?'),
      lines: count('SELECT count(*) n FROM line WHERE company_id = ?'),
    };
  }

  async childCounts(ids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>(ids.map((id) => [id, 0]));
    if (ids.length === 0) return out;
    const rows = this.db
      .prepare(`SELECT pid, count(*) n FROM company WHERE pid IN (${placeholders(ids.length)}) GROUP BY pid`)
      .all(...ids) as { pid: number; n: number }[];
    for (const r of rows) out.set(r.pid, r.n);
    return out;
  }

  async subtreeVehicleCounts(ids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>(ids.map((id) => [id, 0]));
    if (ids.length === 0) return out;
    // One grouped count per company (index-only on vehicle_company), rolled up to the requested
    // ancestors through the paths: O(companies × depth) instead of one subtree query per node.
    const wanted = new Set(ids);
    const direct = this.db
      .prepare(`SELECT c.path, v.n FROM (SELECT company_id, count(*) n FROM vehicle GROUP BY company_id) v
                JOIN company c ON c.id = v.company_id`)
      .all() as { path: string; n: number }[];
    for (const d of direct) {
      for (const segment of d.path.split('/')) {
        if (!segment) continue;
        const ancestor = Number(segment);
        if (wanted.has(ancestor)) out.set(ancestor, (out.get(ancestor) ?? 0) + d.n);
      }
    }
    return out;
  }
}
