/**
 * The SQL of face recognition (migration 49 `face_recognition`, `face_device`, `face_device_sample`;
 * the bindings are migration 27's `face_enrolment`). Synchronous on the storage's one connection, as
 * face-warehouse/store.ts: callers run writes inside storage.transaction.
 */
import { createHash } from 'node:crypto';
import type { SqliteDb } from '../../db/sqlite.ts';
import { scopeCondition, type Scope } from '../../db/scope.ts';
import type { Page, PageRequest } from '../../db/types.ts';

export const PUSH_STATES = ['none', 'ok', 'failed', 'offline', 'timeout'] as const;
export type PushState = (typeof PUSH_STATES)[number];
export const RESULT_KINDS = ['pass', 'mismatch', 'noFace'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];
/** A binding: `synced` the terminal confirmed this photo; `pending` not pushed yet or the photo changed since. */
export type BindingState = 'synced' | 'pending';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface RecognitionInput {
  readonly vehicleId: number;
  readonly time: number;
  readonly receiveTime: number;
  readonly result: number;
  readonly similarity: number;
  readonly threshold: number;
  readonly trigger: number;
  readonly lat: number;
  readonly lng: number;
  readonly faceId: string;
  readonly name: string;
  readonly photoMime: string;
  readonly photo: Uint8Array;
}

export interface RecognitionRow {
  readonly id: number;
  readonly vehicleId: number | null;
  readonly plate: string;
  readonly deviceNo: string;
  readonly companyId: number;
  readonly companyName: string;
  readonly time: number;
  readonly receiveTime: number;
  readonly result: ResultKind;
  readonly similarity: number;
  readonly threshold: number;
  readonly trigger: number;
  readonly lat: number;
  readonly lng: number;
  readonly faceId: string;
  readonly reportedName: string;
  /** The driver the face id resolved to (null: unknown to the platform, or deleted since). */
  readonly driverId: number | null;
  readonly driverName: string;
  /** The warehouse photo's time of that driver (the thumbnail's cache key), null without one. */
  readonly driverPhotoTime: number | null;
  readonly mistake: boolean;
  readonly mistakeUserName: string;
  readonly mistakeTime: number | null;
  readonly mistakeRemark: string;
}

export interface RecognitionQuery extends PageRequest {
  readonly plate?: string;
  readonly driver?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly result?: ResultKind;
  readonly minScore?: number;
  readonly maxScore?: number;
  /** 1: only results marked as misrecognised; 0: only unmarked. */
  readonly mistake?: 0 | 1;
}

export interface DeviceRow {
  readonly id: number;
  readonly vehicleId: number;
  readonly plate: string;
  readonly deviceNo: string;
  readonly companyId: number;
  readonly companyName: string;
  readonly online: boolean;
  readonly threshold: number;
  readonly bound: number;
  readonly synced: number;
  readonly pushState: PushState;
  readonly pushTime: number | null;
  readonly pushUserName: string;
  /** Face ids the terminal said it holds at `statusTime` (null: never read). */
  readonly terminalFaces: string[] | null;
  readonly statusState: string;
  readonly statusTime: number | null;
  /** The latest comparison not marked as a mistake. */
  readonly lastResult: { id: number; result: ResultKind; driverName: string; similarity: number; time: number } | null;
}

export interface DeviceQuery extends PageRequest {
  readonly keyword?: string;
  /** bound: devices with at least one face; pending: some face not confirmed by the terminal. */
  readonly filter?: 'bound' | 'pending';
}

export interface BoundFace {
  readonly driverId: number;
  readonly name: string;
  readonly certNo: string;
  readonly photoTime: number | null;
  readonly state: BindingState;
  /** The terminal listed this face id at its last status read (null: never read). */
  readonly onTerminal: boolean | null;
  readonly bindTime: number;
  readonly bindUserName: string;
}

export interface Candidate {
  readonly driverId: number;
  readonly name: string;
  readonly certNo: string;
  readonly companyName: string;
  readonly hasPhoto: boolean;
  readonly bound: boolean;
}

/** A face as pushed: the driver, the face id (certificate number), the photo and its hash. */
export interface PushFace {
  readonly driverId: number;
  readonly faceId: string;
  readonly name: string;
  readonly mime: string;
  readonly photo: Buffer;
  readonly hash: string;
}

