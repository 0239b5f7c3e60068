import { directionLengthKm, type LineDirection, type Station } from '../../../domain/fleet/line.ts';
import type { LineFilter, LineInput, LineRecord, LineRepository, LineStations, LineVehicle } from '../line-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page, PageRequest } from '../types.ts';
import { likePattern, placeholders } from './rows.ts';

interface Row {
  id: number; company_id: number; company_name: string; name: string; code: string; remark: string;
  create_time: number; update_time: number; vehicles: number; up: number; down: number;
}
interface StationRow { line_id: number; direction: number; name: string; lng: number; lat: number }
interface VehicleRow { id: number; vehiidno: string; company_id: number; company_name: string; path: string; line_id: number | null; device_no: string | null }

// Counts by correlated subqueries over the (line_id) index of vehicle and the line_station primary key.
const SELECT = `SELECT l.id, l.company_id, c.name company_name, l.name, l.code, l.remark, l.create_time, l.update_time,
  (SELECT count(*) FROM vehicle v WHERE v.line_id = l.id) vehicles,
  (SELECT count(*) FROM line_station s WHERE s.line_id = l.id AND s.direction = 0) up,
  (SELECT count(*) FROM line_station s WHERE s.line_id = l.id AND s.direction = 1) down
  FROM line l JOIN company c ON c.id = l.company_id`;

const km2 = (km: number) => Math.round(km * 100) / 100;

function toVehicle(r: VehicleRow): LineVehicle {
  return { id: r.id, vehiidno: r.vehiidno, companyId: r.company_id, companyName: r.company_name, companyPath: r.path, lineId: r.line_id, deviceNo: r.device_no };
}

export class SqliteLineRepository implements LineRepository {
  constructor(readonly db: SqliteDb) {}

  private where(scope: Scope, filter: LineFilter): { sql: string; params: unknown[] } {
    const s = scopeCondition(scope, 'c');
    let sql = s.sql;
    const params: unknown[] = [...s.params];
    if (filter.keyword) {
      sql += ` AND (l.name LIKE ? ESCAPE '\\' OR l.code LIKE ? ESCAPE '\\')`;
      const p = likePattern(filter.keyword);
      params.push(p, p);
    }
    return { sql, params };
  }

  /** Rows → records with each direction's length (one station read for the whole page). */
  private records(rows: Row[]): LineRecord[] {
    if (rows.length === 0) return [];
    const stations = this.stationsOf(rows.map((r) => r.id));
    return rows.map((r) => {
      const s = stations.get(r.id);
      return {
        id: r.id, companyId: r.company_id, companyName: r.company_name, name: r.name, code: r.code, remark: r.remark,
        vehicleCount: r.vehicles, upStationCount: r.up, downStationCount: r.down,
        upLengthKm: km2(directionLengthKm(s?.up ?? [])), downLengthKm: km2(directionLengthKm(s?.down ?? [])),
        createTime: r.create_time, updateTime: r.update_time,
      };
    });
  }

  private stationsOf(ids: readonly number[]): Map<number, LineStations> {
    const out = new Map<number, LineStations>(ids.map((id) => [id, { up: [], down: [] }]));
    const rows = this.db.prepare(`SELECT line_id, direction, name, lng, lat FROM line_station WHERE line_id IN (${placeholders(ids.length)})
      ORDER BY line_id, direction, seq`).all(...ids) as StationRow[];
    for (const r of rows) {
      const s = out.get(r.line_id)!;
      (r.direction === 0 ? s.up : s.down).push({ name: r.name, lng: r.lng, lat: r.lat });
    }
    return out;
  }

  async get(scope: Scope, id: number): Promise<LineRecord | undefined> {
    const w = this.where(scope, {});
    const row = this.db.prepare(`${SELECT} WHERE l.id = ? AND ${w.sql}`).get(id, ...w.params) as Row | undefined;
    return row && this.records([row])[0];
  }

