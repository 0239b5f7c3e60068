/**
 * The wall's map: the monitor's MapView and binary fleet layers, fed by the wall's own stream
 * (WallLive.map is a MonitorController), opened at the preset's centre and zoom. A wall is not
 * operated by hand, so there is no click handling; the map still pans and zooms if someone does.
 */
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { MapView, type MapHandle, type MapViewState } from '../../map/MapView.tsx';
import type { MonitorController } from '../../monitor/monitor-controller.ts';

export interface WallMapProps {
  controller: MonitorController;
  center: readonly [number, number];
  zoom: number;
}

export function WallMap({ controller, center, zoom }: WallMapProps) {
  const mapRef = useRef<MapHandle>(null);
  const feed = useMemo(() => ({ subscribe: controller.subscribeLayers, layers: controller.layers }), [controller]);
  const [lng, lat] = center;

  // MapView creates its map in its own (earlier) effect; the preset's view replaces the console's default.
  useEffect(() => {
    const map = mapRef.current?.map;
    if (!map) return;
    map.jumpTo({ center: [lng, lat], zoom });
    controller.setZoom(zoom);
  }, [controller, lng, lat, zoom]);

  const onViewChange = useMemo(() => (v: MapViewState) => controller.setView(v), [controller]);
  // ≤ 2 Hz (the controller's panel cadence): frames and vehicles drawn, for people checking a wall and for the e2e.
  const panel = useSyncExternalStore(controller.subscribePanel, controller.getPanel);
  return (
    <div style={{ position: 'absolute', inset: 0 }} data-testid="wall-map" data-frames={panel.frames} data-vehicles={panel.vehicleCount}>
      <MapView ref={mapRef} feed={feed} onViewChange={onViewChange} />
    </div>
  );
}
