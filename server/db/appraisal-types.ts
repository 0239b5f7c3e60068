/** Storage contract of the vehicle appraisal (issue 5; migration 8, `sqlite/appraisal.ts`). */
import type { AppraisalSettings } from '../../domain/appraisal/rules.ts';
import type { Scope } from './scope.ts';

export interface StoredAppraisalSetting {
  readonly companyId: number;
  readonly settings: AppraisalSettings;
  readonly creatorId: number | null;
  readonly creatorName: string;
  readonly createTime: number;
  readonly updaterId: number | null;
  readonly updaterName: string;
  readonly updateTime: number;
}

/** Alarms of one vehicle, type and China day (day index, see domain/track/days.ts). */
export interface AlarmDayCount {
  readonly vehicleId: number;
  readonly alarmType: number;
  readonly day: number;
  readonly n: number;
}

export interface AppraisalRepository {
  /** The stored rows of these companies (absent companies have none). */
  settingsOf(companyIds: readonly number[]): Promise<StoredAppraisalSetting[]>;
  /** Inserts or replaces a company's settings; the creator and create time of an existing row stay. */
  saveSetting(companyId: number, settings: AppraisalSettings, user: { id: number; name: string }, now: number): Promise<StoredAppraisalSetting>;
  /**
   * Alarms started in [from, to) on vehicles whose company is in the scope, counted per vehicle, type
   * and China day; alarms marked invalid (deal status 3, false alarms) are left out.
   */
  alarmDayCounts(scope: Scope, from: number, to: number, vehicleIds?: readonly number[]): Promise<AlarmDayCount[]>;
}