export interface VehicleRef {
  readonly id: number;
  readonly plate: string;
  readonly deviceNo: string;
  readonly companyId: number;
}

const RESULT_OF = ['pass', 'mismatch', 'noFace'] as const;

export class FaceRecognitionStore {
  constructor(private readonly db: SqliteDb) {}

  /** The vehicle in the scope, or undefined. */
  vehicle(scope: Scope, vehicleId: number): VehicleRef | undefined {
    const sc = scopeCondition(scope, 'c');
    return this.db.prepare(`SELECT v.id, v.vehiidno AS plate, v.device_no AS deviceNo, v.company_id AS companyId FROM vehicle v
      JOIN company c ON c.id = v.company_id WHERE v.id = ? AND ${sc.sql}`).get(vehicleId, ...sc.params) as VehicleRef | undefined;
  }

  /** Any vehicle by id (the gateway's side: the terminal authenticated as it). */
  vehicleById(vehicleId: number): VehicleRef | undefined {
    return this.db.prepare('SELECT id, vehiidno AS plate, device_no AS deviceNo, company_id AS companyId FROM vehicle WHERE id = ?').get(vehicleId) as VehicleRef | undefined;
  }

  /** Stores a 0x0E10; the face id resolves to the driver with that certificate number. Answers the row id. */
  addResult(r: RecognitionInput): number | undefined {
    const v = this.vehicleById(r.vehicleId);
    if (!v) return undefined;
    const driver = r.faceId === '' ? undefined
      : this.db.prepare('SELECT id, name FROM driver WHERE cert_no = ?').get(r.faceId) as { id: number; name: string } | undefined;
    const info = this.db.prepare(`INSERT INTO face_recognition (company_id, vehicle_id, plate, device_no, time, receive_time, result, similarity, threshold,
        trigger, lat, lng, face_id, reported_name, driver_id, driver_name, photo_mime, photo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(v.companyId, v.id, v.plate, v.deviceNo, r.time, r.receiveTime, r.result, r.similarity, r.threshold, r.trigger, r.lat, r.lng,
        r.faceId, r.name, driver?.id ?? null, driver?.name ?? '', r.photoMime, Buffer.from(r.photo));
    return Number(info.lastInsertRowid);
  }

  results(scope: Scope, q: RecognitionQuery): Page<RecognitionRow> {
    const sc = scopeCondition(scope, 'c');
    const where = [sc.sql];
    const params: (string | number)[] = [...sc.params];
    const like = (s: string) => `%${escapeLike(s.trim())}%`;
    if (q.plate?.trim()) {
      where.push(`(r.plate LIKE ? ESCAPE '\\' OR r.device_no LIKE ? ESCAPE '\\')`);
      params.push(like(q.plate), like(q.plate));
    }
    if (q.driver?.trim()) {
      where.push(`(r.driver_name LIKE ? ESCAPE '\\' OR r.reported_name LIKE ? ESCAPE '\\' OR r.face_id LIKE ? ESCAPE '\\')`);
      params.push(like(q.driver), like(q.driver), like(q.driver));
    }
    if (q.startTime !== undefined) { where.push('r.time >= ?'); params.push(q.startTime); }
    if (q.endTime !== undefined) { where.push('r.time <= ?'); params.push(q.endTime); }
    if (q.result !== undefined) { where.push('r.result = ?'); params.push(RESULT_OF.indexOf(q.result)); }
    if (q.minScore !== undefined) { where.push('r.similarity >= ?'); params.push(q.minScore); }
    if (q.maxScore !== undefined) { where.push('r.similarity <= ?'); params.push(q.maxScore); }
    if (q.mistake !== undefined) { where.push('r.mistake = ?'); params.push(q.mistake); }
    const from = `FROM face_recognition r JOIN company c ON c.id = r.company_id WHERE ${where.join(' AND ')}`;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n ${from}`).get(...params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT r.*, c.name AS company_name, (SELECT p.update_time FROM driver_photo p WHERE p.driver_id = r.driver_id) AS driver_photo_time
      ${from} ORDER BY r.time DESC, r.id DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as Record<string, unknown>[];
    return { records: rows.map(toResult), total, current: q.current, size: q.size };
  }

  result(scope: Scope, id: number): RecognitionRow | undefined {
    const sc = scopeCondition(scope, 'c');
    const row = this.db.prepare(`SELECT r.*, c.name AS company_name, (SELECT p.update_time FROM driver_photo p WHERE p.driver_id = r.driver_id) AS driver_photo_time
      FROM face_recognition r JOIN company c ON c.id = r.company_id WHERE r.id = ? AND ${sc.sql}`).get(id, ...sc.params) as Record<string, unknown> | undefined;
    return row ? toResult(row) : undefined;
  }

  photo(scope: Scope, id: number): { mime: string; bytes: Buffer } | undefined {
    const sc = scopeCondition(scope, 'c');
    const row = this.db.prepare(`SELECT r.photo_mime, r.photo FROM face_recognition r JOIN company c ON c.id = r.company_id WHERE r.id = ? AND ${sc.sql}`)
      .get(id, ...sc.params) as { photo_mime: string; photo: Buffer } | undefined;
    return row ? { mime: row.photo_mime, bytes: row.photo } : undefined;
  }

  setMistake(id: number, mark: boolean, who: { userId: number; userName: string; time: number }, remark: string): void {
    if (mark) {
      this.db.prepare('UPDATE face_recognition SET mistake = 1, mistake_user_id = ?, mistake_user_name = ?, mistake_time = ?, mistake_remark = ? WHERE id = ?')
        .run(who.userId, who.userName, who.time, remark, id);
    } else {
      this.db.prepare(`UPDATE face_recognition SET mistake = 0, mistake_user_id = NULL, mistake_user_name = '', mistake_time = NULL, mistake_remark = '' WHERE id = ?`).run(id);
    }
  }

  devices(scope: Scope, q: DeviceQuery, online: (vehicleId: number) => boolean): Page<DeviceRow> {
    const sc = scopeCondition(scope, 'c');
    const where = [sc.sql];
    const params: (string | number)[] = [...sc.params];
    if (q.keyword?.trim()) {
      const like = `%${escapeLike(q.keyword.trim())}%`;
      where.push(`(v.vehiidno LIKE ? ESCAPE '\\' OR v.device_no LIKE ? ESCAPE '\\')`);
      params.push(like, like);
    }
    if (q.filter === 'bound') where.push('EXISTS (SELECT 1 FROM face_enrolment e WHERE e.vehicle_id = v.id)');
    if (q.filter === 'pending') {
      where.push(`EXISTS (SELECT 1 FROM face_enrolment e LEFT JOIN face_device_sample s ON s.vehicle_id = e.vehicle_id AND s.driver_id = e.driver_id
        WHERE e.vehicle_id = v.id AND (s.photo_hash IS NULL OR s.photo_hash <> e.photo_hash))`);
    }
    const from = `FROM vehicle v JOIN company c ON c.id = v.company_id LEFT JOIN face_device f ON f.vehicle_id = v.id WHERE ${where.join(' AND ')}`;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n ${from}`).get(...params) as { n: number }).n;
    // Devices with faces first (the ones this screen is about), then by plate. The condition is written out:
    // PostgreSQL takes an output alias (`bound`) in ORDER BY only alone, not inside an expression.
    const rows = this.db.prepare(`SELECT v.id, v.vehiidno, v.device_no, v.company_id, c.name AS company_name,
        COALESCE(f.threshold, 80) AS threshold, COALESCE(f.push_state, 'none') AS push_state, f.push_time, COALESCE(f.push_user_name, '') AS push_user_name,
        f.terminal_faces, COALESCE(f.status_state, 'none') AS status_state, f.status_time,
        (SELECT COUNT(*) FROM face_enrolment e WHERE e.vehicle_id = v.id) AS bound,
        (SELECT COUNT(*) FROM face_enrolment e JOIN face_device_sample s ON s.vehicle_id = e.vehicle_id AND s.driver_id = e.driver_id AND s.photo_hash = e.photo_hash
          WHERE e.vehicle_id = v.id) AS synced
      ${from} ORDER BY EXISTS (SELECT 1 FROM face_enrolment e WHERE e.vehicle_id = v.id) DESC, v.vehiidno LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size) as {
        id: number; vehiidno: string; device_no: string; company_id: number; company_name: string; threshold: number; push_state: PushState;
        push_time: number | null; push_user_name: string; terminal_faces: string | null; status_state: string; status_time: number | null; bound: number; synced: number;
      }[];
    const records = rows.map((r): DeviceRow => ({
      id: r.id, vehicleId: r.id, plate: r.vehiidno, deviceNo: r.device_no, companyId: r.company_id, companyName: r.company_name, online: online(r.id),
      threshold: r.threshold, bound: r.bound, synced: r.synced, pushState: r.push_state, pushTime: r.push_time, pushUserName: r.push_user_name,
      terminalFaces: r.terminal_faces === null ? null : (JSON.parse(r.terminal_faces) as string[]), statusState: r.status_state, statusTime: r.status_time,
      lastResult: this.lastResult(r.id),
    }));
    return { records, total, current: q.current, size: q.size };
  }

