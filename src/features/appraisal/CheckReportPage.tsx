/**
 * /safeManagement/vehicleScore/checkReport — the month's appraisal of the selected company's vehicles:
 * rank, plate, km, normal running days, the five category scores (weights in the headers) and the total.
 * The server ranks the whole company; the plate filter only narrows the list (ranks stay).
 */
import { Button, Group, Pagination, ScrollArea, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useCallback, useState } from 'react';
import { APPRAISAL_CATEGORIES, categoryName } from '../../../domain/appraisal/rules.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { appraisalApi, type CheckReport } from './api.ts';
import { errorText, LoadError } from './LoadError.tsx';
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
  const [exporting, setExporting] = useState(false);

  const load = useCallback((signal: AbortSignal) => {
    const q = { month: applied.month, current: applied.current, size: PAGE_SIZE, ...(applied.keyword.trim() ? { keyword: applied.keyword.trim() } : {}) };
    return appraisalApi.checkReport(q, signal);
    // companyId: the request client injects the selected company; a new one reloads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [applied, companyId]);
  const { data, error: failure, loading } = useLoad<CheckReport>(load);
  const error = failure === null ? null : errorText(failure);

  const search = useCallback(() => {
    setTried(true);
    if (monthError(month, lang) !== null) return;
    setApplied((a) => ({ month, keyword, current: 1, n: a.n + 1 }));
  }, [month, keyword, lang]);

  const exportFile = async () => {
    setTried(true);
    if (monthError(month, lang) !== null) return;
    setExporting(true);
    try {
      await appraisalApi.exportReport({ month, ...(keyword.trim() ? { keyword: keyword.trim() } : {}) });
    } catch {
      // the request client has shown the failure
    } finally {
      setExporting(false);
    }
  };

  const weights = data?.weights;
  return (
    <Stack gap="sm" p="md" data-testid="check-report-page">
      <Title order={4}>{t('title.report')}</Title>
      <Group gap="xs" align="flex-start" component="form" onSubmit={(e) => { e.preventDefault(); search(); }}>
        <MonthField label={t('month')} value={month} onChange={setMonth} showError={tried} />
        <TextInput size="sm" label={t('keyword')} value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} data-testid="keyword" w={160} />
        <Button size="sm" type="submit" mt={25} data-testid="search">{t('search')}</Button>
        <Button size="sm" variant="default" mt={25} loading={exporting} onClick={() => void exportFile()} data-testid="export">{t('export')}</Button>
      </Group>
      {error !== null && (
        <LoadError text={t('failed', { msg: error })} retryLabel={t('retry')} onRetry={() => setApplied((a) => ({ ...a, n: a.n + 1 }))} />
      )}
      {data && (
        <Text size="sm" c="dimmed" data-testid="report-summary">
          {t('summary', { company: data.companyName, month: data.month, vehicles: data.vehicles, scored: data.scoredVehicles, average: data.averageScore ?? t('noAverage') })}
        </Text>
      )}
      <ScrollArea type="auto" h={560}>
        <Table striped highlightOnHover stickyHeader data-loading={loading || undefined}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={60}>{t('col.rank')}</Table.Th>
              <Table.Th>{t('col.vehiidno')}</Table.Th>
              <Table.Th>{t('col.company')}</Table.Th>
              <Table.Th>{t('col.mileageKm')}</Table.Th>
              <Table.Th>{t('col.normalDays')}</Table.Th>
              {APPRAISAL_CATEGORIES.map((c) => (
                <Table.Th key={c}>{weights ? t('col.category', { name: categoryName(c, lang), weight: weights[c] }) : categoryName(c, lang)}</Table.Th>
              ))}
              <Table.Th>{t('col.total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data?.records ?? []).map((r) => (
              <Table.Tr key={r.vehicleId} data-testid="appraisal-row" data-vehicle-id={r.vehicleId} data-rank={r.rank ?? ''} data-total={r.totalScore ?? ''}>
                <Table.Td>{r.rank ?? '—'}</Table.Td>
                <Table.Td>{r.vehiidno}</Table.Td>
                <Table.Td>{r.companyName}</Table.Td>
                <Table.Td>{r.mileageKm}</Table.Td>
                <Table.Td>{r.normalDays}</Table.Td>
                {APPRAISAL_CATEGORIES.map((c) => (
                  <Table.Td key={c}>
                    <Tooltip label={t('cellHint', { count: r.counts[c], rate: r.rates[c] ?? '—' })}>
                      <span>{r.scores ? r.scores[c] : '—'}</span>
                    </Tooltip>
                  </Table.Td>
                ))}
                <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="total-score">
                  {r.totalScore ?? (
                    <Tooltip label={t('notAssessedHint')}>
                      <span>{t('notAssessed')}</span>
                    </Tooltip>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {data !== null && data.records.length === 0 && !loading && <Text c="dimmed" ta="center" py="lg">{t('empty')}</Text>}
        {data === null && loading && <Text c="dimmed" ta="center" py="lg">{t('loading')}</Text>}
      </ScrollArea>
      {data && data.total > PAGE_SIZE && (
        <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={applied.current} onChange={(current) => setApplied((a) => ({ ...a, current }))} size="sm" />
      )}
      <Text size="xs" c="dimmed">{t('setting.rule')}</Text>
    </Stack>
  );
}
