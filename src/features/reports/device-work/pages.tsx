/**
 * The device work, online analysis and early-morning report pages (issue 18; server/services/device-reports/api.md):
 * one declaration per screen (call, columns, totals) over the shared engine-report frame
 * (../engine-report/EngineReport.tsx): 1–500 checked vehicles, period, 查询, 导出 as a server job, 轨迹回放 per row.
 */
import { alarmName } from '../../../../domain/alarms/catalogue.ts';
import { currentLang } from '../../../i18n/index.ts';
import { cols, DATE, EngineReport, num, text, time, VEHICLE, type ColumnOf, type EngineReportDecl, type EngineReportOptions } from '../engine-report/EngineReport.tsx';
import { formatChinaTime, formatPosition } from '../online-control/period.ts';
import { DEVICE_REPORTS_NS } from './messages.ts';

const DEV = '/service-safe/devstatus';
const GPS = '/service-onlinegps';

const yesNo = (key: string): ColumnOf => text(key, (r, t) => t(r[key] ? 'yes' : 'no'), 80, 100);
/** A time that may be absent (no contact that day, a fault still holding). */
const maybeTime = (key: string, absent: 'none' | 'ongoing' = 'none'): ColumnOf =>
  text(key, (r, t) => (typeof r[key] === 'number' ? formatChinaTime(r[key]) : absent === 'ongoing' ? t('ongoing') : '—'), 150, 170);
const FAULT = text('fault', (r) => alarmName(r['alarmType'] as number, currentLang()), 150, 240);
const FAULT_COLS = cols(...VEHICLE, FAULT, time('startTime'), maybeTime('endTime', 'ongoing'), num('minutes', 90), num('count', 80),
  text('place', (r) => formatPosition(r['lng'] as number, r['lat'] as number), 180, 220));

export const DECLS = {
  deviceOnlineReport: {
    page: 'report-device-online', title: 'deviceOnlineReport', path: `${DEV}/onlinelist`, note: 'note.online',
    columns: cols(...VEHICLE, DATE, yesNo('online'), num('sessions'), num('onlineMinutes', 110), num('offlines'), num('offlineMinutes', 110),
      num('longestOfflineMinutes', 120), maybeTime('firstContact'), maybeTime('lastContact')),
    totals: ['sessions', 'onlineMinutes', 'offlines', 'offlineMinutes'],
  },
  deviceOnlineStatistics: {
    page: 'report-device-online-statistics', title: 'deviceOnlineStatistics', path: `${DEV}/onlinestat`, note: 'note.online',
    columns: cols(...VEHICLE, num('days', 80), num('onlineDays'), num('onlineMinutes', 110), num('onlineTimeRate', 120), num('sessions'), num('offlines'), num('offlineMinutes', 110)),
    totals: ['onlineDays', 'onlineMinutes', 'onlineTimeRate', 'offlines', 'offlineMinutes'],
  },
  deviceStorageAbnormal: {
    page: 'report-device-storage', title: 'deviceStorageAbnormal', path: `${DEV}/storagelist`, note: 'note.storage', columns: FAULT_COLS, totals: ['minutes'],
  },
  deviceAbnormalStatistics: {
    page: 'report-device-fault-statistics', title: 'deviceAbnormalStatistics', path: `${DEV}/errorstat`, note: 'note.faults',
    columns: cols(...VEHICLE, num('gnss', 80), num('power', 80), num('camera', 100), num('storage', 80), num('peripheral', 80), num('other', 80),
      (t) => ({ ...num('total', 80)(t), title: t('col.totalFaults') }), num('faultMinutes', 110)),
    totals: ['gnss', 'power', 'camera', 'storage', 'peripheral', 'other', 'total', 'faultMinutes'],
  },
  deviceAbnormalReport: {
    page: 'report-device-faults', title: 'deviceAbnormalReport', path: `${DEV}/errorlist`, note: 'note.faults', columns: FAULT_COLS, totals: ['minutes'],
  },
  onlineDailyReport: {
    page: 'report-online-daily', title: 'onlineDailyReport', path: `${GPS}/onlineanalysis/daily`, note: 'note.onlineDay',
    columns: cols(...VEHICLE, DATE, yesNo('online'), num('points', 80), num('onlineMinutes', 110), num('trackKm'), yesNo('operation'), maybeTime('firstTime'), maybeTime('lastTime')),
    totals: ['onlineMinutes'],
  },
  onlineRateReport: {
    page: 'report-online-rate', title: 'onlineRateReport', path: `${GPS}/onlineanalysis/rate`, note: 'note.onlineDay',
    columns: cols(...VEHICLE, num('days', 80), (t) => ({ ...num('onlineDays')(t), title: t('col.onlineDaysUp') }), num('operationDays'), num('onlineRate', 100), num('operationRate', 100)),
    totals: ['days', 'onlineDays', 'operationDays', 'onlineRate', 'operationRate'],
  },
  morningOperationDaily: {
    page: 'report-morning-daily', title: 'morningOperationDaily', path: `${GPS}/morningoperate/daily`, note: 'note.morning',
    columns: cols(...VEHICLE, DATE, num('morningKm', 110), num('morningMinutes', 120), num('tripKm', 120), num('drivingMinutes', 130)),
    totals: ['morningKm', 'morningMinutes'],
  },
  morningOperationStatistics: {
    page: 'report-morning-statistics', title: 'morningOperationStatistics', path: `${GPS}/morningoperate/collect`, note: 'note.morning',
    columns: cols(...VEHICLE, num('days', 80), num('morningDays', 110), num('morningKm', 110), num('morningMinutes', 120), num('share', 130)),
    totals: ['morningDays', 'morningKm', 'morningMinutes'],
  },
} as const satisfies Record<string, EngineReportDecl>;

const OPTIONS: EngineReportOptions = {
  ns: DEVICE_REPORTS_NS,
  quick: ['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth'],
  exportFailedKey: 'exportFailed',
};
// A detail list's count (faults, early-morning days) sits under its first column after the vehicle.
const countUnder = (key: string, column: string): EngineReportOptions => ({
  ...OPTIONS,
  extraTotals: (totals): Record<string, string> => (totals[key] === undefined || totals[key] === null ? {} : { [column]: String(totals[key]) }),
});

export const DeviceOnlineReportPage = () => <EngineReport decl={DECLS.deviceOnlineReport} options={countUnder('onlineDays', 'online')} />;
export const DeviceOnlineStatisticsPage = () => <EngineReport decl={DECLS.deviceOnlineStatistics} options={OPTIONS} />;
export const DeviceStorageAbnormalPage = () => <EngineReport decl={DECLS.deviceStorageAbnormal} options={countUnder('faults', 'fault')} />;
export const DeviceAbnormalStatisticsPage = () => <EngineReport decl={DECLS.deviceAbnormalStatistics} options={OPTIONS} />;
export const DeviceAbnormalReportPage = () => <EngineReport decl={DECLS.deviceAbnormalReport} options={countUnder('faults', 'fault')} />;
export const OnlineDailyReportPage = () => <EngineReport decl={DECLS.onlineDailyReport} options={countUnder('onlineDays', 'online')} />;
export const OnlineRateReportPage = () => <EngineReport decl={DECLS.onlineRateReport} options={OPTIONS} />;
export const MorningOperationDailyPage = () => <EngineReport decl={DECLS.morningOperationDaily} options={countUnder('morningDays', 'date')} />;
export const MorningOperationStatisticsPage = () => <EngineReport decl={DECLS.morningOperationStatistics} options={OPTIONS} />;
