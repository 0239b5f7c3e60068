import type { MediaFilter, MediaItem, MediaRepository, MediaSource, NewMediaItem } from '../media-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';

interface Row {
  id: number; vehicle_id: number; company_id: number; device_media_id: number; media_type: number; format: number; event_code: number;
  channel: number; capture_time: number; received_time: number; lng: number | null; lat: number | null; speed: number | null; alarm_flags: number;
  size: number; path: string; alarm_id: number | null; requested_by: number | null; source: MediaSource; vehiidno: string; company_name: string;
  requested_by_name: string | null; alarm_type: number | null;
}

const toItem = (r: Row): MediaItem => ({
  id: r.id, vehicleId: r.vehicle_id, companyId: r.company_id, deviceMediaId: r.device_media_id, mediaType: r.media_type, format: r.format,
  eventCode: r.event_code, channel: r.channel, captureTime: r.capture_time, receivedTime: r.received_time, lng: r.lng, lat: r.lat, speed: r.speed,
  alarmFlags: r.alarm_flags, size: r.size, path: r.path, alarmId: r.alarm_id, requestedBy: r.requested_by, source: r.source, vehiidno: r.vehiidno,
  companyName: r.company_name, requestedByName: r.requested_by_name, alarmType: r.alarm_type,
});

const SELECT = `SELECT m.*, v.vehiidno, c.name AS company_name, COALESCE(NULLIF(u.real_name, ''), u.username) AS requested_by_name, a.alarm_type
  FROM media_item m JOIN vehicle v ON v.id = m.vehicle_id JOIN company c ON c.id = m.company_id
  LEFT JOIN user u ON u.id = m.requested_by LEFT JOIN alarm a ON a.id = m.alarm_id`;

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

export class SqliteMediaRepository implements MediaRepository {
  constructor(private readonly db: SqliteDb) {}

  async insert(m: NewMediaItem): Promise<number> {
    const r = this.db.prepare(`INSERT INTO media_item (vehicle_id, company_id, device_media_id, media_type, format, event_code, channel, capture_time,
        received_time, lng, lat, speed, alarm_flags, size, path, alarm_id, requested_by, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(m.vehicleId, m.companyId, m.deviceMediaId, m.mediaType, m.format, m.eventCode, m.channel, m.captureTime, m.receivedTime, m.lng, m.lat, m.speed,
        m.alarmFlags, m.size, m.path, m.alarmId, m.requestedBy, m.source);
    return Number(r.lastInsertRowid);
  }

  async get(scope: Scope, id: number): Promise<MediaItem | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`${SELECT} WHERE m.id = ? AND ${s.sql}`).get(id, ...s.params) as Row | undefined;
    return row && toItem(row);
  }

  async query(scope: Scope, f: MediaFilter, offset: number, limit: number): Promise<{ total: number; records: MediaItem[] }> {
    const s = scopeCondition(scope, 'c');
    const where = ['m.capture_time >= ?', 'm.capture_time <= ?', s.sql];
    const params: (string | number)[] = [f.from, f.to, ...s.params];
    const inList = (column: string, values: readonly (string | number)[] | undefined) => {
      if (values === undefined || values.length === 0) return;
      where.push(`${column} IN (${placeholders(values.length)})`);
      params.push(...values);
    };
    inList('m.vehicle_id', f.vehicleIds);
    inList('m.channel', f.channels);
    inList('m.alarm_id', f.alarmIds);
    inList('m.source', f.sources);
    inList('m.device_media_id', f.deviceMediaIds);
    if (f.linkedToAlarm !== undefined) where.push(f.linkedToAlarm ? 'm.alarm_id IS NOT NULL' : 'm.alarm_id IS NULL');
    const cond = where.join(' AND ');
    const total = (this.db.prepare(`SELECT count(*) AS n FROM media_item m JOIN company c ON c.id = m.company_id WHERE ${cond}`).get(...params) as { n: number }).n;
    const rows = limit <= 0 ? [] : (this.db.prepare(`${SELECT} WHERE ${cond} ORDER BY m.capture_time DESC, m.id DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as Row[]);
    return { total, records: rows.map(toItem) };
  }

  async alarmNear(vehicleId: number, time: number, windowMs: number): Promise<number | undefined> {
    const row = this.db.prepare(`SELECT id FROM alarm WHERE vehicle_id = ? AND start_time <= ? AND (start_time >= ? OR end_time IS NULL OR end_time >= ?)
                                 ORDER BY start_time DESC, id DESC LIMIT 1`).get(vehicleId, time + windowMs, time - windowMs, time - windowMs) as { id: number } | undefined;
    return row?.id;
  }

  async expired(before: number, limit: number, after?: { receivedTime: number; id: number }): Promise<{ id: number; path: string; size: number; receivedTime: number }[]> {
    // The smallest safe integer, not -Infinity: PostgreSQL refuses -Infinity as a bigint parameter (the sweep failed there).
    const from = after ?? { receivedTime: Number.MIN_SAFE_INTEGER, id: 0 };
    return this.db.prepare(`SELECT id, path, size, received_time AS receivedTime FROM media_item
                            WHERE received_time < ? AND (received_time, id) > (?, ?) ORDER BY received_time, id LIMIT ?`)
      .all(before, from.receivedTime, from.id, limit) as { id: number; path: string; size: number; receivedTime: number }[];
  }

  async delete(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    this.db.prepare(`DELETE FROM media_item WHERE id IN (${placeholders(ids.length)})`).run(...ids);
  }

  async attribute(ids: readonly number[], by: { source: MediaSource; requestedBy: number | null; alarmId: number | null }): Promise<void> {
    if (ids.length === 0) return;
    this.db.prepare(`UPDATE media_item SET source = ?, requested_by = ?, alarm_id = ? WHERE id IN (${placeholders(ids.length)})`)
      .run(by.source, by.requestedBy, by.alarmId, ...ids);
  }
}
