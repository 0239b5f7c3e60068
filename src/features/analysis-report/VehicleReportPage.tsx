/**
 * /safeManagement/analysisReport/vehicleReport — one vehicle's month (chosen in the company tree):
 * scores per category and total with its rank, km, running days, alarms per day (uPlot) and by type.
 * With too few normal running days the server refuses (409) and the page shows its message.
 */
import { Alert, SimpleGrid, Stack, Text } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { parseNodeId } from '../../../domain/company/tree-node.ts';
import { MIN_NORMAL_RUNNING_DAYS } from '../../../domain/appraisal/rules.ts';
import { isApiError } from '../../api/http.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { currentMonth, MonthField, monthError } from '../appraisal/MonthField.tsx';
import { errorText, LoadError } from '../appraisal/LoadError.tsx';
import { useLoad } from '../appraisal/use-load.ts';
import { analysisApi, type VehicleReport } from './api.ts';
import { DailyChart } from './DailyChart.tsx';
import { ANALYSIS_NS } from './messages.ts';
import { FigureTable, Stats } from './parts.tsx';

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
    <ReportPage
      pageId="vehicle-report"
      testId="vehicle-report-page"
      title={t('title.vehicle')}
      aside={
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
      }
      errorsUnderInputs
      filters={<MonthField label={t('month')} value={month} onChange={setMonth} showError={tried} />}
      onSearch={search}
      onExport={() => analysisApi.exportVehicle(vehicle!.id, applied.month)}
      exportDisabled={data === null || vehicle === null}
      exportLabel={t('export')}
      extra={
        <Text size="sm" mt={32} data-testid="report-vehicle" data-vehicle-id={vehicle?.id ?? ''}>
          {vehicle ? t('vehicle', { plate: vehicle.name }) : t('pickVehicle')}
        </Text>
      }
      note={t('normalRule', { min: MIN_NORMAL_RUNNING_DAYS })}
    >
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
            <FigureTable testId="category-table" title={t('section.categories')} rows={data.categories} rowKey={(r) => r.category} columns={(c) => [
              c.named('name', t('col.category'), (r) => `${r.name}（${data.weights[r.category]}%）`, 140, 240), c.figure('count', t('col.count'), (r) => r.count),
              c.figure('per100Km', t('col.per100Km'), (r) => r.per100Km ?? '—'), c.figure('score', t('col.score'), (r) => r.score ?? '—'),
            ]} />
            <FigureTable testId="type-table" title={t('section.types')} rows={data.types} rowKey={(r) => r.alarmType} columns={(c) => [
              c.named('alarmName', t('col.alarmType'), (r) => r.alarmName, 160, 280), c.figure('count', t('col.count'), (r) => r.count),
            ]} />
          </SimpleGrid>
          <FigureTable testId="day-table" title={t('section.days')} rows={data.daily} rowKey={(r) => r.date} columns={(c) => [
            c.named('date', t('col.date'), (r) => r.date, 100, 120), c.figure('mileageKm', t('col.mileageKm'), (r) => r.mileageKm), c.figure('alarms', t('col.count'), (r) => r.alarms),
            c.named('online', t('col.online'), (r) => yesNo(r.online), 70, 100), c.named('operation', t('col.operation'), (r) => yesNo(r.operation), 70, 100),
            c.named('normal', t('col.normal'), (r) => yesNo(r.normal), 90, 130),
          ]} />
        </Stack>
      )}
    </ReportPage>
  );
}
