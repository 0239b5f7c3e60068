/**
 * The mileage and operation report pages (issue 18; server/services/operation-reports/api.md): one declaration per
 * screen (call, columns, totals) over the shared engine-report frame (../engine-report/EngineReport.tsx): 1–500
 * checked vehicles, period, 查询, 导出 as a server job, 轨迹回放 on every row (a summary row: the whole period).
 */
import { cols, DATE, EngineReport, num, text, time, VEHICLE, type EngineReportDecl, type EngineReportOptions, type Row } from '../engine-report/EngineReport.tsx';
import { formatPosition } from '../online-control/period.ts';
import { KmChart, type KmDay } from './KmChart.tsx';
import { OPERATION_REPORTS_NS } from './messages.ts';

/** The server's place (offline county geocoder, in the user's language) with the coordinates on hover. */
function placeCell(r: Row, name: string, lng: string, lat: string) {
  const at = formatPosition(r[lng] as number, r[lat] as number);
  const place = r[name];
  return <span title={at}>{typeof place === 'string' && place !== '' ? place : at}</span>;
}

export { MAX_VEHICLES, playbackHref } from '../engine-report/EngineReport.tsx';

const S = '/service-onlinegps';
export const DECLS = {
  mileageStatistics: {
    page: 'report-mileage-statistics', title: 'mileageStatistics', path: `${S}/geography/getVehicleRealtimeMile`, method: 'GET', note: 'note.mileage',
    columns: cols(...VEHICLE, num('odometerKm'), num('trackKm'), num('differenceKm'), num('operationDays')), totals: ['odometerKm', 'trackKm', 'operationDays'],
  },
  mileageDaily: {
    page: 'report-mileage-daily', title: 'mileageDaily', path: `${S}/geography/getVehicleDailyMile`, method: 'POST', note: 'note.mileage',
    columns: cols(...VEHICLE, DATE, num('odometerKm'), num('trackKm'), num('differenceKm'), text('operation', (r, t) => t(r['operation'] ? 'yes' : 'no'), 80, 100)),
    totals: ['odometerKm', 'trackKm', 'operationDays'],
  },
  parkingSummary: {
    page: 'report-parking-summary', title: 'parkingSummary', path: `${S}/geography/getAllVehicleGeographyStop`, method: 'GET', note: 'note.parking',
    columns: cols(...VEHICLE, num('stops'), num('stopMinutes', 110), num('parkingCount', 110), num('parkingMinutes', 130), num('idlingCount', 110), num('idlingMinutes', 130)),
    totals: ['stops', 'stopMinutes', 'parkingCount', 'parkingMinutes', 'idlingCount', 'idlingMinutes'],
  },
  parkingReport: {
    page: 'report-parking-report', title: 'parkingReport', path: `${S}/geography/getVehicleDailyStop`, method: 'GET', note: 'note.parking',
    columns: cols(...VEHICLE, time('startTime'), time('endTime'), num('minutes', 90),
      text('kind', (r, t) => t(r['parking'] ? 'parked' : 'idling') + (r['open'] ? t('stillOpen') : ''), 90, 200),
      text('place', (r) => placeCell(r, 'place', 'lng', 'lat'), 200, 300)),
    totals: ['stops', 'minutes'],
  },
  travelDetails: {
    page: 'report-travel-details', title: 'travelDetails', path: `${S}/geography/getVehicleTrips`, method: 'GET', note: 'note.trips',
    columns: cols(...VEHICLE, time('startTime'), text('startPlace', (r) => placeCell(r, 'startPlace', 'startLng', 'startLat'), 200, 300),
      time('endTime'), text('endPlace', (r) => placeCell(r, 'endPlace', 'endLng', 'endLat'), 200, 300),
      num('km', 80), num('minutes', 90), num('maxSpeed', 110), num('avgSpeed', 110)),
    totals: ['trips', 'km', 'minutes'],
  },
  nightStatistic: {
    page: 'report-night-statistic', title: 'nightStatistic', path: `${S}/nightoperatereport/vehicledaily`, method: 'POST', note: 'note.night',
    columns: cols(...VEHICLE, DATE, num('nightKm', 100), num('nightMinutes', 110), num('tripKm', 100)), totals: ['nightKm', 'nightMinutes', 'nightDays'],
  },
} as const satisfies Record<string, EngineReportDecl>;

const OPTIONS: EngineReportOptions = {
  ns: OPERATION_REPORTS_NS,
  quick: ['yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth'],
  exportFailedKey: 'exportFailed',
};
// The count of a detail list (trips, stops) sits under its first time column.
const countUnderStart = (key: string): EngineReportOptions => ({
  ...OPTIONS,
  extraTotals: (totals): Record<string, string> => (totals[key] === undefined || totals[key] === null ? {} : { startTime: String(totals[key]) }),
});
const MILEAGE_DAILY: EngineReportOptions = {
  ...OPTIONS,
  above: (rows, t) => <KmChart rows={rows as unknown as KmDay[]} labels={{ track: t('col.trackKm'), odometer: t('col.odometerKm') }} />,
};

export const MileageStatisticsPage = () => <EngineReport decl={DECLS.mileageStatistics} options={OPTIONS} />;
export const MileageDailyPage = () => <EngineReport decl={DECLS.mileageDaily} options={MILEAGE_DAILY} />;
export const ParkingSummaryPage = () => <EngineReport decl={DECLS.parkingSummary} options={OPTIONS} />;
export const ParkingReportPage = () => <EngineReport decl={DECLS.parkingReport} options={countUnderStart('stops')} />;
export const TravelDetailsPage = () => <EngineReport decl={DECLS.travelDetails} options={countUnderStart('trips')} />;
export const NightStatisticPage = () => <EngineReport decl={DECLS.nightStatistic} options={OPTIONS} />;
