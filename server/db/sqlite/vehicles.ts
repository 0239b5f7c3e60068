import { chinaDay, VEHICLE_LIMITS } from '../../../domain/fleet/limits.ts';
import type { Scope } from '../scope.ts';
import { pathRange, scopeCondition } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page, PageRequest } from '../types.ts';
import type {
  VehicleChannel, VehicleDeviceRow, VehicleFilters, VehicleMoveResult, VehicleRecord, VehicleRepository, VehicleStatusCounts, VehicleWrite,
} from '../vehicle-record-types.ts';
import type { ChannelKind } from '../channel-types.ts';
import { likePattern, placeholders } from './rows.ts';
import { statementCache, type Sql } from './statements.ts';

interface VehicleRowDb {
  id: number; vehiidno: string; plate_color: number; company_id: number; company_name: string; path: string; line_id: number | null;
  line_name: string | null; device_no: string | null; vin: string; vehicle_type: string; status: number; insurance_expire: number | null;
  inspection_expire: number | null; remark: string; create_time: number; update_time: number;
}

const SELECT = `SELECT v.id, v.vehiidno, v.plate_color, v.company_id, c.name company_name, c.path, v.line_id, l.name line_name, v.device_no, v.vin,
  v.vehicle_type, v.status, v.insurance_expire, v.inspection_expire, v.remark, v.create_time, v.update_time
  FROM vehicle v JOIN company c ON c.id = v.company_id LEFT JOIN line l ON l.id = v.line_id`;

const DAY_MS = 86_400_000;

function toRecord(r: VehicleRowDb): VehicleRecord {
  return {
    id: r.id, vehiidno: r.vehiidno, plateColor: r.plate_color, companyId: r.company_id, companyName: r.company_name, path: r.path,
    lineId: r.line_id, lineName: r.line_name, deviceNo: r.device_no, vin: r.vin, vehicleType: r.vehicle_type, status: r.status,
    insuranceExpire: r.insurance_expire, inspectionExpire: r.inspection_expire, remark: r.remark, createTime: r.create_time, updateTime: r.update_time,
  };
}

/** [start of today, start of the day after the warning window) in epoch ms, China days. */
export function expiryBounds(now: number): { today: number; warnEnd: number } {
  const today = chinaDay(now) * DAY_MS - 8 * 3_600_000;
  return { today, warnEnd: today + (VEHICLE_LIMITS.expiryWarnDays + 1) * DAY_MS };
}

/** Columns of VehicleWrite → SQL column names. */
const COLUMNS: Readonly<Record<keyof VehicleWrite, string>> = {
  vehiidno: 'vehiidno', plateColor: 'plate_color', companyId: 'company_id', lineId: 'line_id', vin: 'vin', vehicleType: 'vehicle_type',
  status: 'status', insuranceExpire: 'insurance_expire', inspectionExpire: 'inspection_expire', remark: 'remark',
};

export class SqliteVehicleRepository implements VehicleRepository {
  /** Compiled statements by SQL text: an import calls get / create / plateOwner per row, and compiling costs more than running. */
  private readonly sql: Sql;

  constructor(readonly db: SqliteDb) {
    this.sql = statementCache(db);
  }

