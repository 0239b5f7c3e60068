/**
 * Alarm statistics over the stored alarms: one GROUP BY per dimension over the period's range of
 * the `alarm_stats` covering index (migration 11), scoped by the company path like every read.
 */
import { chinaDateOfDay, chinaDayStartMs, CHINA_OFFSET_MS, DAY_MS } from '../../../domain/track/days.ts';
import { parseDriverKey } from '../../../domain/alarms/stats.ts';
import type {
  AlarmStatsRepository, CompanyStat, DateStat, DriverStat, StatsCell, StatsFilter, TypeStat, VehicleStat,
} from '../alarm-stats-types.ts';
import type { Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import { alarmFilterConditions, toAlarm, type AlarmRowDb } from './alarms.ts';

/** The counts every row carries (StatCounts). */
const COUNTS = `count(*) AS count, sum(a.count) AS occurrences, sum(a.deal_status = 0) AS unprocessed, count(DISTINCT a.vehicle_id) AS vehicles`;
const DRIVER_KEY = `CASE WHEN a.driver_cert <> '' THEN 'c:' || a.driver_cert WHEN a.driver_name <> '' THEN 'n:' || a.driver_name ELSE 'v:' || a.vehicle_id END`;

interface CountsDb { count: number; occurrences: number; unprocessed: number; vehicles: number }
const counts = (r: CountsDb) => ({ count: r.count, occurrences: r.occurrences ?? 0, unprocessed: r.unprocessed ?? 0, vehicles: r.vehicles });

interface Where { sql: string; params: (string | number)[]; from: string }

function where(scope: Scope, f: StatsFilter, cell: StatsCell = {}): Where {
  let start = f.startTime;
  let end = f.endTime;
  if (cell.date !== undefined) {
    const day = Math.floor(Date.parse(`${cell.date}T00:00:00Z`) / DAY_MS);
    start = Math.max(start, chinaDayStartMs(day));
    end = Math.min(end, chinaDayStartMs(day + 1) - 1);
  }
  const { parts, params } = alarmFilterConditions(scope, { ...f, startTime: start, endTime: end });
  if (cell.alarmType !== undefined) {
    parts.push('a.alarm_type = ?');
    params.push(cell.alarmType);
  }
  if (cell.vehicleId !== undefined) {
    parts.push('a.vehicle_id = ?');
    params.push(cell.vehicleId);
  }
  if (cell.ownCompanyId !== undefined) {
    parts.push('a.company_id = ?');
    params.push(cell.ownCompanyId);
  }
  if (cell.driverKey !== undefined) {
    const d = parseDriverKey(cell.driverKey);
    if (d === undefined) parts.push('0');
    else if (d.kind === 'cert') {
      parts.push('a.driver_cert = ?');
      params.push(d.cert);
    } else if (d.kind === 'name') {
      parts.push("a.driver_cert = '' AND a.driver_name = ?");
      params.push(d.name);
    } else {
      parts.push("a.driver_cert = '' AND a.driver_name = '' AND a.vehicle_id = ?");
      params.push(d.vehicleId);
    }
  }
  // The whole forest needs no company row: skipping the join saves one rowid lookup per alarm.
  return { sql: parts.join(' AND '), params, from: scope.all ? 'FROM alarm a' : 'FROM alarm a JOIN company c ON c.id = a.company_id' };
}

export class SqliteAlarmStatsRepository implements AlarmStatsRepository {
  constructor(private readonly db: SqliteDb) {}

  async byType(scope: Scope, f: StatsFilter): Promise<TypeStat[]> {
    const w = where(scope, f);
    const rows = this.db.prepare(`SELECT a.alarm_type, ${COUNTS} ${w.from} WHERE ${w.sql} GROUP BY a.alarm_type ORDER BY count DESC, a.alarm_type`)
      .all(...w.params) as (CountsDb & { alarm_type: number })[];
    return rows.map((r) => ({ alarmType: r.alarm_type, ...counts(r) }));
  }

  async byDate(scope: Scope, f: StatsFilter): Promise<DateStat[]> {
    const w = where(scope, f);
    // China day index: GMT+8 days since the epoch (start_time is positive, so integer division floors).
    const rows = this.db.prepare(`SELECT (a.start_time + ${CHINA_OFFSET_MS}) / ${DAY_MS} AS day, ${COUNTS} ${w.from} WHERE ${w.sql} GROUP BY day ORDER BY day`)
      .all(...w.params) as (CountsDb & { day: number })[];
    return rows.map((r) => ({ date: chinaDateOfDay(r.day), ...counts(r) }));
  }

  async byVehicle(scope: Scope, f: StatsFilter): Promise<VehicleStat[]> {
    const w = where(scope, f);
    const rows = this.db.prepare(`SELECT s.*, v.vehiidno, v.company_id AS vehicle_company, vc.name AS company_name FROM (
                                    SELECT a.vehicle_id, ${COUNTS} ${w.from} WHERE ${w.sql} GROUP BY a.vehicle_id) s
                                  JOIN vehicle v ON v.id = s.vehicle_id JOIN company vc ON vc.id = v.company_id
                                  ORDER BY s.count DESC, v.vehiidno`)
      .all(...w.params) as (CountsDb & { vehicle_id: number; vehiidno: string; vehicle_company: number; company_name: string })[];
    return rows.map((r) => ({ vehicleId: r.vehicle_id, vehiidno: r.vehiidno, companyId: r.vehicle_company, companyName: r.company_name, ...counts(r) }));
  }

  async byDriver(scope: Scope, f: StatsFilter): Promise<DriverStat[]> {
    const w = where(scope, f);
    // The vehicle shown for a driver is the one of the driver's newest alarm (highest id).
    const rows = this.db.prepare(`SELECT s.*, b.vehicle_id, v.vehiidno FROM (
                                    SELECT ${DRIVER_KEY} AS driver_key, max(a.driver_cert) AS driver_cert, max(a.driver_name) AS driver_name,
                                           max(a.id) AS last_id, ${COUNTS}
                                    ${w.from} WHERE ${w.sql} GROUP BY driver_key) s
                                  JOIN alarm b ON b.id = s.last_id JOIN vehicle v ON v.id = b.vehicle_id
                                  ORDER BY s.count DESC, s.driver_key`)
      .all(...w.params) as (CountsDb & { driver_key: string; driver_cert: string; driver_name: string; vehicle_id: number; vehiidno: string })[];
    return rows.map((r) => ({
      driverKey: r.driver_key, driverCert: r.driver_cert, driverName: r.driver_name, vehicleId: r.vehicle_id, vehiidno: r.vehiidno, ...counts(r),
    }));
  }

  async byCompany(scope: Scope, f: StatsFilter): Promise<CompanyStat[]> {
    const w = where(scope, f);
    const rows = this.db.prepare(`SELECT a.company_id, ${COUNTS} ${w.from} WHERE ${w.sql} GROUP BY a.company_id`)
      .all(...w.params) as (CountsDb & { company_id: number })[];
    return rows.map((r) => ({ companyId: r.company_id, ...counts(r) }));
  }

  async setDriver(vehicleId: number, driver: { readonly cert: string; readonly name: string; readonly signInTime: number } | null, now: number): Promise<void> {
    if (driver === null) {
      this.db.prepare('DELETE FROM vehicle_driver WHERE vehicle_id = ?').run(vehicleId);
      return;
    }
    this.db.prepare(`INSERT INTO vehicle_driver (vehicle_id, driver_cert, driver_name, sign_in_time, update_time) VALUES (?, ?, ?, ?, ?)
                     ON CONFLICT (vehicle_id) DO UPDATE SET driver_cert = excluded.driver_cert, driver_name = excluded.driver_name,
                       sign_in_time = excluded.sign_in_time, update_time = excluded.update_time`).run(vehicleId, driver.cert, driver.name, driver.signInTime, now);
  }

  async alarms(scope: Scope, f: StatsFilter, cell: StatsCell, offset: number, limit: number) {
    const w = where(scope, f, cell);
    const total = (this.db.prepare(`SELECT count(*) AS n ${w.from} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    const rows = limit <= 0 ? [] : this.db.prepare(`SELECT a.*, v.vehiidno, c.name AS company_name, c.path FROM alarm a
                                                    JOIN vehicle v ON v.id = a.vehicle_id JOIN company c ON c.id = a.company_id
                                                    WHERE ${w.sql} ORDER BY a.start_time DESC, a.id DESC LIMIT ? OFFSET ?`)
      .all(...w.params, limit, offset) as (AlarmRowDb & { driver_cert: string; driver_name: string })[];
    return { total, records: rows.map((r) => ({ ...toAlarm(r), driverCert: r.driver_cert, driverName: r.driver_name })) };
  }
}
