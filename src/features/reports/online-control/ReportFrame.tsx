import { useEffect, useState, type ReactNode } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { useT } from '../../../i18n/index.ts';
import { PeriodPicker } from '../../../kit/period-picker/index.ts';
import { ReportPage } from '../../../kit/ReportPage.tsx';
import { companySelection, useCompanySelection } from '../../../session/company-selection.ts';
import { CompanyTreePanel } from '../../company-tree/CompanyTreePanel.tsx';
import { companyOptionsApi } from '../../system/api.ts';
import type { ReportQuery } from './api.ts';
import { ONLINE_CONTROL_NS } from './messages.ts';
import { checkPeriod, defaultPeriod, REPORT_MAX_DAYS, vehicleIdsOf, type ReportPeriod } from './period.ts';

export interface AppliedQuery extends ReportQuery {
  /** Changes with the query, the selected company and each search: the lists' load key. */
  key: string;
}

/**
 * The frame of the online-control report pages: the company tree (click a company to narrow the
 * report, check vehicles to report on them only), the period, search and export; the page's lists
 * render below with the applied query. The selected company travels with each call (request client).
 * Laid out by the kit's ReportPage (tree, title, form line, problem, report, note).
 */
export function ReportFrame({
  title,
  note,
  page,
  onExport,
  children,
}: {
  title: string;
  note: string;
  page: string;
  onExport: (query: ReportQuery) => Promise<void>;
  children: (query: AppliedQuery) => ReactNode;
}) {
  const t = useT(ONLINE_CONTROL_NS);
  const { companyId } = useCompanySelection();
  const [draft, setDraft] = useState<ReportPeriod>(() => defaultPeriod(Date.now()));
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const [applied, setApplied] = useState<{ period: ReportPeriod; vehicleIds: number[]; search: number }>(() => ({
    period: defaultPeriod(Date.now()), vehicleIds: [], search: 0,
  }));
  const [companyNames, setCompanyNames] = useState<ReadonlyMap<number, string>>(() => new Map());
  useEffect(() => {
    companyOptionsApi.tree().then((list) => setCompanyNames(new Map(list.map((c) => [c.id, c.name]))), () => undefined);
  }, []);
  const problem = checkPeriod(draft);
  const problemText = problem === null ? null : t(`period.${problem}`, { days: REPORT_MAX_DAYS });

  const query: AppliedQuery = {
    ...applied.period,
    vehicleIds: applied.vehicleIds.length > 0 ? applied.vehicleIds : undefined,
    key: JSON.stringify([applied, companyId]),
  };

  const search = () => {
    if (problem !== null) return;
    setApplied((a) => ({ period: draft, vehicleIds: vehicleIdsOf(checked), search: a.search + 1 }));
  };

  const vehicleCount = applied.vehicleIds.length;
  return (
    <ReportPage
      pageId={page}
      title={title}
      header={
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed">
            {companyId === null ? t('filter.allCompanies') : t('filter.company', { name: companyNames.get(companyId) ?? `#${companyId}` })}
          </Text>
          {companyId !== null && (
            <Button size="compact-xs" variant="subtle" onClick={() => (companySelection.companyId = null)}>
              {t('filter.allCompanies')}
            </Button>
          )}
          <Text size="sm" c="dimmed" data-testid="vehicle-filter">
            {vehicleCount > 0 ? t('filter.vehiclesChecked', { count: vehicleCount }) : t('filter.vehiclesAll')}
          </Text>
          {checked.size > 0 && (
            <Button size="compact-xs" variant="subtle" onClick={() => setChecked(new Set())}>
              {t('filter.clearVehicles')}
            </Button>
          )}
        </Group>
      }
      aside={
        <>
          <CompanyTreePanel checkable checkableTypes={['V']} checked={checked} onCheckedChange={setChecked} />
          <Text size="xs" c="dimmed" mt={4}>
            {t('filter.treeHint')}
          </Text>
        </>
      }
      filters={
        // The frame states its own period problem (checkPeriod, REPORT_MAX_DAYS) below.
        <PeriodPicker
          mode="date"
          value={{ start: draft.startDate, end: draft.endDate }}
          onChange={(p) => setDraft((d) => ({ ...d, startDate: p.start, endDate: p.end }))}
          quick={['yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth']}
          showProblem={false}
          labels={{ start: t('filter.startDate'), end: t('filter.endDate') }}
          testIds={{ start: 'start-date', end: 'end-date', quick: 'quick-range' }}
        />
      }
      onSearch={search}
      searchDisabled={problem !== null}
      onExport={() => onExport(query)}
      problem={problemText}
      note={note}
    >
      {children(query)}
    </ReportPage>
  );
}
