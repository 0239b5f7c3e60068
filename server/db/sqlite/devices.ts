import type { DeviceEdition } from '../../../domain/fleet/limits.ts';
import type {
  DeviceFilter, DeviceInput, DeviceOption, DeviceRecord, DeviceRepository, DeviceSource, RefusalQuery, RegisterRefusal,
} from '../device-record-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page, PageRequest } from '../types.ts';
import { likePattern } from './rows.ts';
import { statementCache, type Sql } from './statements.ts';

interface Row {
  id: number; device_no: string; company_id: number; company_name: string; terminal_id: string; model: string; maker: string;
  device_type_id: number | null; device_type_name: string | null; protocol: number; channel_count: number; sim_iccid: string;
  install_date: number | null; source: DeviceSource; remark: string; create_time: number; update_time: number;
  vehicle_id: number | null; plate: string | null; auth_code: string | null; register_time: number | null; auth_time: number | null;
}

// A device has at most one vehicle (vehicle.device_no UNIQUE) and one registration row (terminal keyed by device_no).
const SELECT = `SELECT d.*, c.name AS company_name, dt.name AS device_type_name, v.id AS vehicle_id, v.vehiidno AS plate,
                       NULLIF(t.auth_code, '') AS auth_code, t.register_time, t.auth_time
                FROM device d JOIN company c ON c.id = d.company_id
                LEFT JOIN device_type dt ON dt.id = d.device_type_id
                LEFT JOIN vehicle v ON v.device_no = d.device_no
                LEFT JOIN terminal t ON t.device_no = d.device_no`;
const COUNT = `SELECT count(*) n FROM device d JOIN company c ON c.id = d.company_id LEFT JOIN vehicle v ON v.device_no = d.device_no`;

function toRecord(r: Row): DeviceRecord {
  return {
    id: r.id, deviceNo: r.device_no, companyId: r.company_id, companyName: r.company_name, terminalId: r.terminal_id, model: r.model,
    maker: r.maker, deviceTypeId: r.device_type_id, deviceTypeName: r.device_type_name ?? '', protocol: r.protocol as DeviceEdition,
    channelCount: r.channel_count, simIccid: r.sim_iccid, installDate: r.install_date, source: r.source, remark: r.remark,
    createTime: r.create_time, updateTime: r.update_time, vehicleId: r.vehicle_id, plate: r.plate,
    registered: r.auth_code !== null, registerTime: r.auth_code !== null ? r.register_time : null, authTime: r.auth_time,
  };
}

const COLUMNS: readonly [keyof Omit<DeviceInput, 'source'>, string][] = [
  ['deviceNo', 'device_no'], ['companyId', 'company_id'], ['terminalId', 'terminal_id'], ['model', 'model'], ['maker', 'maker'],
  ['deviceTypeId', 'device_type_id'], ['protocol', 'protocol'], ['channelCount', 'channel_count'], ['simIccid', 'sim_iccid'],
  ['installDate', 'install_date'], ['remark', 'remark'],
];

