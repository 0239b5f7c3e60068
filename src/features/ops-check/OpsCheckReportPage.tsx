/**
 * /operation/operationManagement/opsCheckReport — the month's KPIs of the selected company and its
 * sub-companies: each KPI's value against its target (pass/fail), the weighted score, a correction
 * (修正, with reason; the measured value stays visible beside it), the downloadable analysis and
 * insurance reports (self-contained HTML), and below, the insurer's per-vehicle figures of the company
 * clicked in the table.
 */
import { Badge, Button, Group, Modal, NumberInput, Pagination, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useState } from 'react';
import { KPI_CODES, KPI_DEFS, valueMax, type KpiCode } from '../../../domain/ops-check/kpi.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { errorText } from '../appraisal/LoadError.tsx';
import { currentMonth, MonthField, monthError } from '../appraisal/MonthField.tsx';
import { useLoad } from '../appraisal/use-load.ts';
import { opsCheckApi, type CompanyKpis, type InsurePage, type InsureRow, type KpiItem, type KpiPage } from './api.ts';
import { OPS_CHECK_NS } from './messages.ts';

export const REPORT_ROUTE = '/operation/operationManagement/opsCheckReport';
const PAGE_SIZE = 20;
const unitText = (i: { unit: '%' | 'min' }, lang: 'zh' | 'en') => (i.unit === '%' ? '%' : lang === 'zh' ? ' 分钟' : ' min');

function KpiCell({ item }: { item: KpiItem | undefined }) {
  const t = useT(OPS_CHECK_NS);
  const lang = useLang();
  if (!item) return <span>—</span>;
  const color = item.passed === null ? 'gray' : item.passed ? 'green' : 'red';
  const label = item.passed === null ? t('noData') : item.passed ? t('pass') : t('fail');
  const value = item.value === null ? '—' : `${item.value}${unitText(item, lang)}`;
  const body = (
    <Group gap={6} wrap="nowrap" data-testid="kpi-cell" data-code={item.code} data-passed={item.passed === null ? '' : String(item.passed)}>
      <Text size="sm" span>{value}</Text>
      <Badge size="sm" color={color} variant="light">{label}</Badge>
      {item.corrected !== null && <Badge size="xs" color="orange" variant="outline">{t('corrected')}</Badge>}
    </Group>
  );
  if (item.corrected === null) return body;
  return <Tooltip label={t('measuredCorrected', { measured: item.measured ?? '—', corrected: item.corrected, reason: item.reason })}>{body}</Tooltip>;
}

