/**
 * /safeManagement/analysisReport/teamReport — the selected company's month: vehicles, km, alarms and
 * alarms per 100 km, the daily trend (uPlot), alarms by group and by appraisal category, the top alarm
 * types and the riskiest (lowest-scored) vehicles.
 */
import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useLang, useT } from '../../i18n/index.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { currentMonth, MonthField, monthError } from '../appraisal/MonthField.tsx';
import { errorText, LoadError } from '../appraisal/LoadError.tsx';
import { useLoad } from '../appraisal/use-load.ts';
import { analysisApi, type TeamReport } from './api.ts';
import { DailyChart } from './DailyChart.tsx';
import { ANALYSIS_NS } from './messages.ts';
import { ExportButton, FigureTable, Stats } from './parts.tsx';

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

  return (
    <Stack gap="sm" p="md" data-testid="team-report-page" data-loading={loading || undefined}>
      <Title order={4}>{t('title.team')}{data ? ` · ${data.companyName} · ${data.month}` : ''}</Title>
      <Group gap="xs" align="flex-start" component="form" onSubmit={(e) => { e.preventDefault(); search(); }}>
        <MonthField label={t('month')} value={month} onChange={setMonth} showError={tried} />
        <Button size="sm" type="submit" mt={25} data-testid="search">{t('search')}</Button>
        <ExportButton label={t('export')} run={() => analysisApi.exportTeam(applied.month)} disabled={data === null} />
      </Group>
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
            <Stack gap={4}>
              <Text fw={600}>{t('section.groups')}</Text>
              <FigureTable testId="group-table" rows={data.groups} rowKey={(r) => r.group} columns={[
                { label: t('col.group'), cell: (r) => r.name }, { label: t('col.count'), cell: (r) => r.count }, { label: t('col.per100Km'), cell: (r) => r.per100Km ?? '—' },
              ]} />
            </Stack>
            <Stack gap={4}>
              <Text fw={600}>{t('section.categories')}</Text>
              <FigureTable testId="category-table" rows={data.categories} rowKey={(r) => r.category} columns={[
                { label: t('col.category'), cell: (r) => r.name }, { label: t('col.count'), cell: (r) => r.count }, { label: t('col.per100Km'), cell: (r) => r.per100Km ?? '—' },
              ]} />
            </Stack>
            <Stack gap={4}>
              <Text fw={600}>{t('section.topTypes')}</Text>
              <FigureTable testId="type-table" rows={data.topTypes} rowKey={(r) => r.alarmType} columns={[
                { label: t('col.alarmType'), cell: (r) => r.alarmName }, { label: t('col.count'), cell: (r) => r.count },
              ]} />
            </Stack>
            <Stack gap={4}>
              <Text fw={600}>{t('section.risky')}</Text>
              <FigureTable testId="risky-table" rows={data.riskyVehicles} rowKey={(r) => r.vehicleId} columns={[
                { label: t('col.vehiidno'), cell: (r) => r.vehiidno }, { label: t('col.company'), cell: (r) => r.companyName },
                { label: t('col.totalScore'), cell: (r) => r.totalScore }, { label: t('col.rank'), cell: (r) => r.rank },
                { label: t('col.count'), cell: (r) => r.alarmCount }, { label: t('col.mileageKm'), cell: (r) => r.mileageKm },
              ]} />
            </Stack>
          </SimpleGrid>
          <Text size="xs" c="dimmed">{t('teamNote')}</Text>
        </>
      )}
    </Stack>
  );
}
