import {
  REGISTER_REFUSALS_MAX, type DeviceDirectoryRow, type LiveVehicleRow, type RegisterRefusalInput, type StoreVehicleRow, type TerminalRegistration,
  type TerminalRegistrationState, type TerminalRepository, type VehicleLabel,
} from '../repositories.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Statement } from 'better-sqlite3';
import { placeholders } from './rows.ts';

interface LiveVehicleRowDb { id: number; company_id: number; path: string; device_no: string; auth_code: string | null }

// An empty auth code is "no valid code" (unregistered or reset; migration 14).
// Vehicles with a bound device (migration 22: the registration is the device's, keyed by its number).
const LIVE = `SELECT v.id, v.company_id, c.path, v.device_no, NULLIF(t.auth_code, '') AS auth_code
              FROM vehicle v JOIN company c ON c.id = v.company_id LEFT JOIN terminal t ON t.device_no = v.device_no
              WHERE v.device_no IS NOT NULL`;

function toLive(r: LiveVehicleRowDb): LiveVehicleRow {
  return { vehicleId: r.id, companyId: r.company_id, companyPath: r.path, deviceNo: r.device_no, authCode: r.auth_code };
}

interface DirectoryRowDb { device_no: string; vehicle_id: number | null; company_id: number | null; path: string | null; auth_code: string | null }

// Every device, with its vehicle (if installed) and that vehicle's company (migration 22).
const DIRECTORY = `SELECT d.device_no, v.id AS vehicle_id, v.company_id, c.path, NULLIF(t.auth_code, '') AS auth_code
                   FROM device d LEFT JOIN vehicle v ON v.device_no = d.device_no LEFT JOIN company c ON c.id = v.company_id
                   LEFT JOIN terminal t ON t.device_no = d.device_no`;

function toDirectory(r: DirectoryRowDb): DeviceDirectoryRow {
  return { deviceNo: r.device_no, vehicleId: r.vehicle_id, companyId: r.company_id, companyPath: r.path, authCode: r.auth_code };
}

/** IN lists are chunked below SQLite's variable limit. */
const CHUNK = 500;

export class SqliteTerminalRepository implements TerminalRepository {
  constructor(private readonly db: SqliteDb) {}

  async allVehicles(): Promise<LiveVehicleRow[]> {
    return (this.db.prepare(`${LIVE} ORDER BY v.id`).all() as LiveVehicleRowDb[]).map(toLive);
  }

  async byDeviceNo(deviceNo: string): Promise<LiveVehicleRow | undefined> {
    const row = this.db.prepare(`${LIVE} AND v.device_no = ?`).get(deviceNo) as LiveVehicleRowDb | undefined;
    return row && toLive(row);
  }

  async register(reg: TerminalRegistration): Promise<void> {
    this.db.prepare(`INSERT INTO terminal (device_no, auth_code, maker_id, model, terminal_id, plate_color, plate, register_time)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                     ON CONFLICT (device_no) DO UPDATE SET auth_code = excluded.auth_code,
                       maker_id = excluded.maker_id, model = excluded.model, terminal_id = excluded.terminal_id,
                       plate_color = excluded.plate_color, plate = excluded.plate, register_time = excluded.register_time,
                       unregister_time = NULL, unregister_by = NULL, reset_user_id = NULL`)
      .run(reg.deviceNo, reg.authCode, reg.makerId, reg.model, reg.terminalId, reg.plateColor, reg.plate, Date.now());
  }

  async markAuthenticated(deviceNo: string, at: number): Promise<void> {
    this.db.prepare('UPDATE terminal SET auth_time = ? WHERE device_no = ?').run(at, deviceNo);
  }

  async recordRefusedRegistration(deviceNo: string, at: number, remoteAddress: string | null): Promise<void> {
    this.db.prepare('UPDATE terminal SET refused_count = refused_count + 1, refused_time = ?, refused_address = ? WHERE device_no = ?')
      .run(at, remoteAddress, deviceNo);
  }

  async unregister(deviceNo: string, at: number, by: 'terminal' | 'operator', userId?: number): Promise<boolean> {
    const r = this.db.prepare(`UPDATE terminal SET auth_code = '', unregister_time = ?, unregister_by = ?, reset_user_id = ?
                               WHERE device_no = ? AND auth_code <> ''`).run(at, by, userId ?? null, deviceNo);
    return r.changes > 0;
  }

  async registrationOf(vehicleId: number): Promise<TerminalRegistrationState | undefined> {
    const r = this.db.prepare(`SELECT v.id, v.device_no, t.auth_code, t.register_time, t.auth_time, t.unregister_time, t.unregister_by,
                                      t.reset_user_id, t.refused_count, t.refused_time, t.refused_address
                               FROM vehicle v LEFT JOIN terminal t ON t.device_no = v.device_no WHERE v.id = ?`).get(vehicleId) as {
      id: number; device_no: string; auth_code: string | null; register_time: number | null; auth_time: number | null; unregister_time: number | null;
      unregister_by: 'terminal' | 'operator' | null; reset_user_id: number | null; refused_count: number | null; refused_time: number | null; refused_address: string | null;
    } | undefined;
    if (!r) return undefined;
    return {
      vehicleId: r.id, deviceNo: r.device_no, registered: !!r.auth_code, registerTime: r.register_time, authTime: r.auth_time,
      unregisterTime: r.unregister_time, unregisterBy: r.unregister_by, resetUserId: r.reset_user_id,
      refusedCount: r.refused_count ?? 0, refusedTime: r.refused_time, refusedAddress: r.refused_address,
    };
  }

  async allDevices(): Promise<DeviceDirectoryRow[]> {
    return (this.db.prepare(`${DIRECTORY} ORDER BY d.id`).all() as DirectoryRowDb[]).map(toDirectory);
  }