  async get(scope: Scope, id: number): Promise<VehicleRecord | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.sql(`${SELECT} WHERE v.id = ? AND ${s.sql}`).get(id, ...s.params) as VehicleRowDb | undefined;
    if (!row) return undefined;
    const extra = (await this.extras([id])).get(id)!;
    return { ...toRecord(row), ...extra };
  }

  /** WHERE clause (on v, c) of the list filters in a scope. */
  private where(scope: Scope, f: VehicleFilters, now = Date.now()): { sql: string; params: unknown[] } {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (!scope.all) {
      // The subtree's companies first: SQLite then walks vehicle_company_plate per company.
      const [from, to] = pathRange(scope.rootPath);
      parts.push('v.company_id IN (SELECT id FROM company WHERE path >= ? AND path < ?)');
      params.push(from, to);
    }
    if (f.keyword) {
      const like = likePattern(f.keyword);
      parts.push("(v.vehiidno LIKE ? ESCAPE '\\' OR v.vin LIKE ? ESCAPE '\\' OR v.device_no LIKE ? ESCAPE '\\')");
      params.push(like, like, like);
    }
    if (f.lineId !== undefined) { parts.push('v.line_id = ?'); params.push(f.lineId); }
    if (f.status !== undefined) { parts.push('v.status = ?'); params.push(f.status); }
    if (f.vehicleType !== undefined) { parts.push('v.vehicle_type = ?'); params.push(f.vehicleType); }
    if (f.bound !== undefined) parts.push(f.bound ? 'v.device_no IS NOT NULL' : 'v.device_no IS NULL');
    if (f.expiry) {
      const { today, warnEnd } = expiryBounds(now);
      if (f.expiry === 'expired') {
        parts.push('(v.insurance_expire < ? OR v.inspection_expire < ?)');
        params.push(today, today);
      } else {
        parts.push('((v.insurance_expire >= ? AND v.insurance_expire < ?) OR (v.inspection_expire >= ? AND v.inspection_expire < ?))');
        params.push(today, warnEnd, today, warnEnd);
      }
    }
    return { sql: parts.length ? parts.join(' AND ') : '1', params };
  }

  async page(scope: Scope, req: PageRequest & VehicleFilters): Promise<Page<VehicleRecord>> {
    const w = this.where(scope, req);
    const total = (this.sql(`SELECT count(*) n FROM vehicle v WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = this.sql(`${SELECT} WHERE ${w.sql} ORDER BY v.vehiidno LIMIT ? OFFSET ?`)
      .all(...w.params, req.size, (req.current - 1) * req.size) as VehicleRowDb[];
    return { records: rows.map(toRecord), total, current: req.current, size: req.size };
  }

  async extras(ids: readonly number[]): Promise<Map<number, { channels: VehicleChannel[]; drivers: { id: number; name: string }[] }>> {
    const out = new Map(ids.map((id) => [id, { channels: [] as VehicleChannel[], drivers: [] as { id: number; name: string }[] }]));
    if (ids.length === 0) return out;
    const ph = placeholders(ids.length);
    const channels = this.sql(`SELECT vehicle_id, channel, kind, name FROM device_channel WHERE vehicle_id IN (${ph}) ORDER BY vehicle_id, channel`)
      .all(...ids) as { vehicle_id: number; channel: number; kind: ChannelKind; name: string }[];
    for (const c of channels) out.get(c.vehicle_id)?.channels.push({ channel: c.channel, kind: c.kind, name: c.name });
    const drivers = this.sql(`SELECT dv.vehicle_id, d.id, d.name FROM driver_vehicle dv JOIN driver d ON d.id = dv.driver_id
                                     WHERE dv.vehicle_id IN (${ph}) ORDER BY d.name, d.id`).all(...ids) as { vehicle_id: number; id: number; name: string }[];
    for (const d of drivers) out.get(d.vehicle_id)?.drivers.push({ id: d.id, name: d.name });
    return out;
  }

  async create(input: VehicleWrite): Promise<number> {
    const now = Date.now();
    return Number(this.sql(`INSERT INTO vehicle (vehiidno, plate_color, company_id, line_id, device_no, vin, vehicle_type, status,
        insurance_expire, inspection_expire, remark, create_time, update_time) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(input.vehiidno, input.plateColor, input.companyId, input.lineId, input.vin, input.vehicleType, input.status,
        input.insuranceExpire, input.inspectionExpire, input.remark, now, now).lastInsertRowid);
  }

  async update(id: number, patch: Partial<VehicleWrite>): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [key, column] of Object.entries(COLUMNS) as [keyof VehicleWrite, string][]) {
      if (patch[key] === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(patch[key]);
    }
    sets.push('update_time = ?');
    params.push(Date.now(), id);
    this.sql(`UPDATE vehicle SET ${sets.join(', ')} WHERE id = ?`).run(...params);
  }

  async delete(id: number): Promise<void> {
    this.sql('DELETE FROM vehicle WHERE id = ?').run(id);
  }

  async plateOwner(plate: string, exceptId?: number): Promise<{ id: number; path: string } | undefined> {
    return this.sql('SELECT v.id, c.path FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.vehiidno = ? AND v.id <> ?')
      .get(plate, exceptId ?? 0) as { id: number; path: string } | undefined;
  }

  async hasHistory(id: number): Promise<boolean> {
    return !!this.sql(`SELECT 1 FROM positions WHERE vehicle_id = ? UNION ALL SELECT 1 FROM alarm WHERE vehicle_id = ?
                              UNION ALL SELECT 1 FROM track_block WHERE vehicle_id = ? LIMIT 1`).get(id, id, id);
  }

  async setChannels(id: number, channels: readonly VehicleChannel[]): Promise<void> {
    this.sql('DELETE FROM device_channel WHERE vehicle_id = ?').run(id);
    const insert = this.sql('INSERT INTO device_channel (vehicle_id, channel, kind, name) VALUES (?, ?, ?, ?)');
    for (const c of channels) insert.run(id, c.channel, c.kind, c.name);
  }

  async setDrivers(id: number, driverIds: readonly number[]): Promise<void> {
    this.sql('DELETE FROM driver_vehicle WHERE vehicle_id = ?').run(id);
    const insert = this.sql('INSERT INTO driver_vehicle (driver_id, vehicle_id) VALUES (?, ?)');
    for (const d of driverIds) insert.run(d, id);
  }

  async driversInScope(scope: Scope, driverIds: readonly number[]): Promise<Set<number>> {
    if (driverIds.length === 0) return new Set();
    const s = scopeCondition(scope, 'c');
    const rows = this.sql(`SELECT d.id FROM driver d JOIN company c ON c.id = d.company_id WHERE d.id IN (${placeholders(driverIds.length)}) AND ${s.sql}`)
      .all(...driverIds, ...s.params) as { id: number }[];
    return new Set(rows.map((r) => r.id));
  }

  async lineInSubtree(lineId: number, companyPath: string): Promise<boolean> {
    const [from, to] = pathRange(companyPath);
    return !!this.sql('SELECT 1 FROM line l JOIN company c ON c.id = l.company_id WHERE l.id = ? AND c.path >= ? AND c.path < ?').get(lineId, from, to);
  }

  async statusCounts(scope: Scope, now: number): Promise<VehicleStatusCounts> {
    const w = this.where(scope, {});
    const { today, warnEnd } = expiryBounds(now);
    const r = this.sql(`SELECT count(*) total, coalesce(sum(v.status = 1), 0) in_service, coalesce(sum(v.device_no IS NOT NULL), 0) bound,
        coalesce(sum(v.insurance_expire >= ? AND v.insurance_expire < ?), 0) ins_soon, coalesce(sum(v.insurance_expire < ?), 0) ins_expired,
        coalesce(sum(v.inspection_expire >= ? AND v.inspection_expire < ?), 0) insp_soon, coalesce(sum(v.inspection_expire < ?), 0) insp_expired
      FROM vehicle v WHERE ${w.sql}`).get(today, warnEnd, today, today, warnEnd, today, ...w.params) as Record<string, number>;
    return {
      total: r.total!, inService: r.in_service!, retired: r.total! - r.in_service!, bound: r.bound!,
      insuranceSoon: r.ins_soon!, insuranceExpired: r.ins_expired!, inspectionSoon: r.insp_soon!, inspectionExpired: r.insp_expired!,
    };
  }

  async deviceOf(vehicleId: number): Promise<VehicleDeviceRow | undefined> {
    const r = this.sql(`SELECT d.* FROM vehicle v JOIN device d ON d.device_no = v.device_no WHERE v.id = ?`).get(vehicleId) as {
      id: number; device_no: string; company_id: number; terminal_id: string; model: string; maker: string; device_type_id: number | null;
      protocol: number; channel_count: number; sim_iccid: string; install_date: number | null; source: string;
    } | undefined;
    return r && {
      id: r.id, deviceNo: r.device_no, companyId: r.company_id, terminalId: r.terminal_id, model: r.model, maker: r.maker,
      deviceTypeId: r.device_type_id, protocol: r.protocol, channelCount: r.channel_count, simIccid: r.sim_iccid, installDate: r.install_date, source: r.source,
    };
  }

  async moveToCompany(ids: readonly number[], companyId: number, companyPath: string): Promise<VehicleMoveResult> {
    const [from, to] = pathRange(companyPath);
    const ph = placeholders(ids.length);
    const now = Date.now();
    const before = new Map((this.sql(`SELECT v.id, v.company_id, v.line_id, d.id device_id, d.device_no, d.company_id device_company
        FROM vehicle v LEFT JOIN device d ON d.device_no = v.device_no WHERE v.id IN (${ph})`).all(...ids) as {
      id: number; company_id: number; line_id: number | null; device_id: number | null; device_no: string | null; device_company: number | null;
    }[]).map((r) => [r.id, {
      companyId: r.company_id, lineId: r.line_id,
      device: r.device_id === null ? null : { id: r.device_id, deviceNo: r.device_no!, companyId: r.device_company! },
    }]));
    const installationIds = (this.sql(`SELECT id FROM vehicle_installation WHERE vehicle_id IN (${ph})`).all(...ids) as { id: number }[]).map((r) => r.id);
    // A line of the old owner is not the new owner's: the vehicle leaves it.
    const clearedLines = new Set((this.sql(`SELECT v.id FROM vehicle v JOIN line l ON l.id = v.line_id JOIN company c ON c.id = l.company_id
        WHERE v.id IN (${ph}) AND NOT (c.path >= ? AND c.path < ?)`).all(...ids, from, to) as { id: number }[]).map((r) => r.id));
    // Drivers outside the new owner's subtree are unbound: the new owner could not see them, the old owner no longer sees the vehicle.
    const dropped = this.sql(`SELECT dv.vehicle_id, dv.driver_id FROM driver_vehicle dv JOIN driver d ON d.id = dv.driver_id JOIN company c ON c.id = d.company_id
        WHERE dv.vehicle_id IN (${ph}) AND NOT (c.path >= ? AND c.path < ?)`).all(...ids, from, to) as { vehicle_id: number; driver_id: number }[];
    const droppedDrivers = new Map<number, number[]>();
    const unbind = this.sql('DELETE FROM driver_vehicle WHERE vehicle_id = ? AND driver_id = ?');
    for (const d of dropped) {
      unbind.run(d.vehicle_id, d.driver_id);
      droppedDrivers.set(d.vehicle_id, [...(droppedDrivers.get(d.vehicle_id) ?? []), d.driver_id]);
    }
    if (clearedLines.size) this.sql(`UPDATE vehicle SET line_id = NULL WHERE id IN (${placeholders(clearedLines.size)})`).run(...clearedLines);
    this.sql(`UPDATE vehicle SET company_id = ?, update_time = ? WHERE id IN (${ph})`).run(companyId, now, ...ids);
    // The company copies the vehicle's history carries: scoping of those reads follows them. A transport
    // permit belongs to its vehicle: the new owner keeps it, the old one no longer sees it.
    for (const table of ['alarm', 'board_item', 'media_item', 'vehicle_installation', 'box_permit']) {
      this.sql(`UPDATE ${table} SET company_id = ? WHERE vehicle_id IN (${ph})`).run(companyId, ...ids);
    }
    this.sql(`UPDATE device SET company_id = ?, update_time = ? WHERE device_no IN (SELECT device_no FROM vehicle WHERE id IN (${ph}) AND device_no IS NOT NULL)`)
      .run(companyId, now, ...ids);
    return { droppedDrivers, clearedLines, before, installationIds };
  }

  async permitClash(ids: readonly number[], companyId: number): Promise<{ vehiidno: string; permitNo: string } | undefined> {
    const ph = placeholders(ids.length);
    // After the move the company holds its own permits and every permit of the moving vehicles.
    return this.sql(`SELECT v.vehiidno, p.permit_no AS permitNo FROM box_permit p JOIN vehicle v ON v.id = p.vehicle_id
        WHERE p.vehicle_id IN (${ph}) AND EXISTS (SELECT 1 FROM box_permit q WHERE q.permit_no = p.permit_no AND q.id <> p.id
          AND (q.company_id = ? OR q.vehicle_id IN (${ph})))
        ORDER BY v.vehiidno, p.permit_no LIMIT 1`).get(...ids, companyId, ...ids) as { vehiidno: string; permitNo: string } | undefined;
  }

  async companyAssets(companyId: number): Promise<{ devices: number; drivers: number }> {
    return this.sql('SELECT (SELECT count(*) FROM device WHERE company_id = ?) devices, (SELECT count(*) FROM driver WHERE company_id = ?) drivers')
      .get(companyId, companyId) as { devices: number; drivers: number };
  }

  async seedRows(): Promise<{ id: number; vin: string; lineId: number | null }[]> {
    return (this.sql('SELECT id, vin, line_id FROM vehicle ORDER BY id').all() as { id: number; vin: string; line_id: number | null }[])
      .map((r) => ({ id: r.id, vin: r.vin, lineId: r.line_id }));
  }

  async setSeedFields(rows: readonly { id: number; vin: string; plateColor: number; vehicleType: string; insuranceExpire: number | null; inspectionExpire: number | null }[]): Promise<void> {
    const update = this.sql('UPDATE vehicle SET vin = ?, plate_color = ?, vehicle_type = ?, insurance_expire = ?, inspection_expire = ? WHERE id = ?');
    for (const r of rows) update.run(r.vin, r.plateColor, r.vehicleType, r.insuranceExpire, r.inspectionExpire, r.id);
  }

  async latestPhotos(ids: readonly number[]): Promise<{ vehicleId: number; mediaId: number; channel: number; captureTime: number }[]> {
    if (ids.length === 0) return [];
    const one = this.sql(`SELECT id, channel, capture_time FROM media_item WHERE vehicle_id = ? AND media_type = 0 ORDER BY capture_time DESC, id DESC LIMIT 1`);
    const out: { vehicleId: number; mediaId: number; channel: number; captureTime: number }[] = [];
    for (const id of ids) {
      const r = one.get(id) as { id: number; channel: number; capture_time: number } | undefined;
      if (r) out.push({ vehicleId: id, mediaId: r.id, channel: r.channel, captureTime: r.capture_time });
    }
    return out;
  }
}