  /** The currently identified driver: the latest comparison of the vehicle not marked as a mistake. */
  lastResult(vehicleId: number): DeviceRow['lastResult'] {
    const r = this.db.prepare(`SELECT id, result, COALESCE(NULLIF(driver_name, ''), reported_name) AS name, similarity, time FROM face_recognition
      WHERE vehicle_id = ? AND mistake = 0 ORDER BY time DESC, id DESC LIMIT 1`).get(vehicleId) as { id: number; result: number; name: string; similarity: number; time: number } | undefined;
    return r ? { id: r.id, result: RESULT_OF[r.result] ?? 'noFace', driverName: r.name, similarity: r.similarity, time: r.time } : null;
  }

  boundFaces(vehicleId: number): BoundFace[] {
    const f = this.db.prepare('SELECT terminal_faces FROM face_device WHERE vehicle_id = ?').get(vehicleId) as { terminal_faces: string | null } | undefined;
    const held = f?.terminal_faces ? new Set(JSON.parse(f.terminal_faces) as string[]) : null;
    const rows = this.db.prepare(`SELECT e.driver_id, d.name, d.cert_no, p.update_time AS photo_time, e.enrol_time, e.enrol_user_name,
        (s.photo_hash IS NOT NULL AND s.photo_hash = e.photo_hash) AS synced
      FROM face_enrolment e JOIN driver d ON d.id = e.driver_id LEFT JOIN driver_photo p ON p.driver_id = e.driver_id
      LEFT JOIN face_device_sample s ON s.vehicle_id = e.vehicle_id AND s.driver_id = e.driver_id WHERE e.vehicle_id = ? ORDER BY d.name, d.id`)
      .all(vehicleId) as { driver_id: number; name: string; cert_no: string; photo_time: number | null; enrol_time: number; enrol_user_name: string; synced: number }[];
    return rows.map((r) => ({
      driverId: r.driver_id, name: r.name, certNo: r.cert_no, photoTime: r.photo_time, state: r.synced ? 'synced' : 'pending',
      onTerminal: held === null ? null : held.has(r.cert_no), bindTime: r.enrol_time, bindUserName: r.enrol_user_name,
    }));
  }

