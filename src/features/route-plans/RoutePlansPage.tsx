/**
 * /monitor/route_map (线路规划): the company tree, a server-paged list of the picked company's routes
 * (name filter) and the map with every listed route. The selected route is drawn with its corridor to
 * scale; its bound vehicles show what their terminal holds (下发 state) and where the platform sees them
 * (on which section, off the route, deviating). 新增 / 修改 open the planner: click the map to add turning
 * points (drag to move), set each section's width, travel-time thresholds and speed limits (day, night),
 * the route's daily hours, key points with their arrival window, bind
 * vehicles, save; 下发 sends 0x8606 to the bound vehicles' terminals with each answer shown live.
 * Buttons sit behind the route's bits (server/services/routes/api.md).
 */
import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Checkbox, Group, NumberInput, Paper, ScrollArea, Stack, Table, Text, Textarea, TextInput, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ROUTE_LIMITS as L } from '../../../domain/route/types.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { DeleteRowButton } from '../../kit/DeleteRowButton.tsx';
import { PageFrame } from '../../kit/PageFrame.tsx';
import { LAYERS } from '../../shell/layers.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { formatTime } from '../system/ui/format.ts';
import { HeldList } from '../terminal-held/HeldList.tsx';
import { HeldTaskView } from '../terminal-held/HeldTaskView.tsx';
import { useHeldPage } from '../terminal-held/useHeldPage.ts';
import { routeApi, ROUTES_ROUTE, type RouteDetail, type RouteView, type SendState, type Track } from './api.ts';
import { ROUTES_NS } from './messages.ts';
import { RouteMap } from './RouteMap.tsx';
import { addPoint, emptyDraft, movePoint, removePoint, setKeyPoint, setSection, toggleKeyPoint, validateDraft, type RouteDraft } from './route-form.ts';

const SEND_COLOR: Record<SendState, string> = { none: 'gray', queued: 'gray', sent: 'blue', ok: 'green', failed: 'red', timeout: 'orange', outdated: 'yellow' };
const TRACK_COLOR: Record<Track, string> = { onRoute: 'green', offRoute: 'gray', deviating: 'red', unknown: 'gray' };
/** A draft id for the map while planning a new route. */
const NEW = -1;

interface Planner { id: number | null; draft: RouteDraft; plates: Map<number, string>; errors: Record<string, string> }