/** `keyword` contained in any of `columns`: the condition and its parameters (nothing when there is no keyword). */
function keywordIn(columns: readonly string[], keyword: string | undefined, parts: string[], params: unknown[]): void {
  if (!keyword) return;
  const p = likePattern(keyword);
  parts.push(`(${columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
  for (let i = 0; i < columns.length; i++) params.push(p);
}

interface RefusalRow {
  device_no: string; result: number; count: number; first_time: number; last_time: number; remote_address: string; maker_id: string;
  model: string; terminal_id: string; plate_color: number; plate: string; entered: number;
}

export class SqliteDeviceRepository implements DeviceRepository {
  /** Compiled statements by SQL text (an import's rows run the same few statements). */
  private readonly sql: Sql;

  constructor(readonly db: SqliteDb) {
    this.sql = statementCache(db);
  }

  private where(scope: Scope, f: DeviceFilter): { sql: string; params: unknown[] } {
    const s = scopeCondition(scope, 'c');
    const parts = [s.sql];
    const params: unknown[] = [...s.params];
    keywordIn(['d.device_no', 'd.terminal_id', 'd.model', 'd.sim_iccid'], f.keyword, parts, params);
    if (f.deviceTypeId !== undefined) {
      parts.push('d.device_type_id = ?');
      params.push(f.deviceTypeId);
    }
    if (f.protocol !== undefined) {
      parts.push('d.protocol = ?');
      params.push(f.protocol);
    }
    if (f.bound !== undefined) parts.push(f.bound ? 'v.id IS NOT NULL' : 'v.id IS NULL');
    if (f.source !== undefined) {
      parts.push('d.source = ?');
      params.push(f.source);
    }
    if (f.unassigned !== undefined) parts.push(f.unassigned ? "(d.source = 'auto' AND v.id IS NULL)" : "(d.source <> 'auto' OR v.id IS NOT NULL)");
    return { sql: parts.join(' AND '), params };
  }

  async get(scope: Scope, id: number): Promise<DeviceRecord | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.sql(`${SELECT} WHERE d.id = ? AND ${s.sql}`).get(id, ...s.params) as Row | undefined;
    return row && toRecord(row);
  }

  async page(scope: Scope, q: PageRequest & DeviceFilter): Promise<Page<DeviceRecord>> {
    const w = this.where(scope, q);
    const total = (this.sql(`${COUNT} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = this.sql(`${SELECT} WHERE ${w.sql} ORDER BY d.id DESC LIMIT ? OFFSET ?`)
      .all(...w.params, q.size, (q.current - 1) * q.size) as Row[];
    return { records: rows.map(toRecord), total, current: q.current, size: q.size };
  }

  async list(scope: Scope, filter: DeviceFilter, limit: number): Promise<{ total: number; records: DeviceRecord[] }> {
    const w = this.where(scope, filter);
    const total = (this.sql(`${COUNT} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = this.sql(`${SELECT} WHERE ${w.sql} ORDER BY d.id DESC LIMIT ?`).all(...w.params, limit) as Row[];
    return { total, records: rows.map(toRecord) };
  }

  async create(input: DeviceInput): Promise<number> {
    const now = Date.now();
    const r = this.sql(`INSERT INTO device (device_no, company_id, terminal_id, model, maker, device_type_id, protocol, channel_count,
                                 sim_iccid, install_date, source, remark, create_time, update_time)
                               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(input.deviceNo, input.companyId, input.terminalId, input.model, input.maker, input.deviceTypeId, input.protocol, input.channelCount,
        input.simIccid, input.installDate, input.source, input.remark, now, now);
    // The number is entered now: its refused registrations are answered.
    this.sql('DELETE FROM terminal_refusal WHERE device_no = ?').run(input.deviceNo);
    return Number(r.lastInsertRowid);
  }

  async update(id: number, patch: Partial<Omit<DeviceInput, 'source'>>): Promise<void> {
    const set = COLUMNS.filter(([k]) => patch[k] !== undefined);
    const values = set.map(([k]) => patch[k]);
    this.sql(`UPDATE device SET ${[...set.map(([, c]) => `${c} = ?`), 'update_time = ?'].join(', ')} WHERE id = ?`)
      .run(...values, Date.now(), id);
    if (patch.deviceNo !== undefined) this.sql('DELETE FROM terminal_refusal WHERE device_no = ?').run(patch.deviceNo);
  }

  async delete(id: number): Promise<void> {
    // The registration row goes with the device (ON DELETE CASCADE); a bound device is refused before this.
    this.sql('DELETE FROM device WHERE id = ?').run(id);
  }

  async numberTaken(deviceNo: string, exceptId?: number): Promise<boolean> {
    return this.sql('SELECT 1 FROM device WHERE device_no = ? AND id <> ?').get(deviceNo, exceptId ?? 0) !== undefined;
  }

  async search(scope: Scope, q: { keyword?: string; unbound?: boolean; size: number }): Promise<DeviceOption[]> {
    const s = scopeCondition(scope, 'c');
    const parts = [s.sql];
    const params: unknown[] = [...s.params];
    keywordIn(['d.device_no', 'd.model', 'd.terminal_id', 'v.vehiidno'], q.keyword, parts, params);
    if (q.unbound) parts.push('v.id IS NULL');
    const rows = this.sql(`SELECT d.id, d.device_no, d.company_id, c.name AS company_name, d.model, d.channel_count, v.id AS vehicle_id, v.vehiidno AS plate
                                  FROM device d JOIN company c ON c.id = d.company_id LEFT JOIN vehicle v ON v.device_no = d.device_no
                                  WHERE ${parts.join(' AND ')} ORDER BY d.device_no LIMIT ?`).all(...params, q.size) as {
      id: number; device_no: string; company_id: number; company_name: string; model: string; channel_count: number; vehicle_id: number | null; plate: string | null;
    }[];
    return rows.map((r) => ({
      id: r.id, deviceNo: r.device_no, companyId: r.company_id, companyName: r.company_name, model: r.model, channelCount: r.channel_count,
      vehicleId: r.vehicle_id, plate: r.plate,
    }));
  }

  async refusals(q: RefusalQuery): Promise<Page<RegisterRefusal>> {
    const parts = ['1'];
    const params: unknown[] = [];
    keywordIn(['r.device_no', 'r.plate', 'r.model', 'r.remote_address'], q.keyword, parts, params);
    if (q.result !== undefined) {
      parts.push('r.result = ?');
      params.push(q.result);
    }
    const where = parts.join(' AND ');
    const total = (this.sql(`SELECT count(*) n FROM terminal_refusal r WHERE ${where}`).get(...params) as { n: number }).n;
    const rows = this.sql(`SELECT r.*, EXISTS (SELECT 1 FROM device d WHERE d.device_no = r.device_no) AS entered
                                  FROM terminal_refusal r WHERE ${where} ORDER BY r.last_time DESC, r.device_no LIMIT ? OFFSET ?`)
      .all(...params, q.size, (q.current - 1) * q.size) as RefusalRow[];
    return {
      records: rows.map((r) => ({
        deviceNo: r.device_no, result: r.result, count: r.count, firstTime: r.first_time, lastTime: r.last_time, remoteAddress: r.remote_address,
        makerId: r.maker_id, model: r.model, terminalId: r.terminal_id, plateColor: r.plate_color, plate: r.plate, entered: r.entered === 1,
      })),
      total, current: q.current, size: q.size,
    };
  }
}
