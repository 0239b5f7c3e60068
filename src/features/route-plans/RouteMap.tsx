/**
 * The route screen's map: the project's MapView with every listed route's line, the selected (or
 * edited) route's corridor drawn to scale (deck.gl PathLayer in metres: each section as wide as its
 * corridor), and the edited route's turning points as numbered markers (draggable). A click on the map
 * adds a turning point while editing, as the lines screen adds stations (src/features/lines/LineMap.tsx).
 * Positions cross this component in WGS-84 (converted to the basemap's CRS with domain/geo/gcj02.ts).
 */
import { useEffect, useMemo, useRef } from 'react';
import * as maplibregl from 'maplibre-gl';
import { PathLayer } from '@deck.gl/layers';
import type { Layer, PickingInfo } from '@deck.gl/core';
import { toDisplay, fromDisplay } from '../../../domain/geo/gcj02.ts';
import type { LngLat, RouteSection } from '../../../domain/route/types.ts';
import { MapView, type MapHandle } from '../map/MapView.tsx';
import { useDisplayCrs } from '../map/map-source-store.ts';

export interface MapRoute {
  id: number;
  points: readonly LngLat[];
  sections: readonly RouteSection[];
}

export interface RouteMapProps {
  routes: readonly MapRoute[];
  selectedId: number | null;
  /** The route being planned (its corridor and draggable points), or null. */
  draft: MapRoute | null;
  onSelect: (id: number) => void;
  onAdd: (lng: number, lat: number) => void;
  onMove: (index: number, lng: number, lat: number) => void;
  fitKey: string;
}

interface Seg { path: [number, number][]; width: number; routeId: number }

function pointElement(n: number): HTMLDivElement {
  const el = document.createElement('div');
  el.textContent = String(n);
  el.setAttribute('data-testid', 'route-point-marker');
  Object.assign(el.style, {
    minWidth: '22px', height: '22px', borderRadius: '11px', display: 'flex', alignItems: 'center', justifyContent: 'center',
    font: '700 12px/1 system-ui, sans-serif', color: '#fff', background: '#f76707', border: '2px solid #fff', boxShadow: '0 1px 3px rgba(0,0,0,.45)', cursor: 'grab',
  } satisfies Partial<CSSStyleDeclaration>);
  return el;
}

export function RouteMap({ routes, selectedId, draft, onSelect, onAdd, onMove, fitKey }: RouteMapProps) {
  const mapRef = useRef<MapHandle>(null);
  const crs = useDisplayCrs();
  const callbacks = useRef({ onSelect, onAdd, onMove, draft, routes, selectedId });
  useEffect(() => {
    callbacks.current = { onSelect, onAdd, onMove, draft, routes, selectedId };
  });

  const layers = useMemo((): Layer[] => {
    const display = (p: LngLat) => toDisplay(crs, p[0], p[1]);
    const sections = (r: MapRoute): Seg[] => r.sections.map((s, i) => ({ path: [display(r.points[i]!), display(r.points[i + 1]!)], width: s.width, routeId: r.id }))
      .filter((_, i) => r.points[i + 1] !== undefined);
    const lines = routes.filter((r) => r.id !== draft?.id).map((r) => ({ path: r.points.map(display), routeId: r.id }));
    const focus = draft ?? routes.find((r) => r.id === selectedId) ?? null;
    const out: Layer[] = [
      new PathLayer<{ path: [number, number][]; routeId: number }>({
        id: 'route-lines', data: lines, getPath: (d) => d.path, widthUnits: 'pixels', getWidth: (d) => (d.routeId === selectedId ? 4 : 2),
        getColor: (d) => (d.routeId === selectedId ? [28, 126, 214, 230] : [100, 100, 100, 170]), pickable: true, updateTriggers: { getWidth: selectedId, getColor: selectedId },
      }) as Layer,
    ];
    if (focus && focus.points.length > 1) {
      // The corridor to scale: a section's width in metres, half on either side of its line.
      out.push(new PathLayer<Seg>({
        id: 'route-corridor', data: sections(focus), getPath: (d) => d.path, widthUnits: 'meters', getWidth: (d) => d.width,
        getColor: [247, 103, 7, 70], capRounded: true, jointRounded: true,
      }) as Layer);
      out.push(new PathLayer<{ path: [number, number][] }>({
        id: 'route-focus-line', data: [{ path: focus.points.map(display) }], getPath: (d) => d.path, widthUnits: 'pixels', getWidth: 3, getColor: [247, 103, 7, 230],
      }) as Layer);
    }
    return out;
  }, [routes, selectedId, draft, crs]);

  // The planned route's turning points as draggable markers (≤ 32).
  useEffect(() => {
    const map = mapRef.current?.map;
    if (!map || !draft) return;
    const markers = draft.points.map((p, i) => {
      const marker = new maplibregl.Marker({ element: pointElement(i + 1), draggable: true }).setLngLat(toDisplay(crs, p[0], p[1])).addTo(map);
      marker.on('dragend', () => {
        const ll = marker.getLngLat();
        const [lng, lat] = fromDisplay(crs, ll.lng, ll.lat);
        callbacks.current.onMove(i, lng, lat);
      });
      return marker;
    });
    return () => {
      for (const m of markers) m.remove();
    };
  }, [draft, crs]);

  useEffect(() => {
    const handle = mapRef.current;
    const { draft: d, routes: list, selectedId: sel } = callbacks.current;
    const focus = d ?? list.find((r) => r.id === sel);
    const pts = focus && focus.points.length > 0 ? focus.points : list.flatMap((r) => r.points);
    if (!handle || pts.length === 0) return;
    const lngs = pts.map((p) => p[0]);
    const lats = pts.map((p) => p[1]);
    const pad = pts.length === 1 ? 0.01 : 0;
    handle.fitBounds(Math.min(...lngs) - pad, Math.min(...lats) - pad, Math.max(...lngs) + pad, Math.max(...lats) + pad);
    // Only a new selection refits; planning keeps the operator's view.
  }, [fitKey]);

  const click = (info: PickingInfo) => {
    const handle = mapRef.current;
    if (!handle) return;
    const { draft: d } = callbacks.current;
    if (d) {
      const [lng, lat] = handle.unproject(info.x, info.y);
      if (Number.isFinite(lng) && Number.isFinite(lat)) callbacks.current.onAdd(lng, lat);
      return;
    }
    const picked = info.object as { routeId?: number } | undefined;
    if (picked?.routeId !== undefined) callbacks.current.onSelect(picked.routeId);
  };

  return <MapView ref={mapRef} layers={layers} onClick={click} />;
}
