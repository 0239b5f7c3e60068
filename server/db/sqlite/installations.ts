import type {
  BindingDevice, BindingVehicle, Installation, InstallationFilter, InstallationKind, InstallationPhoto, InstallationPhotoMeta,
  InstallationRepository, NewInstallation, NewPhoto,
} from '../installation-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { Page, PageRequest } from '../types.ts';
import { likePattern, placeholders } from './rows.ts';
import { statementCache, type Sql } from './statements.ts';

interface Row {
  id: number; vehicle_id: number; plate: string; company_id: number; company_name: string; kind: InstallationKind;
  old_device_no: string | null; new_device_no: string | null; installer: string; install_time: number; remark: string;
  user_id: number | null; user_name: string | null; photo_count: number; create_time: number; update_time: number;
}

interface PhotoRow { id: number; installation_id: number; name: string; mime: string; size: number; create_time: number; bytes?: Buffer }

const SELECT = `SELECT i.*, v.vehiidno plate, c.name company_name,
  COALESCE(NULLIF(u.real_name, ''), u.username, '') user_name,
  (SELECT count(*) FROM installation_photo p WHERE p.installation_id = i.id) photo_count
  FROM vehicle_installation i
  JOIN vehicle v ON v.id = i.vehicle_id
  JOIN company c ON c.id = i.company_id
  LEFT JOIN user u ON u.id = i.user_id`;