  async deviceByNo(deviceNo: string): Promise<DeviceDirectoryRow | undefined> {
    const row = this.db.prepare(`${DIRECTORY} WHERE d.device_no = ?`).get(deviceNo) as DirectoryRowDb | undefined;
    return row && toDirectory(row);
  }

  async storeVehicles(vehicleIds?: readonly number[]): Promise<StoreVehicleRow[]> {
    const base = 'SELECT v.id, v.company_id, c.path, v.device_no FROM vehicle v JOIN company c ON c.id = v.company_id';
    type R = { id: number; company_id: number; path: string; device_no: string | null };
    const map = (r: R): StoreVehicleRow => ({ vehicleId: r.id, companyId: r.company_id, companyPath: r.path, deviceNo: r.device_no });
    if (vehicleIds === undefined) return (this.db.prepare(`${base} ORDER BY v.id`).all() as R[]).map(map);
    const out: StoreVehicleRow[] = [];
    for (let i = 0; i < vehicleIds.length; i += CHUNK) {
      const ids = vehicleIds.slice(i, i + CHUNK);
      out.push(...(this.db.prepare(`${base} WHERE v.id IN (${placeholders(ids.length)})`).all(...ids) as R[]).map(map));
    }
    return out;
  }

  async provisionDevice(input: { deviceNo: string; companyId: number; terminalId: string; model: string; at: number; remoteAddress: string }): Promise<DeviceDirectoryRow> {
    const { db } = this;
    // One transaction (a savepoint when a request's transaction is open): the device never exists without its log row.
    db.transaction(() => {
      const id = Number(db.prepare(`INSERT INTO device (device_no, company_id, terminal_id, model, source, create_time, update_time)
                                    VALUES (?, ?, ?, ?, 'auto', ?, ?)`)
        .run(input.deviceNo, input.companyId, input.terminalId, input.model, input.at, input.at).lastInsertRowid);
      db.prepare('DELETE FROM terminal_refusal WHERE device_no = ?').run(input.deviceNo);
      db.prepare(`INSERT INTO change_log (resource, record_id, label, company_id, operation, user_id, user_name, ip, time, before, after)
                  VALUES ('device', ?, ?, ?, 'register', NULL, 'terminal', ?, ?, NULL, ?)`)
        .run(id, input.deviceNo, input.companyId, input.remoteAddress, input.at,
          JSON.stringify({ deviceNo: input.deviceNo, companyId: input.companyId, terminalId: input.terminalId, model: input.model, source: 'auto' }));
    })();
    const row = await this.deviceByNo(input.deviceNo);
    if (!row) throw new Error(`provisioned device ${input.deviceNo} not found`);
    return row;
  }

  async recordRegisterRefusal(r: RegisterRefusalInput): Promise<void> {
    const { db } = this;
    db.transaction(() => {
      const updated = db.prepare(`UPDATE terminal_refusal SET result = ?, count = count + 1, last_time = ?, remote_address = ?, maker_id = ?, model = ?,
                                    terminal_id = ?, plate_color = ?, plate = ? WHERE device_no = ?`)
        .run(r.result, r.at, r.remoteAddress, r.makerId, r.model, r.terminalId, r.plateColor, r.plate, r.deviceNo).changes;
      if (updated > 0) return;
      db.prepare(`INSERT INTO terminal_refusal (device_no, result, count, first_time, last_time, remote_address, maker_id, model, terminal_id, plate_color, plate)
                  VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(r.deviceNo, r.result, r.at, r.at, r.remoteAddress, r.makerId, r.model, r.terminalId, r.plateColor, r.plate);
      // Bounded: a new row past the cap pushes out the oldest (by last refusal, on its index).
      const excess = (db.prepare('SELECT count(*) n FROM terminal_refusal').get() as { n: number }).n - REGISTER_REFUSALS_MAX;
      if (excess > 0) {
        db.prepare('DELETE FROM terminal_refusal WHERE device_no IN (SELECT device_no FROM terminal_refusal ORDER BY last_time, device_no LIMIT ?)').run(excess);
      }
    })();
  }

  async defaultCompanyId(): Promise<number | undefined> {
    const row = this.db.prepare('SELECT id FROM company WHERE pid IS NULL ORDER BY id LIMIT 1').get() as { id: number } | undefined;
    return row?.id;
  }

  /**
   * The labels statement by scope SQL (two shapes: all companies, or a path range). The ids travel as
   * one JSON array (json_each), so every call reuses one prepared statement: the alarm service reads
   * labels once per stored batch, and preparing a statement per IN-list length cost more than the
   * read itself in an alarm storm (issue 16).
   */
  private readonly labelStatements = new Map<string, Statement>();

  async labels(scope: Scope, vehicleIds: readonly number[]): Promise<Map<number, VehicleLabel>> {
    const out = new Map<number, VehicleLabel>();
    if (vehicleIds.length === 0) return out;
    const s = scopeCondition(scope, 'c');
    let st = this.labelStatements.get(s.sql);
    if (st === undefined) {
      st = this.db.prepare(`SELECT v.id, v.vehiidno, v.device_no, v.company_id, c.name FROM vehicle v JOIN company c ON c.id = v.company_id
                            WHERE v.id IN (SELECT value FROM json_each(?)) AND ${s.sql}`);
      this.labelStatements.set(s.sql, st);
    }
    const rows = st.all(JSON.stringify(vehicleIds), ...s.params) as { id: number; vehiidno: string; device_no: string | null; company_id: number; name: string }[];
    for (const r of rows) out.set(r.id, { vehicleId: r.id, vehiidno: r.vehiidno, deviceNo: r.device_no, companyId: r.company_id, companyName: r.name });
    return out;
  }
}