  /** Drivers of the scope a face could be bound from (name / certificate keyword), at most `limit`. */
  candidates(scope: Scope, vehicleId: number, keyword: string, limit: number): Candidate[] {
    const sc = scopeCondition(scope, 'c');
    const params: (string | number)[] = [vehicleId, ...sc.params];
    let kw = '';
    if (keyword.trim()) {
      const like = `%${escapeLike(keyword.trim())}%`;
      kw = ` AND (d.name LIKE ? ESCAPE '\\' OR d.cert_no LIKE ? ESCAPE '\\')`;
      params.push(like, like);
    }
    const rows = this.db.prepare(`SELECT d.id, d.name, d.cert_no, c.name AS company_name, (p.driver_id IS NOT NULL) AS has_photo,
        EXISTS (SELECT 1 FROM face_enrolment e WHERE e.driver_id = d.id AND e.vehicle_id = ?) AS bound
      FROM driver d JOIN company c ON c.id = d.company_id LEFT JOIN driver_photo p ON p.driver_id = d.id WHERE ${sc.sql}${kw}
      ORDER BY d.name, d.id LIMIT ?`).all(...params, limit) as { id: number; name: string; cert_no: string; company_name: string; has_photo: number; bound: number }[];
    return rows.map((r) => ({ driverId: r.id, name: r.name, certNo: r.cert_no, companyName: r.company_name, hasPhoto: r.has_photo === 1, bound: r.bound === 1 }));
  }

