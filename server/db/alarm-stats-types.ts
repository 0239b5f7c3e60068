/** The repository contract of alarm statistics (migration 11, server/API.md "Alarm statistics"). */
import type { DealStatus } from '../../domain/alarms/engine.ts';
import type { RiskLevel } from '../../domain/alarms/sources.ts';
import type { StatCounts } from '../../domain/alarms/stats.ts';
import type { AlarmRecord } from './alarm-types.ts';
import type { Scope } from './scope.ts';

/** Filters shared by every aggregate; periods include both ends and match on `start_time`. */
export interface StatsFilter {
  readonly startTime: number;
  readonly endTime: number;
  readonly vehicleIds?: readonly number[];
  readonly groups?: readonly number[];
  readonly types?: readonly number[];
  readonly riskLevels?: readonly RiskLevel[];
  readonly dealStatuses?: readonly DealStatus[];
}

/** One chart cell behind `aggregate/alarms`: at most one of each, all combined with AND. */
export interface StatsCell {
  readonly alarmType?: number;
  /** China day `YYYY-MM-DD`. */
  readonly date?: string;
  readonly vehicleId?: number;
  /** A `driverKey` of domain/alarms/stats.ts. */
  readonly driverKey?: string;
  /** Alarms of this company's own vehicles only (the `own` row of the company rollup). */
  readonly ownCompanyId?: number;
}

export interface TypeStat extends StatCounts { readonly alarmType: number }
export interface DateStat extends StatCounts { readonly date: string }
export interface VehicleStat extends StatCounts { readonly vehicleId: number; readonly vehiidno: string; readonly companyId: number; readonly companyName: string }
export interface DriverStat extends StatCounts {
  readonly driverKey: string;
  readonly driverCert: string;
  readonly driverName: string;
  /** The vehicle of an unidentified driver's bucket; for an identified driver the vehicle of its latest alarm. */
  readonly vehicleId: number;
  readonly vehiidno: string;
}
export interface CompanyStat extends StatCounts { readonly companyId: number }

export interface AlarmStatsRepository {
  byType(scope: Scope, f: StatsFilter): Promise<TypeStat[]>;
  byDate(scope: Scope, f: StatsFilter): Promise<DateStat[]>;
  byVehicle(scope: Scope, f: StatsFilter): Promise<VehicleStat[]>;
  byDriver(scope: Scope, f: StatsFilter): Promise<DriverStat[]>;
  /** Per company (own vehicles only); the service rolls subtrees up. */
  byCompany(scope: Scope, f: StatsFilter): Promise<CompanyStat[]>;
  /** The driver signed in on a vehicle (0x0702), or nobody (null: card removed or unreadable). */
  setDriver(vehicleId: number, driver: { readonly cert: string; readonly name: string; readonly signInTime: number } | null, now: number): Promise<void>;
  /** The alarms behind a cell, newest first; `total` counts every match. */
  alarms(scope: Scope, f: StatsFilter, cell: StatsCell, offset: number, limit: number): Promise<{ total: number; records: (AlarmRecord & { driverCert: string; driverName: string })[] }>;
}
