import { useState } from 'react';
import { Button, Drawer, Select, Stack, Text } from '@mantine/core';
import { CHANGE_LOG_MAX_SPAN_DAYS, CHANGE_LOG_SCREENS, changeLogPeriodProblem, CHANGE_OPERATIONS, operationName } from '../../../domain/fleet/change-fields.ts';
import { periodProblem, valueTime, type Period } from '../../../domain/period/period.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { ListPage } from '../../kit/ListPage.tsx';
import { useListPeriod } from '../../kit/period-picker/useListPeriod.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { operatorLogApi, type LogKind, type LogRow, type LogSearch } from './api.ts';
import { ChangeFields, ChangeSummary, LogHeadline, OperationBadge } from './ChangeView.tsx';
import { OPERATOR_LOG_NS } from './messages.ts';
import { logTime } from './time.ts';

const LIMITS = { maxSpanDays: CHANGE_LOG_MAX_SPAN_DAYS } as const;

/**
 * The period a search sends: inclusive epoch-ms bounds (the end minute whole), none when both fields
 * are empty, or undefined while the period is not valid (the list keeps the last valid one).
 */
export function periodBounds(p: Period): { from?: number; to?: number } | undefined {
  if (!p.start && !p.end) return {};
  if (periodProblem(p, 'datetime', LIMITS) !== null) return undefined;
  const bounds = { from: valueTime(p.start), to: valueTime(p.end) + 59_999 };
  // The server's rule on what is sent (the picker allows an hour for a daylight-saving change).
  return changeLogPeriodProblem(bounds.from, bounds.to) === null ? bounds : undefined;
}

/**
 * /information/operatorLogManagement/vehicleLog and /deviceLog: who changed which vehicle (device),
 * when, from where, and what — each change "字段: 旧 → 新" — for the company picked in the tree and
 * below it; keyword (plate or device number, or the operator), operation, a period of at most 92
 * days (the last 7 days to start with), export of the same search, a row's every field in a drawer.
 */
export function OperatorLogPage({ kind }: { kind: LogKind }) {
  const t = useT(OPERATOR_LOG_NS);
  const lang = useLang();
  const route = CHANGE_LOG_SCREENS[kind];
  const { companyId } = useCompanySelection();
  const [operation, setOperation] = useState<string | null>(null);
  const { applied, picker } = useListPeriod({
    bounds: periodBounds, limits: LIMITS, testIds: { start: 'log-from', end: 'log-to', quick: 'log-quick' },
    quick: ['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth'],
  });
  const [detail, setDetail] = useState<LogRow | undefined>(undefined);

  const search: LogSearch = { ...applied, ...(operation ? { operation } : {}) };

  // What changed first (time, record, operation, changes): on a 1280-px screen those fit; who, from where and the company follow.
  const columns: KitColumn<LogRow>[] = [
    { key: 'time', title: t('time'), minWidth: 160, maxWidth: 180, render: (r) => logTime(r.time) },
    { key: 'label', title: kind === 'vehicle' ? t('plate') : t('deviceNo'), minWidth: 100, maxWidth: 160, render: (r) => <Text size="sm" fw={500}>{r.label}</Text> },
    { key: 'operation', title: t('operation'), minWidth: 90, maxWidth: 120, render: (r) => <OperationBadge operation={r.operation} /> },
    { key: 'changes', title: t('changes'), minWidth: 230, maxWidth: 560, render: (r) => <ChangeSummary row={r} /> },
    { key: 'userName', title: t('operator'), minWidth: 90, maxWidth: 160, render: (r) => r.userName || t('system') },
    { key: 'ip', title: t('ip'), minWidth: 110, maxWidth: 150, render: (r) => r.ip },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
  ];

  return (
    <ListPage<LogRow>
      route={route}
      pageId={`information-${kind}-log`}
      title={kind === 'vehicle' ? t('vehicleTitle') : t('deviceTitle')}
      tree={{}}
      searchPlaceholder={kind === 'vehicle' ? t('vehicleKeyword') : t('deviceKeyword')}
      // The period sits on the title line: with the tree and the menu open, a 1280-px screen has no room for it in the filter bar.
      header={picker}
      filters={
        <Select
          size="sm"
          w={140}
          clearable
          placeholder={t('allOperations')}
          aria-label={t('operation')}
          data-testid="log-operation"
          value={operation}
          onChange={setOperation}
          data={CHANGE_OPERATIONS.map((op) => ({ value: op, label: operationName(op, lang) }))}
        />
      }
      fetchPage={(q) => operatorLogApi.page(kind, { ...search, current: q.current, size: q.size, ...(q.keyword ? { keyword: q.keyword } : {}) })}
      scope={{ companyId, ...search }}
      exportJob={(q) => operatorLogApi.exportJob(kind, { ...search, ...(q.keyword ? { keyword: q.keyword } : {}) })}
      columns={columns}
      rowActions={(r) => (
        <Button size="compact-xs" variant="light" onClick={() => setDetail(r)} data-testid="log-details">
          {t('details')}
        </Button>
      )}
      actionsWidth={70}
    >
      {detail && (
        <Drawer opened onClose={() => setDetail(undefined)} position="right" size="md" title={t('detailTitle', { label: detail.label, operation: operationName(detail.operation, lang) })}>
          <Stack gap="sm" data-testid="log-detail">
            <LogHeadline row={detail} />
            <Text size="sm" c="dimmed">{detail.companyName}</Text>
            <ChangeFields row={detail} />
          </Stack>
        </Drawer>
      )}
    </ListPage>
  );
}
