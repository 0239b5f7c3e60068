/**
 * The line editor (a wide right-hand drawer): 上行 / 下行 tabs share one map and a station list —
 * click the map to add, drag a marker to move, rename and reorder in the list, save the direction
 * (PUT /service-priv/line/stations replaces it whole) — and 线路车辆 puts vehicles on the line or takes
 * them off (POST /service-priv/line/vehicles). Without the update bit everything is shown read-only.
 */
import { useReducer, useState } from 'react';
import { ActionIcon, Alert, Badge, Box, Button, Drawer, Group, Loader, ScrollArea, Stack, Switch, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { LINE_LIMITS } from '../../../domain/fleet/limits.ts';
import { cumulativeKm, directionLengthKm, nextStationName, stationProblemText } from '../../../domain/fleet/line.ts';
import { usePerm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { ConfirmDialog } from '../../kit/ConfirmButton.tsx';
import { errorText } from '../../kit/errors.ts';
import { useInvalidate } from '../../kit/ListPage.tsx';
import { resourceKey } from '../../kit/query.ts';
import { RowsTable } from '../../kit/RowsTable.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { lineApi, type Line, type LineDetail, type LineVehicle } from './api.ts';
import { LineMap } from './LineMap.tsx';
import { LINES_NS } from './messages.ts';
import { canAdd, dirty, initialEditor, keyOf, problems, shown, stationEditor } from './station-editor.ts';

export const LINES_ROUTE = '/information/lineManagement';

type Tab = 'up' | 'down' | 'vehicles';

/** Vehicles put on or taken off in one call (spec §5; the server's limit too). */
export const VEHICLES_AT_ONCE = 500;

export function LineEditor({ line, onClose, onChanged }: { line: Line; onClose: () => void; onChanged: () => void }) {
  const t = useT(LINES_NS);
  const query = useQuery({ queryKey: resourceKey(LINES_ROUTE, 'detail', line.id), queryFn: () => lineApi.detail(line.id) });
  const [state, dispatch] = useReducer(stationEditor, undefined, () => initialEditor());
  const [confirmClose, setConfirmClose] = useState(false);
  const [tab, setTab] = useState<Tab>('up');
  const [loadedFor, setLoadedFor] = useState<number | null>(null);
  const detail = query.data;

  // The stations load once per line (adjusted during render, React's pattern for state that follows
  // data); later refetches (vehicle changes) leave the drafts alone.
  if (detail && loadedFor !== detail.id) {
    setLoadedFor(detail.id);
    dispatch({ type: 'load', stations: detail.stations });
  }

  const unsaved = dirty(state, 0) || dirty(state, 1);
  const close = () => (unsaved ? setConfirmClose(true) : onClose());

  return (
    <Drawer opened onClose={close} position="right" size="min(1280px, 100vw)" title={t('editorTitle', { name: line.name })} data-testid="line-editor">
      {query.isError ? (
        <Alert color="red" title={t('loadFailed')}>
          <Group justify="space-between">
            <Text size="sm">{errorText(query.error)}</Text>
            <Button size="xs" variant="light" onClick={() => void query.refetch()}>{t('retry')}</Button>
          </Group>
        </Alert>
      ) : !detail || loadedFor !== detail.id ? (
        <Loader size="sm" />
      ) : (
        <Tabs
          value={tab}
          onChange={(v) => {
            const next = (v ?? 'up') as Tab;
            setTab(next);
            if (next !== 'vehicles') dispatch({ type: 'direction', direction: next === 'up' ? 0 : 1 });
          }}
          keepMounted={false}
        >
          <Tabs.List mb="xs">
            <Tabs.Tab value="up" data-testid="line-tab-up" rightSection={dirty(state, 0) ? <Badge size="xs" color="orange" variant="dot">{' '}</Badge> : undefined}>
              {t('up')} ({state.draft.up.length})
            </Tabs.Tab>
            <Tabs.Tab value="down" data-testid="line-tab-down" rightSection={dirty(state, 1) ? <Badge size="xs" color="orange" variant="dot">{' '}</Badge> : undefined}>
              {t('down')} ({state.draft.down.length})
            </Tabs.Tab>
            <Tabs.Tab value="vehicles" data-testid="line-tab-vehicles">
              {t('lineVehicles')} ({detail.vehicleCount})
            </Tabs.Tab>
          </Tabs.List>
          {tab === 'vehicles' ? (
            <LineVehicles detail={detail} onChanged={onChanged} />
          ) : (
            <StationsPanel lineId={line.id} hint={detail.mapHint} state={state} dispatch={dispatch} onSaved={onChanged} />
          )}
        </Tabs>
      )}
      <ConfirmDialog opened={confirmClose} onClose={() => setConfirmClose(false)} message={t('closeUnsaved')} onConfirm={async () => onClose()} />
    </Drawer>
  );
}

function StationsPanel({ lineId, hint, state, dispatch, onSaved }: {
  lineId: number;
  hint: LineDetail['mapHint'];
  state: ReturnType<typeof initialEditor>;
  dispatch: (a: Parameters<typeof stationEditor>[1]) => void;
  onSaved: () => void;
}) {
  const t = useT(LINES_NS);
  const lang = useLang();
  const editable = usePerm(LINES_ROUTE, 'update');
  const [insertBest, setInsertBest] = useState(false);
  const [saving, setSaving] = useState(false);
  const [focusKey, setFocusKey] = useState(0);
  const direction = state.direction;
  const list = shown(state);
  const other = state.draft[keyOf(direction === 0 ? 1 : 0)];
  const dirName = t(direction === 0 ? 'up' : 'down');
  const otherName = t(direction === 0 ? 'down' : 'up');
  const issues = problems(state);
  const km = cumulativeKm(list);
  const total = directionLengthKm(list);

  const save = async () => {
    setSaving(true);
    try {
      const saved = await lineApi.saveStations(lineId, direction, list);
      dispatch({ type: 'saved', direction, stations: saved.stations[keyOf(direction)] });
      notifications.show({ color: 'green', message: t('saved', { direction: dirName }), autoClose: 2000 });
      onSaved();
    } catch (e) {
      notifications.show({ color: 'red', message: errorText(e), autoClose: 5000 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Group align="stretch" wrap="nowrap" gap="sm" style={{ height: 'calc(100vh - 150px)', minHeight: 420 }}>
      <Box style={{ flex: 1, minWidth: 320, position: 'relative' }} data-testid="line-map">
        <LineMap
          stations={list}
          other={other}
          selected={state.selected}
          editable={editable}
          fitKey={`${lineId}:${direction}`}
          focusKey={focusKey}
          hint={hint}
          onAdd={(lng, lat) => dispatch({ type: 'add', lng, lat, name: nextStationName(list, t('stationBase')), at: insertBest ? 'best' : 'end' })}
          onMove={(index, lng, lat) => dispatch({ type: 'relocate', index, lng, lat })}
          onSelect={(index) => dispatch({ type: 'select', index })}
        />
      </Box>
      <Stack w={380} gap="xs" style={{ minHeight: 0 }}>
        <Text size="sm" c="dimmed">{editable ? t('clickToAdd') : t('readOnly')}</Text>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" fw={500} data-testid="line-summary">{t('summary', { count: list.length, km: total.toFixed(2) })}</Text>
          {dirty(state) && <Badge color="orange" variant="light">{t('unsaved')}</Badge>}
        </Group>
        {editable && (
          <>
            <Switch size="xs" label={t('insertBest')} checked={insertBest} onChange={(e) => setInsertBest(e.currentTarget.checked)} />
            {!canAdd(state) && <Text size="xs" c="orange">{t('full', { max: LINE_LIMITS.stationsMax })}</Text>}
          </>
        )}
        {issues.length > 0 && (
          <Alert color="red" p="xs" data-testid="line-problems">
            {issues.slice(0, 3).map((p, i) => <Text key={i} size="xs">{stationProblemText(p, lang)}</Text>)}
          </Alert>
        )}
        <ScrollArea style={{ flex: 1 }} type="auto">
          {list.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" mt="lg">{t('empty')}</Text>
          ) : (
            <Stack gap={2} data-testid="line-station-list">
              {list.map((s, i) => (
                <Group
                  key={i}
                  gap={4}
                  wrap="nowrap"
                  p={2}
                  data-testid="line-station-row"
                  data-index={i}
                  style={{ borderRadius: 4, background: state.selected === i ? 'var(--mantine-color-orange-light)' : undefined }}
                  onClick={() => dispatch({ type: 'select', index: i })}
                >
                  <Badge w={32} variant={state.selected === i ? 'filled' : 'light'} color={state.selected === i ? 'orange' : 'blue'}>{i + 1}</Badge>
                  <TextInput
                    size="xs"
                    style={{ flex: 1 }}
                    aria-label={`${t('stationName')} ${i + 1}`}
                    value={s.name}
                    readOnly={!editable}
                    maxLength={LINE_LIMITS.stationNameMax}
                    onChange={(e) => dispatch({ type: 'rename', index: i, name: e.currentTarget.value })}
                  />
                  <Text size="xs" c="dimmed" w={72} ta="right" style={{ whiteSpace: 'nowrap' }}>{t('km', { km: km[i]!.toFixed(1) })}</Text>
                  <Tooltip label={t('locate')}>
                    <ActionIcon size="sm" variant="subtle" aria-label={t('locate')} onClick={(e) => { e.stopPropagation(); dispatch({ type: 'select', index: i }); setFocusKey((k) => k + 1); }}>◎</ActionIcon>
                  </Tooltip>
                  {editable && (
                    <>
                      <ActionIcon size="sm" variant="subtle" aria-label={t('moveUp')} disabled={i === 0} onClick={(e) => { e.stopPropagation(); dispatch({ type: 'move', from: i, to: i - 1 }); }}>↑</ActionIcon>
                      <ActionIcon size="sm" variant="subtle" aria-label={t('moveDown')} disabled={i === list.length - 1} onClick={(e) => { e.stopPropagation(); dispatch({ type: 'move', from: i, to: i + 1 }); }}>↓</ActionIcon>
                      <ActionIcon size="sm" variant="subtle" color="red" aria-label={t('removeStation')} onClick={(e) => { e.stopPropagation(); dispatch({ type: 'remove', index: i }); }}>×</ActionIcon>
                    </>
                  )}
                </Group>
              ))}
            </Stack>
          )}
        </ScrollArea>
        {editable && (
          <Group justify="space-between" wrap="nowrap">
            <Button size="xs" variant="default" disabled={other.length === 0} onClick={() => dispatch({ type: 'copyReverse' })} data-testid="line-copy-reverse">
              {t('copyReverse', { other: otherName })}
            </Button>
            <Group gap="xs" wrap="nowrap">
              <Button size="xs" variant="default" disabled={!dirty(state) || saving} onClick={() => dispatch({ type: 'discard' })}>{t('discard')}</Button>
              <Button size="xs" loading={saving} disabled={!dirty(state) || issues.length > 0} onClick={() => void save()} data-testid="line-save-stations">
                {t('save', { direction: dirName })}
              </Button>
            </Group>
          </Group>
        )}
      </Stack>
    </Group>
  );
}

function LineVehicles({ detail, onChanged }: { detail: LineDetail; onChanged: () => void }) {
  const t = useT(LINES_NS);
  const editable = usePerm(LINES_ROUTE, 'update');
  const invalidate = useInvalidate(LINES_ROUTE);
  const [pick, setPick] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string | number>>(new Set());
  /** Vehicle nodes checked in the tree (`V_<id>`), at most 500 (the tree refuses more). */
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [treeToken, setTreeToken] = useState(0);

  const run = async (ids: number[], remove: boolean, done: () => void) => {
    setBusy(true);
    try {
      const r = await lineApi.vehicles(detail.id, ids, remove);
      notifications.show({ color: 'green', message: remove ? t('vehiclesRemoved', { count: r.changed }) : t('vehiclesAdded', { count: r.changed }), autoClose: 2000 });
      done();
      setTreeToken((n) => n + 1);
      await invalidate();
      onChanged();
    } catch (e) {
      notifications.show({ color: 'red', message: errorText(e), autoClose: 5000 });
    } finally {
      setBusy(false);
    }
  };
  const checkedIds = [...checked].filter((id) => id.startsWith('V_')).map((id) => Number(id.slice(2)));

  const columns: KitColumn<LineVehicle>[] = [
    { key: 'vehiidno', title: t('plate'), minWidth: 120, maxWidth: 200, render: (v) => <Text size="sm" fw={500}>{v.vehiidno}</Text> },
    { key: 'companyName', title: t('company'), minWidth: 140, maxWidth: 260, render: (v) => v.companyName },
    { key: 'deviceNo', title: t('deviceNo'), minWidth: 130, maxWidth: 180, render: (v) => v.deviceNo ?? '—' },
  ];

  return (
    <Stack gap="xs" style={{ height: 'calc(100vh - 150px)', minHeight: 420 }}>
      {editable && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <VehicleSelect w={320} placeholder={t('addVehicle')} value={pick} onChange={(id) => setPick(id)} testId="line-vehicle-pick" />
          <Button size="sm" disabled={pick === null} loading={busy} onClick={() => pick !== null && void run([pick], false, () => setPick(null))} data-testid="line-vehicle-add">{t('add')}</Button>
          <Box style={{ flex: 1 }} />
          <Button size="sm" color="red" variant="light" disabled={selected.size === 0 || selected.size > VEHICLES_AT_ONCE || busy} onClick={() => void run([...selected].map(Number), true, () => setSelected(new Set()))} data-testid="line-vehicle-remove">
            {t('removeSelected', { count: selected.size })}
          </Button>
        </Group>
      )}
      <Text size="sm" c={selected.size > VEHICLES_AT_ONCE ? 'red' : 'dimmed'}>
        {t('vehicleTotal', { count: detail.vehicleCount })}{selected.size > VEHICLES_AT_ONCE ? ` · ${t('atOnce', { max: VEHICLES_AT_ONCE })}` : ''}
      </Text>
      <Group align="stretch" wrap="nowrap" gap="sm" style={{ flex: 1, minHeight: 0 }}>
        {editable && (
          <Stack w={300} gap="xs" style={{ minHeight: 0 }} data-testid="line-vehicle-tree">
            <Text size="xs" c="dimmed">{t('treeHint', { max: VEHICLES_AT_ONCE })}</Text>
            <Box style={{ flex: 1, minHeight: 0 }}>
              <CompanyTreePanel applySelection={false} checkable checked={checked} onCheckedChange={setChecked} maxChecked={VEHICLES_AT_ONCE} refreshToken={treeToken} />
            </Box>
            <Button size="sm" disabled={checkedIds.length === 0} loading={busy} onClick={() => void run(checkedIds, false, () => setChecked(new Set()))} data-testid="line-vehicle-add-checked">
              {t('addChecked', { count: checkedIds.length })}
            </Button>
          </Stack>
        )}
        <Box style={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
          <RowsTable<LineVehicle>
            rows={detail.vehicles}
            columns={columns}
            rowKey={(v) => v.id}
            label={t('lineVehicles')}
            emptyText={t('noVehicles')}
            testId="line-vehicles"
            selection={editable ? { selected, onChange: setSelected, rowLabel: (v) => v.vehiidno } : undefined}
          />
        </Box>
      </Group>
    </Stack>
  );
}

