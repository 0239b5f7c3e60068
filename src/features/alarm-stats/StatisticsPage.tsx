/**
 * /safeManagement/alarm/statistics — alarm counts over a period by type, day, vehicle, driver and
 * company (aggregate calls), as a uPlot chart and a table with a totals row. A click on a bar or a
 * row lists the alarms behind it (with their .xlsx); the table exports as .xlsx. The company tab
 * drills into sub-companies. Period rule (last 3 months) is checked before calling.
 */
import { Button, Drawer, Group, Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { StatsDimension } from '../../../domain/alarms/stats.ts';
import { isApiError, saveBlob } from '../../api/http.ts';
import { menuTitle, useLang, useT } from '../../i18n/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { exportStats, fetchStats, type CompanyRow, type StatCounts, type StatsCell, type StatsFilter, type StatsResult, type StatsRow } from './api.ts';
import { CellAlarms } from './CellAlarms.tsx';
import { cellOf, rowKey, rowLabel } from './dimension.ts';
import { ALARM_STATS_NS } from './messages.ts';
import { StatsChart } from './StatsChart.tsx';
import { formFilter, initialForm, StatsFilters, type FilterForm } from './StatsFilters.tsx';
import { useStatsColumns } from './columns.tsx';
import { DimensionTabs } from './DimensionTabs.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';

/** Bars drawn for the long dimensions (vehicles, drivers); the table holds every row. */
export const CHART_MAX_BARS = 30;
const COLOR = '#1c7ed6';
const ROUTE = '/safeManagement/alarm/statistics';

export function StatisticsPage() {
  const t = useT(ALARM_STATS_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const [form, setForm] = useState<FilterForm>(() => initialForm(7));
  const [filter, setFilter] = useState<StatsFilter | null>(() => {
    const r = formFilter(initialForm(7));
    return 'filter' in r ? r.filter : null;
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [dim, setDim] = useState<StatsDimension>('type');
  const [trail, setTrail] = useState<{ id: number; name: string }[]>([]);
  const [answer, setAnswer] = useState<{ key: string; dim: StatsDimension; result: StatsResult<StatsRow> | null } | null>(null);
  const [cell, setCell] = useState<{ label: string; cell: StatsCell } | null>(null);
  const pid = dim === 'company' ? trail.at(-1)?.id : undefined;

  // The selected company is injected by the request client: a change re-runs the statistics.
  const key = JSON.stringify([filter, dim, pid, companyId]);
  useEffect(() => {
    if (!filter) return;
    const abort = new AbortController();
    fetchStats(dim, filter, pid, abort.signal)
      .then((r) => setAnswer({ key, dim, result: r as StatsResult<StatsRow> }))
      .catch(() => !abort.signal.aborted && setAnswer({ key, dim, result: null }));
    return () => abort.abort();
  }, [key, filter, dim, pid]);
  // The last answer stays on screen while the next one loads.
  const result = answer?.result ?? null;
  const loading = filter !== null && answer?.key !== key;
  // Rows are shown with the dimension they were counted by until the next answer arrives.
  const shown = answer?.dim ?? dim;

  const run = () => {
    const r = formFilter(form);
    if ('problem' in r) {
      setProblem(t(r.problem));
      return;
    }
    setProblem(null);
    setTrail([]);
    setFilter(r.filter);
  };

  const rows = useMemo(() => result?.records ?? [], [result]);
  const own = t('own');
  const chartRows = shown === 'vehicle' || shown === 'driver' ? rows.slice(0, CHART_MAX_BARS) : rows;
  const labels = useMemo(() => chartRows.map((r) => rowLabel(shown, r, own)), [chartRows, shown, own]);
  const series = useMemo(() => [{ label: t('col.count'), values: chartRows.map((r) => r.count), color: COLOR }], [chartRows, t]);
  const open = useCallback((row: StatsRow) => setCell({ label: rowLabel(shown, row, own), cell: cellOf(shown, row) }), [shown, own]);
  const drill = useCallback((row: CompanyRow) => setTrail((tr) => [...tr, { id: row.companyId, name: row.companyName }]), []);
  const { columns, actions } = useStatsColumns(shown, { onDrill: drill });

  const exportTable = async () => {
    if (!filter) return;
    try {
      saveBlob(await exportStats(dim, filter, pid));
    } catch (e) {
      // An answer's failure is shown by the request client; anything else says so here.
      if (!isApiError(e)) notifications.show({ color: 'red', autoClose: 2000, message: t('exportFailed') });
    }
  };

  const total: StatCounts | undefined = result?.total;
  return (
    <ReportPage
      pageId="alarm-statistics"
      testId="alarm-stats-page"
      title={menuTitle(ROUTE, lang)}
      filters={<StatsFilters value={form} onChange={setForm} />}
      onSearch={run}
      searchLabel={t('filter.search')}
      onExport={exportTable}
      exportDisabled={!result}
      exportLabel={t('exportTable')}
      extra={<Button variant="default" onClick={() => setForm(initialForm(7))}>{t('filter.reset')}</Button>}
      problem={problem}
    >
      <DimensionTabs value={dim} onChange={setDim} testIdPrefix="stats-tab" />
      <Group gap="xs">
        {dim === 'company' && trail.length > 0 && (
          <Button size="compact-xs" variant="light" onClick={() => setTrail((tr) => tr.slice(0, -1))} data-testid="stats-up">{t('up')}</Button>
        )}
        {shown === 'company' && result?.parentName && <Text size="sm" fw={600}>{result.parentName}</Text>}
        <Text size="sm" data-testid="stats-summary" data-count={total?.count ?? ''}>{total ? t('summary', { ...total }) : ''}</Text>
        {loading && <Loader size="xs" />}
      </Group>
      <StatsChart labels={labels} series={series} kind={shown === 'date' ? 'line' : 'bar'} onPick={(i) => chartRows[i] && open(chartRows[i])} />
      <RowsTable
        rows={rows}
        columns={columns}
        actions={actions}
        rowKey={(r, i) => rowKey(shown, r, i)}
        label={t(`dim.${shown}`)}
        loading={loading}
        emptyText={result ? t('empty') : undefined}
        testId="stats-table"
        rowAttributes={(r, i) => ({ 'data-testid': 'stats-table-row', 'data-key': rowKey(shown, r, i) })}
        totals={total ? { label: t('col.total'), count: total.count, occurrences: total.occurrences, unprocessed: total.unprocessed, vehicles: total.vehicles } : undefined}
        onRowClick={open}
      />
      <Drawer opened={cell !== null} onClose={() => setCell(null)} position="right" size="56rem" title={cell ? t('cellTitle', { label: cell.label }) : ''}>
        {cell && filter && <CellAlarms filter={filter} cell={cell.cell} />}
      </Drawer>
    </ReportPage>
  );
}
