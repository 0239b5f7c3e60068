/**
 * /safeManagement/analysisReport/vehicleReport — one vehicle's month (chosen in the company tree):
 * scores per category and total with its rank, km, running days, alarms per day (uPlot) and by type.
 * With too few normal running days the server refuses (409) and the page shows its message.
 */
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { parseNodeId } from '../../../domain/company/tree-node.ts';
import { MIN_NORMAL_RUNNING_DAYS } from '../../../domain/appraisal/rules.ts';
import { isApiError } from '../../api/http.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { currentMonth, MonthField, monthError } from '../appraisal/MonthField.tsx';
import { errorText, LoadError } from '../appraisal/LoadError.tsx';
import { useLoad } from '../appraisal/use-load.ts';
import { analysisApi, type VehicleReport } from './api.ts';
import { DailyChart } from './DailyChart.tsx';
import { ANALYSIS_NS } from './messages.ts';
import { ExportButton, FigureTable, Stats } from './parts.tsx';

type State =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'ok'; data: VehicleReport }
  | { kind: 'unavailable'; msg: string }
  | { kind: 'failed'; msg: string };

export function VehicleReportPage() {
  const t = useT(ANALYSIS_NS);
  const lang = useLang();
  const [vehicle, setVehicle] = useState<{ id: number; name: string } | null>(null);
  const [month, setMonth] = useState(currentMonth);
  const [applied, setApplied] = useState({ month: currentMonth(), n: 0 });
  const [tried, setTried] = useState(false);
  const load = useCallback((signal: AbortSignal) => analysisApi.vehicle(vehicle!.id, applied.month, signal), [vehicle, applied]);
  const loaded = useLoad<VehicleReport>(vehicle === null ? null : load);
  const failure = loaded.error;
  // 409: too few normal running days — a state of the data, shown in place of the report.
  const state: State = vehicle === null ? { kind: 'idle' }
    : loaded.loading ? { kind: 'loading' }
    : failure !== null ? (isApiError(failure) && failure.code === 409 ? { kind: 'unavailable', msg: failure.msg } : { kind: 'failed', msg: errorText(failure) })
    : loaded.data !== null ? { kind: 'ok', data: loaded.data } : { kind: 'loading' };

  const search = () => {
    setTried(true);
    if (monthError(month, lang) !== null) return;
    setApplied((a) => ({ month, n: a.n + 1 }));
  };

  const data = loaded.data !== null && state.kind === 'ok' ? loaded.data : null;
  const reportData = loaded.data;
  const chartAll = useMemo(() => reportData && {
    dates: reportData.daily.map((d) => d.date), alarms: reportData.daily.map((d) => d.alarms), km: reportData.daily.map((d) => d.mileageKm),
  }, [reportData]);
  const chart = data === null ? null : chartAll;
  const yesNo = (b: boolean) => (b ? t('yes') : t('no'));

  return (
    <Group align="stretch" wrap="nowrap" gap="md" h="100%" p="md" style={{ minHeight: 480 }} data-testid="vehicle-report-page">
      <Paper withBorder p="xs" w={280} style={{ flex: 'none', display: 'flex', flexDirection: 'column' }}>
        <CompanyTreePanel
          onSelect={(node) => {
            const p = parseNodeId(node.id);
            if (p?.nodeType !== 'V') return;
            setVehicle({ id: p.id, name: node.name });
            // The report is for the month shown: a month chosen but not yet searched applies now.
            setTried(true);
            if (monthError(month, lang) === null && month !== applied.month) setApplied((a) => ({ month, n: a.n + 1 }));
          }}
        />
      </Paper>
      <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
        <Title order={4}>{t('title.vehicle')}</Title>
        <Group gap="xs" align="flex-start" component="form" onSubmit={(e) => { e.preventDefault(); search(); }}>
          <MonthField label={t('month')} value={month} onChange={setMonth} showError={tried} />
          <Button size="sm" type="submit" mt={25} data-testid="search">{t('search')}</Button>
          <ExportButton label={t('export')} run={() => analysisApi.exportVehicle(vehicle!.id, applied.month)} disabled={data === null || vehicle === null} />
          <Text size="sm" mt={32} data-testid="report-vehicle" data-vehicle-id={vehicle?.id ?? ''}>
            {vehicle ? t('vehicle', { plate: vehicle.name }) : t('pickVehicle')}
          </Text>
        </Group>
        {state.kind === 'loading' && <Text c="dimmed">{t('loading')}</Text>}
        {state.kind === 'unavailable' && (
          <Alert color="orange" title={t('unavailable')} data-testid="vehicle-report-unavailable">{state.msg}</Alert>
        )}
        {state.kind === 'failed' && (
          <LoadError text={t('failed', { msg: state.msg })} retryLabel={t('retry')} onRetry={() => setApplied((a) => ({ ...a, n: a.n + 1 }))} />
        )}
        {data && chart && (
          <Stack gap="sm" data-testid="vehicle-report">
            <Text fw={600}>{`${data.vehiidno} · ${data.companyName} · ${data.month}`}</Text>
            <Stats items={[
              { key: 'totalScore', label: t('stat.totalScore'), value: data.totalScore ?? t('notAssessed') },
              { key: 'rank', label: t('stat.rank'), value: data.rank === null ? '—' : t('rankOf', { rank: data.rank, of: data.rankOf }) },
              { key: 'mileageKm', label: t('stat.mileageKm'), value: data.mileageKm },
              { key: 'alarms', label: t('stat.alarms'), value: data.alarms },
              { key: 'per100Km', label: t('stat.per100Km'), value: data.per100Km ?? '—' },
              { key: 'normalDays', label: t('stat.normalDays'), value: `${data.normalDays} / ${data.days}` },
            ]} />
            <Text fw={600}>{t('section.daily')}</Text>
            <DailyChart dates={chart.dates} alarms={chart.alarms} km={chart.km} labels={{ alarms: t('chart.alarms'), km: t('chart.km') }} />
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              <Stack gap={4}>
                <Text fw={600}>{t('section.categories')}</Text>
                <FigureTable testId="category-table" rows={data.categories} rowKey={(r) => r.category} columns={[
                  { label: t('col.category'), cell: (r) => `${r.name}（${data.weights[r.category]}%）` }, { label: t('col.count'), cell: (r) => r.count },
                  { label: t('col.per100Km'), cell: (r) => r.per100Km ?? '—' }, { label: t('col.score'), cell: (r) => r.score ?? '—' },
                ]} />
              </Stack>
              <Stack gap={4}>
                <Text fw={600}>{t('section.types')}</Text>
                <FigureTable testId="type-table" rows={data.types} rowKey={(r) => r.alarmType} columns={[
                  { label: t('col.alarmType'), cell: (r) => r.alarmName }, { label: t('col.count'), cell: (r) => r.count },
                ]} />
              </Stack>
            </SimpleGrid>
            <Text fw={600}>{t('section.days')}</Text>
            <FigureTable testId="day-table" rows={data.daily} rowKey={(r) => r.date} columns={[
              { label: t('col.date'), cell: (r) => r.date }, { label: t('col.mileageKm'), cell: (r) => r.mileageKm }, { label: t('col.count'), cell: (r) => r.alarms },
              { label: t('col.online'), cell: (r) => yesNo(r.online) }, { label: t('col.operation'), cell: (r) => yesNo(r.operation) },
              { label: t('col.normal'), cell: (r) => yesNo(r.normal) },
            ]} />
          </Stack>
        )}
        <Text size="xs" c="dimmed">{t('normalRule', { min: MIN_NORMAL_RUNNING_DAYS })}</Text>
      </Stack>
    </Group>
  );
}