  /** A driver of the scope with what binding needs (photo bytes, certificate), or undefined. */
  driver(scope: Scope, driverId: number): { id: number; name: string; certNo: string; photo: { bytes: Buffer; time: number } | null } | undefined {
    const sc = scopeCondition(scope, 'c');
    const r = this.db.prepare(`SELECT d.id, d.name, d.cert_no, p.bytes, p.update_time FROM driver d JOIN company c ON c.id = d.company_id
      LEFT JOIN driver_photo p ON p.driver_id = d.id WHERE d.id = ? AND ${sc.sql}`).get(driverId, ...sc.params) as
      { id: number; name: string; cert_no: string; bytes: Buffer | null; update_time: number | null } | undefined;
    if (!r) return undefined;
    return { id: r.id, name: r.name, certNo: r.cert_no, photo: r.bytes && r.update_time !== null ? { bytes: r.bytes, time: r.update_time } : null };
  }

  /**
   * Binds (enrols) the driver's current photo on the vehicle: the warehouse sample follows the photo,
   * the binding takes its hash. Answers whether anything changed.
   */
  bind(vehicleId: number, driver: { id: number; photo: { bytes: Buffer; time: number } }, who: { userId: number; userName: string; time: number }): boolean {
    const hash = sha256(driver.photo.bytes);
    const sample = this.db.prepare('SELECT photo_hash, photo_time FROM face_sample WHERE driver_id = ?').get(driver.id) as { photo_hash: string; photo_time: number } | undefined;
    if (!sample || sample.photo_hash !== hash || sample.photo_time !== driver.photo.time) {
      this.db.prepare(`INSERT INTO face_sample (driver_id, photo_hash, photo_time, enrol_time, enrol_user_id, enrol_user_name) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (driver_id) DO UPDATE SET photo_hash = excluded.photo_hash, photo_time = excluded.photo_time, enrol_time = excluded.enrol_time,
          enrol_user_id = excluded.enrol_user_id, enrol_user_name = excluded.enrol_user_name`).run(driver.id, hash, driver.photo.time, who.time, who.userId, who.userName);
    }
    const had = this.db.prepare('SELECT photo_hash FROM face_enrolment WHERE driver_id = ? AND vehicle_id = ?').get(driver.id, vehicleId) as { photo_hash: string } | undefined;
    if (had?.photo_hash === hash) return false;
    this.db.prepare(`INSERT INTO face_enrolment (driver_id, vehicle_id, photo_hash, enrol_time, enrol_user_id, enrol_user_name) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (driver_id, vehicle_id) DO UPDATE SET photo_hash = excluded.photo_hash, enrol_time = excluded.enrol_time,
        enrol_user_id = excluded.enrol_user_id, enrol_user_name = excluded.enrol_user_name`).run(driver.id, vehicleId, hash, who.time, who.userId, who.userName);
    return true;
  }

  unbind(vehicleId: number, driverId: number): boolean {
    return this.db.prepare('DELETE FROM face_enrolment WHERE driver_id = ? AND vehicle_id = ?').run(driverId, vehicleId).changes > 0;
  }

  boundDriverIds(vehicleId: number): number[] {
    return (this.db.prepare('SELECT driver_id FROM face_enrolment WHERE vehicle_id = ? ORDER BY driver_id').all(vehicleId) as { driver_id: number }[]).map((r) => r.driver_id);
  }

  /** The faces to push to the vehicle's terminal: every binding with the driver's current photo. */
  pushFaces(vehicleId: number): PushFace[] {
    const rows = this.db.prepare(`SELECT d.id, d.name, d.cert_no, p.mime, p.bytes FROM face_enrolment e JOIN driver d ON d.id = e.driver_id
      JOIN driver_photo p ON p.driver_id = d.id WHERE e.vehicle_id = ? AND d.cert_no <> '' ORDER BY d.id`).all(vehicleId) as { id: number; name: string; cert_no: string; mime: string; bytes: Buffer }[];
    return rows.map((r) => ({ driverId: r.id, faceId: r.cert_no, name: r.name, mime: r.mime, photo: r.bytes, hash: sha256(r.bytes) }));
  }

  threshold(vehicleId: number): number {
    return (this.db.prepare('SELECT threshold FROM face_device WHERE vehicle_id = ?').get(vehicleId) as { threshold: number } | undefined)?.threshold ?? 80;
  }

