/**
 * The fuel report pages (issue 18; server/API.md "Fuel reports"). Four list screens share one frame: company
 * tree (check vehicles, or none for every vehicle of the selected company, ≤ 500), period (≤ 31 China days),
 * 查询, 导出 as a server export job; the list (all pages, virtualised) with its totals row. Each row opens the
 * vehicle's fuel chart for its day and track playback. The chart screen (oilChart) shows one vehicle-day:
 * raw and smoothed level with refuel/leak markers.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Group, Text, TextInput } from '@mantine/core';
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
import { FuelChart, type FuelChartEvent } from './FuelChart.tsx';
import { FUEL_REPORTS_NS } from './messages.ts';

/** Vehicles one report may cover (the server's cap). */
export const MAX_VEHICLES = 500;
const BASE = '/service-onlinegps/oilreport';

type T = (key: string, params?: Record<string, unknown>) => string;
interface Row { vehicleId: number; vehiidno: string; companyName: string; date?: string; [k: string]: unknown }

interface Decl {
  page: string;
  title: string;
  path: string;
  note: string;
  columns: (t: T) => KitColumn<Row>[];
  totals: readonly string[];
}

const num = (key: string, min = 90): ((t: T) => KitColumn<Row>) => (t) => ({
  key, title: t(`col.${key}`), minWidth: min, maxWidth: 160, align: 'right',
  render: (r) => (r[key] === null || r[key] === undefined ? '—' : String(r[key])),
});
const text = (key: string, value: (r: Row) => ReactNode, min = 110, max = 220): ((t: T) => KitColumn<Row>) => (t) => ({
  key, title: t(`col.${key}`), minWidth: min, maxWidth: max, render: (r) => value(r),
});
const VEHICLE = [text('vehiidno', (r) => r.vehiidno, 100, 140), text('company', (r) => r.companyName, 120, 220)];
const DATE = text('date', (r) => r.date ?? '', 100, 120);
const FIGURES = [num('refuels'), num('refuelled', 100), num('leaks'), num('leaked', 100), num('consumed', 100), num('km'), num('per100km', 110)];
const EVENT = [
  ...VEHICLE, text('start', (r) => formatChinaTime(r['start'] as number), 150, 170), text('end', (r) => formatChinaTime(r['end'] as number), 150, 170),
  num('before', 110), num('after', 110), num('litres'), text('place', (r) => formatPosition(r['lng'] as number, r['lat'] as number), 180, 220),
];
const cols = (...c: ((t: T) => KitColumn<Row>)[]) => (t: T) => c.map((f) => f(t));
const FIGURE_TOTALS = ['refuels', 'refuelled', 'leaks', 'leaked', 'consumed', 'km', 'per100km'] as const;

export const DECLS = {
  oilSummary: {
    page: 'report-oil-summary', title: 'oilSummary', path: `${BASE}/summary`, note: 'note.summary',
    columns: cols(...VEHICLE, num('days'), num('startLevel', 110), num('endLevel', 110), ...FIGURES), totals: FIGURE_TOTALS,
  },
  oilDaily: {
    page: 'report-oil-daily', title: 'oilDaily', path: `${BASE}/daily`, note: 'note.summary',
    columns: cols(...VEHICLE, DATE, num('startLevel', 110), num('endLevel', 110), ...FIGURES, num('samples')), totals: FIGURE_TOTALS,
  },
  oilAddDetails: {
    page: 'report-oil-add-details', title: 'oilAddDetails', path: `${BASE}/refuels`, note: 'note.summary', columns: cols(...EVENT), totals: ['litres'],
  },
  oilLeakageDetails: {
    page: 'report-oil-leakage-details', title: 'oilLeakageDetails', path: `${BASE}/leaks`, note: 'note.summary', columns: cols(...EVENT), totals: ['litres'],
  },
} as const satisfies Record<string, Decl>;

interface Query extends ReportPeriod { vehicleIds?: number[] }

function exportJob(d: Decl, q: Query): ExportJob {
  const quiet = { noCompanyId: true, silent: true } as const;
  return {
    start: () => http.post<{ taskId: string }>(`${d.path}/excel`, { ...q }, { silent: true }),
    status: (taskId) => http.get<ExportJobStatus>(`${d.path}/export_status`, { taskId }, quiet),
    file: (taskId) => http.export(`${d.path}/excel_file`, { taskId }, quiet),
  };
}

