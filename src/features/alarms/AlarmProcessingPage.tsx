/**
 * /safeManagement/alarmProcessingPage — alarm processing (spec §2, §4, §5, §8) on the kit: the screen's
 * own filters (vehicles, group and type, risk, processing state, typical) and period (kit PeriodPicker;
 * today by default, the last 7 days when opened for one vehicle; older than 3 months refused before
 * calling), a server-paged kit ResourceTable (min/max column widths, 详情 pinned right, check boxes for
 * batch handling), the spec's 5,000 cap with its message, export, and a detail drawer. One truth
 * (issue 13): every handling — here, the pop-up, the board, another window, another operator (push
 * `alarmHandled`) — refetches the rows shown and an open detail.
 */
import { Alert, Badge, Button, Drawer, Group, Modal, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { DEAL_STATUSES } from '../../../domain/alarms/engine.ts';
import { RISK_LEVELS } from '../../../domain/alarms/sources.ts';
import { quickRange, type Period, type QuickRange } from '../../../domain/period/period.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { useInvalidate } from '../../kit/ListPage.tsx';
import { PeriodPicker } from '../../kit/period-picker/index.ts';
import { resourceKey } from '../../kit/query.ts';
import { ResourceTable, type KitColumn } from '../../kit/ResourceTable.tsx';
import { useResourceList, type ListQuery } from '../../kit/useResourceList.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { AlarmExportButton } from '../alarm-stats/AlarmExportButton.tsx';
import { AlarmDetail, ALARM_ROUTE } from './AlarmDetail.tsx';
import { fetchAlarmTypes, queryAlarms, type Alarm, type AlarmQuery } from './api.ts';
import { BatchForm } from './BatchForm.tsx';
import { alarmPeriodEnd, formatPlace, formatTime, fromLocalInput, rangeProblem, riskColor, vehicleHistoryRange } from './format.ts';
import { ALARMS_NS } from './messages.ts';
import { useAlarmHandlings } from './useAlarmHandlings.ts';
import { VehicleMultiSelect } from './VehicleMultiSelect.tsx';

const ROUTE = ALARM_ROUTE;
const QUICK: readonly QuickRange[] = ['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth'];

interface Filters {
  vehicleIds: string[];
  group: string | null;
  types: string[];
  risks: string[];
  statuses: string[];
  typical: 'any' | 'yes' | 'no';
  period: Period;
}

interface UrlVehicle {
  vehicleId: number;
  plate: string;
}

/** Opened from a vehicle's menu (alarm history): `?vehicleId=&plate=` filters to that vehicle. */
function vehicleOf(search: Record<string, unknown>): UrlVehicle | null {
  const vehicleId = Number(search.vehicleId);
  const plate = typeof search.plate === 'string' && search.plate ? search.plate : `#${vehicleId}`;
  return Number.isSafeInteger(vehicleId) && vehicleId > 0 ? { vehicleId, plate } : null;
}

/** Today, or for one vehicle's history a useful recent span (format.ts vehicleHistoryRange). */
function filtersFor(v: UrlVehicle | null): Filters {
  const now = new Date();
  return {
    vehicleIds: v ? [String(v.vehicleId)] : [], group: null, types: [], risks: [], statuses: [], typical: 'any',
    period: v ? vehicleHistoryRange(now) : quickRange('today', now, 'datetime'),
  };
}

/** The call's filters, or the reason (a message key) the period is refused before calling. */
function toQuery(f: Filters): { query: Omit<AlarmQuery, 'current' | 'size'> } | { problem: 'tooOld' | 'badRange' } {
  const startTime = fromLocalInput(f.period.start);
  const endTime = alarmPeriodEnd(f.period.end);
  const p = rangeProblem(startTime, endTime, Date.now());
  if (p) return { problem: p };
  const q: Omit<AlarmQuery, 'current' | 'size'> = { startTime, endTime };
  if (f.vehicleIds.length) q.vehicleIds = f.vehicleIds.map(Number);
  if (f.types.length) q.alarmTypes = f.types.map(Number);
  else if (f.group !== null) q.alarmGroups = [Number(f.group)];
  if (f.risks.length) q.riskLevels = f.risks;
  if (f.statuses.length) q.dealStatuses = f.statuses.map(Number);
  if (f.typical !== 'any') q.typical = f.typical === 'yes';
  return { query: q };
}

export function AlarmProcessingPage() {
  const t = useT(ALARMS_NS);
  const lang = useLang();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const urlVehicle = vehicleOf(search);
  const urlKey = urlVehicle ? `${urlVehicle.vehicleId}` : '';
  const [seenUrl, setSeenUrl] = useState(urlKey);
  const [draft, setDraft] = useState<Filters>(() => filtersFor(urlVehicle));
  const [query, setQuery] = useState(() => {
    const q = toQuery(filtersFor(urlVehicle));
    return 'query' in q ? q.query : null;
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [selected, setSelected] = useState<Alarm[]>([]);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [batchOpen, setBatchOpen] = useState(false);
  const [meta, setMeta] = useState<{ key: string; capped: boolean; matched: number } | null>(null);
  const { companyId } = useCompanySelection();
  const invalidate = useInvalidate(ROUTE);

  // The vehicle menu opened this (already open) page for another vehicle: its history replaces the query.
  if (urlKey !== seenUrl) {
    setSeenUrl(urlKey);
    if (urlVehicle) {
      const next = filtersFor(urlVehicle);
      const q = toQuery(next);
      setDraft(next);
      setQuery('query' in q ? q.query : null);
      setSelected([]);
    }
  }

  // The catalogue, outside the route's key: handlings (which invalidate the route) do not change it.
  const types = useQuery({ queryKey: resourceKey('alarm-catalogue', 'types'), queryFn: fetchAlarmTypes, staleTime: Infinity });
  const groups = useMemo(() => (types.data ?? []).filter((x) => x.isGroup), [types.data]);
  const typeOptions = useMemo(
    () => (types.data ?? []).filter((x) => !x.isGroup && (draft.group === null || String(x.group) === draft.group)).map((x) => ({ value: String(x.alarmType), label: x.alarmName })),
    [types.data, draft.group],
  );

  // The selected company is in the key: the request client adds it to the call (spec §7).
  const scope = { query, companyId };
  const queryKey = JSON.stringify(scope);
  const fetchPage = useCallback(
    async (q: ListQuery) => {
      if (query === null) return { records: [] as Alarm[], total: 0 };
      const page = await queryAlarms({ ...query, current: q.current, size: q.size });
      // The cap and the full match count are the same on every page of one query.
      setMeta({ key: queryKey, capped: page.capped, matched: page.matched });
      return page;
    },
    [query, queryKey],
  );
  const list = useResourceList(ROUTE, fetchPage, scope);

  // One truth: a handling anywhere refetches what shows alarm states (rows, an open detail and its log).
  useAlarmHandlings((ids) => {
    if (ids === null || ids.length > 0) void invalidate();
  });

  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setDraft((f) => ({ ...f, [k]: v }));

  const runSearch = () => {
    const q = toQuery(draft);
    if ('problem' in q) {
      setProblem(t(`page.${q.problem}`));
      return;
    }
    setProblem(null);
    setSelected([]);
    // The same query again: the operator wants fresh rows, not the cached page.
    if (JSON.stringify(q.query) === JSON.stringify(query)) void invalidate();
    else setQuery(q.query);
  };

  const columns: KitColumn<Alarm>[] = [
    { key: 'plate', title: t('field.plate'), minWidth: 100, maxWidth: 150, render: (a) => a.vehiidno },
    { key: 'alarmName', title: t('field.alarmName'), minWidth: 140, maxWidth: 280, render: (a) => <Text span size="sm" title={alarmName(a.alarmType, lang)}>{alarmName(a.alarmType, lang)}</Text> },
    { key: 'risk', title: t('field.risk'), minWidth: 72, maxWidth: 96, render: (a) => <Badge size="xs" color={riskColor(a.riskLevel)}>{t(`risk.${a.riskLevel}`, { defaultValue: a.riskLevel })}</Badge> },
    { key: 'time', title: t('field.time'), minWidth: 150, maxWidth: 170, render: (a) => formatTime(a.startTime) },
    { key: 'place', title: t('field.place'), minWidth: 180, maxWidth: 360, render: (a) => <span title={formatPlace(a.lng, a.lat)} data-testid="alarm-row-place">{a.address || formatPlace(a.lng, a.lat)}</span> },
    { key: 'speed', title: t('field.speed'), minWidth: 76, maxWidth: 100, align: 'right', render: (a) => t('speedValue', { speed: a.speed }) },
    { key: 'count', title: t('field.count'), minWidth: 50, maxWidth: 64, align: 'right', render: (a) => a.count },
    { key: 'status', title: t('field.status'), minWidth: 90, maxWidth: 120, render: (a) => <span data-testid="alarm-row-status">{t(`status.${a.dealStatus}`)}</span> },
    { key: 'typical', title: t('field.typical'), minWidth: 64, maxWidth: 84, render: (a) => (a.typical ? t('page.yes') : t('page.no')) },
    { key: 'dealType', title: t('field.dealType'), minWidth: 84, maxWidth: 120, render: (a) => (a.dealType ? t(`dealType.${a.dealType}`) : '—') },
    { key: 'dealUser', title: t('field.dealUser'), minWidth: 84, maxWidth: 140, render: (a) => <span data-testid="alarm-row-user">{a.dealUsername || '—'}</span> },
  ];

  const capped = meta !== null && meta.key === queryKey && meta.capped;
  const selectedIds = selected.map((a) => a.id);

  return (
    <Stack gap="sm" h="100%" data-testid="alarm-processing-page">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <VehicleMultiSelect
          label={t('page.vehicles')}
          placeholder={t('page.vehiclesPlaceholder')}
          value={draft.vehicleIds}
          initialOptions={urlVehicle ? [urlVehicle] : undefined}
          onChange={(v) => set('vehicleIds', v)}
          testId="filter-vehicles"
        />
        <Select
          label={t('page.group')}
          placeholder={t('page.all')}
          clearable
          w={150}
          data={groups.map((g) => ({ value: String(g.alarmType), label: g.alarmName }))}
          value={draft.group}
          onChange={(v) => setDraft((f) => ({ ...f, group: v, types: [] }))}
          data-testid="filter-group"
        />
        <MultiSelect label={t('page.type')} searchable clearable w={220} data={typeOptions} placeholder={draft.types.length ? undefined : t('page.all')} value={draft.types} onChange={(v) => set('types', v)} data-testid="filter-types" />
        <MultiSelect label={t('page.risk')} clearable w={160} data={RISK_LEVELS.map((l) => ({ value: l, label: t(`risk.${l}`) }))} placeholder={draft.risks.length ? undefined : t('page.all')} value={draft.risks} onChange={(v) => set('risks', v)} data-testid="filter-risk" />
        <MultiSelect
          label={t('page.status')}
          clearable
          w={200}
          data={DEAL_STATUSES.map((s) => ({ value: String(s), label: t(`status.${s}`) }))}
          placeholder={draft.statuses.length ? undefined : t('page.all')}
          value={draft.statuses}
          onChange={(v) => set('statuses', v)}
          data-testid="filter-status"
        />
        <Select
          label={t('page.typical')}
          w={110}
          allowDeselect={false}
          data={[{ value: 'any', label: t('page.typicalAny') }, { value: 'yes', label: t('page.typicalYes') }, { value: 'no', label: t('page.typicalNo') }]}
          value={draft.typical}
          onChange={(v) => v && set('typical', v as Filters['typical'])}
          data-testid="filter-typical"
        />
        <PeriodPicker
          value={draft.period}
          onChange={(p) => set('period', p)}
          quick={QUICK}
          showProblem={false}
          labels={{ start: t('page.start'), end: t('page.end') }}
          testIds={{ start: 'filter-start', end: 'filter-end', quick: 'filter-quick' }}
        />
        <Button onClick={runSearch} data-testid="alarm-search">{t('page.search')}</Button>
        <Button variant="default" onClick={() => setDraft(filtersFor(null))}>{t('page.reset')}</Button>
      </Group>
      {problem && <Alert color="red" data-testid="alarm-query-problem">{problem}</Alert>}
      {capped && <Alert color="yellow" data-testid="alarm-capped">{t('page.capped', { matched: meta?.matched ?? 0 })}</Alert>}
      <Group justify="space-between">
        <Text size="sm" data-testid="alarm-total" data-total={list.fetching && list.records.length === 0 ? '' : list.total}>{t('page.total', { total: list.total })}</Text>
        <Group gap="sm">
          {selected.length > 0 && <Text size="sm">{t('page.selected', { count: selected.length })}</Text>}
          <AlarmExportButton query={query as Record<string, unknown> | null} />
          <Perm route={ROUTE} button="deal">
            <Button size="xs" disabled={selected.length === 0} onClick={() => setBatchOpen(true)} data-testid="alarm-batch">{t('page.batch')}</Button>
          </Perm>
        </Group>
      </Group>
      <ResourceTable
        list={list}
        columns={columns}
        label={t('page.title')}
        storeKey={ROUTE}
        selection={{ selected, onChange: setSelected }}
        rowAttributes={(a) => ({ 'data-testid': 'alarm-row', 'data-alarm-id': a.id, 'data-deal-status': a.dealStatus })}
        actions={{
          width: 84,
          render: (a) => <Button size="compact-xs" variant="light" onClick={() => setDetailId(a.id)} data-testid="alarm-row-detail">{t('page.detail')}</Button>,
        }}
      />
      <Drawer opened={detailId !== null} onClose={() => setDetailId(null)} position="right" size="lg" title={t('page.detail')}>
        {detailId !== null && <AlarmDetail key={detailId} id={detailId} onChanged={() => void invalidate()} />}
      </Drawer>
      <Modal opened={batchOpen} onClose={() => setBatchOpen(false)} title={t('page.batch')}>
        {batchOpen && (
          <BatchForm
            ids={selectedIds}
            onDone={(n, skipped) => {
              setBatchOpen(false);
              setSelected([]);
              notifications.show(skipped === 0
                ? { color: 'green', message: t('page.batchDone', { count: n }) }
                : { color: 'yellow', message: t('page.batchSkipped', { count: n, skipped }) });
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
