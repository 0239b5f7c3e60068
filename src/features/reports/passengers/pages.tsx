/**
 * The passenger flow and temperature report pages (issue 18; server/API.md "Passenger and temperature reports"):
 * declarations over the shared engine-report frame (../engine-report/EngineReport.tsx). No vehicle checked means
 * every vehicle of the selected company (≤ 500). The big-data analysis draws the hourly profile of its rows
 * (uPlot) above the list; the line analysis lists stops, not vehicles, so it has no track playback.
 */
import { LINE_REPORT_MAX_LINES, SUPERVISION_MAX_VEHICLES } from '../../../../domain/passengers/limits.ts';
import { useMemo, useState } from 'react';
import { MultiSelect, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  cols, DATE, EngineReport, num, text, time, VEHICLE, type EngineReportDecl, type EngineReportOptions, type ExtraFilter, type Row, type T,
} from '../engine-report/EngineReport.tsx';
import { useT } from '../../../i18n/index.ts';
import { lineApi } from '../../lines/api.ts';
import { HourlyChart } from './HourlyChart.tsx';
import { PASSENGER_REPORTS_NS } from './messages.ts';
import { TemperaturePhoto } from './TemperaturePhoto.tsx';

const FLOW = '/service-onlinegps/passengerflow';
const TEMPERATURE = '/service-onlinegps/temperature';
/** The spec's cap on passenger flow rows (shown or exported). */
export const PASSENGER_MAX_ROWS = 10_000;

const LINE = text('lineName', (r) => String(r['lineName'] ?? ''), 90, 160);
const hourText = (r: Row, t: T) => (r['peakHour'] === null || r['peakHour'] === undefined ? '—' : t('hour', { h: r['peakHour'] }));
const yesNo = (v: unknown, t: T) => (v === null || v === undefined ? t('unknown') : v ? t('yes') : t('no'));

export const DECLS = {
  lineAnalysis: {
    page: 'report-passenger-line', title: 'lineAnalysis', path: `${FLOW}/line`, note: 'note.line',
    columns: cols(
      LINE, text('direction', (r, t) => t(`direction.${String(r['direction'])}`), 70, 90), num('stationSeq', 70),
      text('stationName', (r) => String(r['stationName'] ?? ''), 110, 200), num('vehicles', 70), num('boarding'), num('alighting'), num('boardingShare', 110),
    ),
    totals: ['boarding', 'alighting'],
  },
  carAnalysis: {
    page: 'report-passenger-car', title: 'carAnalysis', path: `${FLOW}/car`, note: 'note.passengers',
    columns: cols(...VEHICLE, DATE, LINE, num('boarding'), num('alighting'), num('uploads'), text('peakHour', hourText, 80, 100), num('maxOnboard')),
    totals: ['boarding', 'alighting', 'uploads'],
  },
  passengerSupervision: {
    page: 'report-passenger-supervision', title: 'passengerSupervision', path: `${FLOW}/supervision`, note: 'note.passengers',
    columns: cols(...VEHICLE, LINE, num('boarding'), num('alighting'), num('maxOnboard'), num('overloads'), num('overloadRate', 100), num('abnormal'), num('abnormalRate', 100), num('uploads')),
    totals: ['boarding', 'alighting', 'overloads', 'overloadRate', 'abnormal', 'abnormalRate', 'uploads'],
  },
  bigDataAnalysis: {
    page: 'report-passenger-bigdata', title: 'bigDataAnalysis', path: `${FLOW}/bigdata`, note: 'note.passengers',
    columns: cols(...VEHICLE, DATE, LINE, num('boarding'), num('alighting'), text('peakHour', hourText, 80, 100), num('peakBoarding', 100)),
    totals: ['boarding', 'alighting'],
  },
  temperatureReport: {
    page: 'report-temperature', title: 'temperatureReport', path: `${TEMPERATURE}/list`, note: 'note.temperature',
    columns: cols(
      ...VEHICLE, time('time'), text('kind', (r, t) => t(`kind.${String(r['kind'])}`), 70, 90), text('mask', (r, t) => yesNo(r['mask'], t), 80, 100),
      num('celsius', 90), text('fever', (r, t) => (r['fever'] ? t('yes') : ''), 80, 100),
      text('image', (r, t) => (
        <TemperaturePhoto photoId={(r['photoId'] as number | null | undefined) ?? null} mediaId={(r['mediaId'] as number | null | undefined) ?? null}
          title={t('photoTitle', { plate: r.vehiidno, celsius: r['celsius'] })} t={t} />
      ), 90, 140), time('uploadTime'),
    ),
    totals: [],
  },
} as const satisfies Record<string, EngineReportDecl>;

