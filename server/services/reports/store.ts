/**
 * Storage the positioning-quality reports need beyond the shared repositories: the daily rollup
 * cache (table `report_vehicle_day`, migration 4) and one-row probes for a vehicle's valid neighbour
 * points around a window. SQLite only for now; it sits here rather than in server/db/ because this
 * folder owns the rollup (a PostgreSQL backend would implement the same interface).
 */
import type { DayMetrics } from '../../../domain/track/daily-metrics.ts';
import { FUTURE_TOLERANCE_MS, invalidReason } from '../../../domain/track/daily-metrics.ts';
import { CHINA_OFFSET_MS, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { SqliteDb } from '../../db/sqlite.ts';

export interface StoredPoint {
  readonly time: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
}

export interface ReportStore {
  /** Cached days of one vehicle with from <= date <= to (`YYYY-MM-DD`), by date. */
  cachedDays(vehicleId: number, fromDate: string, toDate: string): Map<string, CachedDay>;
  /** Stores completed days (replacing older rows of the same vehicle and day). */
  saveDays(vehicleId: number, days: readonly CachedDay[], computedAt: number): void;
  /** The vehicle's newest valid points with gps_time < before, at most `count` (from that many rows back), oldest first. */
  validPointsBefore(vehicleId: number, before: number, count: number): StoredPoint[];
  /** The vehicle's oldest valid point with gps_time >= from (a few rows ahead at most). */
  validPointFrom(vehicleId: number, from: number): StoredPoint | undefined;
  /**
   * Rows with from <= gps_time < to whose GPS time is more than FUTURE_TOLERANCE_MS after their arrival,
   * oldest first, as [gpsTime, receivedAt] pairs (the columnar track read carries no arrival time).
   */
  futureRows(vehicleId: number, from: number, to: number): [gpsTime: number, receivedAt: number][];
  /** Stored rows of China days [firstDay, lastDay] (an index-only count). */
  rowCount(vehicleId: number, firstDay: number, lastDay: number): number;
  /** Stored rows per China day index for days [firstDay, lastDay] (days without rows are absent). */
  dayCounts(vehicleId: number, firstDay: number, lastDay: number): Map<number, number>;
}

export interface CachedDay {
  readonly metrics: DayMetrics;
  /** The vehicle's newest point fell on this day when it was computed: its last point was undetermined. */
  readonly open: boolean;
}

interface DayRow {
  day: string; total_gps: number; pass: number; undetermined: number; error: number; drift: number; loss_times: number;
  loss_hours: number; loss_km: number; continuous_km: number; mileage_km: number; early_morning_km: number; online: number; operation: number; open: number;
}

interface PointRow { gps_time: number; lng: number; lat: number; speed: number; received_at: number }

/** Rows looked at when probing for a valid neighbour: a run of more invalid points than this counts as no neighbour. */
const NEIGHBOUR_PROBE_ROWS = 16;

function toCached(r: DayRow): CachedDay {
  const metrics: DayMetrics = {
    date: r.day, totalGps: r.total_gps, pass: r.pass, undetermined: r.undetermined, error: r.error, drift: r.drift, lossTimes: r.loss_times,
    lossHours: r.loss_hours, lossKm: r.loss_km, continuousKm: r.continuous_km, mileageKm: r.mileage_km, earlyMorningKm: r.early_morning_km,
    online: r.online === 1, operation: r.operation === 1,
  };
  return { metrics, open: r.open === 1 };
}

function firstValid(rows: readonly PointRow[]): StoredPoint | undefined {
  for (const r of rows) {
    if (invalidReason(r.gps_time, r.lng, r.lat, r.speed, r.received_at) === null) return { time: r.gps_time, lng: r.lng, lat: r.lat, speed: r.speed };
  }
  return undefined;
}

export class SqliteReportStore implements ReportStore {
  private readonly selectDays;
  private readonly insertDay;
  private readonly saveAll;
  private readonly before;
  private readonly from;
  private readonly future;
  private readonly counts;
  private readonly count;

  constructor(db: SqliteDb) {
    this.selectDays = db.prepare('SELECT * FROM report_vehicle_day WHERE vehicle_id = ? AND day >= ? AND day <= ?');
    this.insertDay = db.prepare(`INSERT OR REPLACE INTO report_vehicle_day (vehicle_id, day, total_gps, pass, undetermined, error, drift, loss_times,
      loss_hours, loss_km, continuous_km, mileage_km, early_morning_km, online, operation, open, computed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.saveAll = db.transaction((vehicleId: number, days: readonly CachedDay[], at: number) => {
      for (const { metrics: d, open } of days) {
        this.insertDay.run(vehicleId, d.date, d.totalGps, d.pass, d.undetermined, d.error, d.drift, d.lossTimes, d.lossHours, d.lossKm,
          d.continuousKm, d.mileageKm, d.earlyMorningKm, d.online ? 1 : 0, d.operation ? 1 : 0, open ? 1 : 0, at);
      }
    });
    // Both probes are one (vehicle_id, gps_time) index range read of a few rows.
    this.before = db.prepare(`SELECT gps_time, lng, lat, speed, received_at FROM positions WHERE vehicle_id = ? AND gps_time < ?
                              ORDER BY gps_time DESC LIMIT ?`);
    this.from = db.prepare(`SELECT gps_time, lng, lat, speed, received_at FROM positions WHERE vehicle_id = ? AND gps_time >= ?
                            ORDER BY gps_time LIMIT ${NEIGHBOUR_PROBE_ROWS}`);
    this.future = db.prepare(`SELECT gps_time, received_at FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ?
                              AND gps_time > received_at + ${FUTURE_TOLERANCE_MS} ORDER BY gps_time`).raw(true);
    // Index-only: (vehicle_id, gps_time) holds everything this reads, whatever the table's row order.
    this.counts = db.prepare(`SELECT (gps_time + ${CHINA_OFFSET_MS}) / ${DAY_MS} AS day, COUNT(*) AS n FROM positions
                              WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? GROUP BY day`).raw(true);
    this.count = db.prepare('SELECT COUNT(*) FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ?').pluck();
  }

  cachedDays(vehicleId: number, fromDate: string, toDate: string): Map<string, CachedDay> {
    const rows = this.selectDays.all(vehicleId, fromDate, toDate) as DayRow[];
    return new Map(rows.map((r) => [r.day, toCached(r)]));
  }

  saveDays(vehicleId: number, days: readonly CachedDay[], computedAt: number): void {
    if (days.length > 0) this.saveAll(vehicleId, days, computedAt);
  }

  validPointsBefore(vehicleId: number, before: number, count: number): StoredPoint[] {
    const out: StoredPoint[] = [];
    for (const r of this.before.all(vehicleId, before, count) as PointRow[]) {
      if (invalidReason(r.gps_time, r.lng, r.lat, r.speed, r.received_at) === null) out.push({ time: r.gps_time, lng: r.lng, lat: r.lat, speed: r.speed });
    }
    return out.reverse();
  }

  validPointFrom(vehicleId: number, from: number): StoredPoint | undefined {
    return firstValid(this.from.all(vehicleId, from) as PointRow[]);
  }

  rowCount(vehicleId: number, firstDay: number, lastDay: number): number {
    return this.count.get(vehicleId, chinaDayStartMs(firstDay), chinaDayStartMs(lastDay + 1)) as number;
  }

  dayCounts(vehicleId: number, firstDay: number, lastDay: number): Map<number, number> {
    return new Map(this.counts.all(vehicleId, chinaDayStartMs(firstDay), chinaDayStartMs(lastDay + 1)) as [number, number][]);
  }

  futureRows(vehicleId: number, from: number, to: number): [gpsTime: number, receivedAt: number][] {
    return this.future.all(vehicleId, from, to) as [number, number][];
  }
}
