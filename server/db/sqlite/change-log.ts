import type { ChangeNames, RefKind } from '../../../domain/fleet/change-fields.ts';
import type { ChangeEntry, ChangeLogQuery, ChangeLogRepository, ChangeLogRow, ChangeResource } from '../change-log-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page } from '../types.ts';
import { likePattern, placeholders } from './rows.ts';
import { statementCache, type Sql } from './statements.ts';

interface Row {
  id: number; resource: ChangeResource; record_id: number; label: string; company_id: number; operation: string; user_id: number | null;
  user_name: string; ip: string; time: number; before: string | null; after: string | null; company_name: string;
}

/** The table of each resource's records (all carry company_id). */
const RECORD_TABLE: Record<ChangeResource, string> = {
  vehicle: 'vehicle', device: 'device', driver: 'driver', installation: 'vehicle_installation', line: 'line',
};

/** The column a record is searched by today (a renamed plate still finds the rows written under the old one). */
const RECORD_LABEL: Partial<Record<ChangeResource, string>> = { vehicle: 'vehiidno', device: 'device_no', driver: 'name', line: 'name' };

/** Where a referenced id's name lives: `SELECT id, <name> FROM <table> t JOIN company c ON c.id = t.<company>`. */
const REF_NAME: Record<RefKind, { table: string; name: string; company: string }> = {
  company: { table: 'company', name: 'name', company: 'id' },
  line: { table: 'line', name: 'name', company: 'company_id' },
  deviceType: { table: 'device_type', name: 'name', company: 'company_id' },
  vehicle: { table: 'vehicle', name: 'vehiidno', company: 'company_id' },
  driver: { table: 'driver', name: 'name', company: 'company_id' },
};
/** Ids named per query (SQLite's variable limit is far above; a page holds ≤ 500 rows). */
const NAME_CHUNK = 500;

const json = (s: string | null) => (s === null ? null : (JSON.parse(s) as Record<string, unknown>));

export class SqliteChangeLogRepository implements ChangeLogRepository {
  /** Compiled statements by SQL text (an import's rows run the same few statements). */
  private readonly sql: Sql;

  constructor(db: SqliteDb) {
    this.sql = statementCache(db);
  }

  async append(e: ChangeEntry): Promise<void> {
    this.sql(`INSERT INTO change_log (resource, record_id, label, company_id, operation, user_id, user_name, ip, time, before, after)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(e.resource, e.recordId, e.label, e.companyId, e.operation, e.userId, e.userName, e.ip, e.time,
        e.before === null ? null : JSON.stringify(e.before), e.after === null ? null : JSON.stringify(e.after));
  }

  /**
   * Newest first in three steps, so 1,000,000 rows stay a list an operator waits for: the count and the
   * page's ids from the index `change_log_company (resource, company_id, time)` (the companies of the
   * scope as an IN list, each one a time range; no row is read unless a keyword or an operation asks),
   * then only the page's rows with their company names. Measured at 1,000,000 rows (2 loaded cores):
   * a branch's 7 days 1–13 ms, the administrator's 92 days 0.3–0.5 s, a keyword over 92 days 0.8 s.
   */
  async page(scope: Scope, q: ChangeLogQuery): Promise<Page<ChangeLogRow>> {
    const where = ['l.resource = ?'];
    const params: unknown[] = [q.resource];
    if (!scope.all) {
      const s = scopeCondition(scope, 'c');
      where.push(`l.company_id IN (SELECT c.id FROM company c WHERE ${s.sql})`);
      params.push(...s.params);
    }
    if (q.keyword) {
      const like = likePattern(q.keyword);
      const current = RECORD_LABEL[q.resource];
      where.push(`(l.label LIKE ? ESCAPE '\\' OR l.user_name LIKE ? ESCAPE '\\'${current ? ` OR l.record_id IN (SELECT id FROM ${RECORD_TABLE[q.resource]} WHERE ${current} LIKE ? ESCAPE '\\')` : ''})`);
      params.push(like, like, ...(current ? [like] : []));
    }
    if (q.recordId !== undefined) { where.push('l.record_id = ?'); params.push(q.recordId); }
    if (q.operation) { where.push('l.operation = ?'); params.push(q.operation); }
    if (q.from !== undefined) { where.push('l.time >= ?'); params.push(q.from); }
    if (q.to !== undefined) { where.push('l.time <= ?'); params.push(q.to); }
    // A keyword reads every candidate row (label, operator): one pass in storage order beats index order, whose
    // row lookups jump around the file (measured at 1,000,000 rows: 0.45 s against 3.9 s).
    const hint = q.keyword && q.recordId === undefined ? ' NOT INDEXED' : '';
    const from = `FROM change_log l${hint} WHERE ${where.join(' AND ')}`;
    const total = (this.sql(`SELECT count(*) n ${from}`).get(...params) as { n: number }).n;
    const ids = (this.sql(`SELECT l.id ${from} ORDER BY l.time DESC, l.id DESC LIMIT ? OFFSET ?`)
      .all(...params, q.size, (q.current - 1) * q.size) as { id: number }[]).map((r) => r.id);
    const rows = ids.length === 0 ? [] : this.sql(`SELECT l.*, COALESCE(c.name, '') company_name FROM change_log l LEFT JOIN company c ON c.id = l.company_id
      WHERE l.id IN (${placeholders(ids.length)}) ORDER BY l.time DESC, l.id DESC`).all(...ids) as Row[];
    return {
      total, current: q.current, size: q.size,
      records: rows.map((r) => ({
        id: r.id, resource: r.resource, recordId: r.record_id, label: r.label, companyId: r.company_id, companyName: r.company_name,
        operation: r.operation, userId: r.user_id, userName: r.user_name, ip: r.ip, time: r.time, before: json(r.before), after: json(r.after),
      })),
    };
  }

  async recordCompanyPath(resource: ChangeResource, recordId: number): Promise<string | undefined> {
    const row = this.sql(`SELECT c.path FROM ${RECORD_TABLE[resource]} t JOIN company c ON c.id = t.company_id WHERE t.id = ?`).get(recordId) as { path: string } | undefined;
    return row?.path;
  }

  async names(scope: Scope, ids: ReadonlyMap<RefKind, ReadonlySet<number>>): Promise<ChangeNames> {
    const out: Record<string, Record<string, string>> = {};
    for (const [kind, set] of ids) {
      const all = [...set];
      const ref = REF_NAME[kind];
      const s = scopeCondition(scope, 'c');
      const named: Record<string, string> = {};
      for (let i = 0; i < all.length; i += NAME_CHUNK) {
        const part = all.slice(i, i + NAME_CHUNK);
        const rows = this.sql(`SELECT t.id, t.${ref.name} name FROM ${ref.table} t JOIN company c ON c.id = t.${ref.company} WHERE t.id IN (${placeholders(part.length)}) AND ${s.sql}`)
          .all(...part, ...s.params) as { id: number; name: string }[];
        for (const r of rows) named[String(r.id)] = r.name;
      }
      if (Object.keys(named).length > 0) out[kind] = named;
    }
    return out;
  }

  async moveRecord(resource: ChangeResource, recordId: number, companyId: number): Promise<void> {
    this.sql('UPDATE change_log SET company_id = ? WHERE resource = ? AND record_id = ?').run(companyId, resource, recordId);
  }
}