/** The spec's message once the list holds the capped number of rows. */
function cappedNote(rows: Row[], t: T) {
  return rows.length >= PASSENGER_MAX_ROWS ? (
    <Text size="sm" c="orange" data-testid="rows-capped">
      {t('capped', { cap: PASSENGER_MAX_ROWS })}
    </Text>
  ) : null;
}

function HourlyAbove({ rows, t }: { rows: Row[]; t: T }) {
  const { boarding, alighting } = useMemo(() => {
    const b = new Array<number>(24).fill(0);
    const a = new Array<number>(24).fill(0);
    for (const r of rows) {
      const hb = r['hourlyBoarding'] as number[] | undefined;
      const ha = r['hourlyAlighting'] as number[] | undefined;
      for (let h = 0; h < 24; h++) {
        b[h]! += hb?.[h] ?? 0;
        a[h]! += ha?.[h] ?? 0;
      }
    }
    return { boarding: b, alighting: a };
  }, [rows]);
  const labels = useMemo(() => ({ boarding: t('chart.boarding'), alighting: t('chart.alighting') }), [t]);
  return (
    <>
      {cappedNote(rows, t)}
      <Text size="sm" fw={500}>
        {t('chart.hours')}
      </Text>
      <HourlyChart boarding={boarding} alighting={alighting} labels={labels} />
    </>
  );
}

function TemperatureFigures({ rows, t }: { rows: Row[]; t: T }) {
  const count = rows.length;
  const fever = rows.filter((r) => r['fever'] === true).length;
  const masked = rows.filter((r) => r['mask'] === true).length;
  const rate = count > 0 ? Math.round(((count - fever) / count) * 1000) / 10 : 0;
  return (
    <Text size="sm" data-testid="temperature-figures">
      {t('figures.temperature', { count, fever, rate, masked })}
    </Text>
  );
}

const BASE: EngineReportOptions = {
  ns: PASSENGER_REPORTS_NS,
  wholeCompany: true,
  quick: ['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth'],
  exportFailedKey: 'exportFailed',
  above: (rows, t) => cappedNote(rows, t),
};

/** Spec §5: line passenger flow covers at most 30 lines (the server refuses past the same constant). */
const MAX_LINES = LINE_REPORT_MAX_LINES;

/** The lines of the caller's companies, chosen beside the period (none chosen: every line the vehicles served). */
function useLineFilter(): ExtraFilter {
  const t = useT(PASSENGER_REPORTS_NS);
  const [chosen, setChosen] = useState<string[]>([]);
  const lines = useQuery({ queryKey: ['passenger-lines'], queryFn: () => lineApi.page({ current: 1, size: 500 }) });
  const data = useMemo(() => (lines.data?.records ?? []).map((l) => ({ value: String(l.id), label: l.name })), [lines.data]);
  return {
    node: (
      <MultiSelect
        size="sm"
        w={260}
        label={t('lines.label')}
        placeholder={chosen.length === 0 ? t('lines.all', { max: MAX_LINES }) : undefined}
        data={data}
        value={chosen}
        onChange={setChosen}
        searchable
        clearable
        maxValues={MAX_LINES}
        data-testid="line-filter"
      />
    ),
    query: chosen.length > 0 ? { lineIds: chosen.map(Number) } : {},
    problem: chosen.length > MAX_LINES ? t('lines.tooMany', { max: MAX_LINES, count: chosen.length }) : null,
  };
}

export function LineAnalysisPage() {
  const lineFilter = useLineFilter();
  return <EngineReport decl={DECLS.lineAnalysis} options={{ ...BASE, playback: false }} extra={lineFilter} />;
}
export const CarAnalysisPage = () => <EngineReport decl={DECLS.carAnalysis} options={BASE} />;
// spec §5: supervision covers up to 1,000 vehicles (the server refuses past the same constant)
export const PassengerSupervisionPage = () => <EngineReport decl={DECLS.passengerSupervision} options={{ ...BASE, maxVehicles: SUPERVISION_MAX_VEHICLES }} />;
export const BigDataAnalysisPage = () => <EngineReport decl={DECLS.bigDataAnalysis} options={{ ...BASE, above: (rows, t) => <HourlyAbove rows={rows} t={t} /> }} />;
export const TemperatureReportPage = () => (
  <EngineReport
    decl={DECLS.temperatureReport}
    options={{ ...BASE, quick: ['today', 'yesterday', 'last3Days', 'last7Days'], above: (rows, t) => <TemperatureFigures rows={rows} t={t} /> }}
  />
);
