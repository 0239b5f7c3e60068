/**
 * The dashboard's calls (server/API.md "Operation dashboard") as TanStack Query options: one key per
 * call, the spec's refresh cadence (§4) on the ones that refresh. Calls are `silent`: spec §8 says
 * dashboard data failures are only logged, so a panel shows its own state and nothing pops up.
 */
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../api/http.ts';
import { ALARM_REFRESH_MS, ONLINE_REFRESH_MS, yesterday } from '../../../domain/dashboard/rules.ts';

export interface OnlineStats {
  vehicleTotal: number;
  vehicleOnline: number;
  vehicleTodayOnline: number;
  vehicleRunning: number;
  vehicleStop: number;
  vehicleIdle: number;
  vehicleOffline: number;
  vehicleNeverOnline: number;
  vehicleYesterdayRegister: number;
  riskTotal: number;
  onlineRate: number;
}
export interface MapTotals { vehicleTotal: number; vehicleYesterdayRegister: number; alarmToday: number }
/** `pending`: the day is still being counted on the server (a large fleet's first computation of it). */
export interface MileageDay { _id: string; aliveMile: number; aliveMinutes: number; vehicles: number; pending?: boolean }
export interface DeviceHealth { deviceCount: number; t1Count: { t1: number }[]; t2Count: { t2: number }[] }
export interface CompanyOnline { companyId: number; companyName: string; total: number; online: number; onlineRate: number }
export interface RunningAlarm { id: number; vehicleId: number; vehiidno: string; companyName: string; alarmType: number; alarmName: string; riskLevel: string; startTime: number; dealStatus: number; speed: number }
export interface RiskEntry { vehicleId: number; vehiidno: string; totalScore: number }
export interface BehaviourSet { count: number; records: { alarmType: number; alarmName: string; count: number }[] }
export interface DriveBehaviour { driverFatigue: BehaviourSet; vehicleRisk: BehaviourSet }
export type AlarmCounts = Record<string, number> & { startTime: number; endTime: number };
export type Weather = { configured: false } | { configured: true; available: false } | { configured: true; available: true; text: string; temperature: number | null; city: string };
export interface GuideState { guideModule: string; version: string; done: boolean; steps: { step: number; stepName: string }[] }

const quiet = { silent: true } as const;

/** Spec §8: a dashboard data failure is logged, never shown as a toast. */
export function logFailure(what: string, error: unknown): void {
  console.warn(`dashboard: ${what} failed`, error);
}

async function logged<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    logFailure(what, e);
    throw e;
  }
}

export const dashboardQueries = {
  online: () => queryOptions({
    queryKey: ['/home/index', 'online'],
    queryFn: () => logged('online', () => http.get<OnlineStats>('/service-monitor/monitor/getDashboard', undefined, quiet)),
    refetchInterval: ONLINE_REFRESH_MS,
  }),
  /** Spec §4: the map's alarm count every 60 s, polling stops on error. */
  mapTotals: () => queryOptions({
    queryKey: ['/home/index', 'mapTotals'],
    queryFn: () => logged('map totals', () => http.get<MapTotals>('/service-monitor/dashboard/mapTotals', undefined, quiet)),
    refetchInterval: (q) => (q.state.status === 'error' ? false : ALARM_REFRESH_MS),
  }),
  mileage: () => queryOptions({
    queryKey: ['/home/index', 'mileage'],
    queryFn: () => logged('mileage', () => http.get<MileageDay[]>('/service-onlinegps/geography/getVehicleDailyMile', undefined, quiet)),
    staleTime: 10 * 60_000,
  }),
  health: () => queryOptions({
    queryKey: ['/home/index', 'health'],
    queryFn: () => logged('device health', () => http.post<DeviceHealth>('/service-safe/devstatus/errorcount', {}, quiet)),
    refetchInterval: ONLINE_REFRESH_MS,
  }),
  onlineRate: () => queryOptions({
    queryKey: ['/home/index', 'onlineRate'],
    queryFn: () => logged('online rate', () => http.get<{ records: CompanyOnline[] }>('/service-monitor/dashboard/onlineRate', undefined, quiet)),
    refetchInterval: ONLINE_REFRESH_MS,
  }),
  running: () => queryOptions({
    queryKey: ['/home/index', 'running'],
    queryFn: () => logged('running alarms', () => http.get<{ records: RunningAlarm[] }>('/service-monitor/dashboard/runningAlarms', undefined, quiet)),
    refetchInterval: ALARM_REFRESH_MS,
  }),
  risk: () => queryOptions({
    queryKey: ['/home/index', 'risk'],
    queryFn: () => logged('risk ranking', () => http.get<{ records: RiskEntry[] }>('/service-monitor/dashboard/riskRanking', undefined, quiet)),
    refetchInterval: ALARM_REFRESH_MS,
  }),
  /** Yesterday's DMS / ADAS sets; the period is fixed at the China day before today. */
  yesterday: (now: number) => queryOptions({
    queryKey: ['/home/index', 'yesterday', yesterday(now).startTime],
    queryFn: () => logged('yesterday’s alarms', () => http.get<DriveBehaviour>('/service-safe/aggregate/driveBehaviourStat', yesterday(now), quiet)),
    staleTime: 10 * 60_000,
  }),
  lastMonth: () => queryOptions({
    queryKey: ['/home/index', 'lastMonth'],
    queryFn: () => logged('last month’s alarms', () => http.get<AlarmCounts>('/service-safesheet/screenV2/lastMonthAlarmStat', undefined, quiet)),
    refetchInterval: ALARM_REFRESH_MS,
  }),
  weather: () => queryOptions({
    queryKey: ['/home/index', 'weather'],
    queryFn: () => logged('weather', () => http.get<Weather>('/service-ops/weather', undefined, { ...quiet, noCompanyId: true })),
    refetchInterval: 10 * 60_000,
  }),
  guide: (module: string) => queryOptions({
    queryKey: ['/home/index', 'guide', module],
    queryFn: () => logged('guide', () => http.get<GuideState>('/service-priv/guide/fetch', { guideModule: module }, { ...quiet, noCompanyId: true })),
    staleTime: Infinity,
  }),
};

export function addGuideStep(guideModule: string, step: number, stepName: string): Promise<GuideState> {
  return logged('guide step', () => http.post<GuideState>('/service-priv/guide/add', { guideModule, step, stepName }, { ...quiet, noCompanyId: true }));
}
