/**
 * /monitor/trackPlaybackPage — track playback (spec §2, §5, §9): pick a vehicle in the company tree
 * (its search box finds plates), a period within the spec's limits (checked before any request), then
 * play, pause, seek (chart, tables), change speed, follow; stops with the minutes filter, alarms, drift
 * and discontinuous gaps on the map and in lists; the virtualised point table; export. Up to 20
 * vehicles replay together on one clock. Reads `vehicleId`, `startTime`, `endTime` (epoch ms) and
 * `plate` from the URL (track search opens vehicles here).
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useSearch } from '@tanstack/react-router';
import { ActionIcon, Alert, Badge, Button, Group, NumberInput, Paper, SegmentedControl, Stack, Switch, Tabs, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { parseNodeId } from '../../../domain/company/tree-node.ts';
import { checkTrackPeriod, periodMessage } from '../../../domain/track/limits.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { createTrackClient } from '../../live/track/client.ts';
import { PLAYBACK_SPEEDS, type ClockState, type PlaybackSpeed } from '../../live/track/clock.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { MapView, type MapHandle, type MapViewState } from '../map/MapView.tsx';
import { MapSourcesButton } from '../map/MapSourcesPanel.tsx';
import { useDisplayCrs } from '../map/map-source-store.ts';
import { AddressCache } from './address-cache.ts';
import { geocode } from './api.ts';
import { ExportButton } from './ExportButton.tsx';
import { formatTime, fromLocalInput, QUICK_RANGES, quickRange, toLocalInput, type QuickRange } from './format.ts';
import { TRACK_NS } from './messages.ts';
import { alarmRuns, PlaybackController, type PanelSnapshot } from './playback-controller.ts';
import { attachVehicleOverlay } from './vehicle-overlay.ts';
import { EventList, PointTable } from './PointTable.tsx';
import { StopTable } from './StopTable.tsx';
import { TrackLegend } from './TrackLegend.tsx';
import { SpeedChart } from './SpeedChart.tsx';
import { LAYERS } from '../../shell/layers.ts';
import { PeriodPicker } from '../../kit/period-picker/index.ts';

const noop = () => () => undefined;
const EMPTY_PANEL: PanelSnapshot = { version: 0, tracks: [], active: -1, loading: false, counts: { stops: 0, drift: 0, alarms: 0, gaps: 0 }, stopMinutes: 3, following: false };
const EMPTY_CLOCK: ClockState = { start: 0, end: 0, time: 0, playing: false, speed: 'normal' };
/** Height of the tables under the chart (header + ~7 rows), the same on every tab. */
const TABLE_AREA = 210;

