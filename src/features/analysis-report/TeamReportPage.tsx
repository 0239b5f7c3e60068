/**
 * /safeManagement/analysisReport/teamReport — the selected company's month: vehicles, km, alarms and
 * alarms per 100 km, the daily trend (uPlot), alarms by group and by appraisal category, the top alarm
 * types and the riskiest (lowest-scored) vehicles.
 */
import { SimpleGrid, Text } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useLang, useT } from '../../i18n/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { currentMonth, MonthField, monthError } from '../appraisal/MonthField.tsx';
import { errorText, LoadError } from '../appraisal/LoadError.tsx';
import { useLoad } from '../appraisal/use-load.ts';
import { analysisApi, type TeamReport } from './api.ts';
import { DailyChart } from './DailyChart.tsx';
import { ANALYSIS_NS } from './messages.ts';
import { FigureTable, Stats } from './parts.tsx';

export function TeamReportPage() {
  const t = useT(ANALYSIS_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const [month, setMonth] = useState(currentMonth);
  const [applied, setApplied] = useState({ month: currentMonth(), n: 0 });
  const [tried, setTried] = useState(false);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- companyId reloads (the request client injects it)
  const load = useCallback((signal: AbortSignal) => analysisApi.team(applied.month, signal), [applied, companyId]);
  const { data, error: failure, loading } = useLoad<TeamReport>(load);
  const error = failure === null ? null : errorText(failure);

  const search = () => {
    setTried(true);
    if (monthError(month, lang) !== null) return;
    setApplied((a) => ({ month, n: a.n + 1 }));
  };

  const chart = useMemo(() => data && {
    dates: data.daily.map((d) => d.date), alarms: data.daily.map((d) => d.alarms), km: data.daily.map((d) => d.mileageKm),
  }, [data]);

  const perHundred = (r: { per100Km: number | null }) => r.per100Km ?? '—';
  return (
    <ReportPage
      pageId="team-report"
      testId="team-report-page"
      title={`${t('title.team')}${data ? ` · ${data.companyName} · ${data.month}` : ''}`}
      errorsUnderInputs
      filters={<MonthField label={t('month')} value={month} onChange={setMonth} showError={tried} />}
      onSearch={search}
      onExport={() => analysisApi.exportTeam(applied.month)}
      exportDisabled={data === null}
      exportLabel={t('export')}
      note={data && chart ? t('teamNote') : undefined}
    >
      {error !== null && (
        <LoadError text={t('failed', { msg: error })} retryLabel={t('retry')} onRetry={() => setApplied((a) => ({ ...a, n: a.n + 1 }))} />
      )}
      {data === null && loading && <Text c="dimmed">{t('loading')}</Text>}
      {data && chart && (
        <>
          <Stats items={[
            { key: 'vehicles', label: t('stat.vehicles'), value: data.vehicles },
            { key: 'activeVehicles', label: t('stat.activeVehicles'), value: data.activeVehicles },
            { key: 'mileageKm', label: t('stat.mileageKm'), value: data.mileageKm },
            { key: 'alarms', label: t('stat.alarms'), value: data.alarms },
            { key: 'per100Km', label: t('stat.per100Km'), value: data.per100Km ?? '—' },
            { key: 'averageScore', label: t('stat.averageScore'), value: data.averageScore ?? '—' },
          ]} />
          <Text fw={600}>{t('section.daily')}</Text>
          <DailyChart dates={chart.dates} alarms={chart.alarms} km={chart.km} labels={{ alarms: t('chart.alarms'), km: t('chart.km') }} />
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <FigureTable testId="group-table" title={t('section.groups')} rows={data.groups} rowKey={(r) => r.group} columns={(c) => [
              c.named('name', t('col.group'), (r) => r.name), c.figure('count', t('col.count'), (r) => r.count), c.figure('per100Km', t('col.per100Km'), perHundred),
            ]} />
            <FigureTable testId="category-table" title={t('section.categories')} rows={data.categories} rowKey={(r) => r.category} columns={(c) => [
              c.named('name', t('col.category'), (r) => r.name), c.figure('count', t('col.count'), (r) => r.count), c.figure('per100Km', t('col.per100Km'), perHundred),
            ]} />
            <FigureTable testId="type-table" title={t('section.topTypes')} rows={data.topTypes} rowKey={(r) => r.alarmType} columns={(c) => [
              c.named('alarmName', t('col.alarmType'), (r) => r.alarmName, 160, 280), c.figure('count', t('col.count'), (r) => r.count),
            ]} />
            <FigureTable testId="risky-table" title={t('section.risky')} rows={data.riskyVehicles} rowKey={(r) => r.vehicleId} columns={(c) => [
              c.named('vehiidno', t('col.vehiidno'), (r) => r.vehiidno, 100, 130), c.named('company', t('col.company'), (r) => r.companyName, 120, 220),
              c.figure('totalScore', t('col.totalScore'), (r) => r.totalScore), c.figure('rank', t('col.rank'), (r) => r.rank),
              c.figure('count', t('col.count'), (r) => r.alarmCount), c.figure('mileageKm', t('col.mileageKm'), (r) => r.mileageKm),
            ]} />
          </SimpleGrid>
        </>
      )}
    </ReportPage>
  );
}
