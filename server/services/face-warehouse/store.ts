/**
 * The face warehouse's SQL (migration 27, `face_sample` and `face_enrolment`): enrolling the drivers
 * bound to vehicles (`driver_vehicle`) with their `driver_photo`, and the warehouse's paged list.
 * It sits here rather than in server/db/ because this folder owns those tables, as dashboard/ does.
 * Every method is synchronous SQL on the one connection: callers run writes inside storage.transaction,
 * so an enrolment and its operator-log rows commit together.
 */
import { createHash } from 'node:crypto';
import type { SqliteDb } from '../../db/sqlite.ts';
import { scopeCondition, type Scope } from '../../db/scope.ts';
import type { Page, PageRequest } from '../../db/types.ts';

/**
 * A sample's state: `enrolled` 已入库 (the photo enrolled is the driver's photo, on every vehicle);
 * `partial` 部分车辆待同步 (synced again on some vehicles, others still hold the previous photo);
 * `stale` 照片已更新待同步 (a photo uploaded after the enrolment); `photoRemoved` 照片已删除.
 */
export const FACE_STATES = ['enrolled', 'partial', 'stale', 'photoRemoved'] as const;
export type FaceState = (typeof FACE_STATES)[number];

/** Why a vehicle or one of its drivers was not enrolled. */
export type FaceSkipReason = 'notInScope' | 'noDriver' | 'noPhoto';

export interface FaceEnrolled {
  readonly driverId: number;
  readonly name: string;
  /** new: first time on this vehicle; updated: a newer photo replaced the one enrolled; unchanged: this photo was already enrolled here (nothing written). */
  readonly change: 'new' | 'updated' | 'unchanged';
}
export interface FaceSkipped {
  readonly reason: FaceSkipReason;
  readonly driverId?: number;
  readonly name?: string;
}
export interface VehicleFaceResult {
  readonly vehicleId: number;
  /** null when the vehicle is not in the caller's scope (or does not exist: the two read the same). */
  readonly vehiidno: string | null;
  readonly companyId: number | null;
  readonly enrolled: FaceEnrolled[];
  readonly skipped: FaceSkipped[];
  /** Driver ids enrolled on this vehicle with their current photo, before and after (the operator-log row). */
  readonly before: number[];
  readonly after: number[];
}

export interface Enroller {
  readonly userId: number | null;
  readonly userName: string;
  readonly time: number;
}

export interface FaceSampleRow {
  /** The driver's id (a list row's key). */
  readonly id: number;
  readonly driverId: number;
  readonly name: string;
  readonly licenceNo: string;
  readonly certNo: string;
  readonly companyId: number;
  readonly companyName: string;
  /** The driver's photo now (epoch ms), null when it was removed: the thumbnail's cache key. */
  readonly photoTime: number | null;
  readonly photoHash: string;
  readonly enrolTime: number;
  readonly enrolUserName: string;
  readonly state: FaceState;
  /** The vehicles this face is enrolled on; `current` false: that vehicle still holds an earlier photo. */
  readonly vehicles: { vehicleId: number; vehiidno: string; current: boolean; enrolTime: number }[];
}

export interface FaceSampleQuery extends PageRequest {
  /** Driver name, licence or certificate number, or the plate of a vehicle the face is enrolled on. */
  readonly keyword?: string;
  readonly state?: FaceState;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const STATE_SQL = `CASE
  WHEN p.driver_id IS NULL THEN 'photoRemoved'
  WHEN p.update_time <> s.photo_time THEN 'stale'
  WHEN EXISTS (SELECT 1 FROM face_enrolment e WHERE e.driver_id = s.driver_id AND e.photo_hash <> s.photo_hash) THEN 'partial'
  ELSE 'enrolled' END`;

export class FaceWarehouseStore {
  constructor(private readonly db: SqliteDb) {}

