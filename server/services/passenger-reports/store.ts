/**
 * Storage of passenger counts and body temperatures (migration 38; issue 18). Each 0x1005 is stored raw and
 * folded into its (vehicle, China day) row in the same transaction (domain/passengers/flow.ts: the fold is
 * order-independent, so a late or re-uploaded count only adds to its day). Temperatures are stored raw: the
 * report reads at most 7 days of ≤ 500 vehicles by (vehicle, time).
 */
import { DEFAULT_RATED_LOAD, RATED_LOAD_SETTING, emptyPassengerDay, passengerDay, passengerStep, type PassengerDayRow, type PassengerRecord } from '../../../domain/passengers/flow.ts';
import type { TemperatureMeasurement } from '../../../domain/passengers/temperature.ts';
import { chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../../db/sqlite.ts';

/** The company setting of the rated load (report_setting, per company; the /system/param page sets it), read when a count is folded. */
export const RATED_LOAD_KEY = RATED_LOAD_SETTING;

export interface StoredTemperature extends TemperatureMeasurement {
  readonly vehicleId: number;
  readonly mediaId: number | null;
  readonly receivedAt: number;
}

interface UploadRow {
  line_id: number | null; start_time: number; end_time: number; boarding: number; alighting: number;
  door: number | null; direction: number | null; station_seq: number | null; onboard: number | null;
}

const recordOf = (r: UploadRow): PassengerRecord => ({
  start: r.start_time, end: r.end_time, boarding: r.boarding, alighting: r.alighting, door: r.door,
  direction: r.direction === null ? null : (r.direction as 0 | 1), stationSeq: r.station_seq, onboard: r.onboard, lineId: r.line_id,
});

export class PassengerStore {
  private readonly stmts = new Map<string, Statement<unknown[]>>();
  constructor(private readonly db: SqliteDb) {}

  private stmt(key: string, sql: string): Statement<unknown[]> {
    let s = this.stmts.get(key);
    if (!s) this.stmts.set(key, (s = this.db.prepare<unknown[]>(sql)));
    return s;
  }

  /** The vehicle's line and its company's rated load, now. */
  vehicleContext(vehicleId: number): { lineId: number | null; ratedLoad: number } {
    const r = this.stmt('vctx', `SELECT v.line_id AS lineId, s.value AS rated FROM vehicle v
      LEFT JOIN report_setting s ON s.company_id = v.company_id AND s.key = '${RATED_LOAD_KEY}' WHERE v.id = ?`)
      .get(vehicleId) as { lineId: number | null; rated: number | null } | undefined;
    return { lineId: r?.lineId ?? null, ratedLoad: r?.rated ?? DEFAULT_RATED_LOAD };
  }

  /** Stores one count and folds it into its day; the record's lineId is the vehicle's line now. */
  addUpload(vehicleId: number, rec: Omit<PassengerRecord, 'lineId'>, now: number): PassengerRecord {
    const ctx = this.vehicleContext(vehicleId);
    const record: PassengerRecord = { ...rec, lineId: ctx.lineId };
    const day = chinaDayIndex(record.end);
    this.db.transaction(() => {
      this.stmt('ins', `INSERT INTO passenger_upload (vehicle_id, line_id, start_time, end_time, boarding, alighting, door, direction, station_seq, onboard, received_time)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(vehicleId, record.lineId, record.start, record.end, record.boarding, record.alighting,
        record.door, record.direction, record.stationSeq, record.onboard, now);
      const old = this.stmt('day', 'SELECT row FROM passenger_day WHERE vehicle_id = ? AND day = ?').get(vehicleId, day) as { row: string } | undefined;
      const row = old ? (JSON.parse(old.row) as PassengerDayRow) : emptyPassengerDay();
      passengerStep(row, record, ctx.ratedLoad);
      this.stmt('put', `INSERT INTO passenger_day (vehicle_id, day, line_id, row, updated_time) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (vehicle_id, day) DO UPDATE SET line_id = COALESCE(excluded.line_id, passenger_day.line_id), row = excluded.row, updated_time = excluded.updated_time`)
        .run(vehicleId, day, record.lineId, JSON.stringify(row), now);
    })();
    return record;
  }

  /** Day rows of the vehicles in [fromDay, toDay], by vehicle then day. */
  days(vehicleIds: readonly number[], fromDay: number, toDay: number): Map<number, { day: number; lineId: number | null; row: PassengerDayRow }[]> {
    const out = new Map<number, { day: number; lineId: number | null; row: PassengerDayRow }[]>();
    const read = this.stmt('days', 'SELECT day, line_id, row FROM passenger_day WHERE vehicle_id = ? AND day BETWEEN ? AND ? ORDER BY day');
    for (const v of vehicleIds) {
      const rows = read.all(v, fromDay, toDay) as { day: number; line_id: number | null; row: string }[];
      if (rows.length > 0) out.set(v, rows.map((r) => ({ day: r.day, lineId: r.line_id, row: JSON.parse(r.row) as PassengerDayRow })));
    }
    return out;
  }

  /** The uploads of one vehicle-day (drill-down, recompute). */
  uploads(vehicleId: number, day: number): PassengerRecord[] {
    const from = chinaDayStartMs(day);
    return (this.stmt('ups', `SELECT line_id, start_time, end_time, boarding, alighting, door, direction, station_seq, onboard
      FROM passenger_upload WHERE vehicle_id = ? AND end_time >= ? AND end_time < ? ORDER BY end_time, id`).all(vehicleId, from, from + DAY_MS) as UploadRow[]).map(recordOf);
  }

  /** Rewrites one vehicle-day's row from its stored uploads (after a rated-load change; tests compare with the live fold). */
  recompute(vehicleId: number, day: number, now: number): PassengerDayRow {
    const ups = this.uploads(vehicleId, day);
    const row = passengerDay(ups, this.vehicleContext(vehicleId).ratedLoad);
    const lineId = ups.findLast((u) => u.lineId !== null)?.lineId ?? null;
    this.stmt('put2', `INSERT INTO passenger_day (vehicle_id, day, line_id, row, updated_time) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (vehicle_id, day) DO UPDATE SET line_id = excluded.line_id, row = excluded.row, updated_time = excluded.updated_time`)
      .run(vehicleId, day, lineId, JSON.stringify(row), now);
    return row;
  }

  /** Lines by id: name and stations' names by `${direction}:${seq}`. */
  lines(ids: readonly number[]): Map<number, { name: string; stations: Map<string, string> }> {
    const out = new Map<number, { name: string; stations: Map<string, string> }>();
    const line = this.stmt('line', 'SELECT name FROM line WHERE id = ?');
    const st = this.stmt('stations', 'SELECT direction, seq, name FROM line_station WHERE line_id = ?');
    for (const id of new Set(ids)) {
      const l = line.get(id) as { name: string } | undefined;
      if (!l) continue;
      const stations = new Map((st.all(id) as { direction: number; seq: number; name: string }[]).map((s) => [`${s.direction}:${s.seq}`, s.name]));
      out.set(id, { name: l.name, stations });
    }
    return out;
  }

  addTemperature(vehicleId: number, m: TemperatureMeasurement & { mediaId: number | null }, now: number): void {
    this.stmt('tins', 'INSERT INTO temperature_record (vehicle_id, time, kind, mask, celsius, media_id, received_time) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(vehicleId, m.time, m.kind, m.mask === null ? null : m.mask ? 1 : 0, m.celsius, m.mediaId, now);
  }

  /**
   * The stored photo (media_item id, a 0x0801 upload) of each of a vehicle's terminal multimedia ids: the newest
   * upload with that id (a terminal's ids restart after a reset). Ids without an upload are left out.
   */
  photoIds(vehicleId: number, deviceMediaIds: readonly number[]): Map<number, number> {
    const read = this.stmt('photo', 'SELECT id FROM media_item WHERE vehicle_id = ? AND device_media_id = ? ORDER BY received_time DESC, id DESC LIMIT 1');
    const out = new Map<number, number>();
    for (const m of new Set(deviceMediaIds)) {
      const id = read.pluck().get(vehicleId, m) as number | undefined;
      if (id !== undefined) out.set(m, id);
    }
    return out;
  }

  /** Whether a measurement of the vehicle names this terminal multimedia id (its face photo). */
  isTemperaturePhoto(vehicleId: number, deviceMediaId: number): boolean {
    return this.stmt('isphoto', 'SELECT 1 FROM temperature_record WHERE vehicle_id = ? AND media_id = ? LIMIT 1').get(vehicleId, deviceMediaId) !== undefined;
  }

  temperatures(vehicleIds: readonly number[], from: number, to: number): StoredTemperature[] {
    const read = this.stmt('temps', `SELECT time, kind, mask, celsius, media_id, received_time FROM temperature_record
      WHERE vehicle_id = ? AND time >= ? AND time < ? ORDER BY time, id`);
    const out: StoredTemperature[] = [];
    for (const v of vehicleIds) {
      for (const r of read.all(v, from, to) as { time: number; kind: number; mask: number | null; celsius: number; media_id: number | null; received_time: number }[]) {
        out.push({ vehicleId: v, time: r.time, kind: r.kind, mask: r.mask === null ? null : r.mask === 1, celsius: r.celsius, mediaId: r.media_id, receivedAt: r.received_time });
      }
    }
    return out;
  }
}
