/**
 * The fence screen's map: the project's MapView with every listed fence drawn by deck.gl (the selected
 * one highlighted; a click on a fence selects it) and terra-draw (+ its maplibre adapter) for drawing a
 * new circle, rectangle or polygon and for editing the selected fence's vertices. Geometries cross this
 * component in WGS-84; terra-draw works in the basemap's coordinates, converted by geometry.ts.
 */
import { useEffect, useMemo, useRef } from 'react';
import { PolygonLayer } from '@deck.gl/layers';
import type { Layer, PickingInfo } from '@deck.gl/core';
import { TerraDraw, type GeoJSONStoreFeatures, TerraDrawCircleMode, TerraDrawPolygonMode, TerraDrawRectangleMode, TerraDrawSelectMode, TerraDrawRenderMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import type { FenceGeometry, FenceShape } from '../../../domain/fence/types.ts';
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { MapView, type MapHandle } from '../map/MapView.tsx';
import { useDisplayCrs } from '../map/map-source-store.ts';
import { bounds, DRAW_MODE, fromDrawnRing, ringDisplay, toDrawFeature } from './geometry.ts';

export interface MapFence {
  id: number;
  name: string;
  geometry: FenceGeometry;
}

export interface FenceMapProps {
  fences: readonly MapFence[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  /** A shape tool is on: the next shape drawn is handed to `onDrawn`. */
  drawing: FenceShape | null;
  onDrawn: (geometry: FenceGeometry) => void;
  /** A shape not saved yet (just drawn, or edited), drawn highlighted. */
  pending: FenceGeometry | null;
  /** The selected fence's shape is open for editing (its vertices drag); each change goes to `onEdited`. */
  editing: FenceGeometry | null;
  onEdited: (geometry: FenceGeometry) => void;
  /** Fits the view to the selected fence whenever this changes. */
  fitKey: string;
}

const SELECT_FLAGS = {
  polygon: { feature: { draggable: true, coordinates: { draggable: true, midpoints: true, deletable: true } } },
  rectangle: { feature: { draggable: true, coordinates: { draggable: true, resizable: 'opposite' as const } } },
  circle: { feature: { draggable: true, coordinates: { draggable: true, resizable: 'center-fixed' as const } } },
};
const DRAW_COLOR = '#f76707';
/** How near (px) a press must be to a vertex or midpoint for terra-draw's select mode to drag it (its default). */
const GRAB_PX = 40;

/** Puts terra-draw in the mode the page asks for: a drawing tool, the edited fence selected with its handles, or idle. */
function syncMode(d: TerraDraw | null, shape: FenceShape | null, edited: FenceGeometry | null, crs: DisplayCrs): void {
  if (!d) return;
  d.clear();
  if (shape) {
    d.setMode(DRAW_MODE[shape]);
  } else if (edited) {
    d.setMode('select');
    const feature = toDrawFeature(crypto.randomUUID(), edited, crs);
    const [check] = d.addFeatures([feature as GeoJSONStoreFeatures]);
    if (check?.valid) d.selectFeature(feature.id);
  } else {
    d.setMode('static');
  }
}

interface Row {
  id: number;
  ring: [number, number][];
  selected: boolean;
}

export function FenceMap({ fences, selectedId, onSelect, drawing, onDrawn, pending, editing, onEdited, fitKey }: FenceMapProps) {
  const mapRef = useRef<MapHandle>(null);
  const drawRef = useRef<TerraDraw | null>(null);
  const crs = useDisplayCrs();
  const callbacks = useRef({ onSelect, onDrawn, onEdited, drawing, editing, fences, selectedId, pending });
  useEffect(() => {
    callbacks.current = { onSelect, onDrawn, onEdited, drawing, editing, fences, selectedId, pending };
  });

  const layers = useMemo((): Layer[] => {
    const rows: Row[] = fences
      // The fence being edited is drawn by terra-draw (with its handles), not twice.
      .filter((f) => !(editing && f.id === selectedId))
      .map((f) => ({ id: f.id, ring: ringDisplay(f.geometry, crs), selected: f.id === selectedId && !pending }));
    rows.sort((a, b) => Number(a.selected) - Number(b.selected)); // the selected one on top
    const out: Layer[] = [
      new PolygonLayer<Row>({
        id: 'fences', data: rows, pickable: true, stroked: true, filled: true, getPolygon: (r) => r.ring,
        getFillColor: (r) => (r.selected ? [247, 103, 7, 70] : [28, 126, 214, 40]),
        getLineColor: (r) => (r.selected ? [247, 103, 7, 255] : [28, 126, 214, 220]),
        getLineWidth: (r) => (r.selected ? 3 : 1.5), lineWidthUnits: 'pixels',
        updateTriggers: { getFillColor: [selectedId, pending], getLineColor: [selectedId, pending], getLineWidth: [selectedId, pending] },
      }) as Layer,
    ];
    if (pending && !editing) {
      out.push(new PolygonLayer<{ ring: [number, number][] }>({
        id: 'fence-pending', data: [{ ring: ringDisplay(pending, crs) }], getPolygon: (r) => r.ring, stroked: true, filled: true,
        getFillColor: [247, 103, 7, 70], getLineColor: [247, 103, 7, 255], getLineWidth: 3, lineWidthUnits: 'pixels',
      }) as Layer);
    }
    return out;
  }, [fences, selectedId, pending, editing, crs]);

  // terra-draw on the map, once the style is there (the adapter adds its own sources and layers).
  useEffect(() => {
    const map = mapRef.current?.map;
    if (!map) return;
    let draw: TerraDraw | null = null;
    const start = () => {
      draw = new TerraDraw({
        adapter: new TerraDrawMapLibreGLAdapter({ map }),
        modes: [
          new TerraDrawRenderMode({ modeName: 'static', styles: {} }),
          new TerraDrawCircleMode({ styles: { fillColor: DRAW_COLOR, outlineColor: DRAW_COLOR, fillOpacity: 0.25 } }),
          new TerraDrawRectangleMode({ styles: { fillColor: DRAW_COLOR, outlineColor: DRAW_COLOR, fillOpacity: 0.25 } }),
          new TerraDrawPolygonMode({ styles: { fillColor: DRAW_COLOR, outlineColor: DRAW_COLOR, fillOpacity: 0.25 } }),
          new TerraDrawSelectMode({ flags: SELECT_FLAGS, styles: { selectedPolygonColor: DRAW_COLOR, selectedPolygonOutlineColor: DRAW_COLOR, selectedPolygonFillOpacity: 0.25 } }),
        ],
      });
      draw.start();
      draw.setMode('static');
      draw.on('finish', (id, ctx) => {
        const d = drawRef.current;
        const f = d?.getSnapshotFeature(id);
        if (!d || !f || f.geometry.type !== 'Polygon') return;
        const ring = f.geometry.coordinates[0] ?? [];
        const crsNow = mapRef.current?.displayCrs ?? 'wgs84';
        const { drawing: shape, editing: edited } = callbacks.current;
        if (ctx.action === 'draw' && shape) {
          callbacks.current.onDrawn(fromDrawnRing(shape, ring, crsNow));
          // The page shows the drawn shape from now on (as `pending`); terra-draw's copy goes.
          d.removeFeatures([id]);
        } else if (ctx.mode === 'select' && edited) {
          callbacks.current.onEdited(fromDrawnRing(edited.shape, ring, crsNow));
        }
      });
      drawRef.current = draw;
      // For e2e: the drawing tools take the mouse from now on.
      map.getContainer().setAttribute('data-fence-draw', 'ready');
      syncMode(draw, callbacks.current.drawing, callbacks.current.editing, mapRef.current?.displayCrs ?? 'wgs84');
    };
    if (map.isStyleLoaded()) start();
    else map.once('load', start);
    return () => {
      map.off('load', start);
      drawRef.current = null;
      // The map may already be gone (MapView's cleanup runs first): stopping then has nothing to undo.
      try {
        draw?.stop();
      } catch {
        /* map removed */
      }
    };
  }, []);

  // For e2e: whether the camera is moving (a fit after a save animates); the drags wait for it to stop.
  useEffect(() => {
    const map = mapRef.current?.map;
    if (!map) return;
    const box = map.getContainer();
    const moving = () => box.setAttribute('data-camera', 'moving');
    const still = () => box.setAttribute('data-camera', 'still');
    still();
    map.on('movestart', moving);
    map.on('moveend', still);
    return () => {
      map.off('movestart', moving);
      map.off('moveend', still);
    };
  }, []);

  // A new tool, or editing switched on or off (not every vertex drag: `editing` changes with each one).
  const editingOn = editing !== null;

  // While a shape is edited, a press on it (a vertex, a midpoint, or inside it: what terra-draw then drags) holds
  // the map still from the press on. terra-draw switches maplibre's drag-pan off only at its drag start, on the
  // first pointermove, but maplibre's pan is armed at mousedown: on a busy page whose first move arrives late and
  // coalesced, the map panned that far with the cursor (30 of a 40 px drag, e2e/fences.e2e.ts) and the vertex,
  // though under the cursor, moved a quarter of that on the map. Pointerdown comes before mousedown, so the pan
  // never starts. terra-draw turns the pan back on at pointerup on the map; this does it wherever the button is let go.
  useEffect(() => {
    const map = mapRef.current?.map;
    if (!map || !editingOn) return;
    const canvas = map.getCanvas();
    let held = false;
    const release = () => {
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      if (held) map.dragPan.enable();
      held = false;
    };
    const press = (e: PointerEvent) => {
      const d = drawRef.current;
      if (!d || e.button !== 0 || !e.isPrimary) return;
      if (d.getFeaturesAtPointerEvent(e, { pointerDistance: GRAB_PX, ignoreSelectFeatures: false }).length === 0) return;
      held = true;
      map.dragPan.disable();
      window.addEventListener('pointerup', release);
      window.addEventListener('pointercancel', release);
    };
    canvas.addEventListener('pointerdown', press, true);
    return () => {
      canvas.removeEventListener('pointerdown', press, true);
      release();
    };
  }, [editingOn]);
  useEffect(() => {
    syncMode(drawRef.current, callbacks.current.drawing, callbacks.current.editing, crs);
  }, [drawing, editingOn, crs]);

  useEffect(() => {
    const handle = mapRef.current;
    const { fences: list, selectedId: id, pending: p } = callbacks.current;
    const g = p ?? list.find((f) => f.id === id)?.geometry;
    if (!handle || !g) return;
    const [w, s, e, n] = bounds(g);
    handle.fitBounds(w, s, e, n);
  }, [fitKey]);

  const click = (info: PickingInfo) => {
    const { drawing: shape, editing: edited } = callbacks.current;
    if (shape || edited) return; // the click belongs to terra-draw
    const row = info.object as Row | undefined;
    if (info.layer?.id === 'fences' && row) callbacks.current.onSelect(row.id);
  };

  return <MapView ref={mapRef} layers={layers} onClick={click} />;
}