  /**
   * Enrols, for each vehicle in the scope, the drivers bound to it that have a photo: the driver's
   * sample takes the photo's hash, and the vehicle's enrolment row that hash. A driver already enrolled
   * on the vehicle with the same photo is reported `unchanged` and nothing of it is written.
   */
  enrolVehicles(scope: Scope, vehicleIds: readonly number[], who: Enroller): VehicleFaceResult[] {
    const s = scopeCondition(scope, 'c');
    const vehicleStmt = this.db.prepare(`SELECT v.id, v.vehiidno, v.company_id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.id = ? AND ${s.sql}`);
    const driversStmt = this.db.prepare(`SELECT d.id, d.name, p.update_time AS photo_time, p.bytes FROM driver_vehicle dv
      JOIN driver d ON d.id = dv.driver_id LEFT JOIN driver_photo p ON p.driver_id = d.id WHERE dv.vehicle_id = ? ORDER BY d.id`);
    const enrolledStmt = this.db.prepare(`SELECT e.driver_id, e.photo_hash FROM face_enrolment e WHERE e.vehicle_id = ?`);
    const currentStmt = this.db.prepare(`SELECT e.driver_id FROM face_enrolment e JOIN face_sample s ON s.driver_id = e.driver_id
      JOIN driver_photo p ON p.driver_id = e.driver_id WHERE e.vehicle_id = ? AND e.photo_hash = s.photo_hash AND p.update_time = s.photo_time ORDER BY e.driver_id`);
    const sampleStmt = this.db.prepare('SELECT photo_hash, photo_time FROM face_sample WHERE driver_id = ?');
    const upsertSample = this.db.prepare(`INSERT INTO face_sample (driver_id, photo_hash, photo_time, enrol_time, enrol_user_id, enrol_user_name) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (driver_id) DO UPDATE SET photo_hash = excluded.photo_hash, photo_time = excluded.photo_time, enrol_time = excluded.enrol_time,
        enrol_user_id = excluded.enrol_user_id, enrol_user_name = excluded.enrol_user_name`);
    const upsertEnrolment = this.db.prepare(`INSERT INTO face_enrolment (driver_id, vehicle_id, photo_hash, enrol_time, enrol_user_id, enrol_user_name) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (driver_id, vehicle_id) DO UPDATE SET photo_hash = excluded.photo_hash, enrol_time = excluded.enrol_time,
        enrol_user_id = excluded.enrol_user_id, enrol_user_name = excluded.enrol_user_name`);
    const currentIds = (vehicleId: number) => (currentStmt.all(vehicleId) as { driver_id: number }[]).map((r) => r.driver_id);

    const out: VehicleFaceResult[] = [];
    for (const vehicleId of vehicleIds) {
      const v = vehicleStmt.get(vehicleId, ...s.params) as { id: number; vehiidno: string; company_id: number } | undefined;
      if (!v) {
        out.push({ vehicleId, vehiidno: null, companyId: null, enrolled: [], skipped: [{ reason: 'notInScope' }], before: [], after: [] });
        continue;
      }
      const drivers = driversStmt.all(v.id) as { id: number; name: string; photo_time: number | null; bytes: Buffer | null }[];
      const before = currentIds(v.id);
      const had = new Map((enrolledStmt.all(v.id) as { driver_id: number; photo_hash: string }[]).map((r) => [r.driver_id, r.photo_hash]));
      const enrolled: FaceEnrolled[] = [];
      const skipped: FaceSkipped[] = [];
      if (drivers.length === 0) skipped.push({ reason: 'noDriver' });
      for (const d of drivers) {
        if (d.bytes === null || d.photo_time === null) {
          skipped.push({ reason: 'noPhoto', driverId: d.id, name: d.name });
          continue;
        }
        const hash = sha256(d.bytes);
        const sample = sampleStmt.get(d.id) as { photo_hash: string; photo_time: number } | undefined;
        const previous = had.get(d.id);
        if (previous === hash && sample?.photo_hash === hash && sample.photo_time === d.photo_time) {
          enrolled.push({ driverId: d.id, name: d.name, change: 'unchanged' });
          continue;
        }
        // Re-uploading the very same bytes only moves the photo's time: the sample follows, the enrolments stay.
        if (!sample || sample.photo_hash !== hash || sample.photo_time !== d.photo_time) {
          upsertSample.run(d.id, hash, d.photo_time, who.time, who.userId, who.userName);
        }
        if (previous !== hash) upsertEnrolment.run(d.id, v.id, hash, who.time, who.userId, who.userName);
        enrolled.push({ driverId: d.id, name: d.name, change: previous === undefined ? 'new' : previous === hash ? 'unchanged' : 'updated' });
      }
      out.push({ vehicleId: v.id, vehiidno: v.vehiidno, companyId: v.company_id, enrolled, skipped, before, after: currentIds(v.id) });
    }
    return out;
  }

