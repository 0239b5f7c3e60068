/**
 * The line editor's map: the project's MapView (bundled offline basemap or the user's source, never a
 * remote style of ours) with the shown direction's stations as numbered maplibre markers (draggable
 * when the user may edit) and its polyline over deck.gl; the other direction is drawn thin and grey for
 * reference. A click on the map adds a station; a click on or beside a marker selects that station.
 * Positions cross this component in WGS-84 (the markers and the path are converted to the display CRS).
 */
import { useEffect, useMemo, useRef } from 'react';
import * as maplibregl from 'maplibre-gl';
import { PathLayer } from '@deck.gl/layers';
import type { Layer, PickingInfo } from '@deck.gl/core';
import { fromDisplay, toDisplay } from '../../../domain/geo/gcj02.ts';
import type { Station } from '../../../domain/fleet/line.ts';
import { MapView, type MapHandle } from '../map/MapView.tsx';
import { useDisplayCrs } from '../map/map-source-store.ts';

/** A click closer than this to a marker's centre (px) selects it instead of adding a station. */
export const MARKER_HIT_PX = 14;

export interface LineMapProps {
  stations: readonly Station[];
  /** The other direction, drawn for reference. */
  other: readonly Station[];
  selected: number | null;
  editable: boolean;
  onAdd: (lng: number, lat: number) => void;
  onMove: (index: number, lng: number, lat: number) => void;
  onSelect: (index: number) => void;
  /** Fits the view to the stations whenever this changes (another line or direction). */
  fitKey: string;
  /** Centres on the selected station whenever this changes. */
  focusKey: number;
  /** Where to look when neither direction has a station yet (the line's vehicles). */
  hint?: { lng: number; lat: number } | null;
}

function markerElement(n: number, name: string, selected: boolean, editable: boolean): HTMLDivElement {
  const el = document.createElement('div');
  el.textContent = String(n);
  el.title = `${n}. ${name}`;
  el.dataset.station = String(n);
  el.setAttribute('data-testid', 'line-station-marker');
  Object.assign(el.style, {
    minWidth: '24px', height: '24px', padding: '0 5px', borderRadius: '12px', boxSizing: 'border-box',
    display: 'flex', alignItems: 'center', justifyContent: 'center', font: '700 13px/1 system-ui, sans-serif',
    color: '#fff', background: selected ? '#f76707' : '#1c7ed6', border: '2px solid #fff', boxShadow: '0 1px 3px rgba(0,0,0,.45)',
    cursor: editable ? 'grab' : 'pointer', zIndex: selected ? '2' : '1',
  } satisfies Partial<CSSStyleDeclaration>);
  return el;
}

/** Zoom of a line without stations, opened on its vehicles: a city's streets. */
const HINT_ZOOM = 12;

export function LineMap({ stations, other, selected, editable, onAdd, onMove, onSelect, fitKey, focusKey, hint }: LineMapProps) {
  const mapRef = useRef<MapHandle>(null);
  const crs = useDisplayCrs();
  const callbacks = useRef({ onAdd, onMove, onSelect, stations, editable });
  useEffect(() => {
    callbacks.current = { onAdd, onMove, onSelect, stations, editable };
  });

  const layers = useMemo((): Layer[] => {
    const path = (list: readonly Station[]) => list.map((s) => toDisplay(crs, s.lng, s.lat));
    const out: Layer[] = [];
    if (other.length > 1) {
      out.push(new PathLayer<{ path: [number, number][] }>({
        id: 'line-other-direction', data: [{ path: path(other) }], getPath: (d) => d.path, getColor: [120, 120, 120, 150], widthUnits: 'pixels', getWidth: 2,
      }) as Layer);
    }
    if (stations.length > 1) {
      out.push(new PathLayer<{ path: [number, number][] }>({
        id: 'line-direction', data: [{ path: path(stations) }], getPath: (d) => d.path, getColor: [28, 126, 214, 230], widthUnits: 'pixels', getWidth: 4,
        jointRounded: true, capRounded: true,
      }) as Layer);
    }
    return out;
  }, [stations, other, crs]);

  // Markers: rebuilt when the stations, the selection or the right to edit change (≤ 200 DOM elements).
  useEffect(() => {
    const map = mapRef.current?.map;
    if (!map) return;
    const markers = stations.map((s, i) => {
      const marker = new maplibregl.Marker({ element: markerElement(i + 1, s.name, i === selected, editable), draggable: editable })
        .setLngLat(toDisplay(crs, s.lng, s.lat))
        .addTo(map);
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
  }, [stations, selected, editable, crs]);

  // Fit the view to the line when another line or direction is shown.
  useEffect(() => {
    const handle = mapRef.current;
    const all = [...callbacks.current.stations, ...other];
    if (!handle) return;
    if (all.length === 0) {
      if (hint) handle.flyTo(hint.lng, hint.lat, HINT_ZOOM);
      return;
    }
    const lngs = all.map((s) => s.lng);
    const lats = all.map((s) => s.lat);
    const pad = all.length === 1 ? 0.01 : 0;
    handle.fitBounds(Math.min(...lngs) - pad, Math.min(...lats) - pad, Math.max(...lngs) + pad, Math.max(...lats) + pad);
    // Only a new line or direction refits; editing the stations keeps the operator's view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fitKey]);

  useEffect(() => {
    const s = selected === null ? undefined : callbacks.current.stations[selected];
    if (focusKey > 0 && s) mapRef.current?.flyTo(s.lng, s.lat);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusKey]);

  const click = (info: PickingInfo) => {
    const handle = mapRef.current;
    if (!handle) return;
    const { stations: list, editable: canEdit } = callbacks.current;
    // A marker under (or right beside) the click: select it.
    let nearest = -1;
    let best = MARKER_HIT_PX;
    list.forEach((s, i) => {
      const [x, y] = handle.project(s.lng, s.lat);
      const d = Math.hypot(x - info.x, y - info.y);
      if (d <= best) {
        best = d;
        nearest = i;
      }
    });
    if (nearest >= 0) {
      callbacks.current.onSelect(nearest);
      return;
    }
    if (!canEdit) return;
    const [lng, lat] = handle.unproject(info.x, info.y);
    if (Number.isFinite(lng) && Number.isFinite(lat)) callbacks.current.onAdd(lng, lat);
  };

  return <MapView ref={mapRef} layers={layers} onClick={click} />;
}
