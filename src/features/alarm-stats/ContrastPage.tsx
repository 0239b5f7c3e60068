/**
 * /safeManagement/alarm/contrast — two alarm statistics side by side: two periods (same filters and
 * company), or two companies (same period). Rows line up by key (`contrast` of domain/alarms/stats.ts;
 * days by position), with the change and its percentage; the chart draws A and B together.
 */
import { Badge, Group, Loader, SegmentedControl, Select, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { contrast, type ContrastRow, type StatsDimension } from '../../../domain/alarms/stats.ts';
import { http } from '../../api/http.ts';
import { menuTitle, useLang, useT } from '../../i18n/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import { DimensionTabs } from './DimensionTabs.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { fetchStats, type StatsFilter, type StatsResult, type StatsRow } from './api.ts';
import { rowKey, rowLabel } from './dimension.ts';
import { ALARM_STATS_NS } from './messages.ts';
import { StatsChart } from './StatsChart.tsx';
import { PeriodPicker } from '../../kit/period-picker/index.ts';
import { formFilter, initialForm, lastDays, STATS_QUICK, StatsFilters, type FilterForm } from './StatsFilters.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { countColumn, labelWidth } from './columns.tsx';

type Mode = 'periods' | 'companies';
const COLORS = ['#1c7ed6', '#f08c00'] as const;
const ROUTE = '/safeManagement/alarm/contrast';

/** Period B defaults to the 7 days before period A. */
function previousWeek(): { start: string; end: string } {
  return lastDays(7, Date.now() - 7 * 86_400_000);
}

export function ContrastPage() {
  const t = useT(ALARM_STATS_NS);
  const lang = useLang();
  const { companyId: selected } = useCompanySelection();
  const [mode, setMode] = useState<Mode>('periods');
  const [initial] = useState(() => ({ form: { ...initialForm(7), ...previousWeek() } as FilterForm, periodB: lastDays(7) }));
  const [form, setForm] = useState<FilterForm>(initial.form);
  const [periodB, setPeriodB] = useState(initial.periodB);
  const [companies, setCompanies] = useState<{ id: number; name: string }[]>([]);
  const [companyA, setCompanyA] = useState<string | null>(null);
  const [companyB, setCompanyB] = useState<string | null>(null);
  const [dim, setDim] = useState<StatsDimension>('type');
  // The default comparison (last week against this week) is shown on arrival, like the statistics page.
  const [pair, setPair] = useState<[StatsFilter, StatsFilter] | null>(() => {
    const a = formFilter(initial.form);
    const b = formFilter({ ...initial.form, ...initial.periodB });
    return 'problem' in a || 'problem' in b ? null : [a.filter, b.filter];
  });
  const [answer, setAnswer] = useState<{ key: string; dim: StatsDimension; results: [StatsResult<StatsRow>, StatsResult<StatsRow>] | null } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    void http.get<{ id: number; name: string }[]>('/service-priv/company/tree', {}, { noCompanyId: true, silent: true }).then(setCompanies).catch(() => undefined);
  }, []);

  const run = () => {
    const a = formFilter(form);
    if ('problem' in a) return setProblem(t(a.problem));
    if (mode === 'periods') {
      const b = formFilter({ ...form, ...periodB });
      if ('problem' in b) return setProblem(t(b.problem));
      setProblem(null);
      setPair([a.filter, b.filter]);
      return;
    }
    if (companyA === null || companyB === null) return setProblem(t('contrast.pickCompany'));
    setProblem(null);
    setPair([{ ...a.filter, companyId: Number(companyA) }, { ...a.filter, companyId: Number(companyB) }]);
  };

  const key = JSON.stringify([pair, dim, selected]);
  useEffect(() => {
    if (!pair) return;
    const abort = new AbortController();
    Promise.all([fetchStats(dim, pair[0], undefined, abort.signal), fetchStats(dim, pair[1], undefined, abort.signal)])
      .then(([a, b]) => setAnswer({ key, dim, results: [a as StatsResult<StatsRow>, b as StatsResult<StatsRow>] }))
      .catch(() => !abort.signal.aborted && setAnswer({ key, dim, results: null }));
    return () => abort.abort();
  }, [key, pair, dim]);
  const results = answer?.results ?? null;
  const loading = pair !== null && answer?.key !== key;
  // Rows are shown with the dimension they were counted by until the next answer arrives.
  const shown = answer?.dim ?? dim;

  const own = t('own');
  const rows = useMemo<ContrastRow<StatsRow>[]>(() => (results ? contrast(results[0].records, results[1].records, (r, i) => rowKey(shown, r, i)) : []), [results, shown]);
  const label = (r: ContrastRow<StatsRow>) => {
    const row = r.a ?? r.b;
    if (!row) return r.key;
    // Two periods' days: "A day / B day".
    if (shown === 'date' && r.a && r.b) return `${rowLabel(shown, r.a, own)} / ${rowLabel(shown, r.b, own)}`;
    return rowLabel(shown, row, own);
  };
  const nameA = mode === 'periods' ? t('contrast.periodA') : companies.find((c) => String(c.id) === companyA)?.name ?? t('contrast.companyA');
  const nameB = mode === 'periods' ? t('contrast.periodB') : companies.find((c) => String(c.id) === companyB)?.name ?? t('contrast.companyB');
  const chartRows = shown === 'vehicle' || shown === 'driver' ? rows.slice(0, 30) : rows;
  const labels = useMemo(() => chartRows.map(label), [chartRows]); // eslint-disable-line react-hooks/exhaustive-deps -- label follows dim and rows
  const series = useMemo(() => [
    { label: nameA, values: chartRows.map((r) => r.countA), color: COLORS[0] },
    { label: nameB, values: chartRows.map((r) => r.countB), color: COLORS[1] },
  ], [chartRows, nameA, nameB]);

  // Two periods' days read "A day / B day": twice a date's width.
  const labelCol = shown === 'date' ? { minWidth: 200, maxWidth: 240 } : labelWidth(shown);
  const columns: KitColumn<ContrastRow<StatsRow>>[] = [
    { key: 'label', title: t(`dim.${shown}`), render: label, ...labelCol },
    // A company's name heads its column: a little wider than a count.
    { ...countColumn<ContrastRow<StatsRow>>('a', nameA, (r) => r.countA), maxWidth: 160 },
    { ...countColumn<ContrastRow<StatsRow>>('b', nameB, (r) => r.countB), maxWidth: 160 },
    countColumn('delta', t('col.delta'), (r) => <Delta value={r.delta} />),
    countColumn('percent', t('col.percent'), (r) => (r.percent === null ? (r.countB > 0 ? t('contrast.newRow') : '—') : `${r.percent > 0 ? '+' : ''}${r.percent}%`)),
  ];
  const totalA = results?.[0].total.count ?? 0;
  const totalB = results?.[1].total.count ?? 0;

  return (
    <ReportPage
      pageId="alarm-contrast"
      testId="alarm-contrast-page"
      title={menuTitle(ROUTE, lang)}
      filters={
        <>
          <SegmentedControl
            value={mode}
            onChange={(v) => setMode(v as Mode)}
            data={[{ value: 'periods', label: t('contrast.periods') }, { value: 'companies', label: t('contrast.companies') }]}
            data-testid="contrast-mode"
          />
          {mode === 'periods' ? (
            <>
              <PeriodPicker value={form} onChange={(p) => setForm({ ...form, ...p })} quick={STATS_QUICK} showProblem={false}
                labels={{ start: `${t('contrast.periodA')} ${t('filter.start')}`, end: `${t('contrast.periodA')} ${t('filter.end')}` }}
                testIds={{ start: 'contrast-a-start', end: 'contrast-a-end', quick: 'contrast-a-quick' }} />
              <PeriodPicker value={periodB} onChange={setPeriodB} quick={STATS_QUICK} showProblem={false}
                labels={{ start: `${t('contrast.periodB')} ${t('filter.start')}`, end: `${t('contrast.periodB')} ${t('filter.end')}` }}
                testIds={{ start: 'contrast-b-start', end: 'contrast-b-end', quick: 'contrast-b-quick' }} />
            </>
          ) : (
            <>
              <PeriodPicker value={form} onChange={(p) => setForm({ ...form, ...p })} quick={STATS_QUICK} showProblem={false}
                labels={{ start: t('filter.start'), end: t('filter.end') }} />
              <Select label={t('contrast.companyA')} searchable w={180} data={companies.map((c) => ({ value: String(c.id), label: c.name }))} value={companyA} onChange={setCompanyA} data-testid="contrast-company-a" />
              <Select label={t('contrast.companyB')} searchable w={180} data={companies.map((c) => ({ value: String(c.id), label: c.name }))} value={companyB} onChange={setCompanyB} data-testid="contrast-company-b" />
            </>
          )}
          <StatsFilters value={form} onChange={setForm} period={false} />
        </>
      }
      onSearch={run}
      searchLabel={t('contrast.run')}
      problem={problem}
    >
      <DimensionTabs value={dim} onChange={setDim} testIdPrefix="contrast-tab" />
      <Group gap="sm">
        {results && (
          <Text size="sm" data-testid="contrast-summary" data-a={totalA} data-b={totalB}>
            {nameA}: {totalA} · {nameB}: {totalB} · {t('col.delta')} <Delta value={totalB - totalA} />
          </Text>
        )}
        {loading && <Loader size="xs" />}
      </Group>
      <StatsChart labels={labels} series={series} kind={shown === 'date' ? 'line' : 'bar'} />
      <RowsTable
        rows={rows}
        columns={columns}
        rowKey={(r) => r.key}
        label={t(`dim.${shown}`)}
        loading={loading}
        emptyText={results ? t('empty') : undefined}
        testId="contrast-table"
        rowAttributes={(r) => ({ 'data-testid': 'contrast-table-row', 'data-key': r.key })}
        totals={results ? { label: t('col.total'), a: totalA, b: totalB, delta: <Delta value={totalB - totalA} /> } : undefined}
      />
    </ReportPage>
  );
}

function Delta({ value }: { value: number }) {
  if (value === 0) return <span>0</span>;
  return <Badge size="sm" variant="light" color={value > 0 ? 'red' : 'green'}>{value > 0 ? `+${value}` : value}</Badge>;
}
