/**
 * Playback bench page: one run per page load, `window.startBench(opts)` then `stopBench()`.
 * See bench/playback.bench.ts for what is compared and why the baseline is a fair copy.
 *   ours     — what the console ships: GET the binary track → track worker (decode, analyzeTrack, DP
 *              importance, the path cut for the zoom) → transferred columns → PlaybackController.
 *              The static layers go to a MapboxOverlay composed as MapView composes it (place labels
 *              of the bundled basemap + the controller's static feed); the vehicles go to the
 *              product's own second canvas (src/features/track/vehicle-overlay.ts), as the page does.
 *   baseline — a Traccar-style replay (traccar-web ReplayPage): the period's positions in one JSON
 *              request parsed on the main thread, the route set once as one GeoJSON LineString on a
 *              maplibre line layer, the vehicle a one-point GeoJSON source moved with `setData`.
 * Both play at the fastest speed (1200× real time) from the middle of the period; the camera stays put.
 * "First frame": the end of the first draw whose frame contains the route — deck.gl's `onAfterRender`
 * for ours, maplibre's `render` event once the route's source is loaded for the baseline (both fire
 * synchronously at the end of the WebGL draw, inside the same requestAnimationFrame phase).
 */
import { markUpdate, startRecording, stopRecording } from '../console/instrument.ts';

import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { MapboxOverlay } from '@deck.gl/mapbox';
import { bundledStyle } from '../../src/features/map/basemap-style.ts';
import { loadPlaces, placeLabelLayer } from '../../src/features/map/place-labels.ts';
import { createTrackClient } from '../../src/live/track/client.ts';
import { SPEED_FACTORS } from '../../src/live/track/clock.ts';
import { PlaybackController } from '../../src/features/track/playback-controller.ts';
import { attachVehicleOverlay } from '../../src/features/track/vehicle-overlay.ts';

maplibregl.setWorkerUrl(workerUrl);

export interface StartOptions {
  mode: 'ours' | 'baseline';
  vehicleId: number;
  startTime: number;
  endTime: number;
  zoom: number;
  /** Exploration only (PLAYBACK_ONE_CANVAS=1): the vehicles in MapView's overlay, as before the split. */
  oneCanvas?: boolean;
}

export interface Started {
  firstFrameMs: number;
  points: number;
  timings: Record<string, number>;
}

/** A position as traccar-web receives it from GET /api/positions (the fields the replay reads). */
interface TraccarPosition {
  deviceId: number;
  fixTime: string;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
}

/** Draws (WebGL frames issued) of the canvas that changes while playing: a cross-check of the trace count. */
let draws = 0;

const CENTER: [number, number] = [116.3, 39.9];
/** The track colour of the first loaded track (same blue for the baseline's route). */
const ROUTE_COLOR = '#1e6edc';

async function ours(map: maplibregl.Map, opts: StartOptions): Promise<Started> {
  let drawn: (() => void) | null = null;
  // MapView's overlay: basemap place labels first, then the feed's (static) layers.
  const overlay = new MapboxOverlay({ interleaved: false, layers: [], onAfterRender: () => (opts.oneCanvas && draws++, drawn?.()) });
  map.addControl(overlay);
  const places = await loadPlaces();
  const labels = placeLabelLayer(places, map.getZoom(), 'zh', 'wgs84');
  const controller = new PlaybackController({ client: createTrackClient() });
  await controller.setZoom(map.getZoom());
  const feed = () => overlay.setProps({ layers: [labels, ...controller.layers(), ...(opts.oneCanvas ? controller.vehicleLayers() : [])] });
  feed();
  controller.subscribeLayers(feed);
  if (opts.oneCanvas) controller.subscribeVehicles(feed);
  else attachVehicleOverlay(map, { subscribe: controller.subscribeVehicles, layers: controller.vehicleLayers }, () => draws++);
  controller.onFrame(() => markUpdate());
  // The page has been open a moment before the operator asks for a track: the worker has started and
  // the empty layers have been drawn once (shaders compiled), as in the console.
  await new Promise((r) => setTimeout(r, 500));
  const t0 = performance.now();
  const r = await controller.load(opts.vehicleId, opts.startTime, opts.endTime, 'wgs84');
  const loadedAt = performance.now();
  if (r.kind !== 'added') throw new Error(`load: ${r.kind}`);
  // The load rebuilt the static layers and handed them to the overlay: its next draw shows the route.
  await new Promise<void>((resolve) => (drawn = resolve));
  const firstFrameMs = performance.now() - t0;
  drawn = null;
  // Mid-period: both start halfway.
  controller.seek((r.track.time[0]! + r.track.time[r.track.count - 1]!) / 2);
  controller.setSpeed('extremelyFast');
  controller.play();
  return { firstFrameMs, points: r.track.count, timings: { ...r.track.timings, loadedAtMs: loadedAt - t0 } };
}

