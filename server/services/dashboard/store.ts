/**
 * The dashboard's SQL (SQLite): counts over alarms and registrations in a company scope, the guide
 * steps per user, and the per-vehicle-day driving figures of the 7-day chart (migration 20).
 * It sits here rather than in server/db/ because this folder owns those tables, as reports/ does.
 */
import { analyzeTrack } from '../../../domain/track/analyze.ts';
import { splitInvalid } from '../../../domain/track/daily-metrics.ts';
import { chinaDateOfDay, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import { drivingMinutesByDay, RISK_WEIGHTS, type RiskPoints } from '../../../domain/dashboard/rules.ts';
import type { SqliteDb } from '../../db/sqlite.ts';
import { scopeCondition, type Scope } from '../../db/scope.ts';

export interface GuideStep {
  readonly guideModule: string;
  readonly version: string;
  readonly step: number;
  readonly stepName: string;
  readonly createTime: number;
}

export interface DayDriving {
  readonly date: string;
  readonly mileageKm: number;
  readonly drivingMinutes: number;
  readonly vehicles: number;
}

/** Position rows read per vehicle and day range at most (1 Hz for 8 days is 691,200). */
const MAX_ROWS = 1_000_000;
/** Vehicles computed between two yields to the event loop (the gateway keeps answering). */
const YIELD_EVERY = 200;

export class DashboardStore {
  constructor(private readonly db: SqliteDb) {}

  // ── counts in a scope ──

  /** Alarms raised in [from, to] (valid or not: an alarm the map shows is one that was raised). */
  alarmCount(scope: Scope, from: number, to: number): number {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`SELECT COUNT(*) AS n FROM alarm a JOIN company c ON c.id = a.company_id
      WHERE a.start_time >= ? AND a.start_time <= ? AND ${s.sql}`).get(from, to, ...s.params) as { n: number };
    return row.n;
  }

  /** Vehicles with an unprocessed high- or medium-risk alarm raised in [from, to]: the fleet's open risks. */
  riskVehicles(scope: Scope, from: number, to: number): number {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`SELECT COUNT(DISTINCT a.vehicle_id) AS n FROM alarm a JOIN company c ON c.id = a.company_id
      WHERE a.start_time >= ? AND a.start_time <= ? AND a.deal_status = 0 AND a.risk_level IN ('high', 'medium') AND ${s.sql}`)
      .get(from, to, ...s.params) as { n: number };
    return row.n;
  }

  /** Vehicles registered on the platform (created) in [from, to], by their company. */
  registrations(scope: Scope, from: number, to: number): number {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`SELECT COUNT(*) AS n FROM vehicle v JOIN company c ON c.id = v.company_id
      WHERE v.create_time >= ? AND v.create_time <= ? AND ${s.sql}`).get(from, to, ...s.params) as { n: number };
    return row.n;
  }

  /** Distinct vehicles with an alarm of the given codes raised in [from, to]. */
  vehiclesWithAlarms(scope: Scope, codes: readonly number[], from: number, to: number): number {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`SELECT COUNT(DISTINCT a.vehicle_id) AS n FROM alarm a JOIN company c ON c.id = a.company_id
      WHERE a.start_time >= ? AND a.start_time <= ? AND a.alarm_type IN (${codes.map(() => '?').join(',')}) AND ${s.sql}`)
      .get(from, to, ...codes, ...s.params) as { n: number };
    return row.n;
  }

  /** Vehicles (devices) in the scope. */
  vehicleCount(scope: Scope): number {
    const s = scopeCondition(scope, 'c');
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM vehicle v JOIN company c ON c.id = v.company_id WHERE ${s.sql}`).get(...s.params) as { n: number }).n;
  }

  /** Weighted alarm points per vehicle over [from, to], invalid alarms left out (domain/dashboard RISK_WEIGHTS). */
  riskPoints(scope: Scope, from: number, to: number): RiskPoints[] {
    const s = scopeCondition(scope, 'c');
    const w = RISK_WEIGHTS;
    return this.db.prepare(`SELECT a.vehicle_id AS vehicleId, v.vehiidno AS vehiidno,
        SUM(CASE a.risk_level WHEN 'high' THEN ${w.high} WHEN 'medium' THEN ${w.medium} WHEN 'low' THEN ${w.low} ELSE ${w.ordinary} END) AS points
      FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id JOIN company c ON c.id = a.company_id
      WHERE a.start_time >= ? AND a.start_time <= ? AND a.deal_status != 3 AND ${s.sql}
      GROUP BY a.vehicle_id, v.vehiidno`).all(from, to, ...s.params) as RiskPoints[];
  }

  /** The newest alarms raised since `from`, newest first. */
  recentAlarms(scope: Scope, from: number, limit: number): { id: number; vehicleId: number; vehiidno: string; companyName: string; alarmType: number; riskLevel: string; startTime: number; dealStatus: number; speed: number }[] {
    const s = scopeCondition(scope, 'c');
    return this.db.prepare(`SELECT a.id, a.vehicle_id AS vehicleId, v.vehiidno, c.name AS companyName, a.alarm_type AS alarmType,
        a.risk_level AS riskLevel, a.start_time AS startTime, a.deal_status AS dealStatus, a.speed
      FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id JOIN company c ON c.id = a.company_id
      WHERE a.start_time >= ? AND ${s.sql} ORDER BY a.start_time DESC, a.id DESC LIMIT ?`).all(from, ...s.params, limit) as never;
  }

  // ── guide ──

  guideSteps(userId: number, guideModule: string, version: string): GuideStep[] {
    return this.db.prepare(`SELECT guide_module AS guideModule, version, step, step_name AS stepName, create_time AS createTime
      FROM user_guide WHERE user_id = ? AND guide_module = ? AND version = ? ORDER BY step`).all(userId, guideModule, version) as GuideStep[];
  }

  /** Records a step; the first record of a step is kept (the guide is a history, not a setting). */
  addGuideStep(userId: number, s: Omit<GuideStep, 'createTime'>, now: number): void {
    this.db.prepare(`INSERT OR IGNORE INTO user_guide (user_id, guide_module, version, step, step_name, create_time) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(userId, s.guideModule, s.version, s.step, s.stepName, now);
  }

  // ── 7-day driving ──

  /** Sums of the scope's vehicles for China days [firstDay, lastDay] (days must be complete: `ensureDays`). */
  driving(scope: Scope, firstDay: number, lastDay: number): DayDriving[] {
    const s = scopeCondition(scope, 'c');
    const rows = this.db.prepare(`SELECT d.day AS date, SUM(d.mileage_km) AS mileageKm, SUM(d.driving_minutes) AS drivingMinutes, COUNT(*) AS vehicles
      FROM dashboard_vehicle_day d JOIN vehicle v ON v.id = d.vehicle_id JOIN company c ON c.id = v.company_id
      WHERE d.day >= ? AND d.day <= ? AND ${s.sql} GROUP BY d.day`).all(chinaDateOfDay(firstDay), chinaDateOfDay(lastDay), ...s.params) as DayDriving[];
    const byDate = new Map(rows.map((r) => [r.date, r]));
    const out: DayDriving[] = [];
    for (let d = firstDay; d <= lastDay; d++) {
      const date = chinaDateOfDay(d);
      out.push(byDate.get(date) ?? { date, mileageKm: 0, drivingMinutes: 0, vehicles: 0 });
    }
    return out;
  }

  /** Days of [firstDay, lastDay] not computed yet. */
  missingDays(firstDay: number, lastDay: number): number[] {
    const done = new Set((this.db.prepare('SELECT day FROM dashboard_day_done WHERE day >= ? AND day <= ?')
      .all(chinaDateOfDay(firstDay), chinaDateOfDay(lastDay)) as { day: string }[]).map((r) => r.day));
    const out: number[] = [];
    for (let d = firstDay; d <= lastDay; d++) if (!done.has(chinaDateOfDay(d))) out.push(d);
    return out;
  }

  /**
   * Computes the finished China days [lo, hi] for every vehicle with positions then: the vehicles with any
   * history are found by hopping the (vehicle_id, gps_time) index (one seek per such vehicle, so a fleet
   * without history costs nothing), then one index range read per vehicle (from an hour before, so the
   * pair across the first midnight counts), the track
   * rules' per-day mileage (drift left out) and the driving minutes; then marks the days done.
   * Rows of days older than `keepFromDay` are dropped (the chart never reads them again).
   */
  async computeDays(lo: number, hi: number, now: number, keepFromDay: number): Promise<void> {
    const from = chinaDayStartMs(lo) - 3_600_000;
    const to = chinaDayStartMs(hi) + DAY_MS;
    const nextVehicle = this.db.prepare('SELECT vehicle_id AS id FROM positions WHERE vehicle_id > ? ORDER BY vehicle_id LIMIT 1');
    const read = this.db.prepare('SELECT gps_time, lng, lat, speed FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? ORDER BY gps_time LIMIT ?').raw(true);
    const rows: [string, number, number, number][] = [];
    let vehicleId = 0;
    let visited = 0;
    for (let k = 0; ; k++) {
      const next = nextVehicle.get(vehicleId) as { id: number } | undefined;
      if (!next) break;
      vehicleId = next.id;
      visited++;
      const data = read.all(vehicleId, from, to, MAX_ROWS) as [number, number, number, number][];
      if (data.length > 0) {
        const n = data.length;
        const raw = { time: new Float64Array(n), lng: new Float64Array(n), lat: new Float64Array(n), speed: new Float32Array(n) };
        for (let i = 0; i < n; i++) {
          const r = data[i]!;
          raw.time[i] = r[0];
          raw.lng[i] = r[1];
          raw.lat[i] = r[2];
          raw.speed[i] = r[3];
        }
        const { valid } = splitInvalid(raw);
        const km = new Map(analyzeTrack(valid).days.map((d) => [d.date, d.mileageKm]));
        const minutes = drivingMinutesByDay(valid.time, valid.speed, lo, hi);
        for (let d = lo; d <= hi; d++) {
          const date = chinaDateOfDay(d);
          const m = km.get(date) ?? 0;
          const dm = minutes[d - lo] ?? 0;
          if (m > 0 || dm > 0) rows.push([date, vehicleId, m, dm]);
        }
      }
      // Yield often enough that the gateway keeps answering: every 200 vehicles, and after any long track.
      if (k % YIELD_EVERY === YIELD_EVERY - 1 || data.length > 5000) await new Promise<void>((r) => setImmediate(r));
    }
    const insert = this.db.prepare('INSERT OR REPLACE INTO dashboard_vehicle_day (day, vehicle_id, mileage_km, driving_minutes) VALUES (?, ?, ?, ?)');
    const done = this.db.prepare('INSERT OR REPLACE INTO dashboard_day_done (day, vehicles, computed_at) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const r of rows) insert.run(...r);
      for (let d = lo; d <= hi; d++) done.run(chinaDateOfDay(d), visited, now);
      const keep = chinaDateOfDay(keepFromDay);
      this.db.prepare('DELETE FROM dashboard_vehicle_day WHERE day < ?').run(keep);
      this.db.prepare('DELETE FROM dashboard_day_done WHERE day < ?').run(keep);
    })();
  }
}