  setThreshold(vehicleId: number, threshold: number): void {
    this.db.prepare('INSERT INTO face_device (vehicle_id, threshold) VALUES (?, ?) ON CONFLICT (vehicle_id) DO UPDATE SET threshold = excluded.threshold').run(vehicleId, threshold);
  }

  /**
   * Records a push's outcome; with the terminal's answer (`held` face ids), every pushed face the
   * terminal lists is confirmed with the photo hash pushed, and samples it no longer holds are forgotten.
   */
  recordPush(vehicleId: number, state: PushState, who: { userName: string; time: number }, pushed: readonly PushFace[], held: readonly string[] | null): void {
    this.db.prepare(`INSERT INTO face_device (vehicle_id, push_state, push_time, push_user_name) VALUES (?, ?, ?, ?)
      ON CONFLICT (vehicle_id) DO UPDATE SET push_state = excluded.push_state, push_time = excluded.push_time, push_user_name = excluded.push_user_name`)
      .run(vehicleId, state, who.time, who.userName);
    if (held === null) return;
    this.recordStatus(vehicleId, 'ok', who.time, held);
    const heldSet = new Set(held);
    for (const f of pushed) {
      if (!heldSet.has(f.faceId)) continue;
      this.db.prepare(`INSERT INTO face_device_sample (vehicle_id, driver_id, photo_hash, push_time) VALUES (?, ?, ?, ?)
        ON CONFLICT (vehicle_id, driver_id) DO UPDATE SET photo_hash = excluded.photo_hash, push_time = excluded.push_time`).run(vehicleId, f.driverId, f.hash, who.time);
    }
  }

  /** A status read (0x0E12, or the list in a 0x0E11): confirmed samples the terminal no longer lists are forgotten. */
  recordStatus(vehicleId: number, state: 'ok' | 'offline' | 'timeout' | 'failed', time: number, held: readonly string[] | null): void {
    this.db.prepare(`INSERT INTO face_device (vehicle_id, status_state, status_time, terminal_faces) VALUES (?, ?, ?, ?)
      ON CONFLICT (vehicle_id) DO UPDATE SET status_state = excluded.status_state, status_time = excluded.status_time,
        terminal_faces = COALESCE(excluded.terminal_faces, face_device.terminal_faces)`).run(vehicleId, state, time, held === null ? null : JSON.stringify(held));
    if (held === null) return;
    const heldSet = new Set(held);
    const confirmed = this.db.prepare(`SELECT s.driver_id, d.cert_no FROM face_device_sample s JOIN driver d ON d.id = s.driver_id WHERE s.vehicle_id = ?`)
      .all(vehicleId) as { driver_id: number; cert_no: string }[];
    for (const c of confirmed) if (!heldSet.has(c.cert_no)) this.db.prepare('DELETE FROM face_device_sample WHERE vehicle_id = ? AND driver_id = ?').run(vehicleId, c.driver_id);
  }

  /** Demo seed: the terminal holds every face bound to it (what its simulated terminal starts with). */
  seedConfirmed(vehicleId: number, time: number): number {
    const faces = this.pushFaces(vehicleId);
    this.recordPush(vehicleId, 'ok', { userName: '', time }, faces, faces.map((f) => f.faceId));
    return faces.length;
  }
}

function toResult(r: Record<string, unknown>): RecognitionRow {
  return {
    id: r.id as number, vehicleId: r.vehicle_id as number | null, plate: r.plate as string, deviceNo: r.device_no as string,
    companyId: r.company_id as number, companyName: r.company_name as string, time: r.time as number, receiveTime: r.receive_time as number,
    result: RESULT_OF[r.result as number] ?? 'noFace', similarity: r.similarity as number, threshold: r.threshold as number, trigger: r.trigger as number,
    lat: r.lat as number, lng: r.lng as number, faceId: r.face_id as string, reportedName: r.reported_name as string,
    driverId: r.driver_id as number | null, driverName: r.driver_name as string, driverPhotoTime: (r.driver_photo_time as number | null) ?? null,
    mistake: r.mistake === 1, mistakeUserName: r.mistake_user_name as string, mistakeTime: r.mistake_time as number | null, mistakeRemark: r.mistake_remark as string,
  };
}
