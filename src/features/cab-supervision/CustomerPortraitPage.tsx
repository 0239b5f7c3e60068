/**
 * 客户画像 (/safeManagement/customerPortrait, issue 19): the selected company's (fleet's) month from stored
 * data: vehicles, online rate, mileage, alarms and alarms per 100 km, handling rate, the mean appraisal
 * score, alarms by type, the riskiest vehicles and drivers, and six months of trend (uPlot: alarms as
 * bars, km as a line). Definitions: domain/customer-portrait/portrait.ts.
 */
import { SimpleGrid, Text } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useLang, useT } from '../../i18n/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { DailyChart } from '../analysis-report/DailyChart.tsx';
import { FigureTable, Stats } from '../analysis-report/parts.tsx';
import { errorText, LoadError } from '../appraisal/LoadError.tsx';
import { currentMonth, MonthField, monthError } from '../appraisal/MonthField.tsx';
import { useLoad } from '../appraisal/use-load.ts';
import { cabApi, type Portrait } from './api.ts';
import { CAB_NS } from './messages.ts';

export function CustomerPortraitPage() {
  const t = useT(CAB_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const [month, setMonth] = useState(currentMonth);
  const [applied, setApplied] = useState({ month: currentMonth(), n: 0 });
  const [tried, setTried] = useState(false);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- companyId reloads (the request client injects it)
  const load = useCallback((signal: AbortSignal) => cabApi.portrait(applied.month, signal), [applied, companyId]);
  const { data, error: failure, loading } = useLoad<Portrait>(load);
  const error = failure === null ? null : errorText(failure);
  const search = () => {
    setTried(true);
    if (monthError(month, lang) !== null) return;
    setApplied((a) => ({ month, n: a.n + 1 }));
  };
  const chart = useMemo(() => data && {
    dates: data.trend.map((m) => `${m.month}-01`), alarms: data.trend.map((m) => m.alarms), km: data.trend.map((m) => m.mileageKm),
  }, [data]);
  const pct = (x: number | null) => (x === null ? t('none') : `${x}%`);
  const num = (x: number | null) => (x === null ? t('none') : x);

  return (
    <ReportPage
      pageId="customer-portrait"
      testId="customer-portrait-page"
      title={`${t('portraitTitle')}${data ? ` · ${data.companyName} · ${data.month}` : ''}`}
      errorsUnderInputs
      filters={<MonthField label={t('month')} value={month} onChange={setMonth} showError={tried} />}
      onSearch={search}
    >
      {error !== null && <LoadError text={error} retryLabel="↻" onRetry={() => setApplied((a) => ({ ...a, n: a.n + 1 }))} />}
      {data === null && loading && <Text c="dimmed">…</Text>}
      {data && chart && (
        <>
          <Stats items={[
            { key: 'vehicles', label: t('vehiclesN'), value: data.vehicles },
            { key: 'onlineRate', label: t('onlineRate'), value: pct(data.onlineRate) },
            { key: 'mileageKm', label: `${t('mileage')}（${t('km')}）`, value: data.mileageKm },
            { key: 'alarms', label: t('alarms'), value: data.alarms },
            { key: 'per100Km', label: t('per100'), value: num(data.alarmsPer100Km) },
            { key: 'handlingRate', label: t('handlingRate'), value: pct(data.handlingRate) },
            { key: 'safetyScore', label: t('safetyScore'), value: <span title={t('scoredN', { n: data.scoredVehicles })}>{num(data.safetyScore)}</span> },
          ]} />
          <Text fw={600}>{t('trend')}</Text>
          <DailyChart dates={chart.dates} alarms={chart.alarms} km={chart.km} labels={{ alarms: t('alarms'), km: t('km') }} />
          <FigureTable testId="portrait-trend" title={t('trend')} rows={data.trend} rowKey={(r) => r.month} columns={(c) => [
            c.named('month', t('month'), (r) => r.month), c.figure('onlineRate', t('onlineRate'), (r) => pct(r.onlineRate)), c.figure('mileageKm', t('mileage'), (r) => r.mileageKm),
            c.figure('alarms', t('alarms'), (r) => r.alarms), c.figure('per100', t('per100'), (r) => num(r.alarmsPer100Km)), c.figure('handlingRate', t('handlingRate'), (r) => pct(r.handlingRate)),
          ]} />
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <FigureTable testId="portrait-types" title={t('byType')} rows={data.byType} rowKey={(r) => r.alarmType} columns={(c) => [
              c.named('name', t('type'), (r) => r.name, 160, 280), c.figure('n', t('count'), (r) => r.n), c.figure('per100', t('per100'), (r) => num(r.per100Km)), c.figure('handlingRate', t('handlingRate'), (r) => pct(r.handlingRate)),
            ]} />
            <FigureTable testId="portrait-vehicles" title={t('riskyVehicles')} rows={data.riskyVehicles} rowKey={(r) => r.vehicleId} columns={(c) => [
              c.named('vehiidno', t('plate'), (r) => r.vehiidno, 100, 130), c.figure('alarms', t('alarms'), (r) => r.alarms), c.figure('per100', t('per100'), (r) => num(r.per100Km)),
              c.figure('highRisk', t('highRisk'), (r) => r.highRisk), c.figure('score', t('score'), (r) => num(r.score)),
            ]} />
            <FigureTable testId="portrait-drivers" title={t('riskyDrivers')} rows={data.riskyDrivers} rowKey={(r) => `${r.cert}/${r.name}`} columns={(c) => [
              c.named('name', t('driver'), (r) => r.name || t('none'), 90, 140), c.named('cert', t('cert'), (r) => r.cert || t('none'), 120, 200),
              c.figure('alarms', t('alarms'), (r) => r.alarms), c.figure('highRisk', t('highRisk'), (r) => r.highRisk),
            ]} />
          </SimpleGrid>
        </>
      )}
    </ReportPage>
  );
}
