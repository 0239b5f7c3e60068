/**
 * The fuel report pages (issue 18; server/API.md "Fuel reports"). The four lists are declarations over the shared
 * engine-report frame (../engine-report/EngineReport.tsx): no vehicle checked means every vehicle of the selected
 * company (≤ 500); each row opens the vehicle's fuel chart for its day besides track playback. The chart screen
 * (oilChart) shows one vehicle-day: raw and smoothed level with refuel/leak markers.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { http } from '../../../api/http.ts';
import { navigateHref } from '../../../app/navigate.ts';
import { useT } from '../../../i18n/index.ts';
import { ReportPage } from '../../../kit/ReportPage.tsx';
import { CompanyTreePanel } from '../../company-tree/CompanyTreePanel.tsx';
import {
  cols, DATE, EngineReport, num, text, time, VEHICLE, type EngineReportDecl, type EngineReportOptions, type Row, type T,
} from '../engine-report/EngineReport.tsx';
import { dayOfDate, defaultPeriod, formatChinaTime, formatPosition, vehicleIdsOf, type ReportPeriod } from '../online-control/period.ts';
import { FuelChart, type FuelChartEvent } from './FuelChart.tsx';
import { FUEL_REPORTS_NS } from './messages.ts';

export { MAX_VEHICLES } from '../engine-report/EngineReport.tsx';
const BASE = '/service-onlinegps/oilreport';

const FIGURES = [num('refuels'), num('refuelled', 100), num('leaks'), num('leaked', 100), num('consumed', 100), num('km'), num('per100km', 110)];
const EVENT = [
  ...VEHICLE, time('start'), time('end'),
  num('before', 110), num('after', 110), num('litres'), text('place', (r) => formatPosition(r['lng'] as number, r['lat'] as number), 180, 220),
];
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
} as const satisfies Record<string, EngineReportDecl>;

/** The fuel chart of the row's vehicle on its day (a per-vehicle row: the period's last day). */
function chartHref(row: Row, q: ReportPeriod): string {
  const p = new URLSearchParams({ vehicleId: String(row.vehicleId), date: row.date ?? q.endDate });
  return `/report/vehicleOilAnalysis/oilChart?${p.toString()}`;
}

const OPTIONS: EngineReportOptions = {
  ns: FUEL_REPORTS_NS,
  wholeCompany: true,
  quick: ['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth'],
  exportFailedKey: 'exportFailed',
  actionsWidth: 180,
  rowActions: (r, q, t) => (
    <Button size="compact-xs" variant="subtle" data-testid="chart-link" onClick={() => void navigateHref(chartHref(r, q))}>
      {t('chartLink')}
    </Button>
  ),
};

export const OilSummaryPage = () => <EngineReport decl={DECLS.oilSummary} options={OPTIONS} />;
export const OilDailyPage = () => <EngineReport decl={DECLS.oilDaily} options={OPTIONS} />;
export const OilAddDetailsPage = () => <EngineReport decl={DECLS.oilAddDetails} options={OPTIONS} />;
export const OilLeakageDetailsPage = () => <EngineReport decl={DECLS.oilLeakageDetails} options={OPTIONS} />;

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