function todayStart(): number {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The track time as text, written per frame into the DOM (not React state). */
function TimeLabel({ controller }: { controller: PlaybackController }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(
    () =>
      controller.onFrame((t) => {
        const el = ref.current;
        if (!el) return;
        // No track yet, the clock stands at 0: show nothing rather than "1970-01-01 08:00:00".
        el.textContent = t > 0 ? formatTime(t) : '';
        el.dataset.time = String(Math.round(t));
      }),
    [controller],
  );
  return <span ref={ref} data-testid="playback-time" style={{ fontVariantNumeric: 'tabular-nums', fontSize: 13, whiteSpace: 'nowrap' }} />;
}

export function TrackPlaybackPage() {
  const t = useT(TRACK_NS);
  const lang = useLang();
  const crs = useDisplayCrs();
  const mapRef = useRef<MapHandle>(null);
  const [controller, setController] = useState<PlaybackController | null>(null);
  const search = useSearch({ strict: false }) as Record<string, string | undefined>;
  const [vehicle, setVehicle] = useState<{ id: number; name: string } | null>(null);
  const [startText, setStartText] = useState(() => toLocalInput(todayStart()));
  const [endText, setEndText] = useState(() => toLocalInput(Date.now()));
  const [problem, setProblem] = useState<string | null>(null);
  const addresses = useMemo(() => new AddressCache(geocode), []);

  // One controller (and one track worker) per page visit; StrictMode's double mount gets two, the first disposed.
  useEffect(() => {
    const c = new PlaybackController({ client: createTrackClient() });
    c.centerOn = (x, y) => mapRef.current?.map?.setCenter([x, y]);
    void c.setZoom(mapRef.current?.viewState()?.zoom ?? 4.1);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the controller owns a worker, so it is created in an effect
    setController(c);
    return () => c.dispose();
  }, []);

  useEffect(() => void controller?.setDisplayCrs(crs), [controller, crs]);

  // The vehicles on their own canvas over the map (vehicle-overlay.ts): a frame of playback redraws
  // the markers only. MapView created its map in its own (child) effect, before this one runs.
  useEffect(() => {
    const map = mapRef.current?.map;
    if (!controller || !map) return;
    return attachVehicleOverlay(map, { subscribe: controller.subscribeVehicles, layers: controller.vehicleLayers });
  }, [controller]);

  const panel = useSyncExternalStore(controller?.subscribePanel ?? noop, controller?.getPanel ?? (() => EMPTY_PANEL));
  const clock = useSyncExternalStore(controller?.clock.subscribe ?? noop, controller?.clock.get ?? (() => EMPTY_CLOCK));
  const active = controller?.activeEntry();
  const activeTrack = panel.active >= 0 ? active?.track : undefined;
  const activeColor = panel.tracks.find((s) => s.key === panel.active)?.color ?? 'rgb(30, 110, 220)';

  const load = useCallback(
    async (vehicleId: number, start: number, end: number) => {
      if (!controller) return;
      if (!Number.isFinite(start) || !Number.isFinite(end)) {
        setProblem(t('periodRequired'));
        return;
      }
      // The spec's limits are checked before any request (domain/track/limits.ts).
      const p = checkTrackPeriod(start, end, Date.now());
      if (p) {
        setProblem(periodMessage(p, lang));
        return;
      }
      setProblem(null);
      let r: Awaited<ReturnType<PlaybackController['load']>>;
      try {
        r = await controller.load(vehicleId, start, end, crs);
      } catch {
        // The worker failed (e.g. out of memory): say so instead of leaving the button spinning.
        setProblem(t('loadFailed'));
        return;
      }
      if (r.kind === 'limit') {
        setProblem(t('limit'));
        notifications.show({ color: 'red', autoClose: 2000, message: t('limit') });
      } else if (r.kind === 'error') {
        const msg = r.msg || t('loadFailed');
        setProblem(msg);
      } else if (r.kind === 'empty') {
        notifications.show({ autoClose: 2000, message: t('noPoints') });
      } else {
        // Opened by id (a link): show the plate the track names.
        if (r.track.plate) setVehicle((v) => (v && v.id === vehicleId ? { id: v.id, name: r.track.plate } : v));
        if (r.kind === 'replaced') notifications.show({ autoClose: 2000, message: t('duplicate') });
        if (r.track.total > r.track.count) notifications.show({ color: 'yellow', autoClose: 4000, message: t('capped', { total: r.track.total, count: r.track.count }) });
        let w = Infinity;
        let s = Infinity;
        let e = -Infinity;
        let n = -Infinity;
        for (let i = 0; i < r.track.lng.length; i++) {
          const x = r.track.lng[i]!;
          const y = r.track.lat[i]!;
          if (x < w) w = x;
          if (x > e) e = x;
          if (y < s) s = y;
          if (y > n) n = y;
        }
        // Two frames later: the first track also reveals the chart and table below the map, and the
        // map must have taken its new size (maplibre keeps centre and zoom on resize) before it fits.
        if (w <= e) requestAnimationFrame(() => requestAnimationFrame(() => mapRef.current?.fitBounds(w, s, e, n)));
      }
    },
    [controller, crs, lang, t],
  );

  // Opened from track search (or a shared link): load what the URL names, once per distinct request.
  const urlKey = search.vehicleId && search.startTime && search.endTime ? `${search.vehicleId}|${search.startTime}|${search.endTime}` : '';
  const loadedUrl = useRef('');
  useEffect(() => {
    if (!controller || !urlKey || loadedUrl.current === urlKey) return;
    loadedUrl.current = urlKey;
    const [id, s, e] = urlKey.split('|').map(Number) as [number, number, number];
    // The URL is an outside source the form mirrors.
    setVehicle({ id, name: search.plate ?? `#${id}` });
    setStartText(toLocalInput(s));
    setEndText(toLocalInput(e));
    void load(id, s, e);
  }, [controller, urlKey, search.plate, load]);

  const onViewChange = useCallback((v: MapViewState) => void controller?.setZoom(v.zoom), [controller]);
  const seek = useCallback((time: number) => controller?.seek(time), [controller]);
  const currentTime = useCallback(() => controller?.time ?? 0, [controller]);
  const onFrame = useCallback((l: (t: number) => void) => controller?.onFrame(l) ?? (() => undefined), [controller]);
  const feed = useMemo(() => (controller ? { subscribe: controller.subscribeLayers, layers: controller.layers } : undefined), [controller]);

  const lists = useMemo(() => {
    if (!activeTrack || !active) return null;
    const tr = activeTrack;
    return {
      alarms: alarmRuns(tr).map((i) => ({ time: tr.time[i]!, label: t('alarmRow', { time: formatTime(tr.time[i]!), word: tr.alarm[i]!.toString(16) }) })),
      drift: Array.from(tr.drift, (i) => ({ time: tr.time[i]!, label: t('driftRow', { time: formatTime(tr.time[i]!) }) })),
      gaps: tr.gaps.map((g) => ({ time: tr.time[g.from]!, label: t('gapRow', { time: formatTime(tr.time[g.from]!), km: g.km.toFixed(1) }) })),
    };
    // panel.version: the active track's stops change in place when the minutes filter changes.
  }, [activeTrack, active, t, panel.version]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Group gap={0} wrap="nowrap" align="stretch" style={{ height: 'calc(100vh - 110px)', minHeight: 560 }} data-testid="track-playback-page">
      <Paper withBorder radius={0} w={320} style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Stack gap={6} p="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Text size="sm" data-testid="track-vehicle" data-vehicle-id={vehicle?.id ?? ''}>
            {t('vehicleLabel', { name: vehicle ? vehicle.name : t('pickVehicle') })}
          </Text>
          {/* The kit's picker: typed 24-hour fields in the UI language (2026-11-25 00:00), not the browser's locale. */}
          <PeriodPicker
            vertical
            size="xs"
            value={{ start: startText, end: endText }}
            onChange={(p) => {
              setStartText(p.start);
              setEndText(p.end);
            }}
            showProblem={false}
            labels={{ start: t('start'), end: t('end') }}
            testIds={{ start: 'track-start', end: 'track-end' }}
          />
          <Group gap={4} grow>
            {QUICK_RANGES.map((k: QuickRange) => (
              <Button
                key={k}
                size="compact-xs"
                variant="light"
                data-testid={`track-quick-${k}`}
                onClick={() => {
                  // A quick range fills the period and, with a vehicle picked, queries at once.
                  const r = quickRange(k, Date.now());
                  setStartText(toLocalInput(r.start));
                  setEndText(toLocalInput(r.end));
                  if (vehicle) void load(vehicle.id, r.start, r.end);
                }}
              >
                {t(`quick.${k}`)}
              </Button>
            ))}
          </Group>
          <Button
            size="xs"
            loading={panel.loading}
            data-testid="track-query"
            onClick={() => {
              if (!vehicle) setProblem(t('selectVehicleFirst'));
              else void load(vehicle.id, fromLocalInput(startText), fromLocalInput(endText));
            }}
          >
            {t('query')}
          </Button>
          {problem ? (
            <Alert color="red" p={6} data-testid="period-error" withCloseButton onClose={() => setProblem(null)}>
              <Text size="xs">{problem}</Text>
            </Alert>
          ) : null}
        </Stack>
        <Tabs defaultValue="vehicles" style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
          <Tabs.List>
            <Tabs.Tab value="vehicles">{t('vehicles')}</Tabs.Tab>
            <Tabs.Tab value="tracks" rightSection={<Badge size="xs">{panel.tracks.length}</Badge>}>
              {t('tracks')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="vehicles" style={{ flex: 1, minHeight: 0 }}>
            <CompanyTreePanel
              onSelect={(node) => {
                const p = parseNodeId(node.id);
                if (p?.nodeType === 'V') setVehicle({ id: p.id, name: node.name });
              }}
            />
          </Tabs.Panel>
          <Tabs.Panel value="tracks" style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
            <Stack gap={2} p="xs" data-testid="track-list" data-count={panel.tracks.length}>
              {panel.tracks.map((s) => (
                <Group
                  key={s.key}
                  gap={6}
                  wrap="nowrap"
                  data-testid="track-item"
                  style={{ cursor: 'pointer', background: s.key === panel.active ? 'var(--mantine-color-blue-light)' : undefined, padding: 2 }}
                  onClick={() => controller?.setActive(s.key)}
                >
                  <span style={{ width: 12, height: 12, borderRadius: 6, background: s.color, flex: 'none' }} />
                  <Text size="sm" style={{ flex: 1 }} truncate>
                    {s.plate || `#${s.vehicleId}`}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('pointCount', { count: s.points })}
                  </Text>
                  <ActionIcon size="xs" variant="subtle" color="red" aria-label={t('remove')} onClick={(e) => (e.stopPropagation(), controller?.remove(s.key))}>
                    ×
                  </ActionIcon>
                </Group>
              ))}
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </Paper>
      <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
        <div style={{ flex: 1, position: 'relative', minHeight: 200 }}>
          <MapView
            ref={mapRef}
            feed={feed}
            onViewChange={onViewChange}
            onClick={(info) => {
              const time = info.layer ? controller?.markerTime(info.layer.id, info.index) : undefined;
              if (time !== undefined) controller?.seek(time);
            }}
          >
            <Group gap="xs" style={{ position: 'absolute', top: 8, left: 8, zIndex: LAYERS.mapPanel }}>
              <MapSourcesButton />
            </Group>
            {panel.tracks.length > 0 ? (
              <div style={{ position: 'absolute', bottom: 28, left: 8, zIndex: LAYERS.mapPanel }}>
                <TrackLegend tracks={panel.tracks} />
              </div>
            ) : null}
          </MapView>
        </div>
        <Paper withBorder radius={0} p={6} data-testid="playback-panel">
          <Group gap="sm" wrap="nowrap">
            <Button
              size="xs"
              w={72}
              disabled={panel.tracks.length === 0}
              onClick={() => (clock.playing ? controller?.pause() : controller?.play())}
              data-testid="play-toggle"
              data-playing={clock.playing}
            >
              {clock.playing ? t('pause') : t('play')}
            </Button>
            <SegmentedControl
              size="xs"
              value={clock.speed}
              onChange={(v) => controller?.setSpeed(v as PlaybackSpeed)}
              data={PLAYBACK_SPEEDS.map((s) => ({ value: s, label: t(`speed.${s}`) }))}
              data-testid="speed"
              data-speed={clock.speed}
            />
            <Switch size="xs" label={t('follow')} checked={panel.following} onChange={(e) => controller?.setFollow(e.currentTarget.checked)} data-testid="follow" />
            {controller ? <TimeLabel controller={controller} /> : null}
            <Group gap={4} wrap="nowrap">
              <Text size="xs" component="label" htmlFor="track-stop-minutes" style={{ whiteSpace: 'nowrap' }}>
                {t('stopThreshold')}
              </Text>
              <Tooltip label={t('stopMinutes')}>
                <NumberInput
                  id="track-stop-minutes"
                  size="xs"
                  w={100}
                  min={0}
                  max={1440}
                  value={panel.stopMinutes}
                  onChange={(v) => void controller?.setStopMinutes(Number(v))}
                  rightSection={<Text size="xs" c="dimmed">{t('minutesUnit')}</Text>}
                  rightSectionWidth={36}
                  aria-label={t('stopMinutes')}
                  data-testid="stop-minutes"
                />
              </Tooltip>
            </Group>
            {activeTrack ? (
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {t('mileage', { km: activeTrack.mileageKm.toFixed(1) })}
              </Text>
            ) : null}
            <div style={{ flex: 1 }} />
            {activeTrack ? <ExportButton vehicleId={active?.vehicleId ?? 0} startTime={activeTrack.startTime} endTime={activeTrack.endTime} stopMinutes={panel.stopMinutes} /> : null}
          </Group>
          {controller && activeTrack ? <SpeedChart controller={controller} track={activeTrack} color={activeColor} label={t('chartSpeed')} /> : null}
          {activeTrack && lists ? (
            <Tabs defaultValue="points" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="points">
                  {t('points')} <span data-testid="point-count">{activeTrack.count}</span>
                </Tabs.Tab>
                <Tabs.Tab value="stops">
                  {t('stops')} <span data-testid="stop-count">{panel.counts.stops}</span>
                </Tabs.Tab>
                <Tabs.Tab value="alarms">
                  {t('alarms')} <span data-testid="alarm-count">{panel.counts.alarms}</span>
                </Tabs.Tab>
                <Tabs.Tab value="drift">
                  {t('drift')} <span data-testid="drift-count">{panel.counts.drift}</span>
                </Tabs.Tab>
                <Tabs.Tab value="gaps">
                  {t('gaps')} <span data-testid="gap-count">{panel.counts.gaps}</span>
                </Tabs.Tab>
              </Tabs.List>
              {/* Every tab is the same height (the point table's header + rows), so switching tabs
                  never resizes the map above it. */}
              <Tabs.Panel value="points" h={TABLE_AREA} data-testid="track-tab-panel">
                <PointTable track={activeTrack} addresses={addresses} onSeek={seek} onFrame={onFrame} currentTime={currentTime} height={TABLE_AREA - 24} />
              </Tabs.Panel>
              <Tabs.Panel value="stops" h={TABLE_AREA} style={{ overflow: 'auto' }} data-testid="track-tab-panel">
                <StopTable track={activeTrack} stops={active?.stops ?? []} addresses={addresses} onSeek={seek} empty={t('none')} />
              </Tabs.Panel>
              <Tabs.Panel value="alarms" h={TABLE_AREA} style={{ overflow: 'auto' }} data-testid="track-tab-panel">
                <EventList rows={lists.alarms} testId="alarm-list" onSeek={seek} empty={t('none')} />
              </Tabs.Panel>
              <Tabs.Panel value="drift" h={TABLE_AREA} style={{ overflow: 'auto' }} data-testid="track-tab-panel">
                <EventList rows={lists.drift} testId="drift-list" onSeek={seek} empty={t('none')} />
              </Tabs.Panel>
              <Tabs.Panel value="gaps" h={TABLE_AREA} style={{ overflow: 'auto' }} data-testid="track-tab-panel">
                <EventList rows={lists.gaps} testId="gap-list" onSeek={seek} empty={t('none')} />
              </Tabs.Panel>
            </Tabs>
          ) : null}
        </Paper>
      </Stack>
    </Group>
  );
}
