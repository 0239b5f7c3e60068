/**
 * The mileage and operation report pages (issue 18; server/services/operation-reports/api.md). One frame
 * (company tree with vehicle check boxes, period, 查询, 导出 as a server job), one declaration per screen:
 * its call, columns and totals. Every row has 轨迹回放: track playback of that vehicle over the row's day
 * (a summary row: the whole period).
 */
import { useState, type ReactNode } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { http } from '../../../api/http.ts';
import { navigateHref } from '../../../app/navigate.ts';
import { useT } from '../../../i18n/index.ts';
import { PeriodPicker } from '../../../kit/period-picker/index.ts';
import { ReportPage } from '../../../kit/ReportPage.tsx';
import type { KitColumn } from '../../../kit/ResourceTable.tsx';
import { RowsTable } from '../../../kit/RowsTable.tsx';
import { chinaDayStartMs, DAY_MS } from '../../../../domain/track/days.ts';
import { CompanyTreePanel } from '../../company-tree/CompanyTreePanel.tsx';
import { ExportJobButton, type ExportJob, type ExportJobStatus } from '../../shared/ExportJobButton.tsx';
import { useAllPages } from '../online-control/hooks.ts';
import { checkPeriod, dayOfDate, defaultPeriod, formatChinaTime, formatPosition, REPORT_MAX_DAYS, vehicleIdsOf, type ReportPeriod } from '../online-control/period.ts';
import { KmChart, type KmDay } from './KmChart.tsx';
import { OPERATION_REPORTS_NS } from './messages.ts';

/** Vehicles one report may select (the server's cap). */
export const MAX_VEHICLES = 500;

type T = (key: string, params?: Record<string, unknown>) => string;

interface Vehicle { vehicleId: number; vehiidno: string; companyName: string }
interface Row extends Vehicle { date?: string; [k: string]: unknown }

interface Decl {
  page: string;
  title: string;
  path: string;
  method: 'GET' | 'POST';
  note: string;
  columns: (t: T) => KitColumn<Row>[];
  /** Keys of `totals` shown in the totals row. */
  totals: readonly string[];
}

const num = (key: string, min = 90): ((t: T) => KitColumn<Row>) => (t) => ({
  key, title: t(`col.${key}`), minWidth: min, maxWidth: 160, align: 'right',
  render: (r) => (r[key] === null || r[key] === undefined ? '—' : String(r[key])),
});
const text = (key: string, value: (r: Row, t: T) => ReactNode, min = 110, max = 220): ((t: T) => KitColumn<Row>) => (t) => ({
  key, title: t(`col.${key}`), minWidth: min, maxWidth: max, render: (r) => value(r, t),
});
const VEHICLE = [text('vehiidno', (r) => r.vehiidno, 100, 140), text('company', (r) => r.companyName, 120, 220)];
const DATE = text('date', (r) => r.date ?? '', 100, 120);
const time = (key: string) => text(key, (r) => formatChinaTime(r[key] as number), 150, 170);
const cols = (...c: ((t: T) => KitColumn<Row>)[]) => (t: T) => c.map((f) => f(t));

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
      text('place', (r) => formatPosition(r['lng'] as number, r['lat'] as number), 180, 220)),
    totals: ['stops', 'minutes'],
  },
  travelDetails: {
    page: 'report-travel-details', title: 'travelDetails', path: `${S}/geography/getVehicleTrips`, method: 'GET', note: 'note.trips',
    columns: cols(...VEHICLE, time('startTime'), text('startPlace', (r) => formatPosition(r['startLng'] as number, r['startLat'] as number), 180, 220),
      time('endTime'), text('endPlace', (r) => formatPosition(r['endLng'] as number, r['endLat'] as number), 180, 220),
      num('km', 80), num('minutes', 90), num('maxSpeed', 110), num('avgSpeed', 110)),
    totals: ['trips', 'km', 'minutes'],
  },
  nightStatistic: {
    page: 'report-night-statistic', title: 'nightStatistic', path: `${S}/nightoperatereport/vehicledaily`, method: 'POST', note: 'note.night',
    columns: cols(...VEHICLE, DATE, num('nightKm', 100), num('nightMinutes', 110), num('tripKm', 100)), totals: ['nightKm', 'nightMinutes', 'nightDays'],
  },
} as const satisfies Record<string, Decl>;

interface Query extends ReportPeriod { vehicleIds: number[] }

function call<X>(d: Decl, body: Record<string, unknown>, signal?: AbortSignal): Promise<X> {
  return d.method === 'GET' ? http.get<X>(d.path, body, { signal }) : http.post<X>(d.path, body, { signal });
}

function exportJob(d: Decl, q: Query): ExportJob {
  const quiet = { noCompanyId: true, silent: true } as const;
  return {
    start: () => http.post<{ taskId: string }>(`${d.path}/excel`, { ...q }, { silent: true }),
    status: (taskId) => http.get<ExportJobStatus>(`${d.path}/export_status`, { taskId }, quiet),
    file: (taskId) => http.export(`${d.path}/excel_file`, { taskId }, quiet),
  };
}