function CorrectDialog({ company, onClose, onDone }: { company: CompanyKpis; onClose(): void; onDone(c: CompanyKpis): void }) {
  const t = useT(OPS_CHECK_NS);
  const lang = useLang();
  const [code, setCode] = useState<KpiCode>('onlineRate');
  const [value, setValue] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const item = company.items.find((i) => i.code === code);
  const valueProblem = tried && (value === '' || !Number.isFinite(Number(value))) ? t('valueRequired') : undefined;
  const reasonProblem = tried && reason.trim() === '' ? t('reasonRequired') : undefined;
  const submit = async () => {
    setTried(true);
    if (value === '' || reason.trim() === '' || !item?.id) return;
    setBusy(true);
    try {
      onDone(await opsCheckApi.correct(item.id, Number(value), reason.trim()));
    } catch (e) {
      setServerError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('correctTitle', { company: company.companyName })} data-testid="correct-dialog">
      <Stack gap="sm">
        <Select label={t('kpi')} value={code} onChange={(v) => v && setCode(v as KpiCode)} allowDeselect={false} data-testid="correct-kpi"
          data={KPI_CODES.map((c) => ({ value: c, label: lang === 'zh' ? KPI_DEFS[c].zh : KPI_DEFS[c].en }))} />
        <Text size="sm" c="dimmed">{item?.measured === null || !item ? t('noData') : `${item.measured}${unitText(item, lang)}`}</Text>
        <NumberInput label={t('value')} value={value} onChange={setValue} min={0} max={valueMax(code)} decimalScale={2} error={valueProblem} withAsterisk data-testid="correct-value" />
        <TextInput label={t('reason')} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={200} error={reasonProblem} withAsterisk data-testid="correct-reason" />
        {serverError && <Text size="sm" c="red" role="alert">{serverError}</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('cancel')}</Button>
          <Button onClick={() => void submit()} loading={busy} data-testid="correct-save">{t('save')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function InsureSection({ company, month }: { company: CompanyKpis; month: string }) {
  const t = useT(OPS_CHECK_NS);
  const [current, setCurrent] = useState(1);
  const load = useCallback((signal: AbortSignal) => opsCheckApi.insure({ companyId: company.companyId, month, current, size: 50 }, signal), [company.companyId, month, current]);
  const { data, error, loading } = useLoad<InsurePage>(load);
  const columns = useMemo<KitColumn<InsureRow>[]>(() => [
    { key: 'vehiidno', title: t('insureCol.vehiidno'), minWidth: 100, maxWidth: 130, render: (r) => r.vehiidno },
    { key: 'company', title: t('insureCol.company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
    { key: 'km', title: t('insureCol.km'), minWidth: 90, maxWidth: 120, align: 'right', render: (r) => r.mileageKm },
    { key: 'online', title: t('insureCol.online'), minWidth: 90, maxWidth: 120, align: 'right', render: (r) => `${r.onlineDays}/${r.days}` },
    { key: 'alarms', title: t('insureCol.alarms'), minWidth: 80, maxWidth: 110, align: 'right', render: (r) => r.alarms },
    { key: 'high', title: t('insureCol.high'), minWidth: 80, maxWidth: 110, align: 'right', render: (r) => r.highRiskAlarms },
    { key: 'handled', title: t('insureCol.handled'), minWidth: 80, maxWidth: 110, align: 'right', render: (r) => r.handledAlarms },
    { key: 'per100', title: t('insureCol.per100'), minWidth: 100, maxWidth: 130, align: 'right', render: (r) => r.alarmsPer100Km ?? '—' },
  ], [t]);
  return (
    <Stack gap="xs" data-testid="insure-section">
      {data && (
        <Text size="sm" c="dimmed" data-testid="insure-summary">
          {t('insureFor', { company: company.companyName, month: data.month, vehicles: data.totals.vehicles, km: data.totals.mileageKm, alarms: data.totals.alarms, high: data.totals.highRiskAlarms })}
        </Text>
      )}
      <RowsTable rows={data?.records ?? []} columns={columns} rowKey={(r) => r.vehicleId} label={t('tab.insure')} loading={loading} error={error} testId="insure-table" />
      {data && data.total > 50 && <Pagination total={Math.ceil(data.total / 50)} value={current} onChange={setCurrent} size="sm" />}
    </Stack>
  );
}

export function OpsCheckReportPage() {
  const t = useT(OPS_CHECK_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const [month, setMonth] = useState(currentMonth);
  const [tried, setTried] = useState(false);
  const [applied, setApplied] = useState({ month: currentMonth(), current: 1, n: 0 });
  const [correcting, setCorrecting] = useState<CompanyKpis | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const load = useCallback((signal: AbortSignal) => opsCheckApi.list({ month: applied.month, current: applied.current, size: PAGE_SIZE }, signal),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- companyId reloads (the client injects it)
    [applied, companyId]);
  const { data, error, loading } = useLoad<KpiPage>(load);
  const reload = () => setApplied((a) => ({ ...a, n: a.n + 1 }));
  const search = () => {
    setTried(true);
    if (monthError(month, lang) !== null) return;
    setApplied((a) => ({ month, current: 1, n: a.n + 1 }));
  };
  const download = (f: (id: number, m: string) => Promise<void>, id: number) => {
    f(id, data?.month ?? applied.month).catch(() => undefined);
  };

  const columns = useMemo<KitColumn<CompanyKpis>[]>(() => [
    { key: 'company', title: t('col.company'), minWidth: 140, maxWidth: 240, render: (r) => r.companyName },
    ...KPI_CODES.map((code): KitColumn<CompanyKpis> => ({
      key: code,
      title: lang === 'zh' ? KPI_DEFS[code].zh : KPI_DEFS[code].en,
      minWidth: 150,
      maxWidth: 200,
      render: (r) => <KpiCell item={r.items.find((i) => i.code === code)} />,
    })),
    { key: 'score', title: t('col.score'), minWidth: 80, maxWidth: 100, align: 'right', render: (r) => <Text span fw={600} size="sm" data-testid="score">{r.score ?? '—'}</Text> },
    { key: 'result', title: t('col.result'), minWidth: 90, maxWidth: 110, align: 'right', render: (r) => `${r.passed}/${r.failed}` },
  ], [t, lang]);

  const shown = data?.records.find((r) => r.companyId === picked) ?? null;

  return (
    <ReportPage
      pageId="ops-check-report"
      testId="ops-check-report-page"
      title={t('title.report')}
      errorsUnderInputs
      filters={<MonthField label={t('month')} value={month} onChange={setMonth} showError={tried} />}
      onSearch={search}
      note={t('note')}
    >
      {data && <Text size="sm" c="dimmed" data-testid="month-state">{data.month} · {data.closed ? t('frozen') : t('open')}</Text>}
      <RowsTable
        rows={data?.records ?? []}
        columns={columns}
        rowKey={(r) => r.companyId}
        label={t('title.report')}
        loading={loading}
        error={error}
        onRetry={reload}
        onRowClick={(r) => setPicked(r.companyId)}
        selectedKey={picked ?? undefined}
        testId="kpi-table"
        rowAttributes={(r) => ({ 'data-testid': 'kpi-row', 'data-company-id': r.companyId, 'data-company': r.companyName })}
        actions={{
          width: 250,
          render: (r) => (
            <Group gap={4} wrap="nowrap">
              <Perm route={REPORT_ROUTE} button="correct">
                <Button size="compact-xs" variant="light" onClick={(e) => { e.stopPropagation(); setCorrecting(r); }} data-testid="correct">{t('correct')}</Button>
              </Perm>
              <Perm route={REPORT_ROUTE} button="download">
                <Button size="compact-xs" variant="default" onClick={(e) => { e.stopPropagation(); download(opsCheckApi.downloadAnalysis, r.companyId); }} data-testid="download-analysis">{t('download')}</Button>
              </Perm>
              <Perm route={REPORT_ROUTE} button="download">
                <Button size="compact-xs" variant="default" onClick={(e) => { e.stopPropagation(); download(opsCheckApi.downloadInsurance, r.companyId); }} data-testid="download-insure">{t('downloadInsure')}</Button>
              </Perm>
            </Group>
          ),
        }}
      />
      {data && data.total > PAGE_SIZE && (
        <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={applied.current} onChange={(current) => setApplied((a) => ({ ...a, current }))} size="sm" />
      )}
      {shown ? <InsureSection company={shown} month={data?.month ?? applied.month} /> : <Text size="sm" c="dimmed">{t('pickCompany')}</Text>}
      {correcting && (
        <CorrectDialog
          company={correcting}
          onClose={() => setCorrecting(null)}
          onDone={() => {
            setCorrecting(null);
            notifications.show({ color: 'green', message: t('corrected') });
            reload();
          }}
        />
      )}
    </ReportPage>
  );
}
