/**
 * /safeManagement/safetyBoardPage — the safety board: stat cards, a filterable list of vehicles'
 * open risks, a detail drawer with the vehicle's alarms and the action log, and the actions (resolve,
 * follow, continue / cancel follow, upload = report, unpush) behind their button bits. Refreshes when
 * the session stream brings a new high/medium alarm. Rules: domain/alarms/board.ts; CONTEXT.md.
 */
import { Badge, Button, Card, Checkbox, Drawer, Group, MultiSelect, Pagination, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { BOARD_RISK_LEVELS, BOARD_STATES, type BoardState } from '../../../domain/alarms/board.ts';
import { formatTime, riskColor } from '../alarms/format.ts';
import { VehicleMultiSelect } from '../alarms/VehicleMultiSelect.tsx';
import { useT } from '../../i18n/index.ts';
import { acquireLiveStream } from '../../live/stream/session-stream.ts';
import { onAlarmsHandled } from '../alarms/handled.ts';
import { fetchBoard, fetchBoardStat, searchCompanies, type BoardPage, type BoardStat, type CompanyOption } from './api.ts';
import { BoardDetailView } from './BoardDetail.tsx';
import { bringsBoardAlarm, stateColor } from './form.ts';
import { BOARD_NS } from './messages.ts';

const PAGE_SIZE = 50;
/** New alarms often come in bursts (a vehicle raising several at once): one refresh per second at most. */
const LIVE_REFRESH_MS = 1000;
/** Catch-up for handlings elsewhere (other operators) that reach this console without a message. */
const OTHERS_REFRESH_MS = 30_000;

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

/** One page of the list and the stat cards, for the same company choice. */
function loadBoard(filters: Filters, current: number): Promise<[BoardPage, BoardStat]> {
  const companyId = filters.companyId === null ? undefined : Number(filters.companyId);
  return Promise.all([
    fetchBoard({
      current, size: PAGE_SIZE, companyId,
      states: filters.states.length ? (filters.states as BoardState[]) : undefined,
      riskLevels: filters.risks.length ? filters.risks : undefined,
      vehicleIds: filters.vehicleIds.length ? filters.vehicleIds.map(Number) : undefined,
      overdue: filters.overdue || undefined,
    }),
    fetchBoardStat(companyId),
  ]);
}

export function SafetyBoardPage() {
  const t = useT(BOARD_NS);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [current, setCurrent] = useState(1);
  const [page, setPage] = useState<BoardPage | null>(null);
  const [stat, setStat] = useState<BoardStat | null>(null);
  const [failed, setFailed] = useState(false);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [detailVersion, setDetailVersion] = useState(0);
  const [companyOptions, setCompanyOptions] = useState<CompanyOption[]>([]);
  /** Bumped to reload the list and the cards (live refresh, after an action). */
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    loadBoard(filters, current)
      .then(([p, s]) => {
        if (!live) return;
        setPage(p);
        setStat(s);
        setFailed(false);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [filters, current, tick]);

  // Live refresh: the session stream's alarm snapshot changes when an alarm arrives; a new alarm at a
  // board level may open or join an item, so the list, the cards and an open detail reload.
  useEffect(() => {
    const stream = acquireLiveStream();
    let newest: number | null | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refreshSoon = () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        setTick((n) => n + 1);
        setDetailVersion((v) => v + 1);
      }, LIVE_REFRESH_MS);
    };
    // A handling on the processing list or the pop-up may resolve a pending item (server: the board
    // reads the alarm before it is handled) and always changes its alarms: reload (issue 13).
    const offHandled = onAlarmsHandled(refreshSoon);
    // Another operator's handling sends no push message: the cards and the list also catch up every
    // 30 s while the page is visible (two small reads).
    const poll = setInterval(() => {
      if (document.visibilityState === 'visible') refreshSoon();
    }, OTHERS_REFRESH_MS);
    const off = stream.onAlarmLists((snap) => {
      const id = snap.recent[0]?.id ?? null;
      if (id === newest) return;
      // The first snapshot may be a replay of alarms the page already loaded: one spare reload is cheap,
      // missing the alarm that started the stream is not.
      const seen = newest ?? null;
      newest = id;
      if (!bringsBoardAlarm(snap.recent, seen)) return;
      refreshSoon();
    });
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      offHandled();
      clearInterval(poll);
      off();
      stream.dispose();
    };
  }, []);

  const apply = () => {
    setCurrent(1);
    setFilters(draft);
  };

  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setDraft((f) => ({ ...f, [k]: v }));

  const afterAction = () => {
    setTick((n) => n + 1);
    setDetailVersion((v) => v + 1);
  };

  return (
    <Stack gap="sm" data-testid="safety-board-page">
      <SimpleGrid cols={{ base: 3, md: 6 }} spacing="sm">
        {STAT_CARDS.map((k) => (
          <Card key={k} withBorder padding="sm" data-testid={`board-stat-${k}`} data-value={stat?.[k] ?? ''}>
            <Text size="xs" c="dimmed">{t(`stat.${k}`)}</Text>
            <Text fw={700} size="xl" c={STAT_COLORS[k]}>{stat ? stat[k] : '—'}</Text>
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
        <Button variant="default" onClick={() => { setDraft(NO_FILTERS); setCurrent(1); setFilters(NO_FILTERS); }}>{t('filter.reset')}</Button>
      </Group>
      <Group justify="space-between">
        <Text size="sm" data-testid="board-total" data-total={page?.total ?? ''}>{page ? t('total', { total: page.total }) : ''}</Text>
        <Text size="xs" c="dimmed">{failed ? t('loadFailed') : t('liveHint')}</Text>
      </Group>
      <Table striped highlightOnHover data-testid="board-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('field.plate')}</Table.Th>
            <Table.Th>{t('field.company')}</Table.Th>
            <Table.Th>{t('field.state')}</Table.Th>
            <Table.Th>{t('field.risk')}</Table.Th>
            <Table.Th>{t('field.alarms')}</Table.Th>
            <Table.Th>{t('field.lastAlarm')}</Table.Th>
            <Table.Th>{t('field.lastTime')}</Table.Th>
            <Table.Th>{t('field.nextFollow')}</Table.Th>
            <Table.Th>{t('field.handler')}</Table.Th>
            <Table.Th>{t('field.action')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {page?.records.map((i) => (
            <Table.Tr key={i.id} data-testid="board-row" data-item-id={i.id} data-vehicle-id={i.vehicleId} data-state={i.state}>
              <Table.Td>{i.vehiidno}</Table.Td>
              <Table.Td>{i.companyName}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Badge size="sm" color={stateColor(i.state)} data-testid="board-row-state">{t(`state.${i.state}`)}</Badge>
                  {i.overdue && <Badge size="sm" color="red" variant="filled">{t('overdueBadge')}</Badge>}
                </Group>
              </Table.Td>
              <Table.Td><Badge size="sm" color={riskColor(i.riskLevel)}>{t(`risk.${i.riskLevel}`)}</Badge></Table.Td>
              <Table.Td data-testid="board-row-count">{i.alarmCount}</Table.Td>
              <Table.Td>{i.lastAlarmName}</Table.Td>
              <Table.Td>{formatTime(i.lastAlarmTime)}</Table.Td>
              <Table.Td>{formatTime(i.nextFollowTime)}</Table.Td>
              <Table.Td>{i.handlerName || '—'}</Table.Td>
              <Table.Td><Button size="compact-xs" variant="light" onClick={() => setDetailId(i.id)} data-testid="board-row-detail">{t('detail')}</Button></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {page && page.records.length === 0 && <Text c="dimmed" size="sm" data-testid="board-empty">{t('empty')}</Text>}
      {page && page.total > PAGE_SIZE && <Pagination total={Math.ceil(page.total / PAGE_SIZE)} value={current} onChange={setCurrent} size="sm" />}
      <Drawer opened={detailId !== null} onClose={() => setDetailId(null)} position="right" size="xl" title={t('detail')}>
        {detailId !== null && <BoardDetailView key={detailId} id={detailId} version={detailVersion} onChanged={afterAction} />}
      </Drawer>
    </Stack>
  );
}
