/**
 * /safeManagement/safetyBoardPage — the safety board: stat cards, a filterable server-paged list of
 * vehicles' open risks (kit ResourceTable), a detail drawer with the vehicle's alarms and the action log,
 * and the actions (resolve, follow, continue / cancel follow, upload = report, unpush) behind their
 * button bits. Live (issue 13, one truth): a new high/medium alarm on the session stream, and every
 * handling anywhere — this console, its other windows, other operators through the push channel
 * (`alarmHandled`) — refetch the cards, the list and an open detail. Rules: domain/alarms/board.ts; CONTEXT.md.
 */
import { Badge, Button, Card, Checkbox, Drawer, Group, MultiSelect, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { BOARD_RISK_LEVELS, BOARD_STATES, type BoardState } from '../../../domain/alarms/board.ts';
import { formatTime, riskColor } from '../alarms/format.ts';
import { useAlarmHandlings } from '../alarms/useAlarmHandlings.ts';
import { VehicleMultiSelect } from '../alarms/VehicleMultiSelect.tsx';
import { useT } from '../../i18n/index.ts';
import { useInvalidate } from '../../kit/ListPage.tsx';
import { resourceKey } from '../../kit/query.ts';
import { ResourceTable, type KitColumn } from '../../kit/ResourceTable.tsx';
import { useResourceList, type ListQuery } from '../../kit/useResourceList.ts';
import { acquireLiveStream } from '../../live/stream/session-stream.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { BOARD_ROUTE, fetchBoard, fetchBoardStat, searchCompanies, type BoardItem, type CompanyOption } from './api.ts';
import { BoardDetailView } from './BoardDetail.tsx';
import { bringsBoardAlarm, stateColor } from './form.ts';
import { BOARD_NS } from './messages.ts';

/** New alarms often come in bursts (a vehicle raising several at once): one refresh per second at most. */
const LIVE_REFRESH_MS = 1000;
/** "Overdue" follows the clock, not an event: the cards and the list are read again this often while visible. */
const CLOCK_REFRESH_MS = 60_000;

interface Filters {
  states: string[];
  risks: string[];
  companyId: string | null;
  vehicleIds: string[];
  overdue: boolean;
}

const NO_FILTERS: Filters = { states: [], risks: [], companyId: null, vehicleIds: [], overdue: false };

const STAT_CARDS = ['pending', 'following', 'overdue', 'reported', 'resolved', 'unpushed'] as const;
const STAT_COLORS: Record<(typeof STAT_CARDS)[number], string> = { pending: 'orange', following: 'blue', overdue: 'red', reported: 'grape', resolved: 'green', unpushed: 'gray' };

/** One page of the list for the applied filters. */
function loadPage(filters: Filters, q: ListQuery) {
  return fetchBoard({
    current: q.current, size: q.size, companyId: filters.companyId === null ? undefined : Number(filters.companyId),
    states: filters.states.length ? (filters.states as BoardState[]) : undefined,
    riskLevels: filters.risks.length ? filters.risks : undefined,
    vehicleIds: filters.vehicleIds.length ? filters.vehicleIds.map(Number) : undefined,
    overdue: filters.overdue || undefined,
  });
}

export function SafetyBoardPage() {
  const t = useT(BOARD_NS);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [companyOptions, setCompanyOptions] = useState<CompanyOption[]>([]);
  const { companyId: selectedCompany } = useCompanySelection();
  const invalidate = useInvalidate(BOARD_ROUTE);

  // The console's selected company is in the keys: the request client adds it when none is picked here.
  const pickedCompany = filters.companyId === null ? undefined : Number(filters.companyId);
  const list = useResourceList(BOARD_ROUTE, useCallback((q: ListQuery) => loadPage(filters, q), [filters]), { filters, selectedCompany });
  const stat = useQuery({ queryKey: resourceKey(BOARD_ROUTE, 'stat', { pickedCompany, selectedCompany }), queryFn: () => fetchBoardStat(pickedCompany) });

  // A handling anywhere (list, pop-up, this board, another window, another operator) and any board step.
  useAlarmHandlings(() => void invalidate());

  // A new alarm at a board level may open or join an item; "overdue" changes with the clock alone.
  useEffect(() => {
    const stream = acquireLiveStream();
    let newest: number | null | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refreshSoon = () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void invalidate();
      }, LIVE_REFRESH_MS);
    };
    const clock = setInterval(() => {
      if (document.visibilityState === 'visible') refreshSoon();
    }, CLOCK_REFRESH_MS);
    const off = stream.onAlarmLists((snap) => {
      const id = snap.recent[0]?.id ?? null;
      if (id === newest) return;
      // The first snapshot may be a replay of alarms the page already loaded: one spare reload is cheap,
      // missing the alarm that started the stream is not.
      const seen = newest ?? null;
      newest = id;
      if (bringsBoardAlarm(snap.recent, seen)) refreshSoon();
    });
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      clearInterval(clock);
      off();
      stream.dispose();
    };
  }, [invalidate]);

  const apply = () => {
    // The same filters again: fresh rows rather than the cached page.
    if (JSON.stringify(draft) === JSON.stringify(filters)) void invalidate();
    else setFilters(draft);
  };

  const columns: KitColumn<BoardItem>[] = [
    { key: 'plate', title: t('field.plate'), minWidth: 100, maxWidth: 150, render: (i) => i.vehiidno },
    { key: 'company', title: t('field.company'), minWidth: 120, maxWidth: 220, render: (i) => i.companyName },
    {
      key: 'state', title: t('field.state'), minWidth: 110, maxWidth: 160,
      render: (i) => (
        <Group gap={4} wrap="nowrap">
          <Badge size="sm" color={stateColor(i.state)} data-testid="board-row-state">{t(`state.${i.state}`)}</Badge>
          {i.overdue && <Badge size="sm" color="red" variant="filled">{t('overdueBadge')}</Badge>}
        </Group>
      ),
    },
    { key: 'risk', title: t('field.risk'), minWidth: 72, maxWidth: 96, render: (i) => <Badge size="sm" color={riskColor(i.riskLevel)}>{t(`risk.${i.riskLevel}`)}</Badge> },
    { key: 'alarms', title: t('field.alarms'), minWidth: 60, maxWidth: 80, align: 'right', render: (i) => <span data-testid="board-row-count">{i.alarmCount}</span> },
    { key: 'lastAlarm', title: t('field.lastAlarm'), minWidth: 120, maxWidth: 240, render: (i) => i.lastAlarmName },
    { key: 'lastTime', title: t('field.lastTime'), minWidth: 150, maxWidth: 170, render: (i) => formatTime(i.lastAlarmTime) },
    { key: 'nextFollow', title: t('field.nextFollow'), minWidth: 150, maxWidth: 170, render: (i) => formatTime(i.nextFollowTime) },
    { key: 'handler', title: t('field.handler'), minWidth: 84, maxWidth: 140, render: (i) => i.handlerName || '—' },
  ];

  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setDraft((f) => ({ ...f, [k]: v }));

  return (
    <Stack gap="sm" h="100%" data-testid="safety-board-page">
      <SimpleGrid cols={{ base: 3, md: 6 }} spacing="sm">
        {STAT_CARDS.map((k) => (
          <Card key={k} withBorder padding="sm" data-testid={`board-stat-${k}`} data-value={stat.data?.[k] ?? ''}>
            <Text size="xs" c="dimmed">{t(`stat.${k}`)}</Text>
            <Text fw={700} size="xl" c={STAT_COLORS[k]}>{stat.data ? stat.data[k] : '—'}</Text>
          </Card>
        ))}
      </SimpleGrid>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <MultiSelect
          label={t('filter.states')}
          placeholder={draft.states.length ? undefined : t('filter.statesPlaceholder')}
          clearable
          w={220}
          data={BOARD_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
          value={draft.states}
          onChange={(v) => set('states', v)}
          data-testid="board-filter-states"
        />
        <MultiSelect
          label={t('filter.risk')}
          clearable
          w={160}
          data={BOARD_RISK_LEVELS.map((l) => ({ value: l, label: t(`risk.${l}`) }))}
          value={draft.risks}
          onChange={(v) => set('risks', v)}
          data-testid="board-filter-risk"
        />
        <Select
          label={t('filter.company')}
          placeholder={t('filter.companyPlaceholder')}
          searchable
          clearable
          w={200}
          data={companyOptions.map((c) => ({ value: String(c.companyId), label: c.name }))}
          value={draft.companyId}
          onChange={(v) => set('companyId', v)}
          onSearchChange={(k) => {
            if (k.trim().length >= 1) void searchCompanies(k.trim()).then(setCompanyOptions).catch(() => undefined);
          }}
          data-testid="board-filter-company"
        />
        <VehicleMultiSelect
          label={t('filter.vehicles')}
          placeholder={t('filter.vehiclesPlaceholder')}
          value={draft.vehicleIds}
          onChange={(v) => set('vehicleIds', v)}
          testId="board-filter-vehicles"
        />
        <Checkbox label={t('filter.overdue')} checked={draft.overdue} onChange={(e) => set('overdue', e.currentTarget.checked)} mb={8} data-testid="board-filter-overdue" />
        <Button onClick={apply} data-testid="board-search">{t('filter.search')}</Button>
        <Button variant="default" onClick={() => { setDraft(NO_FILTERS); setFilters(NO_FILTERS); }}>{t('filter.reset')}</Button>
      </Group>
      <Group justify="space-between">
        <Text size="sm" data-testid="board-total" data-total={list.fetching && list.records.length === 0 ? '' : list.total}>{t('total', { total: list.total })}</Text>
        <Text size="xs" c="dimmed">{stat.isError ? t('loadFailed') : t('liveHint')}</Text>
      </Group>
      <ResourceTable
        list={list}
        columns={columns}
        label={t('title')}
        storeKey={BOARD_ROUTE}
        rowAttributes={(i) => ({ 'data-testid': 'board-row', 'data-item-id': i.id, 'data-vehicle-id': i.vehicleId, 'data-state': i.state })}
        actions={{ width: 84, render: (i) => <Button size="compact-xs" variant="light" onClick={() => setDetailId(i.id)} data-testid="board-row-detail">{t('detail')}</Button> }}
      />
      <Drawer opened={detailId !== null} onClose={() => setDetailId(null)} position="right" size="xl" title={t('detail')}>
        {detailId !== null && <BoardDetailView key={detailId} id={detailId} />}
      </Drawer>
    </Stack>
  );
}
