/**
 * /safeManagement/alarmProcessingPage — alarm processing (spec §2, §4, §5, §8): query by the selected
 * company (added by the request client), vehicles, group and type, risk level, processing state,
 * typical and time (default today; older than 3 months is refused before calling); a virtualised
 * table that loads pages of 500 as it scrolls (≤ 5000, the spec's cap, with its message); a detail
 * drawer with the processing log; confirm, invalid, typical and batch handling through Perm.
 */
import { Alert, Badge, Button, Checkbox, Drawer, Group, Modal, MultiSelect, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { DEAL_STATUSES, DEAL_TYPES, DealStatus, DealType } from '../../../domain/alarms/engine.ts';
import { RISK_LEVELS } from '../../../domain/alarms/sources.ts';
import { isApiError } from '../../api/http.ts';
import { Perm } from '../../app/Perm.tsx';
import { AlarmExportButton } from '../alarm-stats/AlarmExportButton.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import {
  fetchAlarm, fetchAlarmTypes, fetchDealLog, handleAlarms, invalidAlarm, markTypical, queryAlarms,
  type Alarm, type AlarmQuery, type AlarmTypeEntry, type DealLogEntry,
} from './api.ts';
import { formatPlace, formatTime, fromLocalInput, rangeProblem, riskColor, todayRange, toLocalInput } from './format.ts';
import { AlarmEvidence } from './AlarmEvidence.tsx';
import { HandleForm } from './HandleForm.tsx';
import { onAlarmsHandled } from './handled.ts';
import { ALARMS_NS } from './messages.ts';
import { VehicleMultiSelect } from './VehicleMultiSelect.tsx';
import { DateTimeField } from '../../kit/period-picker/index.ts';
import { LAYERS } from '../../shell/layers.ts';

const ROUTE = '/safeManagement/alarmProcessingPage';
const PAGE_SIZE = 500;
const ROW_HEIGHT = 34;
/**
 * Column widths (issue 13): each column lies between its minimum and maximum, so at 1280 px the type
 * column is never crushed (the table scrolls sideways instead) and at 3840 px it does not grow to
 * 2,500 px. The last column (详情) is pinned to the right edge. `data-min-width` on the header cells
 * lets the layout checks assert the minimum.
 */
const COLUMN_WIDTHS = [
  ['check', 32, 32], ['plate', 100, 150], ['alarmName', 140, 280], ['risk', 72, 96], ['time', 150, 170], ['place', 180, 360], ['speed', 76, 100],
  ['count', 50, 64], ['status', 90, 120], ['typical', 64, 84], ['dealType', 84, 120], ['dealUser', 84, 140], ['action', 72, 84],
] as const;
const COLUMNS = COLUMN_WIDTHS.map(([, min, max]) => `minmax(${min}px, ${max}px)`).join(' ');
const TABLE_MIN_WIDTH = COLUMN_WIDTHS.reduce((w, [, min]) => w + min, 0);
const MIN_WIDTH = Object.fromEntries(COLUMN_WIDTHS.map(([k, min]) => [k, min])) as Record<(typeof COLUMN_WIDTHS)[number][0], number>;
const PINNED = { position: 'sticky', right: 0, background: 'var(--mantine-color-body)', boxShadow: '-4px 0 4px -4px rgba(0,0,0,0.25)', zIndex: LAYERS.tablePinned } as const;

interface Filters {
  vehicleIds: string[];
  group: string | null;
  types: string[];
  risks: string[];
  statuses: string[];
  typical: 'any' | 'yes' | 'no';
  start: string;
  end: string;
}

/** Opened from the monitor's vehicle menu (alarm history): `?vehicleId=&plate=` filters to that vehicle. */
function vehicleFromUrl(): { vehicleId: number; plate: string } | null {
  const q = new URLSearchParams(globalThis.location?.search ?? '');
  const vehicleId = Number(q.get('vehicleId'));
  return Number.isSafeInteger(vehicleId) && vehicleId > 0 ? { vehicleId, plate: q.get('plate') || `#${vehicleId}` } : null;
}

