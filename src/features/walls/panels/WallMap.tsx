/**
 * The wall's map: the monitor's MapView and binary fleet layers, fed by the wall's own stream
 * (WallLive.map is a MonitorController), opened at the preset's centre and zoom. A wall is not
 * operated by hand, so there is no click handling; the map still pans and zooms if someone does.
 */
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { wallBasemap, type WallPreset } from '../../../../domain/walls/preset.ts';
import { MapView, type MapHandle, type MapViewState } from '../../map/MapView.tsx';
import { streetSource, useStreetArchives } from '../../map/streets/archives.ts';
import type { MonitorController } from '../../monitor/monitor-controller.ts';

export interface WallMapProps {
  controller: MonitorController;
  center: readonly [number, number];
  zoom: number;
  /** The preset's basemap choice (absent: the street map when the server holds one). */
  basemap?: WallPreset['map']['basemap'];
}

export function WallMap({ controller, center, zoom, basemap }: WallMapProps) {
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

  // A kiosk has no basemap picker: the preset decides. The street map's dark or light flavour follows the
  // wall's theme (MapView reads the theme); without an archive on the server the bundled outline stays.
  const archives = useStreetArchives();
  const first = archives[0];
  const source = useMemo(() => (first && wallBasemap(basemap, true) === 'streets' ? streetSource(first) : null), [first, basemap]);

  const onViewChange = useMemo(() => (v: MapViewState) => controller.setView(v), [controller]);
  // ≤ 2 Hz (the controller's panel cadence): frames and vehicles drawn, for people checking a wall and for the e2e.
  const panel = useSyncExternalStore(controller.subscribePanel, controller.getPanel);
  return (
    <div style={{ position: 'absolute', inset: 0 }} data-testid="wall-map" data-frames={panel.frames} data-vehicles={panel.vehicleCount} data-basemap={source ? 'streets' : 'outline'}>
      <MapView ref={mapRef} feed={feed} onViewChange={onViewChange} source={source} />
    </div>
  );
}