export function RoutePlansPage() {
  const t = useT(ROUTES_NS);
  // The detail is refetched every 10 s: the bound vehicles' track follows their reports.
  const page = useHeldPage<RouteView, RouteDetail>(ROUTES_ROUTE, routeApi, { detailRefetchMs: 10_000 });
  const { list, selectedId, setSelectedId, fitKey, taskId, error, setError, busy, selected, detail, refresh, run, send } = page;
  const [planner, setPlanner] = useState<Planner | null>(null);

  // While planning the selection stays put.
  const select = (id: number) => {
    if (!planner) page.select(id);
  };
  const edit = (f: (d: RouteDraft) => RouteDraft) => setPlanner((p) => (p ? { ...p, draft: f(p.draft), errors: {} } : p));

  const openEdit = (r: RouteDetail) => {
    setPlanner({
      id: r.id, plates: new Map(r.vehicles.map((v) => [v.vehicleId, v.vehiidno])), errors: {},
      draft: {
        name: r.name, points: [...r.points], sections: [...r.sections], deviationSeconds: r.deviationSeconds, startTime: r.startTime, endTime: r.endTime,
        keyPoints: [...r.keyPoints], remark: r.remark, vehicleIds: r.vehicles.map((v) => v.vehicleId),
      },
    });
  };

  const save = () => run(async () => {
    if (!planner) return;
    const errors = validateDraft(planner.draft);
    if (Object.keys(errors).length > 0) {
      setPlanner({ ...planner, errors });
      return;
    }
    const { vehicleIds, ...d } = planner.draft;
    // An empty time field is "no window".
    const input = { ...d, name: d.name.trim(), startTime: d.startTime || null, endTime: d.endTime || null };
    let saved: RouteDetail;
    if (planner.id === null) saved = await routeApi.create({ ...input, vehicleIds });
    else {
      saved = await routeApi.update({ ...input, id: planner.id });
      const before = (detail.data?.vehicles ?? []).map((v) => v.vehicleId).sort().join();
      if (before !== [...vehicleIds].sort().join()) saved = await routeApi.bind(planner.id, vehicleIds);
    }
    notifications.show({ color: 'green', message: t('saved'), autoClose: 2000 });
    setPlanner(null);
    setSelectedId(saved.id);
    refresh();
  });

  const fieldError = (key: string) => (planner?.errors[key] ? t(planner.errors[key]!) : undefined);
  const draftOnMap = planner ? { id: planner.id ?? NEW, points: planner.draft.points, sections: planner.draft.sections } : null;

  return (
    <PageFrame pageId="monitor-route-map" aside={<CompanyTreePanel />} title={t('title')}>
      <Group align="stretch" wrap="nowrap" gap="sm" style={{ flex: 1, minHeight: 0 }}>
        <Stack gap="xs" w={380} style={{ flex: 'none', minHeight: 0 }}>
          {planner ? (
            <ScrollArea style={{ flex: 1 }} data-testid="route-planner">
              <Stack gap={8}>
                <Text fw={600}>{planner.id === null ? t('createTitle') : t('editTitle')}</Text>
                <TextInput label={t('name')} value={planner.draft.name} maxLength={L.nameMaxLength} error={fieldError('name')} data-testid="route-name"
                  onChange={(e) => { const v = e.currentTarget.value; edit((d) => ({ ...d, name: v })); }} />
                <NumberInput label={t('deviationSeconds')} description={t('deviationHint')} min={0} max={L.deviationSecondsMax} allowDecimal={false} value={planner.draft.deviationSeconds}
                  error={fieldError('deviationSeconds')} onChange={(v) => edit((d) => ({ ...d, deviationSeconds: typeof v === 'number' ? v : 0 }))} />
                <Text size="sm" fw={600}>{t('timeWindow')}</Text>
                <Text size="xs" c="dimmed">{t('timeWindowHint')}</Text>
                <Group gap={6} grow>
                  <TextInput size="xs" label={t('startTime')} placeholder="HH:mm" maxLength={5} value={planner.draft.startTime ?? ''} error={fieldError('startTime')} data-testid="route-start-time"
                    onChange={(e) => { const v = e.currentTarget.value; edit((d) => ({ ...d, startTime: v === '' ? null : v })); }} />
                  <TextInput size="xs" label={t('endTime')} placeholder="HH:mm" maxLength={5} value={planner.draft.endTime ?? ''} error={fieldError('endTime')} data-testid="route-end-time"
                    onChange={(e) => { const v = e.currentTarget.value; edit((d) => ({ ...d, endTime: v === '' ? null : v })); }} />
                </Group>
                <Text size="sm" fw={600}>{t('sections')} · {t('pointCount', { n: planner.draft.points.length })}</Text>
                <Text size="xs" c="dimmed">{t('clickHint')}</Text>
                {fieldError('points') && <Text size="xs" c="red" data-testid="route-points-error">{fieldError('points')}</Text>}
                {planner.draft.points.length === 0 && <Text size="sm" c="dimmed">{t('noPoints')}</Text>}
                {planner.draft.points.map((p, i) => {
                  const s = planner.draft.sections[i];
                  const key = planner.draft.keyPoints.find((k) => k.point === i);
                  return (
                    <Paper key={i} withBorder p={6} data-testid="route-point-row">
                      <Group justify="space-between" gap={4}>
                        <Text size="xs" fw={600}>{i + 1}. {p[0].toFixed(6)}, {p[1].toFixed(6)}</Text>
                        <Group gap={4}>
                          <Checkbox size="xs" label={t('keyPoint')} checked={key !== undefined} title={t('keyPointHint')} data-testid={`route-key-${i}`}
                            onChange={(e) => { const on = e.currentTarget.checked; edit((d) => toggleKeyPoint(d, i, on)); }} />
                          <ActionIcon size="sm" variant="subtle" color="red" aria-label={t('removePoint', { n: i + 1 })} onClick={() => edit((d) => removePoint(d, i))}>×</ActionIcon>
                        </Group>
                      </Group>
                      {key && (
                        <Group gap={4} grow mt={4}>
                          <TextInput size="xs" label={t('arriveFrom')} placeholder="HH:mm" maxLength={5} value={key.arriveFrom} error={fieldError(`keyPoints.${i}.arriveFrom`)} data-testid={`route-key-from-${i}`}
                            onChange={(e) => { const v = e.currentTarget.value; edit((d) => setKeyPoint(d, i, { arriveFrom: v })); }} />
                          <TextInput size="xs" label={t('arriveBy')} placeholder="HH:mm" maxLength={5} value={key.arriveBy} error={fieldError(`keyPoints.${i}.arriveBy`)} data-testid={`route-key-by-${i}`}
                            onChange={(e) => { const v = e.currentTarget.value; edit((d) => setKeyPoint(d, i, { arriveBy: v })); }} />
                        </Group>
                      )}
                      {s && (
                        <Group gap={4} grow mt={4} data-testid="route-section-row">
                          <NumberInput size="xs" label={t('width')} min={L.widthMinM} max={L.widthMaxM} allowDecimal={false} value={s.width} error={fieldError(`sections.${i}.width`)}
                            onChange={(v) => edit((d) => setSection(d, i, { width: typeof v === 'number' ? v : 0 }))} data-testid={`route-width-${i}`} />
                          <NumberInput size="xs" label={t('minSeconds')} min={1} max={L.secondsMax} allowDecimal={false} value={s.minSeconds ?? ''} error={fieldError(`sections.${i}.minSeconds`)}
                            onChange={(v) => edit((d) => setSection(d, i, { minSeconds: typeof v === 'number' ? v : null }))} />
                          <NumberInput size="xs" label={t('maxSeconds')} min={1} max={L.secondsMax} allowDecimal={false} value={s.maxSeconds ?? ''}
                            onChange={(v) => edit((d) => setSection(d, i, { maxSeconds: typeof v === 'number' ? v : null }))} />
                          <NumberInput size="xs" label={t('maxSpeed')} min={1} max={L.maxSpeedKmh} allowDecimal={false} value={s.maxSpeed ?? ''} error={fieldError(`sections.${i}.maxSpeed`)}
                            data-testid={`route-max-speed-${i}`} onChange={(v) => edit((d) => setSection(d, i, { maxSpeed: typeof v === 'number' ? v : null }))} />
                          <NumberInput size="xs" label={t('nightMaxSpeed')} title={t('nightHint')} min={1} max={L.maxSpeedKmh} allowDecimal={false} value={s.nightMaxSpeed ?? ''}
                            error={fieldError(`sections.${i}.nightMaxSpeed`)} data-testid={`route-night-${i}`}
                            onChange={(v) => edit((d) => setSection(d, i, { nightMaxSpeed: typeof v === 'number' ? v : null }))} />
                        </Group>
                      )}
                    </Paper>
                  );
                })}
                <Textarea label={t('remark')} autosize minRows={1} maxLength={200} value={planner.draft.remark} onChange={(e) => { const v = e.currentTarget.value; edit((d) => ({ ...d, remark: v })); }} />
                <Text size="sm" fw={600}>{t('vehicles')}</Text>
                <VehicleSelect placeholder={t('addVehiclePick')} value={null} testId="route-add-vehicle"
                  onChange={(id, option) => {
                    if (id === null || planner.draft.vehicleIds.includes(id)) return;
                    setPlanner({ ...planner, plates: new Map(planner.plates).set(id, option?.plate ?? String(id)), draft: { ...planner.draft, vehicleIds: [...planner.draft.vehicleIds, id] } });
                  }} />
                <Group gap={4}>
                  {planner.draft.vehicleIds.length === 0 && <Text size="sm" c="dimmed">{t('noVehicles')}</Text>}
                  {planner.draft.vehicleIds.map((id) => (
                    <Badge key={id} variant="light" rightSection={<UnstyledButton onClick={() => edit((d) => ({ ...d, vehicleIds: d.vehicleIds.filter((x) => x !== id) }))}>×</UnstyledButton>}>
                      {planner.plates.get(id) ?? id}
                    </Badge>
                  ))}
                </Group>
                {error && <Alert color="red" p={6} data-testid="route-error">{error}</Alert>}
                <Group gap={6}>
                  <Button size="sm" loading={busy} onClick={() => void save()} data-testid="route-save">{t('save')}</Button>
                  <Button size="sm" variant="default" onClick={() => { setPlanner(null); setError(null); }}>{t('cancel')}</Button>
                </Group>
              </Stack>
            </ScrollArea>
          ) : (
            <>
              <HeldList ns={ROUTES_NS} page={page} testId="route-list" actions={(
                <Perm route={ROUTES_ROUTE} button="create">
                  <Button size="sm" variant="light" onClick={() => { setPlanner({ id: null, draft: emptyDraft(), plates: new Map(), errors: {} }); setError(null); }} data-testid="route-add">{t('add')}</Button>
                </Perm>
              )}>
                {list.records.map((r) => (
                  <UnstyledButton key={r.id} onClick={() => select(r.id)} data-testid="route-row" data-route-id={r.id} data-selected={r.id === selectedId}>
                    <Paper withBorder p={8} bg={r.id === selectedId ? 'var(--mantine-primary-color-light)' : undefined}>
                      <Text size="sm" fw={600} truncate>{r.name}</Text>
                      <Group justify="space-between" gap={6}>
                        <Text size="xs">{t('pointCount', { n: r.points.length })} · {t('vehicleCount', { n: r.vehicleCount })}</Text>
                        <Text size="xs" c="dimmed">{formatTime(r.updateTime)}</Text>
                      </Group>
                    </Paper>
                  </UnstyledButton>
                ))}
              </HeldList>
              {selected && (
                <Paper withBorder p={8} data-testid="route-selected">
                  <Stack gap={6}>
                    <Text size="sm" fw={600} truncate>{selected.name}</Text>
                    <Group gap={4}>
                      <Perm route={ROUTES_ROUTE} button="update">
                        <Button size="compact-xs" variant="light" disabled={!detail.data} onClick={() => detail.data && openEdit(detail.data)} data-testid="route-edit">{t('edit')}</Button>
                      </Perm>
                      <Perm route={ROUTES_ROUTE} button="send">
                        <Button size="compact-xs" color="teal" loading={busy} onClick={() => void send()} data-testid="route-send">{t('send')}</Button>
                      </Perm>
                      <DeleteRowButton route={ROUTES_ROUTE} message={t('deleteConfirm', { name: selected.name })} label={t('delete')} deletedMessage={t('deleted')}
                        onDelete={() => routeApi.remove([selected.id])} onDeleted={page.deselect} />
                    </Group>
                    {error && <Alert color="red" p={6} data-testid="route-error">{error}</Alert>}
                    {taskId !== null && <HeldTaskView taskId={taskId} load={routeApi.task} kind={ROUTES_ROUTE} ns={ROUTES_NS} testId="route-task" onSettled={refresh} />}
                    {detail.data && (
                      <Table withTableBorder fz="xs" data-testid="route-vehicles">
                        <Table.Thead><Table.Tr><Table.Th>{t('plate')}</Table.Th><Table.Th>{t('sendState')}</Table.Th><Table.Th>{t('track')}</Table.Th></Table.Tr></Table.Thead>
                        <Table.Tbody>
                          {detail.data.vehicles.map((v) => (
                            <Table.Tr key={v.vehicleId}>
                              <Table.Td>{v.vehiidno} <Text span size="xs" c={v.online ? 'green' : 'dimmed'}>{v.online ? t('online') : t('offline')}</Text></Table.Td>
                              <Table.Td><Badge size="xs" color={SEND_COLOR[v.sendState]} data-testid={`route-send-state-${v.vehicleId}`} data-state={v.sendState}>{t(`sendStates.${v.sendState}`)}</Badge></Table.Td>
                              <Table.Td><Badge size="xs" variant="light" color={TRACK_COLOR[v.track]}>{t(`tracks.${v.track}`, { n: v.section ?? '' })}</Badge></Table.Td>
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    )}
                  </Stack>
                </Paper>
              )}
            </>
          )}
        </Stack>
        <div style={{ flex: 1, minWidth: 0, position: 'relative' }} data-testid="route-map">
          <RouteMap routes={list.records} selectedId={selectedId} draft={draftOnMap} onSelect={select} fitKey={`${fitKey}`}
            onAdd={(lng, lat) => edit((d) => addPoint(d, lng, lat))} onMove={(i, lng, lat) => edit((d) => movePoint(d, i, lng, lat))} />
          {planner && (
            <Paper withBorder shadow="xs" p={6} style={{ position: 'absolute', top: 8, left: 8, zIndex: LAYERS.mapPanel }}>
              <Text size="xs">{t('clickHint')}</Text>
            </Paper>
          )}
        </div>
      </Group>
    </PageFrame>
  );
}
