/**
 * The console's map: maplibre-gl draws the basemap (bundled offline GeoJSON or a user source), deck.gl
 * draws the data through a MapboxOverlay (its own canvas over the map, camera synchronised by the
 * overlay). Callers pass deck.gl layers with stable ids and keep their `data` references stable.
 *
 * Positions cross this component in WGS-84: the handle converts to and from the display CRS (GCJ-02
 * when the active source is an AMap/Tencent-style one), so callers never see display coordinates.
 */
import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { MapboxOverlay } from '@deck.gl/mapbox';
import type { Layer, PickingInfo } from '@deck.gl/core';
import { notifications } from '@mantine/notifications';
import { fromDisplay, toDisplay, type DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { currentLang, i18n } from '../../i18n/index.ts';
import { styleFor } from './basemap-style.ts';
import { activeSource, BUNDLED_ID, type UserMapSource } from './map-sources.ts';
import { mapSourceStore, useMapSources } from './map-source-store.ts';
import { loadPlaces, placeLabelLayer, type Place } from './place-labels.ts';
import { MAP_NS } from './messages.ts';
import { LAYERS } from '../../shell/layers.ts';
import { recentreOn, RESIZE_SETTLE_MS } from './keep-view.ts';
import { useThemeName } from '../../shell/theme.ts';
import { installLocalIcons } from './streets/icons.ts';

// After `vite build` maplibre cannot find its worker next to its own chunk: point it at the emitted file.
maplibregl.setWorkerUrl(workerUrl);

/** Spec §9: initial zoom 4.1 centred on China. */
export const CHINA_CENTER: [number, number] = [104.2, 35.9];
export const INITIAL_ZOOM = 4.1;

export interface MapViewState {
  /** Visible bounds in display coordinates (what the layers are drawn in). */
  west: number;
  south: number;
  east: number;
  north: number;
  zoom: number;
}

export interface MapHandle {
  /** The maplibre map, for integrations that drive it from effects (drawing tools). Null before mount. */
  readonly map: maplibregl.Map | null;
  readonly displayCrs: DisplayCrs;
  /** Centres on a WGS-84 position. */
  flyTo(lng: number, lat: number, zoom?: number): void;
  /** Fits WGS-84 bounds. */
  fitBounds(west: number, south: number, east: number, north: number): void;
  /** Screen pixel of a WGS-84 position. */
  project(lng: number, lat: number): [x: number, y: number];
  /** WGS-84 position under a screen pixel. */
  unproject(x: number, y: number): [lng: number, lat: number];
  /** The deck.gl object under a pixel (vehicle, cluster), if any. */
  pick(x: number, y: number): PickingInfo | null;
  viewState(): MapViewState | null;
}

/**
 * Layers that change faster than React should render (live vehicles at 60 Hz): MapView subscribes
 * and hands them to deck.gl directly, above the `layers` prop.
 */
export interface LayerFeed {
  subscribe(listener: () => void): () => void;
  layers(): readonly Layer[];
}

export interface MapViewProps {
  /** deck.gl layers; keep ids and data references stable between renders. @default [] */
  layers?: readonly (Layer | null | false)[];
  /** Hot layers pushed outside React (see LayerFeed). */
  feed?: LayerFeed;
  /** Called on a click on the map with what deck.gl picked there (info.layer null when nothing). */
  onClick?: (info: PickingInfo) => void;
  /** Right click: screen point, WGS-84 position and what deck.gl picked there. */
  onContextMenu?: (e: { x: number; y: number; lngLat: [number, number]; picked: PickingInfo | null }) => void;
  /** Called after the camera stops moving (and once when the map is ready). */
  onViewChange?: (view: MapViewState) => void;
  /**
   * What the operator is looking at (display coordinates, as layers draw it), if anything: after the
   * map changes size (the alarm pop-up docks beside it) it is brought back into view when it fell
   * outside or onto an edge; otherwise the centre is kept.
   */
  viewAnchor?: () => readonly [number, number] | undefined;
  /**
   * The basemap chosen by the page instead of the user's picker: a wall draws its preset's map, not
   * whatever its kiosk browser last picked. `null` = the bundled outline; absent = the user's choice.
   */
  source?: UserMapSource | null;
  /** Overlays positioned over the map (panels, menus). */
  children?: ReactNode;
  ref?: Ref<MapHandle>;
}

function readView(map: maplibregl.Map): MapViewState {
  const b = map.getBounds();
  return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth(), zoom: map.getZoom() };
}

