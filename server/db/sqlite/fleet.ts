import type { FleetRepository } from '../repositories.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Company, Line, Vehicle, VehicleInput } from '../types.ts';
import { likePattern, placeholders, toCompany, toLine, toVehicle, type CompanyRowDb, type LineRowDb, type VehicleRowDb } from './rows.ts';

const VEHICLE = 'SELECT v.*, c.path FROM vehicle v JOIN company c ON c.id = v.company_id';

export class SqliteFleetRepository implements FleetRepository {
  constructor(private readonly db: SqliteDb) {}

  async lineCounts(ids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>(ids.map((id) => [id, 0]));
    if (ids.length === 0) return out;
    const rows = this.db.prepare(`SELECT company_id id, count(*) n FROM line WHERE company_id IN (${placeholders(ids.length)}) GROUP BY company_id`)
      .all(...ids) as { id: number; n: number }[];
    for (const r of rows) out.set(r.id, r.n);
    return out;
  }

  async linesOf(scope: Scope, companyId: number): Promise<(Line & { vehicleCount: number })[]> {
    const s = scopeCondition(scope, 'c');
    const rows = this.db
      .prepare(`SELECT l.id, l.name, l.company_id, c.path, (SELECT count(*) FROM vehicle v WHERE v.line_id = l.id) AS n
                FROM line l JOIN company c ON c.id = l.company_id WHERE l.company_id = ? AND ${s.sql} ORDER BY l.name, l.id`)
      .all(companyId, ...s.params) as (LineRowDb & { n: number })[];
    return rows.map((r) => ({ ...toLine(r), vehicleCount: r.n }));
  }

  async getLine(scope: Scope, id: number): Promise<Line | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`SELECT l.id, l.name, l.company_id, c.path FROM line l JOIN company c ON c.id = l.company_id
                                 WHERE l.id = ? AND ${s.sql}`).get(id, ...s.params) as LineRowDb | undefined;
    return row && toLine(row);
  }

  async getVehicle(scope: Scope, id: number): Promise<Vehicle | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`${VEHICLE} WHERE v.id = ? AND ${s.sql}`).get(id, ...s.params) as VehicleRowDb | undefined;
    return row && toVehicle(row);
  }

  async vehiclesOfCompany(scope: Scope, companyId: number): Promise<Vehicle[]> {
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`${VEHICLE} WHERE v.company_id = ? AND v.line_id IS NULL AND ${s.sql} ORDER BY v.vehiidno`)
      .all(companyId, ...s.params) as VehicleRowDb[]).map(toVehicle);
  }

  async vehiclesOfLine(scope: Scope, lineId: number): Promise<Vehicle[]> {
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`${VEHICLE} WHERE v.line_id = ? AND ${s.sql} ORDER BY v.vehiidno`)
      .all(lineId, ...s.params) as VehicleRowDb[]).map(toVehicle);
  }

  async searchVehicles(scope: Scope, keyword: string, limit: number): Promise<Vehicle[]> {
    const s = scopeCondition(scope, 'c');
    const like = likePattern(keyword);
    return (this.db.prepare(`${VEHICLE} WHERE (v.vehiidno LIKE ? ESCAPE '\\' OR v.device_no LIKE ? ESCAPE '\\') AND ${s.sql}
                             ORDER BY v.vehiidno LIMIT ?`)
      .all(like, like, ...s.params, limit) as VehicleRowDb[]).map(toVehicle);
  }

  async searchLines(scope: Scope, keyword: string, limit: number): Promise<(Line & { vehicleCount: number })[]> {
    const s = scopeCondition(scope, 'c');
    const rows = this.db
      .prepare(`SELECT l.id, l.name, l.company_id, c.path, (SELECT count(*) FROM vehicle v WHERE v.line_id = l.id) AS n
                FROM line l JOIN company c ON c.id = l.company_id WHERE l.name LIKE ? ESCAPE '\\' AND ${s.sql} ORDER BY l.name, l.id LIMIT ?`)
      .all(likePattern(keyword), ...s.params, limit) as (LineRowDb & { n: number })[];
    return rows.map((r) => ({ ...toLine(r), vehicleCount: r.n }));
  }

  async searchCompanies(scope: Scope, keyword: string, limit: number): Promise<Company[]> {
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`SELECT * FROM company c WHERE c.name LIKE ? ESCAPE '\\' AND ${s.sql} ORDER BY c.path LIMIT ?`)
      .all(likePattern(keyword), ...s.params, limit) as CompanyRowDb[]).map(toCompany);
  }

  async createLine(input: { name: string; companyId: number }): Promise<number> {
    return Number(this.db.prepare('INSERT INTO line (name, company_id, create_time) VALUES (?, ?, ?)')
      .run(input.name, input.companyId, Date.now()).lastInsertRowid);
  }

  async createVehicles(vehicles: readonly VehicleInput[]): Promise<void> {
    // A vehicle's device is a device row of its company (migration 22), entered first.
    const device = this.db.prepare('INSERT INTO device (device_no, company_id, create_time, update_time) VALUES (?, ?, ?, ?)');
    const insert = this.db.prepare('INSERT INTO vehicle (vehiidno, company_id, line_id, device_no, vin, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const now = Date.now();
    for (const v of vehicles) {
      if (v.deviceNo !== null) device.run(v.deviceNo, v.companyId, now, now);
      insert.run(v.vehiidno, v.companyId, v.lineId, v.deviceNo, v.vin, now, now);
    }
  }
}
