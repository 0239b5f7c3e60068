/**
 * Centre: the fleet on a clustered map, on the live pipeline the monitor page uses (stream worker →
 * MonitorController → deck.gl; the cluster worker folds at least 3 vehicles up to zoom 16; initial
 * zoom 4.1 centred on China: MapView's defaults). Positions are pushed, never polled: the spec's
 * paged loading (1,000 a second) would take 100 s for 100,000 vehicles. Over the map: the fleet
 * total, yesterday's registrations and today's alarms (every 60 s, polling stops on error, spec §4).
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { PickingInfo } from '@deck.gl/core';
import { useT } from '../../../i18n/index.ts';
import { LAYERS } from '../../../shell/layers.ts';
import { INITIAL_ZOOM, MapView, type MapHandle, type MapViewState } from '../../map/MapView.tsx';
import { useDisplayCrs } from '../../map/map-source-store.ts';
import { openLiveSource } from '../../monitor/live-connection.ts';
import { MonitorController, type PanelSnapshot } from '../../monitor/monitor-controller.ts';
import { dashboardQueries } from '../api.ts';
import { openPanelTarget } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';

const EMPTY: PanelSnapshot = { counts: null, connection: 'connecting', attempt: 0, listVersion: 0, listLength: 0, frames: 0, vehicleCount: 0 };
const noop = () => () => undefined;

export function FleetMapPanel() {
  const t = useT(DASHBOARD_NS);
  const mapRef = useRef<MapHandle>(null);
  const [controller, setController] = useState<MonitorController | null>(null);
  const crs = useDisplayCrs();

  useEffect(() => {
    const c = new MonitorController(openLiveSource());
    const view = mapRef.current?.viewState();
    if (view) c.setView(view);
    else c.setZoom(INITIAL_ZOOM);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the controller owns workers, so it is created in an effect
    setController(c);
    return () => c.dispose();
  }, []);
  useEffect(() => controller?.setDisplayCrs(crs), [controller, crs]);

  const panel = useSyncExternalStore(controller?.subscribePanel ?? noop, controller?.getPanel ?? (() => EMPTY));
  const totals = useQuery(dashboardQueries.mapTotals());
  const feed = useMemo(() => (controller ? { subscribe: controller.subscribeLayers, layers: controller.layers } : undefined), [controller]);
  const onViewChange = useCallback((v: MapViewState) => controller?.setView(v), [controller]);
  // A cluster click zooms in to where it splits; the map is an overview, vehicles open nothing here.
  const onClick = useCallback((info: PickingInfo) => {
    if (!controller || info.layer?.id !== 'monitor-clusters') return;
    const pos = info.coordinate;
    void controller.expansionZoom(controller.fleet.clusterId(info.index)).then((z) => {
      if (pos) mapRef.current?.map?.flyTo({ center: [pos[0] as number, pos[1] as number], zoom: z });
    });
  }, [controller]);

  const d = totals.data;
  const figure = (key: string, label: string, value: number | string, target: 'online' | 'alarms') => (
    <UnstyledButton onClick={() => openPanelTarget(target)} style={{ textAlign: 'center', minWidth: 0 }}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={700} style={{ fontSize: 'clamp(16px, 1.8vw, 48px)', lineHeight: 1.15 }} data-testid={`map-${key}`}>{value}</Text>
    </UnstyledButton>
  );
  return (
    <div style={{ position: 'relative', height: '100%', minHeight: 0 }} data-testid="panel-map" data-frames={panel.frames} data-vehicles={panel.vehicleCount}>
      <MapView ref={mapRef} feed={feed} onClick={onClick} onViewChange={onViewChange}>
        <Paper withBorder shadow="sm" p={6} radius="md"
          style={{ position: 'absolute', top: 8, left: '50%', transform: 'translateX(-50%)', zIndex: LAYERS.mapPanel, maxWidth: 'calc(100% - 16px)' }}>
          <Group gap="lg" wrap="nowrap" data-state={d ? 'ready' : totals.isError ? 'failed' : 'loading'} data-testid="map-totals">
            {figure('vehicleTotal', t('map.vehicleTotal'), d?.vehicleTotal ?? '–', 'online')}
            {figure('online', t('map.online'), panel.counts?.online ?? '–', 'online')}
            {figure('yesterdayRegister', t('map.yesterdayRegister'), d?.vehicleYesterdayRegister ?? '–', 'online')}
            {figure('alarmToday', t('map.alarmToday'), d?.alarmToday ?? '–', 'alarms')}
          </Group>
        </Paper>
      </MapView>
    </div>
  );
}
