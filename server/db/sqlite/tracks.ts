import { chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import { allocateTrack, decodeTrack, encodeTrack, type TrackData } from '../../../proto/track-codec.ts';
import type { GeoBox, PositionRow, TrackRepository, TrailKey, VehicleInBox } from '../repositories.ts';
import type { Scope } from '../scope.ts';
import { scopeCondition } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';

const COLUMNS = 'gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage';
const PERIOD = 'vehicle_id = ? AND gps_time >= ? AND gps_time < ?';
const IN_BOX = 'lng >= ? AND lng <= ? AND lat >= ? AND lat <= ?';

/** A finished day gets its block this long after its end (rows still in flight land first). */
export const SEAL_GRACE_MS = 10 * 60_000;

/**
 * Reads spanning at least this long go to the worker when one is attached: an hour at 1 Hz is 3,600 rows
 * (≈ 10 ms in process); shorter reads cost less here than the hop to a thread and back.
 */
export const OFFLOAD_MIN_MS = 3_600_000;

export type BlockSink = (vehicleId: number, day: number, points: number, data: Uint8Array) => void;

export interface TrackReadRequest {
  readonly vehicleId: number; readonly from: number; readonly to: number; readonly limit: number; readonly box?: GeoBox | undefined;
  /** The caller's clock: decides which days are finished. */
  readonly now: number;
  /** Answer the encoded binary track with this label instead of the columns. */
  readonly encode?: TrackLabel | undefined;
}

/** The binary track's header fields the route sets (the vehicle's labels, the period asked for). */
export interface TrackLabel { readonly plate: string; readonly deviceNo: string; readonly startTime: number; readonly endTime: number }

/**
 * A worker's answer: the track (or its encoding when asked), and the day blocks it built (a read-only
 * connection cannot store them).
 */
export interface TrackReadResult {
  readonly track?: TrackData;
  readonly bytes?: Uint8Array;
  readonly blocks: readonly { day: number; points: number; data: Uint8Array }[];
}

export interface TrackOffload {
  read(req: TrackReadRequest): Promise<TrackReadResult>;
  /** The position repository's count of late writes of a vehicle (rows into days already over). */
  lateWrites(vehicleId: number): number;
}

/** Points [a, b) of a decoded day or index range that fall in the period. */
interface Part { t: TrackData; a: number; b: number; total: number }

type RawRow = [gpsTime: number, lng: number, lat: number, speed: number, heading: number, altitude: number, status: number, alarm: number, mileage: number | null];

interface PositionRowDb {
  vehicle_id: number; gps_time: number; lng: number; lat: number; speed: number; heading: number; altitude: number;
  status: number; alarm: number; mileage: number | null; received_at: number;
}

/**
 * History reads over positions(vehicle_id, gps_time): one index range per vehicle and period (the
 * measured choice, see server/CONTEXT.md "Track history"). Rows come back as raw arrays and go straight
 * into typed-array columns: a week at 1 Hz is 604,800 rows, so no per-row objects are built.
 */
export class SqliteTrackRepository implements TrackRepository {
  /** Reads handed to a worker thread (read-pool.ts); undefined: every read runs here. */
  private offloaded: TrackOffload | undefined;

  constructor(
    private readonly db: SqliteDb,
    /** Decides which days are finished (tests and benchmarks inject one). */
    private readonly clock: () => number = Date.now,
    /** Where a built day block goes: this connection by default; a read-only worker collects them instead. */
    private readonly keepBlock: BlockSink = (vehicleId, day, points, data) => {
      this.db.prepare('INSERT OR REPLACE INTO track_block (vehicle_id, day, points, data, built_at) VALUES (?, ?, ?, ?, ?)')
        .run(vehicleId, day, points, data, this.clock());
    },
  ) {}

  /**
   * From now on, reads of at least OFFLOAD_MIN_MS go to `offload.read` (a worker thread with its own
   * connection), so a week's read no longer stalls this thread's event loop (the gateway's). The blocks
   * the worker built are stored here, unless a late row of that vehicle was written meanwhile (the worker
   * may have read before it: `lateWrites` moved), in which case the next read builds them again.
   */
  offload(offload: TrackOffload | undefined): void {
    this.offloaded = offload;
  }

  async readTrack(vehicleId: number, from: number, to: number, limit: number, box?: GeoBox): Promise<TrackData> {
    const o = this.offloaded;
    // Inside a transaction of this connection the worker would not see its uncommitted rows.
    if (!o || to - from < OFFLOAD_MIN_MS || this.db.inTransaction) return this.readTrackSync(vehicleId, from, to, limit, box);
    return (await this.readElsewhere(o, { vehicleId, from, to, limit, box, now: this.clock() })).track!;
  }

  /**
   * readTrack labelled and encoded as the binary track (GET /service-monitor/trail/binary): with a worker,
   * the encoding runs there too (a week's encode is tens of ms more off this thread).
   */
  async readTrackEncoded(vehicleId: number, from: number, to: number, limit: number, label: TrackLabel): Promise<Uint8Array> {
    const o = this.offloaded;
    if (!o || to - from < OFFLOAD_MIN_MS || this.db.inTransaction) return encodeTrack(Object.assign(this.readTrackSync(vehicleId, from, to, limit), label));
    return (await this.readElsewhere(o, { vehicleId, from, to, limit, now: this.clock(), encode: label })).bytes!;
  }

  private async readElsewhere(o: TrackOffload, req: TrackReadRequest): Promise<TrackReadResult> {
    const late = o.lateWrites(req.vehicleId);
    const result = await o.read(req);
    if (result.blocks.length > 0 && o.lateWrites(req.vehicleId) === late && this.db.open) {
      for (const b of result.blocks) this.keepBlock(req.vehicleId, b.day, b.points, b.data);
    }
    return result;
  }

  /**
   * readTrack without the Promise. Finished days come from their blocks (built here on first read),
   * the rest of the period (today, or a box query) from the index.
   */
  readTrackSync(vehicleId: number, from: number, to: number, limit: number, box?: GeoBox): TrackData {
    if (box || to <= from) return this.readIndexSync(vehicleId, from, to, limit, box);
    const firstDay = chinaDayIndex(from);
    const lastDay = chinaDayIndex(to - 1);
    // Days that ended at least SEAL_GRACE_MS ago: late rows are rare after that, and they drop the block.
    const lastSealed = Math.min(lastDay, chinaDayIndex(this.clock() - SEAL_GRACE_MS) - 1);
    const parts: Part[] = [];
    if (lastSealed >= firstDay) {
      const stored = new Map((this.db.prepare('SELECT day, data FROM track_block WHERE vehicle_id = ? AND day >= ? AND day <= ?').raw(true)
        .all(vehicleId, firstDay, lastSealed) as [number, Uint8Array][]).map(([day, data]) => [day, data]));
      for (let day = firstDay; day <= lastSealed; day++) {
        const data = stored.get(day);
        const t = data === undefined ? this.buildBlock(vehicleId, day)
          : data.byteLength === 0 ? this.readIndexSync(vehicleId, chinaDayStartMs(day), chinaDayStartMs(day + 1), Number.MAX_SAFE_INTEGER)
          : decodeTrack(data);
        if (t.count > 0) parts.push(within(t, from, to));
      }
    }
    const tailFrom = Math.max(from, chinaDayStartMs(lastSealed + 1));
    if (tailFrom < to) {
      const t = this.readIndexSync(vehicleId, tailFrom, to, limit);
      if (t.count > 0) parts.push({ t, a: 0, b: t.count, total: t.total });
    }
    return assemble(parts, vehicleId, from, to, limit);
  }

  /**
   * Encodes one finished day from the index and keeps it (days without points keep no block). A block
   * must read back exactly what the index gives: a day with values finer than the track format (ms
   * times, a negative speed the reports flag as an error, ...) keeps an empty block, meaning "read this
   * day from the index", so the cache never changes an answer.
   */
  private buildBlock(vehicleId: number, day: number): TrackData {
    const t = this.readIndexSync(vehicleId, chinaDayStartMs(day), chinaDayStartMs(day + 1), Number.MAX_SAFE_INTEGER);
    if (t.count > 0) {
      const bytes = encodeTrack(t);
      const exact = sameColumns(t, decodeTrack(bytes));
      this.keepBlock(vehicleId, day, t.count, exact ? bytes : new Uint8Array(0));
    }
    return t;
  }

  /** The index path: one range of positions(vehicle_id, gps_time), rows as raw arrays into columns. */
  readIndexSync(vehicleId: number, from: number, to: number, limit: number, box?: GeoBox): TrackData {
    const boxParams = box ? [box.minLng, box.maxLng, box.minLat, box.maxLat] : [];
    const where = box ? `${PERIOD} AND ${IN_BOX}` : PERIOD;
    const total = (this.db.prepare(`SELECT COUNT(*) FROM positions WHERE ${where}`).pluck().get(vehicleId, from, to, ...boxParams) as number);
    const n = Math.max(0, Math.min(total, limit));
    const t = allocateTrack(n);
    t.vehicleId = vehicleId;
    t.startTime = from;
    t.endTime = to;
    t.total = total;
    if (n === 0) {
      t.count = 0;
      return t;
    }
    const rows = this.db.prepare(`SELECT ${COLUMNS} FROM positions WHERE ${where} ORDER BY gps_time LIMIT ?`).raw(true)
      .iterate(vehicleId, from, to, ...boxParams, n) as IterableIterator<RawRow>;
    const { time, lng, lat, speed, heading, altitude, status, alarm, mileage } = t;
    let i = 0;
    for (const r of rows) {
      // A row written between the count and this read can only add rows; stop at the allocated size.
      if (i >= n) break;
      time[i] = r[0];
      lng[i] = r[1];
      lat[i] = r[2];
      speed[i] = r[3];
      heading[i] = r[4];
      altitude[i] = r[5];
      status[i] = r[6];
      alarm[i] = r[7];
      mileage[i] = r[8] ?? NaN;
      i++;
    }
    if (i < n) return shrink(t, i);
    return t;
  }

  async count(vehicleId: number, from: number, to: number): Promise<number> {
    return this.db.prepare(`SELECT COUNT(*) FROM positions WHERE ${PERIOD}`).pluck().get(vehicleId, from, to) as number;
  }

  async page(vehicleId: number, from: number, to: number, offset: number, limit: number): Promise<PositionRow[]> {
    return (this.db.prepare(`SELECT * FROM positions WHERE ${PERIOD} ORDER BY gps_time LIMIT ? OFFSET ?`)
      .all(vehicleId, from, to, limit, offset) as PositionRowDb[]).map((r) => ({
      vehicleId: r.vehicle_id, gpsTime: r.gps_time, lng: r.lng, lat: r.lat, speed: r.speed, heading: r.heading, altitude: r.altitude,
      status: r.status, alarm: r.alarm, mileage: r.mileage, receivedAt: r.received_at,
    }));
  }

  async pageAfter(vehicleId: number, from: number, to: number, after: TrailKey | undefined, offset: number, limit: number): Promise<{ rows: PositionRow[]; last: TrailKey | undefined }> {
    let start = after;
    let inclusive = false;
    if (start === undefined && offset > 0) {
      // Where the offset-th row is: the skip walks the (vehicle_id, gps_time) index only (it holds the
      // row id), never the table rows, so a deep page no longer reads every row before it.
      const key = this.db.prepare(`SELECT gps_time, rowid FROM positions WHERE ${PERIOD} ORDER BY gps_time, rowid LIMIT 1 OFFSET ?`).raw(true)
        .get(vehicleId, from, to, offset) as [number, number] | undefined;
      if (!key) return { rows: [], last: undefined };
      start = { time: key[0], rowid: key[1] };
      inclusive = true;
    }
    // Row values compare (gps_time, rowid) in the index's own order: one seek, then `limit` rows.
    const rows = (start === undefined
      ? this.db.prepare(`SELECT rowid AS id, * FROM positions WHERE ${PERIOD} ORDER BY gps_time, rowid LIMIT ?`).all(vehicleId, from, to, limit)
      : this.db.prepare(`SELECT rowid AS id, * FROM positions WHERE ${PERIOD} AND (gps_time, rowid) ${inclusive ? '>=' : '>'} (?, ?) ORDER BY gps_time, rowid LIMIT ?`)
        .all(vehicleId, from, to, start.time, start.rowid, limit)) as (PositionRowDb & { id: number })[];
    const tail = rows[rows.length - 1];
    return {
      rows: rows.map((r) => ({
        vehicleId: r.vehicle_id, gpsTime: r.gps_time, lng: r.lng, lat: r.lat, speed: r.speed, heading: r.heading, altitude: r.altitude,
        status: r.status, alarm: r.alarm, mileage: r.mileage, receivedAt: r.received_at,
      })),
      last: tail ? { time: tail.gps_time, rowid: tail.id } : undefined,
    };
  }

  async vehiclesInBox(scope: Scope, from: number, to: number, box: GeoBox, limit: number): Promise<{ rows: VehicleInBox[]; total: number }> {
    // The vehicles in scope drive the join, so each one is an index range on (vehicle_id, gps_time):
    // the cost is the fleet's rows in the window (bounded by the caller at 24 hours), not the table.
    const s = scopeCondition(scope, 'c');
    // CROSS JOIN keeps vehicles outside: without it the planner scans the whole positions index for an
    // administrator's unscoped search (no ANALYZE statistics), i.e. all history instead of one window.
    const all = this.db.prepare(`SELECT v.id, MIN(p.gps_time), MAX(p.gps_time), COUNT(*)
                                 FROM vehicle v JOIN company c ON c.id = v.company_id
                                 CROSS JOIN positions p
                                 WHERE p.vehicle_id = v.id AND p.gps_time >= ? AND p.gps_time < ? AND ${s.sql}
                                   AND p.lng >= ? AND p.lng <= ? AND p.lat >= ? AND p.lat <= ?
                                 GROUP BY v.id ORDER BY v.id`)
      .raw(true).all(from, to, ...s.params, box.minLng, box.maxLng, box.minLat, box.maxLat) as [number, number, number, number][];
    const rows: VehicleInBox[] = [];
    for (let i = 0; i < all.length && i < limit; i++) {
      const r = all[i]!;
      rows.push({ vehicleId: r[0], firstTime: r[1], lastTime: r[2], points: r[3] });
    }
    return { rows, total: all.length };
  }
}

/** Every column equal value for value (NaN mileage equals NaN). */
function sameColumns(a: TrackData, b: TrackData): boolean {
  if (a.count !== b.count) return false;
  const columns = ['time', 'lng', 'lat', 'speed', 'heading', 'altitude', 'status', 'alarm'] as const;
  for (const c of columns) {
    const x = a[c];
    const y = b[c];
    for (let i = 0; i < a.count; i++) if (x[i] !== y[i]) return false;
  }
  for (let i = 0; i < a.count; i++) {
    const x = a.mileage[i]!;
    const y = b.mileage[i]!;
    if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) return false;
  }
  return true;
}