  /** The warehouse in the scope (by the driver's company), newest enrolment first. */
  page(scope: Scope, q: FaceSampleQuery): Page<FaceSampleRow> {
    const sc = scopeCondition(scope, 'c');
    const where = [sc.sql];
    const params: (string | number)[] = [...sc.params];
    const keyword = q.keyword?.trim();
    if (keyword) {
      const like = `%${escapeLike(keyword)}%`;
      where.push(`(d.name LIKE ? ESCAPE '\\' OR d.licence_no LIKE ? ESCAPE '\\' OR d.cert_no LIKE ? ESCAPE '\\'
        OR EXISTS (SELECT 1 FROM face_enrolment e JOIN vehicle v ON v.id = e.vehicle_id WHERE e.driver_id = s.driver_id AND v.vehiidno LIKE ? ESCAPE '\\'))`);
      params.push(like, like, like, like);
    }
    if (q.state) {
      where.push(`(${STATE_SQL}) = ?`);
      params.push(q.state);
    }
    const from = `FROM face_sample s JOIN driver d ON d.id = s.driver_id JOIN company c ON c.id = d.company_id
      LEFT JOIN driver_photo p ON p.driver_id = s.driver_id WHERE ${where.join(' AND ')}`;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n ${from}`).get(...params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT s.driver_id, d.name, d.licence_no, d.cert_no, d.company_id, c.name AS company_name, p.update_time AS photo_time,
        s.photo_hash, s.enrol_time, s.enrol_user_name, ${STATE_SQL} AS state
      ${from} ORDER BY s.enrol_time DESC, s.driver_id DESC LIMIT ? OFFSET ?`)
      .all(...params, q.size, (q.current - 1) * q.size) as {
        driver_id: number; name: string; licence_no: string; cert_no: string; company_id: number; company_name: string;
        photo_time: number | null; photo_hash: string; enrol_time: number; enrol_user_name: string; state: FaceState;
      }[];
    const vehiclesStmt = this.db.prepare(`SELECT e.vehicle_id, v.vehiidno, e.photo_hash, e.enrol_time FROM face_enrolment e
      JOIN vehicle v ON v.id = e.vehicle_id JOIN company c ON c.id = v.company_id WHERE e.driver_id = ? AND ${sc.sql} ORDER BY v.vehiidno`);
    const records = rows.map((r): FaceSampleRow => ({
      id: r.driver_id, driverId: r.driver_id, name: r.name, licenceNo: r.licence_no, certNo: r.cert_no, companyId: r.company_id, companyName: r.company_name,
      photoTime: r.photo_time, photoHash: r.photo_hash, enrolTime: r.enrol_time, enrolUserName: r.enrol_user_name, state: r.state,
      vehicles: (vehiclesStmt.all(r.driver_id, ...sc.params) as { vehicle_id: number; vehiidno: string; photo_hash: string; enrol_time: number }[])
        .map((e) => ({ vehicleId: e.vehicle_id, vehiidno: e.vehiidno, current: e.photo_hash === r.photo_hash, enrolTime: e.enrol_time })),
    }));
    return { records, total, current: q.current, size: q.size };
  }

  /** Whether the driver has a sample and belongs to a company in the scope. */
  inScope(scope: Scope, driverId: number): boolean {
    const sc = scopeCondition(scope, 'c');
    return this.db.prepare(`SELECT 1 FROM face_sample s JOIN driver d ON d.id = s.driver_id JOIN company c ON c.id = d.company_id
      WHERE s.driver_id = ? AND ${sc.sql}`).get(driverId, ...sc.params) !== undefined;
  }
}