function initialFilters(): Filters {
  const { start, end } = todayRange(Date.now());
  const v = vehicleFromUrl();
  return { vehicleIds: v ? [String(v.vehicleId)] : [], group: null, types: [], risks: [], statuses: [], typical: 'any', start: toLocalInput(start), end: toLocalInput(end) };
}

/** The loaded rows live here, outside React state: up to 5000 records, rendered ~30 at a time. */
class ResultSet {
  rows: Alarm[] = [];
  total = 0;
  capped = false;
  matched = 0;
  query: AlarmQuery | null = null;
  loading = false;
  replace(a: Alarm): boolean {
    const i = this.rows.findIndex((r) => r.id === a.id);
    if (i < 0) return false;
    this.rows[i] = a;
    return true;
  }
}

export function AlarmProcessingPage() {
  const t = useT(ALARMS_NS);
  const lang = useLang();
  const [filters, setFilters] = useState<Filters>(initialFilters);
  const [initialVehicle] = useState(() => {
    const v = vehicleFromUrl();
    return v ? [v] : undefined;
  });
  const [types, setTypes] = useState<AlarmTypeEntry[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const results = useRef(new ResultSet());
  const [version, setVersion] = useState(0);
  const [searched, setSearched] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [detailId, setDetailId] = useState<number | null>(null);
  const [batchOpen, setBatchOpen] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const bump = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    void fetchAlarmTypes().then(setTypes).catch(() => undefined);
  }, []);

  const groups = useMemo(() => types.filter((x) => x.isGroup), [types]);
  const typeOptions = useMemo(
    () => types.filter((x) => !x.isGroup && (filters.group === null || String(x.group) === filters.group)).map((x) => ({ value: String(x.alarmType), label: x.alarmName })),
    [types, filters.group],
  );

  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setFilters((f) => ({ ...f, [k]: v }));

  const loadPage = useCallback(
    async (current: number) => {
      const r = results.current;
      const q = r.query;
      // A new query (page 1) never waits for the previous one; a stale answer is dropped.
      if (!q || (r.loading && current !== 1)) return;
      r.loading = true;
      try {
        const page = await queryAlarms({ ...q, current, size: PAGE_SIZE });
        if (r.query !== q) return;
        if (current === 1) r.rows = page.records;
        else r.rows = r.rows.concat(page.records);
        r.total = page.total;
        r.capped = page.capped;
        r.matched = page.matched;
      } finally {
        if (r.query === q) r.loading = false;
        bump();
      }
    },
    [bump],
  );

  const search = async () => {
    const startTime = fromLocalInput(filters.start);
    const endTime = fromLocalInput(filters.end);
    const p = rangeProblem(startTime, endTime, Date.now());
    if (p) {
      setProblem(t(`page.${p}`));
      return;
    }
    setProblem(null);
    const q: AlarmQuery = { current: 1, size: PAGE_SIZE, startTime, endTime };
    if (filters.vehicleIds.length) q.vehicleIds = filters.vehicleIds.map(Number);
    if (filters.types.length) q.alarmTypes = filters.types.map(Number);
    else if (filters.group !== null) q.alarmGroups = [Number(filters.group)];
    if (filters.risks.length) q.riskLevels = filters.risks;
    if (filters.statuses.length) q.dealStatuses = filters.statuses.map(Number);
    if (filters.typical !== 'any') q.typical = filters.typical === 'yes';
    results.current.query = q;
    results.current.rows = [];
    setSelected(new Set());
    setSearched(true);
    scrollRef.current?.scrollTo({ top: 0 });
    await loadPage(1).catch(() => undefined);
  };

  // The page opens on the default query (the last days, every type), as operators expect a list at once.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    void search();
  });

  /** After an action: the fresh record replaces its row. */
  const refresh = useCallback(
    async (ids: readonly number[]) => {
      for (const id of ids.slice(0, 50)) {
        const a = await fetchAlarm(id).catch(() => null);
        if (a) results.current.replace(a);
      }
      if (ids.length > 50) await loadPage(1).catch(() => undefined);
      bump();
    },
    [bump, loadPage],
  );

  // Handled elsewhere (the pop-up, the safety board, another window): the rows shown take the new state.
  useEffect(
    () => onAlarmsHandled((ids) => {
      const shown = ids.filter((id) => results.current.rows.some((x) => x.id === id && x.dealStatus === 0));
      if (shown.length > 0) void refresh(shown);
    }),
    [refresh],
  );

  const r = results.current;
  const count = r.rows.length;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read only in this component
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    // Near the end of what is loaded: fetch the next page (the server serves at most the first 5000).
    if (count > 0 && lastIndex >= count - 20 && count < r.total && !r.loading) void loadPage(Math.floor(count / PAGE_SIZE) + 1).catch(() => undefined);
  }, [lastIndex, count, r, loadPage, version]);

  const toggle = (id: number) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const detail = detailId === null ? undefined : r.rows.find((x) => x.id === detailId);

  return (
    <Stack gap="sm" h="100%" data-testid="alarm-processing-page">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <VehicleMultiSelect
          label={t('page.vehicles')}
          placeholder={t('page.vehiclesPlaceholder')}
          value={filters.vehicleIds}
          initialOptions={initialVehicle}
          onChange={(v) => set('vehicleIds', v)}
          testId="filter-vehicles"
        />
        <Select
          label={t('page.group')}
          placeholder={t('page.all')}
          clearable
          w={150}
          data={groups.map((g) => ({ value: String(g.alarmType), label: g.alarmName }))}
          value={filters.group}
          onChange={(v) => setFilters((f) => ({ ...f, group: v, types: [] }))}
          data-testid="filter-group"
        />
        <MultiSelect label={t('page.type')} searchable clearable w={220} data={typeOptions} placeholder={filters.types.length ? undefined : t('page.all')} value={filters.types} onChange={(v) => set('types', v)} data-testid="filter-types" />
        <MultiSelect label={t('page.risk')} clearable w={160} data={RISK_LEVELS.map((l) => ({ value: l, label: t(`risk.${l}`) }))} placeholder={filters.risks.length ? undefined : t('page.all')} value={filters.risks} onChange={(v) => set('risks', v)} data-testid="filter-risk" />
        <MultiSelect
          label={t('page.status')}
          clearable
          w={200}
          data={DEAL_STATUSES.map((s) => ({ value: String(s), label: t(`status.${s}`) }))}
          placeholder={filters.statuses.length ? undefined : t('page.all')}
          value={filters.statuses}
          onChange={(v) => set('statuses', v)}
          data-testid="filter-status"
        />
        <Select
          label={t('page.typical')}
          w={110}
          allowDeselect={false}
          data={[{ value: 'any', label: t('page.typicalAny') }, { value: 'yes', label: t('page.typicalYes') }, { value: 'no', label: t('page.typicalNo') }]}
          value={filters.typical}
          onChange={(v) => v && set('typical', v as Filters['typical'])}
          data-testid="filter-typical"
        />
        <DateTimeField label={t('page.start')} value={filters.start} onChange={(v) => set('start', v)} data-testid="filter-start" />
        <DateTimeField label={t('page.end')} value={filters.end} onChange={(v) => set('end', v)} data-testid="filter-end" />
        <Button onClick={() => void search()} data-testid="alarm-search">{t('page.search')}</Button>
        <Button variant="default" onClick={() => setFilters(initialFilters())}>{t('page.reset')}</Button>
      </Group>
      {problem && <Alert color="red" data-testid="alarm-query-problem">{problem}</Alert>}
      {searched && r.capped && <Alert color="yellow" data-testid="alarm-capped">{t('page.capped', { matched: r.matched })}</Alert>}
      <Group justify="space-between">
        <Text size="sm" data-testid="alarm-total" data-total={r.total}>{searched ? t('page.total', { total: r.total }) : ''}</Text>
        <Group gap="sm">
          {selected.size > 0 && <Text size="sm">{t('page.selected', { count: selected.size })}</Text>}
          <AlarmExportButton query={searched ? (r.query as unknown as Record<string, unknown> | null) : null} />
          <Perm route={ROUTE} button="deal">
            <Button size="xs" disabled={selected.size === 0} onClick={() => setBatchOpen(true)} data-testid="alarm-batch">{t('page.batch')}</Button>
          </Perm>
        </Group>
      </Group>
      <div ref={scrollRef} style={{ flex: 1, minHeight: 240, overflow: 'auto' }} data-testid="alarm-table" data-length={count} data-version={version}>
      <div
        data-testid="alarm-table-header"
        style={{ display: 'grid', gridTemplateColumns: COLUMNS, minWidth: TABLE_MIN_WIDTH, fontWeight: 600, fontSize: 13, borderBottom: '1px solid var(--mantine-color-default-border)', padding: '4px 0', position: 'sticky', top: 0, zIndex: LAYERS.tableHeader, background: 'var(--mantine-color-body)' }}
      >
        <Checkbox
          size="xs"
          aria-label="all"
          checked={count > 0 && selected.size === count}
          indeterminate={selected.size > 0 && selected.size < count}
          onChange={() => setSelected(selected.size === count ? new Set() : new Set(r.rows.map((x) => x.id)))}
        />
        {(['plate', 'alarmName', 'risk', 'time', 'place', 'speed', 'count', 'status', 'typical', 'dealType', 'dealUser'] as const).map((k) => (
          <span key={k} data-min-width={MIN_WIDTH[k]} data-column={k} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{t(`field.${k}`)}</span>
        ))}
        <span data-min-width={MIN_WIDTH.action} data-column="action" style={PINNED}>{t('page.action')}</span>
      </div>
        {searched && count === 0 && !r.loading && <Text c="dimmed" size="sm" p="sm" data-testid="alarm-empty">{t('page.empty')}</Text>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: TABLE_MIN_WIDTH }}>
          {items.map((item) => {
            const a = r.rows[item.index];
            if (!a) return null;
            return (
              <div
                key={a.id}
                data-testid="alarm-row"
                data-alarm-id={a.id}
                data-deal-status={a.dealStatus}
                style={{ position: 'absolute', top: item.start, left: 0, right: 0, height: ROW_HEIGHT, display: 'grid', gridTemplateColumns: COLUMNS, alignItems: 'center', fontSize: 13, whiteSpace: 'nowrap', borderBottom: '1px solid var(--mantine-color-default-border)' }}
              >
                <Checkbox size="xs" aria-label={String(a.id)} checked={selected.has(a.id)} onChange={() => toggle(a.id)} />
                <span>{a.vehiidno}</span>
                <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={alarmName(a.alarmType, lang)}>{alarmName(a.alarmType, lang)}</span>
                <span><Badge size="xs" color={riskColor(a.riskLevel)}>{t(`risk.${a.riskLevel}`, { defaultValue: a.riskLevel })}</Badge></span>
                <span>{formatTime(a.startTime)}</span>
                <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }} title={formatPlace(a.lng, a.lat)} data-testid="alarm-row-place">{a.address || formatPlace(a.lng, a.lat)}</span>
                <span>{t('speedValue', { speed: a.speed })}</span>
                <span>{a.count}</span>
                <span data-testid="alarm-row-status">{t(`status.${a.dealStatus}`)}</span>
                <span>{a.typical ? t('page.yes') : t('page.no')}</span>
                <span>{a.dealType ? t(`dealType.${a.dealType}`) : '—'}</span>
                <span data-testid="alarm-row-user">{a.dealUsername || '—'}</span>
                <span style={PINNED}><Button size="compact-xs" variant="light" onClick={() => setDetailId(a.id)} data-testid="alarm-row-detail">{t('page.detail')}</Button></span>
              </div>
            );
          })}
        </div>
      </div>
      <Drawer opened={detail !== undefined} onClose={() => setDetailId(null)} position="right" size="lg" title={t('page.detail')}>
        {detail && <AlarmDetail key={detail.id} alarm={detail} onChanged={() => void refresh([detail.id])} />}
      </Drawer>
      <Modal opened={batchOpen} onClose={() => setBatchOpen(false)} title={t('page.batch')}>
        {batchOpen && (
          <BatchForm
            ids={[...selected]}
            onDone={(n, skipped) => {
              setBatchOpen(false);
              notifications.show(skipped === 0
                ? { color: 'green', message: t('page.batchDone', { count: n }) }
                : { color: 'yellow', message: t('page.batchSkipped', { count: n, skipped }) });
              void refresh([...selected]);
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

function AlarmDetail({ alarm: a, onChanged }: { alarm: Alarm; onChanged: () => void }) {
  const t = useT(ALARMS_NS);
  const lang = useLang();
  const [log, setLog] = useState<DealLogEntry[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchDealLog(a.id).then((l) => live && setLog(l)).catch(() => live && setLog([]));
    return () => {
      live = false;
    };
  }, [a.id, a.dealStatus, a.typical, a.dealTime]);

  const run = async (action: () => Promise<string | null>, failed: string) => {
    setBusy(true);
    try {
      const msg = await action();
      if (msg) notifications.show({ color: 'green', message: msg });
      onChanged();
    } catch (e) {
      notifications.show({ color: 'red', message: isApiError(e) ? `${failed}: ${e.msg}` : failed });
    } finally {
      setBusy(false);
    }
  };

  const field = (label: string, value: string, testid?: string) => (
    <Table.Tr>
      <Table.Th w={120}>{label}</Table.Th>
      <Table.Td data-testid={testid}>{value}</Table.Td>
    </Table.Tr>
  );

  return (
    <Stack gap="sm" data-testid="alarm-detail" data-alarm-id={a.id}>
      <Table withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {field(t('field.plate'), a.vehiidno)}
          {field(t('field.device'), a.devidno)}
          {field(t('field.company'), a.companyName)}
          {field(t('field.alarmName'), alarmName(a.alarmType, lang))}
          {field(t('field.risk'), t(`risk.${a.riskLevel}`, { defaultValue: a.riskLevel }))}
          {field(t('field.time'), formatTime(a.startTime))}
          {field(t('field.endTime'), formatTime(a.endTime))}
          {field(t('field.count'), String(a.count))}
          {field(t('field.place'), formatPlace(a.lng, a.lat))}
          {field(t('field.speed'), t('speedValue', { speed: a.speed }))}
          {field(t('field.source'), t(`source.${a.source}`, { defaultValue: a.source }))}
          {field(t('field.status'), t(`status.${a.dealStatus}`), 'alarm-detail-status')}
          {field(t('field.dealType'), a.dealType ? t(`dealType.${a.dealType}`) : '—')}
          {field(t('field.dealContent'), a.dealContent || '—')}
          {field(t('field.dealUser'), a.dealUsername || '—')}
          {field(t('field.dealTime'), formatTime(a.dealTime))}
          {field(t('field.typical'), a.typical ? t('page.yes') : t('page.no'))}
        </Table.Tbody>
      </Table>
      <Group gap="xs">
        <Perm route={ROUTE} button="confirm">
          <Button size="xs" onClick={() => setConfirming(true)} disabled={confirming} data-testid="alarm-confirm">{t('page.confirm')}</Button>
        </Perm>
        <Perm route={ROUTE} button="deal">
          <Button
            size="xs"
            color="gray"
            loading={busy}
            disabled={a.dealStatus === DealStatus.Invalid}
            onClick={() => void run(async () => t('page.invalidDone', { result: (await invalidAlarm(a.id, '')).terminalResultText }), t('page.invalidFailed'))}
            data-testid="alarm-invalid"
          >
            {t('page.invalid')}
          </Button>
        </Perm>
        <Perm route={ROUTE} button="deal">
          <Button
            size="xs"
            variant="light"
            loading={busy}
            onClick={() => void run(async () => (await markTypical([a.id], !a.typical), t('page.typicalDone')), t('page.typicalFailed'))}
            data-testid="alarm-typical"
          >
            {a.typical ? t('page.unmarkTypical') : t('page.markTypical')}
          </Button>
        </Perm>
      </Group>
      {confirming && (
        <HandleForm
          alarm={a}
          onDone={() => {
            setConfirming(false);
            onChanged();
          }}
        />
      )}
      <AlarmEvidence alarm={a} />
      <Text fw={600}>{t('page.log')}</Text>
      {log === null ? null : log.length === 0 ? (
        <Text size="sm" c="dimmed">{t('page.logEmpty')}</Text>
      ) : (
        <Table data-testid="alarm-log" striped>
          <Table.Tbody>
            {log.map((l) => (
              <Table.Tr key={l.id} data-testid="alarm-log-row" data-action={l.action}>
                <Table.Td>{formatTime(l.createTime)}</Table.Td>
                <Table.Td data-testid="alarm-log-user">{l.userId === null ? t('page.logPlatform') : l.username}</Table.Td>
                <Table.Td>{t(`page.logAction.${l.action}`, { defaultValue: l.action })}</Table.Td>
                <Table.Td data-testid="alarm-log-deal-type">{l.dealType ? t(`dealType.${l.dealType}`) : ''}</Table.Td>
                <Table.Td>{l.content}</Table.Td>
                <Table.Td>{l.terminalResultText}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function BatchForm({ ids, onDone }: { ids: number[]; onDone: (updated: number, skipped: number) => void }) {
  const t = useT(ALARMS_NS);
  const [dealType, setDealType] = useState<string>(String(DealType.RiskRelease));
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const submit = async () => {
    setBusy(true);
    setFailed(null);
    try {
      // The server takes 1–500 ids per call.
      // Alarms someone else handled meanwhile keep that handling: counted as skipped, not failed.
      let updated = 0;
      let skipped = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        try {
          const r = await handleAlarms(chunk, Number(dealType), content);
          updated += r.updated;
          skipped += r.skipped;
        } catch (e) {
          if (isApiError(e) && e.code === 409) {
            skipped += chunk.length;
            continue;
          }
          const msg = isApiError(e) ? e.msg : t('page.processFailed');
          // Earlier chunks were handled: say so (and refresh the list) rather than only the failure.
          if (updated + skipped > 0) {
            notifications.show({ color: 'red', message: msg });
            onDone(updated, skipped);
          } else setFailed(msg);
          return;
        }
      }
      onDone(updated, skipped);
    } catch (e) {
      setFailed(isApiError(e) ? e.msg : t('page.processFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm" data-testid="batch-form">
      <Text size="sm">{t('page.selected', { count: ids.length })}</Text>
      <Select
        label={t('handle.action')}
        data={DEAL_TYPES.map((d) => ({ value: String(d), label: t(`dealType.${d}`) }))}
        value={dealType}
        onChange={(v) => v && setDealType(v)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
      />
      <Textarea label={t('handle.content')} value={content} onChange={(e) => setContent(e.currentTarget.value)} maxLength={500} />
      <Button onClick={() => void submit()} loading={busy} data-testid="batch-submit">{t('handle.submit')}</Button>
      {failed && <Alert color="red">{failed}</Alert>}
    </Stack>
  );
}
