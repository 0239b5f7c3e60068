import type { Statement } from 'better-sqlite3';
import { chinaDayStart } from '../../../domain/fleet/driver.ts';
import { VEHICLE_LIMITS, type LicenceClass } from '../../../domain/fleet/limits.ts';
import type {
  CurrentSignIn, Driver, DriverFilter, DriverInput, DriverRepository, DriverSignInRow, DriverVehicle, SignInEvent,
} from '../driver-types.ts';
import { pathInScope, scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page, PageRequest } from '../types.ts';
import { likePattern } from './rows.ts';

interface Row {
  id: number; company_id: number; company_name: string; name: string; licence_no: string; licence_class: string; licence_expire: number | null;
  cert_no: string; cert_authority: string; cert_expire: number | null; phone: string; status: number; remark: string;
  create_time: number; update_time: number; photo_time: number | null;
}

const DAY = 86_400_000;

const FROM = 'FROM driver d JOIN company c ON c.id = d.company_id LEFT JOIN driver_photo p ON p.driver_id = d.id';
const COLUMNS = 'd.*, c.name AS company_name, p.update_time AS photo_time';

export class SqliteDriverRepository implements DriverRepository {
  /** Statements by SQL text: the variants are few (scope, filters, the columns an update sets), and a seed or an import prepares each once. */
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: SqliteDb) {}

  private prepare(sql: string): Statement {
    return this.statements.get(sql) ?? this.statements.set(sql, this.db.prepare(sql)).get(sql)!;
  }

  private where(scope: Scope, filter: DriverFilter, now: number): { sql: string; params: unknown[] } {
    const s = scopeCondition(scope, 'c');
    let sql = s.sql;
    const params: unknown[] = [...s.params];
    if (filter.keyword) {
      sql += ` AND (d.name LIKE ? ESCAPE '\\' OR d.licence_no LIKE ? ESCAPE '\\' OR d.cert_no LIKE ? ESCAPE '\\' OR d.phone LIKE ? ESCAPE '\\')`;
      const p = likePattern(filter.keyword);
      params.push(p, p, p, p);
    }
    if (filter.status !== undefined) {
      sql += ' AND d.status = ?';
      params.push(filter.status);
    }
    if (filter.expiry) {
      // The same whole-day rule as expiryState: expired before today (China day), soon within the warning days.
      const column = filter.expiry.startsWith('licence') ? 'd.licence_expire' : 'd.cert_expire';
      const today = chinaDayStart(now);
      if (filter.expiry.endsWith('Expired')) {
        sql += ` AND ${column} < ?`;
        params.push(today);
      } else {
        sql += ` AND ${column} >= ? AND ${column} < ?`;
        params.push(today, today + (VEHICLE_LIMITS.expiryWarnDays + 1) * DAY);
      }
    }
    return { sql, params };
  }

  /** Rows → drivers with their vehicles and current sign-in inside `scope` (one query each for the whole page). */
  private complete(scope: Scope, rows: Row[]): Driver[] {
    if (rows.length === 0) return [];
    const ids = JSON.stringify(rows.map((r) => r.id));
    const s = scopeCondition(scope, 'c');
    const vehicles = new Map<number, DriverVehicle[]>();
    for (const v of this.prepare(`SELECT dv.driver_id, v.id, v.vehiidno FROM driver_vehicle dv JOIN vehicle v ON v.id = dv.vehicle_id
                                     JOIN company c ON c.id = v.company_id
                                     WHERE dv.driver_id IN (SELECT value FROM json_each(?)) AND ${s.sql} ORDER BY v.vehiidno`)
      .all(ids, ...s.params) as { driver_id: number; id: number; vehiidno: string }[]) {
      const list = vehicles.get(v.driver_id) ?? [];
      list.push({ id: v.id, vehiidno: v.vehiidno });
      vehicles.set(v.driver_id, list);
    }
    const signedIn = new Map<number, CurrentSignIn>();
    for (const r of this.prepare(`SELECT s.driver_id, s.vehicle_id, v.vehiidno, s.sign_in_time FROM driver_sign_in s
                                     JOIN vehicle v ON v.id = s.vehicle_id JOIN company c ON c.id = v.company_id
                                     WHERE s.driver_id IN (SELECT value FROM json_each(?)) AND s.sign_out_time IS NULL AND ${s.sql}
                                     ORDER BY s.sign_in_time`)
      .all(ids, ...s.params) as { driver_id: number; vehicle_id: number; vehiidno: string; sign_in_time: number }[]) {
      // The newest open row wins (ordered ascending, later rows overwrite).
      signedIn.set(r.driver_id, { vehicleId: r.vehicle_id, vehiidno: r.vehiidno, signInTime: r.sign_in_time });
    }
    return rows.map((r) => ({
      id: r.id, companyId: r.company_id, companyName: r.company_name, name: r.name, licenceNo: r.licence_no,
      licenceClass: r.licence_class as LicenceClass | '', licenceExpire: r.licence_expire, certNo: r.cert_no, certAuthority: r.cert_authority,
      certExpire: r.cert_expire, phone: r.phone, status: r.status === 0 ? 0 : 1, remark: r.remark,
      vehicles: vehicles.get(r.id) ?? [], photoTime: r.photo_time, signedIn: signedIn.get(r.id) ?? null,
      createTime: r.create_time, updateTime: r.update_time,
    }));
  }

  async get(scope: Scope, id: number): Promise<Driver | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.prepare(`SELECT ${COLUMNS} ${FROM} WHERE d.id = ? AND ${s.sql}`).get(id, ...s.params) as Row | undefined;
    return row && this.complete(scope, [row])[0];
  }

  async page(scope: Scope, req: PageRequest & DriverFilter & { readonly now?: number }): Promise<Page<Driver>> {
    const w = this.where(scope, req, req.now ?? Date.now());
    const total = (this.prepare(`SELECT count(*) n ${FROM} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = this.prepare(`SELECT ${COLUMNS} ${FROM} WHERE ${w.sql} ORDER BY d.id LIMIT ? OFFSET ?`)
      .all(...w.params, req.size, (req.current - 1) * req.size) as Row[];
    return { records: this.complete(scope, rows), total, current: req.current, size: req.size };
  }

  async list(scope: Scope, filter: DriverFilter, limit: number, now = Date.now()): Promise<{ total: number; records: Driver[] }> {
    const w = this.where(scope, filter, now);
    const total = (this.prepare(`SELECT count(*) n ${FROM} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = this.prepare(`SELECT ${COLUMNS} ${FROM} WHERE ${w.sql} ORDER BY d.id LIMIT ?`).all(...w.params, limit) as Row[];
    // The sheet's vehicle and sign-in columns: completed in slices so one IN list stays small.
    const records: Driver[] = [];
    for (let i = 0; i < rows.length; i += 500) records.push(...this.complete(scope, rows.slice(i, i + 500)));
    return { total, records };
  }

  async create(input: DriverInput): Promise<number> {
    const now = Date.now();
    const r = this.prepare(`INSERT INTO driver (company_id, name, licence_no, licence_class, licence_expire, cert_no, cert_authority, cert_expire,
                                 phone, status, remark, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(input.companyId, input.name, input.licenceNo, input.licenceClass, input.licenceExpire, input.certNo, input.certAuthority, input.certExpire,
        input.phone, input.status, input.remark, now, now);
    return Number(r.lastInsertRowid);
  }

  async update(id: number, patch: Partial<DriverInput>): Promise<void> {
    const columns: [string, unknown][] = [
      ['company_id', patch.companyId], ['name', patch.name], ['licence_no', patch.licenceNo], ['licence_class', patch.licenceClass],
      ['licence_expire', patch.licenceExpire], ['cert_no', patch.certNo], ['cert_authority', patch.certAuthority], ['cert_expire', patch.certExpire],
      ['phone', patch.phone], ['status', patch.status], ['remark', patch.remark],
    ];
    // undefined: not sent, keep; null: cleared (the two expiry dates).
    const set = columns.filter(([, v]) => v !== undefined);
    this.prepare(`UPDATE driver SET ${[...set.map(([c]) => `${c} = ?`), 'update_time = ?'].join(', ')} WHERE id = ?`)
      .run(...set.map(([, v]) => v), Date.now(), id);
  }

  async delete(id: number): Promise<void> {
    // driver_photo and driver_vehicle cascade; driver_sign_in.driver_id is SET NULL (the history stays, by card name and number).
    this.prepare('DELETE FROM driver WHERE id = ?').run(id);
  }

  async certTaken(certNo: string, exceptId?: number): Promise<{ id: number; name: string } | undefined> {
    if (certNo === '') return undefined;
    return this.prepare("SELECT id, name FROM driver WHERE cert_no = ? AND cert_no <> '' AND id != ?").get(certNo, exceptId ?? 0) as { id: number; name: string } | undefined;
  }

  async vehicleIds(driverId: number): Promise<number[]> {
    return (this.prepare('SELECT vehicle_id FROM driver_vehicle WHERE driver_id = ? ORDER BY vehicle_id').all(driverId) as { vehicle_id: number }[]).map((r) => r.vehicle_id);
  }

  async setVehicles(driverId: number, vehicleIds: readonly number[]): Promise<void> {
    const ids = JSON.stringify(vehicleIds);
    this.prepare('DELETE FROM driver_vehicle WHERE driver_id = ? AND vehicle_id NOT IN (SELECT value FROM json_each(?))').run(driverId, ids);
    // Only vehicles that exist (one deleted since the request was checked is skipped, not a foreign-key failure).
    this.prepare('INSERT OR IGNORE INTO driver_vehicle (driver_id, vehicle_id) SELECT ?, id FROM vehicle WHERE id IN (SELECT value FROM json_each(?))').run(driverId, ids);
  }

  async vehiclesIn(scope: Scope, vehicleIds: readonly number[]): Promise<Set<number>> {
    if (vehicleIds.length === 0) return new Set();
    const s = scopeCondition(scope, 'c');
    return new Set((this.prepare(`SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id
                                     WHERE v.id IN (SELECT value FROM json_each(?)) AND ${s.sql}`)
      .all(JSON.stringify(vehicleIds), ...s.params) as { id: number }[]).map((r) => r.id));
  }

  async linkSignIns(driverId: number, certNo: string): Promise<void> {
    if (certNo === '') return;
    this.prepare('UPDATE driver_sign_in SET driver_id = ? WHERE driver_cert = ? AND driver_id IS NULL').run(driverId, certNo);
  }

  async vehicleOptions(scope: Scope, keyword: string, limit: number): Promise<(DriverVehicle & { readonly companyName: string })[]> {
    const s = scopeCondition(scope, 'c');
    const like = keyword ? ` AND v.vehiidno LIKE ? ESCAPE '\\'` : '';
    const rows = this.prepare(`SELECT v.id, v.vehiidno, c.name AS company_name FROM vehicle v JOIN company c ON c.id = v.company_id
                                  WHERE ${s.sql}${like} ORDER BY v.vehiidno LIMIT ?`)
      .all(...s.params, ...(keyword ? [likePattern(keyword)] : []), limit) as { id: number; vehiidno: string; company_name: string }[];
    return rows.map((r) => ({ id: r.id, vehiidno: r.vehiidno, companyName: r.company_name }));
  }

  async vehicleIdsByPlate(scope: Scope, plates: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (plates.length === 0) return out;
    const s = scopeCondition(scope, 'c');
    for (const r of this.prepare(`SELECT v.id, v.vehiidno FROM vehicle v JOIN company c ON c.id = v.company_id
                                     WHERE v.vehiidno IN (SELECT value FROM json_each(?)) AND ${s.sql}`)
      .all(JSON.stringify(plates), ...s.params) as { id: number; vehiidno: string }[]) out.set(r.vehiidno, r.id);
    return out;
  }

  async photo(driverId: number): Promise<{ mime: string; bytes: Buffer; updateTime: number } | undefined> {
    const r = this.prepare('SELECT mime, bytes, update_time FROM driver_photo WHERE driver_id = ?').get(driverId) as { mime: string; bytes: Buffer; update_time: number } | undefined;
    return r && { mime: r.mime, bytes: r.bytes, updateTime: r.update_time };
  }

  async setPhoto(driverId: number, mime: string, bytes: Buffer): Promise<void> {
    const now = Date.now();
    this.prepare(`INSERT INTO driver_photo (driver_id, mime, bytes, update_time) VALUES (?, ?, ?, ?)
                     ON CONFLICT (driver_id) DO UPDATE SET mime = excluded.mime, bytes = excluded.bytes, update_time = excluded.update_time`)
      .run(driverId, mime, bytes, now);
    this.prepare('UPDATE driver SET update_time = ? WHERE id = ?').run(now, driverId);
  }

  async deletePhoto(driverId: number): Promise<boolean> {
    const gone = this.prepare('DELETE FROM driver_photo WHERE driver_id = ?').run(driverId).changes > 0;
    if (gone) this.prepare('UPDATE driver SET update_time = ? WHERE id = ?').run(Date.now(), driverId);
    return gone;
  }

  async signIns(scope: Scope, driverId: number, req: PageRequest): Promise<Page<DriverSignInRow>> {
    const total = (this.prepare('SELECT count(*) n FROM driver_sign_in WHERE driver_id = ?').get(driverId) as { n: number }).n;
    const rows = this.prepare(`SELECT s.*, v.vehiidno, c.path FROM driver_sign_in s JOIN vehicle v ON v.id = s.vehicle_id JOIN company c ON c.id = v.company_id
                                  WHERE s.driver_id = ? ORDER BY s.sign_in_time DESC, s.id DESC LIMIT ? OFFSET ?`)
      .all(driverId, req.size, (req.current - 1) * req.size) as {
        id: number; vehicle_id: number; vehiidno: string; path: string; driver_name: string; driver_cert: string; sign_in_time: number; sign_out_time: number | null;
      }[];
    const records = rows.map((r) => {
      const visible = pathInScope(scope, r.path);
      return {
        id: r.id, vehicleId: visible ? r.vehicle_id : null, vehiidno: visible ? r.vehiidno : '', driverName: r.driver_name, driverCert: r.driver_cert,
        signInTime: r.sign_in_time, signOutTime: r.sign_out_time,
      };
    });
    return { records, total, current: req.current, size: req.size };
  }

  async recordSignIn(vehicleId: number, event: SignInEvent): Promise<void> {
    const close = this.prepare('UPDATE driver_sign_in SET sign_out_time = max(?, sign_in_time) WHERE id = ?');
    const open = this.prepare('SELECT id, driver_cert, driver_name FROM driver_sign_in WHERE vehicle_id = ? AND sign_out_time IS NULL')
      .all(vehicleId) as { id: number; driver_cert: string; driver_name: string }[];
    if (event.kind === 'out') {
      for (const r of open) close.run(event.time, r.id);
      return;
    }
    // A terminal repeats the insert after every reconnect: the same card still open is the same sign-in.
    if (open.some((r) => r.driver_cert === event.cert && r.driver_name === event.name)) return;
    for (const r of open) close.run(event.time, r.id);
    if (event.cert !== '') {
      // One card is on one vehicle at a time: an open row of this card elsewhere ends here.
      for (const r of this.prepare('SELECT id FROM driver_sign_in WHERE driver_cert = ? AND sign_out_time IS NULL AND vehicle_id != ?').all(event.cert, vehicleId) as { id: number }[]) {
        close.run(event.time, r.id);
      }
    }
    this.prepare(`INSERT INTO driver_sign_in (vehicle_id, driver_id, driver_cert, driver_name, sign_in_time)
                     VALUES (?, (SELECT id FROM driver WHERE cert_no = ? AND cert_no <> ''), ?, ?, ?)`)
      .run(vehicleId, event.cert, event.cert, event.name, event.time);
  }

  async countOfCompany(companyId: number): Promise<number> {
    return (this.prepare('SELECT count(*) n FROM driver WHERE company_id = ?').get(companyId) as { n: number }).n;
  }
}