/** Track playback of the row's vehicle over its day (or the whole period for a per-vehicle row). */
export function playbackHref(row: { vehicleId: number; vehiidno: string; date?: string | undefined }, q: ReportPeriod): string {
  const from = dayOfDate(row.date ?? q.startDate) ?? 0;
  const to = dayOfDate(row.date ?? q.endDate) ?? from;
  const p = new URLSearchParams({
    vehicleId: String(row.vehicleId), startTime: String(chinaDayStartMs(from)), endTime: String(Math.min(Date.now(), chinaDayStartMs(to) + DAY_MS - 1000)), plate: row.vehiidno,
  });
  return `/monitor/trackPlaybackPage?${p.toString()}`;
}

function OperationReport({ decl }: { decl: Decl }) {
  const t = useT(OPERATION_REPORTS_NS) as unknown as T;
  const [draft, setDraft] = useState<ReportPeriod>(() => defaultPeriod(Date.now()));
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const [applied, setApplied] = useState<{ q: Query; search: number } | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const picked = vehicleIdsOf(checked);
  const periodProblem = checkPeriod(draft);
  const problem = periodProblem !== null ? t(`period.${periodProblem}`, { days: REPORT_MAX_DAYS })
    : picked.length === 0 ? t('filter.pickVehicles', { max: MAX_VEHICLES })
      : picked.length > MAX_VEHICLES ? t('filter.tooMany', { max: MAX_VEHICLES, count: picked.length }) : null;

  const q = applied?.q;
  const list = useAllPages<Row, { totals?: Record<string, number> }>(
    (page, signal) => call(decl, { ...q, ...page }, signal),
    JSON.stringify(applied),
    applied !== null,
  );
  const columns = decl.columns(t);
  const totals = list.extra?.totals;
  // The count of a detail list (trips, stops) sits under its first time column.
  const count = totals?.['trips'] ?? (decl === DECLS.parkingReport ? totals?.['stops'] : undefined);
  const totalCells = totals && {
    ...Object.fromEntries(decl.totals.filter((k) => totals[k] !== undefined).map((k) => [k, String(totals[k])])),
    ...(count === undefined ? {} : { startTime: String(count) }),
  };

  return (
    <ReportPage
      pageId={decl.page}
      title={t(`title.${decl.title}`)}
      header={
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed" data-testid="vehicle-filter">
            {picked.length > 0 ? t('filter.vehiclesChecked', { count: picked.length }) : t('filter.pickVehicles', { max: MAX_VEHICLES })}
          </Text>
          {checked.size > 0 && (
            <Button size="compact-xs" variant="subtle" onClick={() => setChecked(new Set())}>
              {t('filter.clearVehicles')}
            </Button>
          )}
        </Group>
      }
      aside={<CompanyTreePanel checkable checkableTypes={['V']} checked={checked} onCheckedChange={setChecked} />}
      filters={
        <PeriodPicker
          mode="date"
          value={{ start: draft.startDate, end: draft.endDate }}
          onChange={(p) => setDraft((d) => ({ ...d, startDate: p.start, endDate: p.end }))}
          quick={['yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth']}
          showProblem={false}
          labels={{ start: t('filter.startDate'), end: t('filter.endDate') }}
          testIds={{ start: 'start-date', end: 'end-date', quick: 'quick-range' }}
        />
      }
      onSearch={() => {
        if (problem === null) setApplied((a) => ({ q: { ...draft, vehicleIds: picked }, search: (a?.search ?? 0) + 1 }));
      }}
      searchDisabled={problem !== null}
      extra={
        <>
          <ExportJobButton
            label={t('export')}
            size="sm"
            job={q ? exportJob(decl, q) : null}
            onError={(e) => setExportError(e instanceof Error && e.message ? e.message : t('export'))}
            progressText={(p) => t('exporting', p)}
            testId="export"
            capTestId="export-cap"
          />
          {exportError !== null && (
            <Text size="sm" c="red" role="alert">
              {exportError}
            </Text>
          )}
        </>
      }
      problem={applied === null || checked.size > 0 || periodProblem !== null ? problem : null}
      note={t(decl.note)}
    >
      {list.loadingMore && (
        <Text size="xs" c="dimmed">
          {t('loadedOf', { loaded: list.rows.length, total: list.total })}
        </Text>
      )}
      {decl === DECLS.mileageDaily && list.rows.length > 0 && (
        <KmChart rows={list.rows as unknown as KmDay[]} labels={{ track: t('col.trackKm'), odometer: t('col.odometerKm') }} />
      )}
      <RowsTable
        rows={list.rows}
        columns={columns}
        rowKey={(r, i) => `${r.vehicleId}-${r.date ?? ''}-${String(r['startTime'] ?? '')}-${i}`}
        label={t(`title.${decl.title}`)}
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        totals={totalCells ? { vehiidno: t('total'), ...totalCells } : undefined}
        actions={{
          width: 100,
          render: (r) => (
            <Button size="compact-xs" variant="subtle" data-testid="playback" onClick={() => void navigateHref(playbackHref(r, q ?? draft))}>
              {t('playback')}
            </Button>
          ),
        }}
        testId="report-rows"
      />
    </ReportPage>
  );
}

export const MileageStatisticsPage = () => <OperationReport decl={DECLS.mileageStatistics} />;
export const MileageDailyPage = () => <OperationReport decl={DECLS.mileageDaily} />;
export const ParkingSummaryPage = () => <OperationReport decl={DECLS.parkingSummary} />;
export const ParkingReportPage = () => <OperationReport decl={DECLS.parkingReport} />;
export const TravelDetailsPage = () => <OperationReport decl={DECLS.travelDetails} />;
export const NightStatisticPage = () => <OperationReport decl={DECLS.nightStatistic} />;