export function MapView({ layers = [], feed, onClick, onContextMenu, onViewChange, viewAnchor, source, children, ref }: MapViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<maplibregl.Map | null>(null);
  const overlayRef = useRef<MapboxOverlay | null>(null);
  const settings = useMapSources();
  const chosen = source === undefined ? activeSource(settings) : (source ?? undefined);
  const chosenRef = useRef(chosen);
  const pageChoseRef = useRef(source !== undefined);
  const crs = chosen?.crs ?? 'wgs84';
  const crsRef = useRef(crs);
  const dark = useThemeName() === 'dark';
  const darkRef = useRef(dark);
  const [zoom, setZoom] = useState(INITIAL_ZOOM);
  const [places, setPlaces] = useState<Place[]>([]);
  const [failed, setFailed] = useState(false);
  const callbacks = useRef({ onClick, onContextMenu, onViewChange, viewAnchor });
  const frameRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    crsRef.current = crs;
    chosenRef.current = chosen;
    pageChoseRef.current = source !== undefined;
    darkRef.current = dark;
    callbacks.current = { onClick, onContextMenu, onViewChange, viewAnchor };
  });

  // Create the map and the overlay once.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let map: maplibregl.Map;
    try {
      map = new maplibregl.Map({
        container,
        style: styleFor(chosenRef.current, darkRef.current, currentLang()),
        center: CHINA_CENTER,
        zoom: INITIAL_ZOOM,
        attributionControl: { compact: true },
        dragRotate: false,
        pitchWithRotate: false,
        maxPitch: 0,
      });
    } catch {
      // No WebGL: say so instead of a blank area.
      queueMicrotask(() => setFailed(true));
      return;
    }
    map.touchZoomRotate.disableRotation();
    installLocalIcons(map); // the street map's town dots and POI icons, drawn here instead of a CDN sprite
    const overlay = new MapboxOverlay({
      interleaved: false,
      layers: [],
      onClick: (info) => callbacks.current.onClick?.(info),
      getCursor: ({ isHovering, isDragging }) => (isDragging ? 'grabbing' : isHovering ? 'pointer' : 'grab'),
    });
    map.addControl(overlay);
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'bottom-right');
    map.addControl(new maplibregl.ScaleControl({}), 'bottom-left');
    const emitView = () => {
      setZoom(map.getZoom());
      // The camera and the drawn size, for e2e checks (centre kept, canvas follows the container).
      const c = map.getCenter();
      const [lng, lat] = fromDisplay(crsRef.current, c.lng, c.lat);
      frameRef.current?.setAttribute('data-center', `${lng.toFixed(5)},${lat.toFixed(5)}`);
      frameRef.current?.setAttribute('data-zoom', map.getZoom().toFixed(2));
      frameRef.current?.setAttribute('data-canvas-width', String(map.getCanvas().clientWidth));
      callbacks.current.onViewChange?.(readView(map));
    };
    map.on('moveend', emitView);
    map.once('load', emitView);
    // maplibre follows its container (ResizeObserver) and keeps the centre; deck.gl's overlay follows
    // maplibre's 'resize'. A resize also stops a camera move in flight (a fly to a chosen vehicle), so
    // once the size settles the vehicle the operator looks at is brought back if it is out of view.
    let settle: ReturnType<typeof setTimeout> | undefined;
    map.on('resize', () => {
      clearTimeout(settle);
      settle = setTimeout(() => {
        const anchor = callbacks.current.viewAnchor?.();
        if (!anchor) return;
        const p = map.project([anchor[0], anchor[1]]);
        const box = map.getContainer();
        if (recentreOn(p.x, p.y, box.clientWidth, box.clientHeight)) map.easeTo({ center: [anchor[0], anchor[1]], duration: 300 });
      }, RESIZE_SETTLE_MS);
    });
    map.on('contextmenu', (e) => {
      const [lng, lat] = fromDisplay(crsRef.current, e.lngLat.lng, e.lngLat.lat);
      const picked = overlay.pickObject({ x: e.point.x, y: e.point.y, radius: 4 });
      callbacks.current.onContextMenu?.({ x: e.point.x, y: e.point.y, lngLat: [lng, lat], picked });
    });
    map.on('error', (e) => {
      // A user source that cannot load (bad URL, offline) must not leave the operator without a map.
      // (A page's own choice, a wall's preset, is not the user's picker: it is left as it is.)
      const active = mapSourceStore.get().activeId;
      if (!pageChoseRef.current && active !== BUNDLED_ID && (e as { sourceId?: string }).sourceId !== undefined) {
        mapSourceStore.set({ ...mapSourceStore.get(), activeId: BUNDLED_ID });
        notifications.show({ color: 'red', autoClose: 2000, message: i18n.t('styleFailed', { ns: MAP_NS }) });
      }
    });
    mapRef.current = map;
    overlayRef.current = overlay;
    void loadPlaces().then(setPlaces);
    return () => {
      clearTimeout(settle);
      overlayRef.current = null;
      mapRef.current = null;
      map.removeControl(overlay);
      overlay.finalize();
      map.remove();
    };
  }, []);

  // Switch the basemap when the active source changes (the overlay survives style swaps).
  const styleLang = currentLang();
  const styleKey = `${chosen?.id ?? BUNDLED_ID}${JSON.stringify(chosen ?? null)}${dark ? ':dark' : ''}:${styleLang}`;
  const appliedStyleKey = useRef(styleKey);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || appliedStyleKey.current === styleKey) return;
    appliedStyleKey.current = styleKey;
    map.setStyle(styleFor(chosenRef.current, dark, styleLang));
  }, [styleKey, dark, styleLang]);

  // Hand the layers to deck.gl: basemap labels, then the caller's layers, then the hot feed.
  const lang = currentLang();
  const bundled = chosen === undefined;
  const baseLayers = useRef<Layer[]>([]);
  useEffect(() => {
    const overlay = overlayRef.current;
    if (!overlay) return;
    const own = bundled && places.length > 0 ? [placeLabelLayer(places, zoom, lang, crs, dark)] : [];
    baseLayers.current = [...own, ...layers.filter((l): l is Layer => Boolean(l))];
    overlay.setProps({ layers: [...baseLayers.current, ...(feed?.layers() ?? [])] });
  }, [layers, places, zoom, lang, crs, bundled, feed, dark]);
  useEffect(() => {
    if (!feed) return;
    return feed.subscribe(() => overlayRef.current?.setProps({ layers: [...baseLayers.current, ...feed.layers()] }));
  }, [feed]);

  useImperativeHandle(
    ref,
    (): MapHandle => ({
      get map() {
        return mapRef.current;
      },
      get displayCrs() {
        return crsRef.current;
      },
      flyTo(lng, lat, z) {
        const [x, y] = toDisplay(crsRef.current, lng, lat);
        mapRef.current?.flyTo({ center: [x, y], zoom: z ?? Math.max(mapRef.current.getZoom(), 12), essential: true });
      },
      fitBounds(w, s, e, n) {
        const [x0, y0] = toDisplay(crsRef.current, w, s);
        const [x1, y1] = toDisplay(crsRef.current, e, n);
        mapRef.current?.fitBounds(
          [
            [x0, y0],
            [x1, y1],
          ],
          { padding: 40, maxZoom: 14 },
        );
      },
      project(lng, lat) {
        const map = mapRef.current;
        if (!map) return [Number.NaN, Number.NaN];
        const [x, y] = toDisplay(crsRef.current, lng, lat);
        const p = map.project([x, y]);
        return [p.x, p.y];
      },
      unproject(x, y) {
        const map = mapRef.current;
        if (!map) return [Number.NaN, Number.NaN];
        const p = map.unproject([x, y]);
        return fromDisplay(crsRef.current, p.lng, p.lat);
      },
      pick(x, y) {
        return overlayRef.current?.pickObject({ x, y, radius: 4 }) ?? null;
      },
      viewState() {
        return mapRef.current ? readView(mapRef.current) : null;
      },
    }),
    [],
  );

  return (
    <div ref={frameRef} style={{ position: 'relative', width: '100%', height: '100%' }} data-testid="map-view" data-crs={crs} data-basemap-variant={dark ? 'dark' : 'light'}>
      {/* Its own stacking context: deck.gl's canvas and maplibre's controls (z-index 2 inside) stay
          under every panel the page lays over the map (src/shell/layers.ts). */}
      <div ref={containerRef} style={{ position: 'absolute', inset: 0, zIndex: LAYERS.map, isolation: 'isolate' }} />
      {failed ? <div role="alert">{i18n.t('mapFailed', { ns: MAP_NS })}</div> : null}
      {children}
    </div>
  );
}