  async page(scope: Scope, req: PageRequest & LineFilter): Promise<Page<LineRecord>> {
    const w = this.where(scope, req);
    const total = (this.db.prepare(`SELECT count(*) n FROM line l JOIN company c ON c.id = l.company_id WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = this.db.prepare(`${SELECT} WHERE ${w.sql} ORDER BY c.path, l.name, l.id LIMIT ? OFFSET ?`)
      .all(...w.params, req.size, (req.current - 1) * req.size) as Row[];
    return { records: this.records(rows), total, current: req.current, size: req.size };
  }

  async nameTaken(companyId: number, name: string, exceptId?: number): Promise<boolean> {
    return this.db.prepare('SELECT 1 FROM line WHERE company_id = ? AND name = ? COLLATE NOCASE AND id != ?').get(companyId, name, exceptId ?? 0) !== undefined;
  }

  async codeTaken(companyId: number, code: string, exceptId?: number): Promise<boolean> {
    if (!code) return false;
    return this.db.prepare('SELECT 1 FROM line WHERE company_id = ? AND code = ? COLLATE NOCASE AND id != ?').get(companyId, code, exceptId ?? 0) !== undefined;
  }

  async create(input: LineInput): Promise<number> {
    const now = Date.now();
    return Number(this.db.prepare('INSERT INTO line (name, company_id, code, remark, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)')
      .run(input.name, input.companyId, input.code, input.remark, now, now).lastInsertRowid);
  }

  async update(id: number, patch: Partial<Omit<LineInput, 'companyId'>>): Promise<void> {
    const set = ([['name', patch.name], ['code', patch.code], ['remark', patch.remark]] as [string, unknown][]).filter(([, v]) => v !== undefined);
    this.db.prepare(`UPDATE line SET ${[...set.map(([c]) => `${c} = ?`), 'update_time = ?'].join(', ')} WHERE id = ?`)
      .run(...set.map(([, v]) => v), Date.now(), id);
  }

  async delete(id: number): Promise<void> {
    // Stations go with the line (ON DELETE CASCADE); vehicles would become line-less (ON DELETE SET NULL), but the call refuses a line with vehicles first.
    this.db.prepare('DELETE FROM line WHERE id = ?').run(id);
  }

  async touch(id: number): Promise<void> {
    this.db.prepare('UPDATE line SET update_time = ? WHERE id = ?').run(Date.now(), id);
  }

  async vehicleCount(id: number): Promise<number> {
    return (this.db.prepare('SELECT count(*) n FROM vehicle WHERE line_id = ?').get(id) as { n: number }).n;
  }

  async stations(id: number): Promise<LineStations> {
    return this.stationsOf([id]).get(id)!;
  }

  async replaceStations(id: number, direction: LineDirection, stations: readonly Station[]): Promise<void> {
    this.db.prepare('DELETE FROM line_station WHERE line_id = ? AND direction = ?').run(id, direction);
    const insert = this.db.prepare('INSERT INTO line_station (line_id, direction, seq, name, lng, lat) VALUES (?, ?, ?, ?, ?, ?)');
    stations.forEach((s, i) => insert.run(id, direction, i + 1, s.name, s.lng, s.lat));
  }

  async vehiclesOf(scope: Scope, id: number, limit: number): Promise<LineVehicle[]> {
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`SELECT v.id, v.vehiidno, v.company_id, c.name company_name, c.path, v.line_id, v.device_no
      FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.line_id = ? AND ${s.sql} ORDER BY v.vehiidno LIMIT ?`)
      .all(id, ...s.params, limit) as VehicleRow[]).map(toVehicle);
  }

  async vehiclesByIds(scope: Scope, ids: readonly number[]): Promise<LineVehicle[]> {
    if (ids.length === 0) return [];
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`SELECT v.id, v.vehiidno, v.company_id, c.name company_name, c.path, v.line_id, v.device_no
      FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.id IN (${placeholders(ids.length)}) AND ${s.sql}`)
      .all(...ids, ...s.params) as VehicleRow[]).map(toVehicle);
  }

  async setVehiclesLine(vehicleIds: readonly number[], lineId: number | null): Promise<void> {
    const update = this.db.prepare('UPDATE vehicle SET line_id = ?, update_time = ? WHERE id = ?');
    const now = Date.now();
    for (const id of vehicleIds) update.run(lineId, now, id);
  }

  async companyPath(companyId: number): Promise<string | undefined> {
    return (this.db.prepare('SELECT path FROM company WHERE id = ?').get(companyId) as { path: string } | undefined)?.path;
  }
}