const INSERT = `INSERT INTO vehicle_installation (vehicle_id, company_id, kind, old_device_no, new_device_no, installer, install_time, remark, user_id, create_time, update_time)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

function toInstallation(r: Row): Installation {
  return {
    id: r.id, vehicleId: r.vehicle_id, plate: r.plate, companyId: r.company_id, companyName: r.company_name, kind: r.kind,
    oldDeviceNo: r.old_device_no, newDeviceNo: r.new_device_no, installer: r.installer, installTime: r.install_time, remark: r.remark,
    userId: r.user_id, userName: r.user_name ?? '', photoCount: r.photo_count, createTime: r.create_time, updateTime: r.update_time,
  };
}

function toPhotoMeta(r: PhotoRow): InstallationPhotoMeta {
  return { id: r.id, name: r.name, mime: r.mime, size: r.size, createTime: r.create_time };
}

export class SqliteInstallationRepository implements InstallationRepository {
  /** Compiled statements by SQL text (an import's rows run the same few statements). */
  private readonly sql: Sql;

  constructor(readonly db: SqliteDb) {
    this.sql = statementCache(db);
  }

  /**
   * FROM and WHERE of a list: the company is joined only for a subtree scope, the vehicle only for a
   * keyword (every record has its vehicle: ON DELETE CASCADE), so the count and the id page read as
   * little as the filter needs.
   */
  private where(scope: Scope, f: InstallationFilter): { from: string; sql: string; params: unknown[] } {
    const s = scopeCondition(scope, 'c');
    const joins = [scope.all ? '' : 'JOIN company c ON c.id = i.company_id', f.keyword ? 'JOIN vehicle v ON v.id = i.vehicle_id' : ''].filter(Boolean);
    const parts = [s.sql];
    const params: unknown[] = [...s.params];
    if (f.keyword) {
      const p = likePattern(f.keyword);
      parts.push(`(v.vehiidno LIKE ? ESCAPE '\\' OR i.old_device_no LIKE ? ESCAPE '\\' OR i.new_device_no LIKE ? ESCAPE '\\' OR i.installer LIKE ? ESCAPE '\\')`);
      params.push(p, p, p, p);
    }
    if (f.kind) { parts.push('i.kind = ?'); params.push(f.kind); }
    if (f.vehicleId !== undefined) { parts.push('i.vehicle_id = ?'); params.push(f.vehicleId); }
    if (f.from !== undefined) { parts.push('i.install_time >= ?'); params.push(f.from); }
    if (f.to !== undefined) { parts.push('i.install_time <= ?'); params.push(f.to); }
    return { from: `vehicle_installation i ${joins.join(' ')}`, sql: parts.join(' AND '), params };
  }

  async get(scope: Scope, id: number): Promise<Installation | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.sql(`${SELECT} WHERE i.id = ? AND ${s.sql}`).get(id, ...s.params) as Row | undefined;
    return row && toInstallation(row);
  }

  async page(scope: Scope, req: PageRequest & InstallationFilter): Promise<Page<Installation>> {
    const w = this.where(scope, req);
    const total = (this.sql(`SELECT count(*) n FROM ${w.from} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    // The page's ids first (sorted on the record alone), then their rows with names and photo counts: the
    // joins and the photo count run for one page, not for every matching record before the sort.
    const ids = (this.sql(`SELECT i.id FROM ${w.from} WHERE ${w.sql} ORDER BY i.install_time DESC, i.id DESC LIMIT ? OFFSET ?`)
      .all(...w.params, req.size, (req.current - 1) * req.size) as { id: number }[]).map((r) => r.id);
    const rows = ids.length ? (this.sql(`${SELECT} WHERE i.id IN (${placeholders(ids.length)})`).all(...ids) as Row[]) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return { records: ids.map((id) => toInstallation(byId.get(id)!)), total, current: req.current, size: req.size };
  }

  async create(r: NewInstallation): Promise<number> {
    const now = Date.now();
    const info = this.sql(INSERT).run(r.vehicleId, r.companyId, r.kind, r.oldDeviceNo, r.newDeviceNo, r.installer, r.installTime, r.remark, r.userId, now, now);
    return Number(info.lastInsertRowid);
  }

  async update(id: number, patch: { installer?: string; installTime?: number; remark?: string }): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (patch.installer !== undefined) { sets.push('installer = ?'); params.push(patch.installer); }
    if (patch.installTime !== undefined) { sets.push('install_time = ?'); params.push(patch.installTime); }
    if (patch.remark !== undefined) { sets.push('remark = ?'); params.push(patch.remark); }
    sets.push('update_time = ?');
    params.push(Date.now());
    this.sql(`UPDATE vehicle_installation SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
  }

  async delete(id: number): Promise<void> {
    // Photos go with the record (ON DELETE CASCADE).
    this.sql('DELETE FROM vehicle_installation WHERE id = ?').run(id);
  }

  async photos(installationId: number): Promise<InstallationPhotoMeta[]> {
    const rows = this.sql('SELECT id, installation_id, name, mime, length(bytes) size, create_time FROM installation_photo WHERE installation_id = ? ORDER BY id')
      .all(installationId) as PhotoRow[];
    return rows.map(toPhotoMeta);
  }

  async photo(scope: Scope, photoId: number): Promise<InstallationPhoto | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.sql(`SELECT p.id, p.installation_id, p.name, p.mime, length(p.bytes) size, p.create_time, p.bytes
      FROM installation_photo p JOIN vehicle_installation i ON i.id = p.installation_id JOIN company c ON c.id = i.company_id
      WHERE p.id = ? AND ${s.sql}`).get(photoId, ...s.params) as PhotoRow | undefined;
    return row && { ...toPhotoMeta(row), installationId: row.installation_id, bytes: row.bytes! };
  }

  async addPhotos(installationId: number, photos: readonly NewPhoto[]): Promise<number[]> {
    const insert = this.sql('INSERT INTO installation_photo (installation_id, mime, bytes, name, create_time) VALUES (?, ?, ?, ?, ?)');
    const now = Date.now();
    return photos.map((p) => Number(insert.run(installationId, p.mime, p.bytes, p.name, now).lastInsertRowid));
  }

  async removePhotos(installationId: number, photoIds: readonly number[]): Promise<number> {
    if (photoIds.length === 0) return 0;
    return this.sql(`DELETE FROM installation_photo WHERE installation_id = ? AND id IN (${placeholders(photoIds.length)})`)
      .run(installationId, ...photoIds).changes;
  }

  async bindingVehicle(vehicleId: number): Promise<BindingVehicle | undefined> {
    const row = this.sql(`SELECT v.id, v.vehiidno plate, v.company_id companyId, c.path companyPath, v.device_no deviceNo
      FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.id = ?`).get(vehicleId) as BindingVehicle | undefined;
    return row;
  }

  async bindingDevice(deviceNo: string): Promise<BindingDevice | undefined> {
    const row = this.sql(`SELECT d.id, d.device_no deviceNo, d.company_id companyId, c.path companyPath, v.id vehicleId, v.vehiidno plate
      FROM device d JOIN company c ON c.id = d.company_id LEFT JOIN vehicle v ON v.device_no = d.device_no WHERE d.device_no = ?`)
      .get(deviceNo) as BindingDevice | undefined;
    return row;
  }

  async setVehicleDevice(vehicleId: number, deviceNo: string | null, time: number): Promise<void> {
    this.sql('UPDATE vehicle SET device_no = ?, update_time = ? WHERE id = ?').run(deviceNo, time, vehicleId);
  }

  async setDeviceCompany(deviceNo: string, companyId: number, time: number): Promise<void> {
    this.sql('UPDATE device SET company_id = ?, update_time = ? WHERE device_no = ?').run(companyId, time, deviceNo);
  }

  async boundVehicles(): Promise<{ vehicleId: number; companyId: number; deviceNo: string }[]> {
    return this.sql('SELECT id vehicleId, company_id companyId, device_no deviceNo FROM vehicle WHERE device_no IS NOT NULL ORDER BY id')
      .all() as { vehicleId: number; companyId: number; deviceNo: string }[];
  }

  async createMany(records: readonly (NewInstallation & { createTime: number })[]): Promise<void> {
    const insert = this.sql(INSERT);
    for (const r of records) {
      insert.run(r.vehicleId, r.companyId, r.kind, r.oldDeviceNo, r.newDeviceNo, r.installer, r.installTime, r.remark, r.userId, r.createTime, r.createTime);
    }
  }
}
