import type { AppraisalSettings } from '../../../domain/appraisal/rules.ts';
import { CHINA_OFFSET_MS, DAY_MS } from '../../../domain/track/days.ts';
import type { AlarmDayCount, AppraisalRepository, StoredAppraisalSetting } from '../appraisal-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import { placeholders } from './rows.ts';

interface SettingRow {
  company_id: number;
  w_driving_skill: number; w_driving_behaviour: number; w_traffic_violation: number; w_traffic_accident: number; w_vehicle_operation: number;
  t_driving_skill: number; t_driving_behaviour: number; t_traffic_violation: number; t_traffic_accident: number; t_vehicle_operation: number;
  creator_id: number | null; creator_name: string; create_time: number; updater_id: number | null; updater_name: string; update_time: number;
}

const toSetting = (r: SettingRow): StoredAppraisalSetting => ({
  companyId: r.company_id,
  settings: {
    weights: {
      drivingSkill: r.w_driving_skill, drivingBehaviour: r.w_driving_behaviour, trafficViolation: r.w_traffic_violation,
      trafficAccident: r.w_traffic_accident, vehicleOperation: r.w_vehicle_operation,
    },
    thresholds: {
      drivingSkill: r.t_driving_skill, drivingBehaviour: r.t_driving_behaviour, trafficViolation: r.t_traffic_violation,
      trafficAccident: r.t_traffic_accident, vehicleOperation: r.t_vehicle_operation,
    },
  },
  creatorId: r.creator_id, creatorName: r.creator_name, createTime: r.create_time,
  updaterId: r.updater_id, updaterName: r.updater_name, updateTime: r.update_time,
});

/** Deal status of an alarm marked invalid (a false alarm): it does not count against the vehicle. */
const INVALID = 3;

export class SqliteAppraisalRepository implements AppraisalRepository {
  constructor(private readonly db: SqliteDb) {}

  async settingsOf(companyIds: readonly number[]): Promise<StoredAppraisalSetting[]> {
    if (companyIds.length === 0) return [];
    const rows = this.db.prepare(`SELECT * FROM appraisal_setting WHERE company_id IN (${placeholders(companyIds.length)})`).all(...companyIds) as SettingRow[];
    return rows.map(toSetting);
  }

  async saveSetting(companyId: number, s: AppraisalSettings, user: { id: number; name: string }, now: number): Promise<StoredAppraisalSetting> {
    const w = s.weights;
    const t = s.thresholds;
    this.db.prepare(`INSERT INTO appraisal_setting (company_id, w_driving_skill, w_driving_behaviour, w_traffic_violation, w_traffic_accident, w_vehicle_operation,
                       t_driving_skill, t_driving_behaviour, t_traffic_violation, t_traffic_accident, t_vehicle_operation,
                       creator_id, creator_name, create_time, updater_id, updater_name, update_time)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                     ON CONFLICT (company_id) DO UPDATE SET
                       w_driving_skill = excluded.w_driving_skill, w_driving_behaviour = excluded.w_driving_behaviour,
                       w_traffic_violation = excluded.w_traffic_violation, w_traffic_accident = excluded.w_traffic_accident,
                       w_vehicle_operation = excluded.w_vehicle_operation, t_driving_skill = excluded.t_driving_skill,
                       t_driving_behaviour = excluded.t_driving_behaviour, t_traffic_violation = excluded.t_traffic_violation,
                       t_traffic_accident = excluded.t_traffic_accident, t_vehicle_operation = excluded.t_vehicle_operation,
                       updater_id = excluded.updater_id, updater_name = excluded.updater_name, update_time = excluded.update_time`)
      .run(companyId, w.drivingSkill, w.drivingBehaviour, w.trafficViolation, w.trafficAccident, w.vehicleOperation,
        t.drivingSkill, t.drivingBehaviour, t.trafficViolation, t.trafficAccident, t.vehicleOperation,
        user.id, user.name, now, user.id, user.name, now);
    return toSetting(this.db.prepare('SELECT * FROM appraisal_setting WHERE company_id = ?').get(companyId) as SettingRow);
  }

  async alarmDayCounts(scope: Scope, from: number, to: number, vehicleIds?: readonly number[]): Promise<AlarmDayCount[]> {
    const s = scopeCondition(scope, 'c');
    const where = ['a.start_time >= ?', 'a.start_time < ?', 'a.deal_status <> ?', s.sql];
    const params: number[] | (number | string)[] = [from, to, INVALID, ...s.params];
    if (vehicleIds !== undefined) {
      if (vehicleIds.length === 0) return [];
      where.push(`a.vehicle_id IN (${placeholders(vehicleIds.length)})`);
      params.push(...vehicleIds);
    }
    // China day of the start: (t + 8 h) div 1 day, integer arithmetic in SQLite.
    const rows = this.db.prepare(`SELECT a.vehicle_id AS vehicleId, a.alarm_type AS alarmType, (a.start_time + ${CHINA_OFFSET_MS}) / ${DAY_MS} AS day, count(*) AS n
                                  FROM alarm a JOIN company c ON c.id = a.company_id
                                  WHERE ${where.join(' AND ')} GROUP BY a.vehicle_id, a.alarm_type, day`).all(...params) as AlarmDayCount[];
    return rows;
  }
}
