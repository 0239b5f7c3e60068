import type { UploadState } from '../../../domain/video/recording-upload.ts';
import type { NewUploadTask, RecordingUploadRepository, UploadFile, UploadTask, UploadTaskPatch } from '../recording-upload-types.ts';
import type { SqliteDb } from '../sqlite.ts';
import { placeholders } from './rows.ts';

interface Row {
  id: number; user_id: number; vehicle_id: number; device_no: string; channel: number; start_time: number; end_time: number; alarm_flags: string;
  media_type: number; stream_type: number; storage_type: number; state: UploadState; fail_reason: string; serial: number | null; result: number | null;
  ftp_user: string; created_at: number; updated_at: number; finished_at: number | null;
}
interface FileRow { id: number; task_id: number; name: string; size: number; received_at: number }

const toTask = (r: Row): UploadTask => ({
  id: r.id, userId: r.user_id, vehicleId: r.vehicle_id, deviceNo: r.device_no, channel: r.channel, startTime: r.start_time, endTime: r.end_time,
  alarmFlags: BigInt(r.alarm_flags), mediaType: r.media_type, streamType: r.stream_type, storageType: r.storage_type, state: r.state,
  failReason: r.fail_reason, serial: r.serial, result: r.result, ftpUser: r.ftp_user, createdAt: r.created_at, updatedAt: r.updated_at, finishedAt: r.finished_at,
});
const toFile = (r: FileRow): UploadFile => ({ id: r.id, taskId: r.task_id, name: r.name, size: r.size, receivedAt: r.received_at });

const UNFINISHED = "('requested', 'uploading', 'paused')";
const COLUMNS: Record<keyof UploadTaskPatch, string> = { state: 'state', failReason: 'fail_reason', serial: 'serial', result: 'result', finishedAt: 'finished_at' };

export class SqliteRecordingUploadRepository implements RecordingUploadRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(t: NewUploadTask): Promise<number> {
    const r = this.db.prepare(`INSERT INTO recording_upload (user_id, vehicle_id, device_no, channel, start_time, end_time, alarm_flags, media_type, stream_type,
      storage_type, state, ftp_user, node, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'requested', ?, ?, ?, ?)`)
      .run(t.userId, t.vehicleId, t.deviceNo, t.channel, t.startTime, t.endTime, t.alarmFlags.toString(), t.mediaType, t.streamType, t.storageType, t.ftpUser, t.node ?? '', t.createdAt, t.createdAt);
    return Number(r.lastInsertRowid);
  }

  async get(id: number): Promise<UploadTask | undefined> {
    const row = this.db.prepare('SELECT * FROM recording_upload WHERE id = ?').get(id) as Row | undefined;
    return row && toTask(row);
  }

  async update(id: number, patch: UploadTaskPatch, at: number, unlessIn: readonly UploadState[] = []): Promise<boolean> {
    const keys = (Object.keys(patch) as (keyof UploadTaskPatch)[]).filter((k) => patch[k] !== undefined);
    const sets = [...keys.map((k) => `${COLUMNS[k]} = ?`), 'updated_at = ?'];
    const guard = unlessIn.length ? ` AND state NOT IN (${unlessIn.map(() => '?').join(',')})` : '';
    const r = this.db.prepare(`UPDATE recording_upload SET ${sets.join(', ')} WHERE id = ?${guard}`).run(...keys.map((k) => patch[k] ?? null), at, id, ...unlessIn);
    return r.changes > 0;
  }

  async page(f: { userId: number | null; vehicleId?: number; states?: readonly UploadState[]; offset: number; limit: number }): Promise<{ total: number; records: UploadTask[] }> {
    const where: string[] = [];
    const params: (number | string)[] = [];
    if (f.userId !== null) {
      where.push('user_id = ?');
      params.push(f.userId);
    }
    if (f.vehicleId !== undefined) {
      where.push('vehicle_id = ?');
      params.push(f.vehicleId);
    }
    if (f.states?.length) {
      where.push(`state IN (${f.states.map(() => '?').join(',')})`);
      params.push(...f.states);
    }
    const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM recording_upload ${cond}`).get(...params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * FROM recording_upload ${cond} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...params, f.limit, f.offset) as Row[];
    return { total, records: rows.map(toTask) };
  }

  async activeForVehicle(vehicleId: number): Promise<UploadTask[]> {
    return (this.db.prepare(`SELECT * FROM recording_upload WHERE vehicle_id = ? AND state IN ${UNFINISHED} ORDER BY id`).all(vehicleId) as Row[]).map(toTask);
  }

  async addFile(taskId: number, name: string, size: number, at: number): Promise<number> {
    const row = this.db.prepare(`INSERT INTO recording_upload_file (task_id, name, size, received_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (task_id, name) DO UPDATE SET size = excluded.size, received_at = excluded.received_at RETURNING id`).get(taskId, name, size, at) as { id: number };
    return row.id;
  }

  async files(taskIds: readonly number[]): Promise<UploadFile[]> {
    if (taskIds.length === 0) return [];
    const rows = this.db.prepare(`SELECT * FROM recording_upload_file WHERE task_id IN (${taskIds.map(() => '?').join(',')}) ORDER BY task_id, name`).all(...taskIds) as FileRow[];
    return rows.map(toFile);
  }

  async getFile(id: number): Promise<UploadFile | undefined> {
    const row = this.db.prepare('SELECT * FROM recording_upload_file WHERE id = ?').get(id) as FileRow | undefined;
    return row && toFile(row);
  }

  async failOrphaned(reason: string, at: number, presentSince: number, forgetBefore: number): Promise<number[]> {
    const { db } = this;
    return db.transaction(() => {
      const ids = (db.prepare(`SELECT id FROM recording_upload WHERE state IN ${UNFINISHED}
                                 AND node NOT IN (SELECT node FROM node_presence WHERE seen_at >= ?) ORDER BY id`).all(presentSince) as { id: number }[]).map((r) => r.id);
      const fail = db.prepare(`UPDATE recording_upload SET state = 'failed', fail_reason = ?, updated_at = ?, finished_at = ? WHERE id = ? AND state IN ${UNFINISHED}`);
      const failed = ids.filter((id) => fail.run(reason, at, at, id).changes > 0);
      db.prepare('DELETE FROM node_presence WHERE seen_at < ?').run(forgetBefore);
      return failed;
    }).immediate();
  }

  async failUnfinished(reason: string, at: number): Promise<number> {
    return this.db.prepare(`UPDATE recording_upload SET state = 'failed', fail_reason = ?, updated_at = ?, finished_at = ? WHERE state IN ${UNFINISHED}`).run(reason, at, at).changes;
  }

  async finishedBefore(before: number, limit: number, afterId = 0): Promise<number[]> {
    return (this.db.prepare(`SELECT id FROM recording_upload WHERE state NOT IN ${UNFINISHED} AND coalesce(finished_at, updated_at) < ? AND id > ?
                             ORDER BY id LIMIT ?`).all(before, afterId, limit) as { id: number }[]).map((r) => r.id);
  }

  async delete(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    // recording_upload_file rows go with their task (ON DELETE CASCADE)
    this.db.prepare(`DELETE FROM recording_upload WHERE id IN (${placeholders(ids.length)})`).run(...ids);
  }
}