async function baseline(map: maplibregl.Map, opts: StartOptions): Promise<Started> {
  // Sources and layers exist before the request, as traccar-web's map components mount first.
  map.addSource('route', { type: 'geojson', data: { type: 'Feature', geometry: { type: 'LineString', coordinates: [] }, properties: {} } });
  map.addLayer({ id: 'route-line', type: 'line', source: 'route', layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': ROUTE_COLOR, 'line-width': 4 } });
  map.addSource('position', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  map.addLayer({ id: 'position', type: 'circle', source: 'position', paint: { 'circle-radius': 11, 'circle-color': ROUTE_COLOR, 'circle-stroke-width': 2, 'circle-stroke-color': '#ffffff' } });
  await new Promise((r) => setTimeout(r, 500));
  const t0 = performance.now();
  const q = new URLSearchParams({ deviceId: String(opts.vehicleId), from: new Date(opts.startTime).toISOString(), to: new Date(opts.endTime).toISOString() });
  const positions = (await (await fetch(`/api/positions?${q}`)).json()) as TraccarPosition[];
  const loadedAt = performance.now();
  const n = positions.length;
  const times = new Float64Array(n);
  const coordinates: [number, number][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const p = positions[i]!;
    times[i] = Date.parse(p.fixTime);
    coordinates[i] = [p.longitude, p.latitude];
  }
  const route = map.getSource('route') as maplibregl.GeoJSONSource;
  const position = map.getSource('position') as maplibregl.GeoJSONSource;
  const point = (i: number): GeoJSON.Feature => ({ type: 'Feature', geometry: { type: 'Point', coordinates: coordinates[i]! }, properties: { course: positions[i]!.course } });
  route.setData({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: {} });
  position.setData(point(0));
  // The first draw after the route's tiles are in: maplibre fires 'render' at the end of that draw.
  await new Promise<void>((resolve) => {
    const onRender = () => {
      if (!map.isSourceLoaded('route') || !map.isSourceLoaded('position')) return;
      map.off('render', onRender);
      resolve();
    };
    map.on('render', onRender);
  });
  const firstFrameMs = performance.now() - t0;
  map.on('render', () => draws++);
  // Playing: the clock advances by wall time × speed; a forward cursor finds the current position
  // (O(points passed), no rescan), and the one-point source is set only when the position changes.
  let t = (times[0]! + times[n - 1]!) / 2;
  let i = 0;
  while (i + 1 < n && times[i + 1]! <= t) i++;
  let shown = -1;
  let last = performance.now();
  const loop = () => {
    const now = performance.now();
    t += (now - last) * SPEED_FACTORS.extremelyFast;
    last = now;
    while (i + 1 < n && times[i + 1]! <= t) i++;
    if (i !== shown) {
      shown = i;
      markUpdate();
      position.setData(point(i));
    }
    if (i + 1 < n) requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  return { firstFrameMs, points: n, timings: { fetchParseMs: loadedAt - t0 } };
}

async function startBench(opts: StartOptions): Promise<Started> {
  const map = new maplibregl.Map({ container: 'map', style: bundledStyle(), center: CENTER, zoom: opts.zoom });
  await new Promise<void>((resolve) => map.once('load', () => resolve()));
  const started = opts.mode === 'ours' ? await ours(map, opts) : await baseline(map, opts);
  // Warm-up: shader compilation, JIT.
  await new Promise((r) => setTimeout(r, 1000));
  draws = 0;
  startRecording();
  return started;
}

function stopBench(): { samples: number[]; updates: number; totalMs: number; draws: number } {
  return { ...stopRecording(), draws };
}

Object.assign(window, { startBench, stopBench });
document.title = 'ready';