/** First index with time >= t (times are sorted). */
function lowerBound(time: Float64Array, n: number, t: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function within(t: TrackData, from: number, to: number): Part {
  const a = lowerBound(t.time, t.count, from);
  const b = lowerBound(t.time, t.count, to);
  return { t, a, b, total: b - a };
}

/** Concatenates the parts' points in order, at most `limit`; `total` counts them all. */
function assemble(parts: readonly Part[], vehicleId: number, from: number, to: number, limit: number): TrackData {
  let total = 0;
  for (const p of parts) total += p.total;
  const n = Math.max(0, Math.min(total, limit));
  const out = allocateTrack(n);
  Object.assign(out, { vehicleId, startTime: from, endTime: to, total, count: n });
  let k = 0;
  for (const { t, a, b: end } of parts) {
    if (k >= n) break;
    const b = Math.min(end, a + (n - k));
    out.time.set(t.time.subarray(a, b), k);
    out.lng.set(t.lng.subarray(a, b), k);
    out.lat.set(t.lat.subarray(a, b), k);
    out.speed.set(t.speed.subarray(a, b), k);
    out.heading.set(t.heading.subarray(a, b), k);
    out.altitude.set(t.altitude.subarray(a, b), k);
    out.status.set(t.status.subarray(a, b), k);
    out.alarm.set(t.alarm.subarray(a, b), k);
    out.mileage.set(t.mileage.subarray(a, b), k);
    k += b - a;
  }
  return out;
}

function shrink(t: TrackData, n: number): TrackData {
  return {
    ...t, count: n, time: t.time.slice(0, n), lng: t.lng.slice(0, n), lat: t.lat.slice(0, n), speed: t.speed.slice(0, n),
    heading: t.heading.slice(0, n), altitude: t.altitude.slice(0, n), status: t.status.slice(0, n), alarm: t.alarm.slice(0, n),
    mileage: t.mileage.slice(0, n),
  };
}