/** Track playback of the row's vehicle over its day (or the whole period for a per-vehicle row). */
function playbackHref(row: Row, q: ReportPeriod): string {
  const from = dayOfDate(row.date ?? q.startDate) ?? 0;
  const to = dayOfDate(row.date ?? q.endDate) ?? from;
  const p = new URLSearchParams({
    vehicleId: String(row.vehicleId), startTime: String(chinaDayStartMs(from)), endTime: String(Math.min(Date.now(), chinaDayStartMs(to) + DAY_MS - 1000)), plate: row.vehiidno,
  });
  return `/monitor/trackPlaybackPage?${p.toString()}`;
}

/** The fuel chart of the row's vehicle on its day (a per-vehicle row: the period's last day). */
function chartHref(row: Row, q: ReportPeriod): string {
  const p = new URLSearchParams({ vehicleId: String(row.vehicleId), date: row.date ?? q.endDate });
  return `/report/vehicleOilAnalysis/oilChart?${p.toString()}`;
}

function FuelReport({ decl }: { decl: Decl }) {
  const t = useT(FUEL_REPORTS_NS) as unknown as T;
  const [draft, setDraft] = useState<ReportPeriod>(() => defaultPeriod(Date.now()));
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const [applied, setApplied] = useState<{ q: Query; search: number } | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const picked = vehicleIdsOf(checked);
  const periodProblem = checkPeriod(draft);
  const problem = periodProblem !== null ? t(`period.${periodProblem}`, { days: REPORT_MAX_DAYS })
    : picked.length > MAX_VEHICLES ? t('filter.tooMany', { max: MAX_VEHICLES, count: picked.length }) : null;

  const q = applied?.q;
  const list = useAllPages<Row, { totals?: Record<string, number | null> }>(
    (page, signal) => http.post(decl.path, { ...q, ...page }, { signal }),
    JSON.stringify(applied),
    applied !== null,
  );
  const totals = list.extra?.totals;
  const totalCells = totals && Object.fromEntries(decl.totals.filter((k) => totals[k] !== undefined).map((k) => [k, totals[k] === null ? '—' : String(totals[k])]));

  return (
    <ReportPage
      pageId={decl.page}
      title={t(`title.${decl.title}`)}
      header={
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed" data-testid="vehicle-filter">
            {picked.length > 0 ? t('filter.vehiclesChecked', { count: picked.length }) : t('filter.vehiclesAll', { max: MAX_VEHICLES })}
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
          quick={['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth']}
          showProblem={false}
          labels={{ start: t('filter.startDate'), end: t('filter.endDate') }}
          testIds={{ start: 'start-date', end: 'end-date', quick: 'quick-range' }}
        />
      }
      onSearch={() => {
        if (problem === null) setApplied((a) => ({ q: { ...draft, ...(picked.length > 0 ? { vehicleIds: picked } : {}) }, search: (a?.search ?? 0) + 1 }));
      }}
      searchDisabled={problem !== null}
      extra={
        <>
          <ExportJobButton
            label={t('export')}
            size="sm"
            job={q ? exportJob(decl, q) : null}
            onError={(e) => setExportError(e instanceof Error && e.message ? e.message : t('exportFailed'))}
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
      problem={problem}
      note={t(decl.note)}
    >
      {list.loadingMore && (
        <Text size="xs" c="dimmed">
          {t('loadedOf', { loaded: list.rows.length, total: list.total })}
        </Text>
      )}
      <RowsTable
        rows={list.rows}
        columns={decl.columns(t)}
        rowKey={(r, i) => `${r.vehicleId}-${r.date ?? ''}-${String(r['start'] ?? '')}-${i}`}
        label={t(`title.${decl.title}`)}
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        totals={totalCells ? { vehiidno: t('total'), ...totalCells } : undefined}
        actions={{
          width: 180,
          render: (r) => (
            <Group gap={4} wrap="nowrap">
              <Button size="compact-xs" variant="subtle" data-testid="chart-link" onClick={() => void navigateHref(chartHref(r, q ?? draft))}>
                {t('chartLink')}
              </Button>
              <Button size="compact-xs" variant="subtle" data-testid="playback" onClick={() => void navigateHref(playbackHref(r, q ?? draft))}>
                {t('playback')}
              </Button>
            </Group>
          ),
        }}
        testId="report-rows"
      />
    </ReportPage>
  );
}

export const OilSummaryPage = () => <FuelReport decl={DECLS.oilSummary} />;
export const OilDailyPage = () => <FuelReport decl={DECLS.oilDaily} />;
export const OilAddDetailsPage = () => <FuelReport decl={DECLS.oilAddDetails} />;
export const OilLeakageDetailsPage = () => <FuelReport decl={DECLS.oilLeakageDetails} />;

interface ChartAnswer {
  vehiidno: string;
  t: number[];
  raw: (number | null)[];
  smooth: (number | null)[];
  events: FuelChartEvent[];
  figures: { startLevel: number | null; endLevel: number | null; refuelled: number; leaked: number; consumed: number; km: number };
}

/** /report/vehicleOilAnalysis/oilChart: one vehicle's day (checked in the tree, or opened from a report row). */
export function OilChartPage() {
  const t = useT(FUEL_REPORTS_NS) as unknown as T;
  const initial = useMemo(() => new URLSearchParams(window.location.search), []);
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const [date, setDate] = useState<string>(() => initial.get('date') ?? defaultPeriod(Date.now()).endDate);
  const fromUrl = Number(initial.get('vehicleId')) || null;
  const picked = vehicleIdsOf(checked);
  const vehicleId = picked.length === 1 ? picked[0]! : picked.length === 0 ? fromUrl : null;
  const problem = picked.length > 1 ? t('filter.onlyOne', { count: picked.length })
    : vehicleId === null ? t('filter.pickOne') : dayOfDate(date) === undefined ? t('filter.badDate') : null;
  const [applied, setApplied] = useState<{ vehicleId: number; date: string; search: number } | null>(() => (fromUrl !== null && initial.get('date') ? { vehicleId: fromUrl, date, search: 0 } : null));
  const [answer, setAnswer] = useState<{ key: string; data?: ChartAnswer; error?: unknown } | null>(null);
  const key = JSON.stringify(applied);
  useEffect(() => {
    if (applied === null) return;
    const abort = new AbortController();
    http.get<ChartAnswer>(`${BASE}/chart`, { vehicleId: applied.vehicleId, date: applied.date }, { signal: abort.signal }).then(
      (data) => setAnswer({ key: JSON.stringify(applied), data }),
      (error: unknown) => {
        if (!abort.signal.aborted) setAnswer({ key: JSON.stringify(applied), error });
      },
    );
    return () => abort.abort();
  }, [applied]);
  const data = answer?.key === key ? answer.data : undefined;
  const labels = useMemo(() => ({ raw: t('chart.raw'), smooth: t('chart.smooth') }), [t]);
  const f = data?.figures;

  return (
    <ReportPage
      pageId="report-oil-chart"
      title={t('title.oilChart')}
      header={data && <Text size="sm" c="dimmed" data-testid="chart-vehicle">{`${data.vehiidno} · ${applied?.date ?? ''}`}</Text>}
      aside={<CompanyTreePanel checkable checkableTypes={['V']} checked={checked} onCheckedChange={setChecked} />}
      filters={<TextInput type="date" size="sm" label={t('filter.date')} value={date} onChange={(e) => setDate(e.currentTarget.value)} data-testid="chart-date" />}
      onSearch={() => {
        if (problem === null && vehicleId !== null) setApplied((a) => ({ vehicleId, date, search: (a?.search ?? 0) + 1 }));
      }}
      searchDisabled={problem !== null}
      problem={problem ?? (answer?.key === key && answer.error ? String((answer.error as { msg?: string }).msg ?? answer.error) : null)}
      note={t('note.chart')}
    >
      {data && data.t.length === 0 && <Text size="sm" c="dimmed">{t('chart.empty')}</Text>}
      {data && data.t.length > 0 && (
        <>
          <FuelChart t={data.t} raw={data.raw} smooth={data.smooth} events={data.events} labels={labels} />
          {f && (
            <Text size="sm" data-testid="chart-figures">
              {t('chart.figures', { start: f.startLevel ?? '—', end: f.endLevel ?? '—', refuelled: f.refuelled, leaked: f.leaked, consumed: f.consumed, km: f.km })}
            </Text>
          )}
          <Group gap="xs">
            {data.events.map((e) => (
              <Text key={`${e.kind}-${e.start}`} size="xs" c={e.kind === 'refuel' ? 'green' : 'red'} data-testid={`chart-event-${e.kind}`}>
                {`${t(`chart.${e.kind}`)} ${formatChinaTime(e.start)} ${e.litres} L`}
              </Text>
            ))}
          </Group>
        </>
      )}
    </ReportPage>
  );
}
