/**
 * /safeManagement/vehicleScore/checkReport — the month's appraisal of the selected company's vehicles:
 * rank, plate, km, normal running days, the five category scores (weights in the headers) and the total.
 * The server ranks the whole company; the plate filter only narrows the list (ranks stay).
 */
import { Pagination, Text, TextInput, Tooltip } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { APPRAISAL_CATEGORIES, categoryName } from '../../../domain/appraisal/rules.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { appraisalApi, type CheckReport, type ScoreRow } from './api.ts';
import { APPRAISAL_NS } from './messages.ts';
import { currentMonth, MonthField, monthError } from './MonthField.tsx';
import { useLoad } from './use-load.ts';

const PAGE_SIZE = 50;

export function CheckReportPage() {
  const t = useT(APPRAISAL_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const [month, setMonth] = useState(currentMonth);
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState<{ month: string; keyword: string; current: number; n: number }>(() => ({ month: currentMonth(), keyword: '', current: 1, n: 0 }));
  const [tried, setTried] = useState(false);

  const load = useCallback((signal: AbortSignal) => {
    const q = { month: applied.month, current: applied.current, size: PAGE_SIZE, ...(applied.keyword.trim() ? { keyword: applied.keyword.trim() } : {}) };
    return appraisalApi.checkReport(q, signal);
    // companyId: the request client injects the selected company; a new one reloads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [applied, companyId]);
  const { data, error: failure, loading } = useLoad<CheckReport>(load);
  const retry = () => setApplied((a) => ({ ...a, n: a.n + 1 }));

  const search = useCallback(() => {
    setTried(true);
    if (monthError(month, lang) !== null) return;
    setApplied((a) => ({ month, keyword, current: 1, n: a.n + 1 }));
  }, [month, keyword, lang]);

  const exportFile = async () => {
    setTried(true);
    if (monthError(month, lang) !== null) return;
    await appraisalApi.exportReport({ month, ...(keyword.trim() ? { keyword: keyword.trim() } : {}) });
  };

  const weights = data?.weights;
  // Widths (px) at 1280: a plate is 7–8 characters, a category title "驾驶行为（30%）", scores up to "100.0".
  const columns = useMemo<KitColumn<ScoreRow>[]>(() => [
    { key: 'rank', title: t('col.rank'), minWidth: 56, maxWidth: 72, align: 'right', render: (r) => r.rank ?? '—' },
    { key: 'vehiidno', title: t('col.vehiidno'), minWidth: 100, maxWidth: 130, render: (r) => r.vehiidno },
    { key: 'company', title: t('col.company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
    { key: 'mileageKm', title: t('col.mileageKm'), minWidth: 90, maxWidth: 120, align: 'right', render: (r) => r.mileageKm },
    { key: 'normalDays', title: t('col.normalDays'), minWidth: 110, maxWidth: 140, align: 'right', render: (r) => r.normalDays },
    ...APPRAISAL_CATEGORIES.map((c): KitColumn<ScoreRow> => ({
      key: c,
      title: weights ? t('col.category', { name: categoryName(c, lang), weight: weights[c] }) : categoryName(c, lang),
      minWidth: 120,
      maxWidth: 170,
      align: 'right',
      render: (r) => (
        <Tooltip label={t('cellHint', { count: r.counts[c], rate: r.rates[c] ?? '—' })}>
          <span>{r.scores ? r.scores[c] : '—'}</span>
        </Tooltip>
      ),
    })),
    {
      key: 'total', title: t('col.total'), minWidth: 80, maxWidth: 110, align: 'right',
      render: (r) => (
        <Text span fw={600} size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="total-score">
          {r.totalScore ?? (
            <Tooltip label={t('notAssessedHint')}>
              <span>{t('notAssessed')}</span>
            </Tooltip>
          )}
        </Text>
      ),
    },
  ], [t, lang, weights]);

  return (
    <ReportPage
      pageId="check-report"
      testId="check-report-page"
      title={t('title.report')}
      errorsUnderInputs
      filters={
        <>
          <MonthField label={t('month')} value={month} onChange={setMonth} showError={tried} />
          <TextInput size="sm" label={t('keyword')} value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} data-testid="keyword" w={160} />
        </>
      }
      onSearch={search}
      onExport={exportFile}
      note={t('setting.rule')}
    >
      {data && (
        <Text size="sm" c="dimmed" data-testid="report-summary">
          {t('summary', { company: data.companyName, month: data.month, vehicles: data.vehicles, scored: data.scoredVehicles, average: data.averageScore ?? t('noAverage') })}
        </Text>
      )}
      <RowsTable
        rows={data?.records ?? []}
        columns={columns}
        rowKey={(r) => r.vehicleId}
        label={t('title.report')}
        loading={loading}
        error={failure}
        onRetry={retry}
        rowAttributes={(r) => ({ 'data-testid': 'appraisal-row', 'data-vehicle-id': r.vehicleId, 'data-rank': r.rank ?? '', 'data-total': r.totalScore ?? '' })}
      />
      {data && data.total > PAGE_SIZE && (
        <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={applied.current} onChange={(current) => setApplied((a) => ({ ...a, current }))} size="sm" />
      )}
    </ReportPage>
  );
}
