/**
 * /monitor/index — real-time monitoring (spec §2): the fleet on the map (deck.gl over maplibre, fed by
 * the stream worker), clusters at low zoom, state tabs with realtimestat counts, the virtualised
 * vehicle list, the company tree, monitoring selection (≤ 100), follow, details on demand, frame
 * query and the right-click menu. Hot data stays in MonitorController; React renders panels at ≤ 2 Hz.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Alert, Button, Group, Paper, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { PickingInfo } from '@deck.gl/core';
import { formatNodeId, parseNodeId } from '../../../domain/company/tree-node.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { OnlineCounts } from '../company-tree/online-counts.ts';
import { useT } from '../../i18n/index.ts';
import { INITIAL_ZOOM, MapView, type MapHandle, type MapViewState } from '../map/MapView.tsx';
import { MapSourcesButton } from '../map/MapSourcesPanel.tsx';
import { useDisplayCrs } from '../map/map-source-store.ts';
import type { RealtimeRecord } from './api.ts';
import { ConnectionBadge } from './ConnectionBadge.tsx';
import { VehicleContextMenu, type ContextMenuState } from './ContextMenu.tsx';
import { DetailsCard } from './DetailsCard.tsx';
import { FrameDraw, FrameResult } from './FrameQuery.tsx';
import { openLiveSource } from './live-connection.ts';
import { MonitorController, type PanelSnapshot, type StateTab } from './monitor-controller.ts';
import { MONITOR_MAX } from './selection.ts';
import { StateTabs } from './StateTabs.tsx';
import { VehicleList } from './VehicleList.tsx';
import { VehicleSearch } from './VehicleSearch.tsx';
import { useVehicleCommands } from './VehicleCommands.tsx';
import type { VehicleCommand } from './vehicle-commands.ts';
import { MONITOR_NS } from './messages.ts';
import { LAYERS } from '../../shell/layers.ts';

const EMPTY_PANEL: PanelSnapshot = { counts: null, connection: 'connecting', attempt: 0, listVersion: 0, listLength: 0, frames: 0, vehicleCount: 0 };
const noop = () => () => undefined;
const EMPTY_SET: ReadonlySet<number> = new Set();

const VEHICLE_LAYERS = new Set(['monitor-vehicles', 'monitor-headings']);

export function MonitorPage() {
  const t = useT(MONITOR_NS);
  const mapRef = useRef<MapHandle>(null);
  const [controller, setController] = useState<MonitorController | null>(null);
  const crs = useDisplayCrs();

  // One controller (stream worker + cluster worker) per page visit; StrictMode's double mount gets two, the first disposed.
  useEffect(() => {
    const c = new MonitorController(openLiveSource());
    c.panTo = (lng, lat) => mapRef.current?.map?.easeTo({ center: [lng, lat], duration: 800 });
    // Street zoom at least: the plate labels show from zoom 14.
    c.flyTo = (lng, lat) => {
      const map = mapRef.current?.map;
      map?.flyTo({ center: [lng, lat], zoom: Math.max(map.getZoom(), 14), essential: true });
    };
    // The map may have loaded before the controller existed: start from its current zoom.
    const view = mapRef.current?.viewState();
    if (view) c.setView(view);
    else c.setZoom(INITIAL_ZOOM);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the controller owns workers, so it is created in an effect
    setController(c);
    return () => c.dispose();
  }, []);
  useEffect(() => controller?.setDisplayCrs(crs), [controller, crs]);

  const panel = useSyncExternalStore(controller?.subscribePanel ?? noop, controller?.getPanel ?? (() => EMPTY_PANEL));
  const selected = useSyncExternalStore(controller?.selection.subscribe ?? noop, controller?.selection.get ?? (() => EMPTY_SET));
  const [tab, setTab] = useState<StateTab>('all');
  const [focused, setFocused] = useState(-1);
  const [following, setFollowing] = useState(-1);
  const [limitHit, setLimitHit] = useState(false);
  const [drawing, setDrawing] = useState(false);
  const [frame, setFrame] = useState<{ total: number; records: RealtimeRecord[] } | 'loading' | null>(null);
  const [menu, setMenu] = useState<ContextMenuState | null>(null);

  const showLimit = useCallback(() => {
    setLimitHit(true);
    notifications.show({ color: 'red', autoClose: 2000, message: t('limit') });
  }, [t]);

  const toggle = useCallback(
    (id: number) => {
      if (!controller) return;
      if (controller.selection.toggle(id) === 'limit') showLimit();
      else setLimitHit(false);
    },
    [controller, showLimit],
  );

  /** Choosing a vehicle anywhere (list, tree, search, map): focus it, open its card, fly to it. */
  const open = useCallback(
    (id: number) => {
      setFocused(id);
      controller?.choose(id);
    },
    [controller],
  );

  const { run: runOn, dialogs: commandDialogs } = useVehicleCommands();
  const runCommand = useCallback(
    (kind: VehicleCommand, vehicleId: number) => {
      if (!controller) return;
      void controller.plateOf(vehicleId).then((plate) => runOn(kind, { vehicleId, plate: plate || `#${vehicleId}` }));
    },
    [controller, runOn],
  );

  const follow = useCallback(
    (id: number) => {
      setFollowing(id);
      controller?.follow(id);
    },
    [controller],
  );

  const onTab = (k: StateTab) => {
    setTab(k);
    controller?.setTab(k);
  };

  const onViewChange = useCallback((v: MapViewState) => controller?.setView(v), [controller]);
  // When the map changes size (the alarm pop-up docks or undocks), the followed or focused vehicle stays in view.
  const viewAnchor = useCallback(() => {
    const id = following >= 0 ? following : focused;
    return id >= 0 ? controller?.positionOf(id) : undefined;
  }, [controller, following, focused]);

  const onClick = useCallback(
    (info: PickingInfo) => {
      if (!controller || !info.layer) return;
      if (info.layer.id === 'monitor-clusters') {
        const id = controller.fleet.clusterId(info.index);
        const pos = info.coordinate;
        void controller.expansionZoom(id).then((z) => {
          if (pos) mapRef.current?.map?.flyTo({ center: [pos[0] as number, pos[1] as number], zoom: z });
        });
      } else if (VEHICLE_LAYERS.has(info.layer.id)) {
        const id = controller.fleet.idAt(info.index);
        if (id >= 0) open(id);
      }
    },
    [controller, open],
  );

  const onContextMenu = useCallback(
    (e: { x: number; y: number; lngLat: [number, number]; picked: PickingInfo | null }) => {
      if (!controller || !e.picked?.layer || !VEHICLE_LAYERS.has(e.picked.layer.id)) return;
      const id = controller.fleet.idAt(e.picked.index);
      // The map answers canvas coordinates; the menu is placed in the viewport.
      const box = mapRef.current?.map?.getContainer().getBoundingClientRect();
      if (id >= 0) setMenu({ x: e.x + (box?.left ?? 0), y: e.y + (box?.top ?? 0), vehicleId: id, lngLat: e.lngLat });
    },
    [controller],
  );
  const onListMenu = useCallback((vehicleId: number, x: number, y: number) => setMenu({ x, y, vehicleId }), []);

  // Tree check boxes ↔ monitoring selection (vehicle nodes 'V_<id>').
  const treeChecked = useMemo(() => new Set([...selected].map((id) => formatNodeId('V', id))), [selected]);
  const onTreeChecked = useCallback(
    (nodes: ReadonlySet<string>) => {
      const ids: number[] = [];
      for (const n of nodes) {
        const p = parseNodeId(n);
        if (p?.nodeType === 'V') ids.push(p.id);
      }
      if (controller?.selection.set(ids) === 'limit') showLimit();
    },
    [controller, showLimit],
  );

  const [onlineCounts] = useState(() => new OnlineCounts());

  const feed = useMemo(() => (controller ? { subscribe: controller.subscribeLayers, layers: controller.layers } : undefined), [controller]);

  return (
    <Group gap={0} wrap="nowrap" align="stretch" style={{ height: 'calc(100vh - 110px)', minHeight: 480 }} data-testid="monitor-page">
      <Paper withBorder radius={0} w={340} style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Tabs defaultValue="vehicles" style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="vehicles">{t('vehicles')}</Tabs.Tab>
            <Tabs.Tab value="companies">{t('companies')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="vehicles" style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
            <Stack gap={6} p="xs">
              <VehicleSearch onPick={open} />
              <StateTabs tab={tab} onTab={onTab} live={panel.counts} />
              <Group justify="space-between">
                <Text size="xs" c={limitHit ? 'red' : 'dimmed'} data-testid="monitored-count">
                  {t('monitored', { count: selected.size })}
                </Text>
                <Button size="compact-xs" variant="subtle" onClick={() => controller?.selection.clear()} disabled={selected.size === 0}>
                  {t('clearSelection')}
                </Button>
              </Group>
              {limitHit ? (
                <Alert color="red" p={6} data-testid="limit-message" withCloseButton onClose={() => setLimitHit(false)}>
                  {t('limit')}
                </Alert>
              ) : null}
            </Stack>
            {controller ? (
              <VehicleList
                controller={controller}
                version={panel.listVersion}
                length={panel.listLength}
                selected={selected}
                focused={focused}
                onToggle={toggle}
                onOpen={open}
                onMenu={onListMenu}
              />
            ) : null}
          </Tabs.Panel>
          <Tabs.Panel value="companies" style={{ flex: 1, minHeight: 0 }}>
            <CompanyTreePanel
              onSelect={(node) => {
                // A vehicle node (clicked or picked from the search) is chosen like anywhere else.
                const p = parseNodeId(node.id);
                if (p?.nodeType === 'V') open(p.id);
              }}
              onlineCounts={onlineCounts}
              checkable
              checkableTypes={['V']}
              checked={treeChecked}
              onCheckedChange={onTreeChecked}
              maxChecked={MONITOR_MAX}
            />
          </Tabs.Panel>
        </Tabs>
      </Paper>
      <div style={{ flex: 1, position: 'relative', minWidth: 0 }}>
        <MapView ref={mapRef} feed={feed} onClick={onClick} onContextMenu={onContextMenu} onViewChange={onViewChange} viewAnchor={viewAnchor}>
          <Group gap="xs" style={{ position: 'absolute', top: 8, left: 8, zIndex: LAYERS.mapPanel }}>
            <ConnectionBadge connection={panel.connection} attempt={panel.attempt} />
            <Tooltip label={t('frameHint')}>
              <Button size="xs" variant={drawing ? 'filled' : 'default'} onClick={() => setDrawing((d) => !d)} data-testid="frame-query">
                {drawing ? t('cancel') : t('frameQuery')}
              </Button>
            </Tooltip>
            <MapSourcesButton />
            {following >= 0 ? (
              <Button size="xs" variant="light" onClick={() => follow(-1)}>
                {t('unfollow')}
              </Button>
            ) : null}
          </Group>
          {drawing ? (
            <FrameDraw
              map={() => mapRef.current}
              onDone={(r) => {
                if (r !== null) setFrame(r);
                setDrawing(false);
              }}
            />
          ) : null}
          {/* Below the toolbar row: on a narrow map (1280 px with the alarm pop-up docked) the card would cover its buttons. */}
          <Stack gap="xs" style={{ position: 'absolute', top: 48, right: 8, zIndex: LAYERS.mapPanel }}>
            {focused >= 0 ? (
              <DetailsCard
                vehicleId={focused}
                following={following === focused}
                monitored={selected.has(focused)}
                onClose={() => {
                  setFocused(-1);
                  controller?.focus(-1);
                }}
                onFollow={(f) => follow(f ? focused : -1)}
                onMonitor={() => toggle(focused)}
                online={controller?.isOnline(focused)}
                onCommand={(kind) => runCommand(kind, focused)}
              />
            ) : null}
            {frame ? <FrameResult result={frame} onClose={() => setFrame(null)} onOpen={open} /> : null}
          </Stack>
          {menu ? (
            <VehicleContextMenu
              menu={menu}
              monitored={selected.has(menu.vehicleId)}
              online={controller?.isOnline(menu.vehicleId)}
              onCommand={(kind) => runCommand(kind, menu.vehicleId)}
              onClose={() => setMenu(null)}
              onDetails={() => open(menu.vehicleId)}
              onFollow={() => follow(menu.vehicleId)}
              onMonitor={() => toggle(menu.vehicleId)}
              onCopy={
                menu.lngLat
                  ? () => {
                      const [lng, lat] = menu.lngLat!;
                      void navigator.clipboard?.writeText(`${lng.toFixed(6)},${lat.toFixed(6)}`);
                      notifications.show({ autoClose: 2000, message: t('copied') });
                    }
                  : undefined
              }
            />
          ) : null}
          {commandDialogs}
        </MapView>
      </div>
    </Group>
  );
}
