/**
 * Console bench page: one run per page load, `window.startBench({mode, count, feed, …})`. Both sides
 * read the same fleet from the bench's websocket feeder (bench/console/feed.ts, in Node) at 1 Hz.
 *   pipeline — what ships: the real stream worker (workers/stream.worker.ts via createLiveStream:
 *              websocket, protobuf decode, FleetState apply, gliding, frame buffers) → MonitorController
 *              (copy into the binary layer buffers, colours, cluster worker, labels) → MapboxOverlay.
 *   baseline — what traccar-web does: the websocket on the main thread, JSON.parse of each
 *              `{positions:[…]}` message, a GeoJSON FeatureCollection rebuilt and `setData` on a
 *              clustered maplibre source (maplibre's workers cluster it).
 * `scene: 'street'` (issue 13, plate labels): our pipeline at street zoom (17) over a city where the
 * vehicles crowd a few kilometres, with plates from the directory, `labels` on or off — the cost of
 * the plate labels (TextLayer + GPU collision filter, ≤ 600 in view) against the same scene without.
 */
import { markUpdate, startRecording, stopRecording } from './instrument.ts';

import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { MapboxOverlay } from '@deck.gl/mapbox';
import { bundledStyle } from '../../src/features/map/basemap-style.ts';
import { MonitorController } from '../../src/features/monitor/monitor-controller.ts';
import { createLiveStream } from '../../src/live/stream/client.ts';

maplibregl.setWorkerUrl(workerUrl);

/** In-page wall-clock figures (the bench prefers the trace's thread CPU time; these are a cross-check). */
export interface BenchResult {
  samples: number[];
  updates: number;
  totalMs: number;
  seconds: number;
  webgl: string;
}

interface JsonPosition {
  deviceId: number;
  latitude: number;
  longitude: number;
  course: number;
  speed: number;
  attributes: { motion: boolean };
}

/** Wall time of each applied update (the data path without rendering), recorded after warm-up. */
const handlerMs: number[] = [];

/**
 * Street scene: the vehicles crowd ±0.004° (≈ 700 m) around each city centre, circling 0.001°; the camera
 * over Beijing at zoom 17, past clustering (CLUSTER_MAX_ZOOM 16), so every vehicle in view is a label
 * candidate: about LABEL_MAX (600) labels, the worst case the controller allows at street zoom.
 */
const STREET = { centre: [116.41, 39.9] as [number, number], zoom: 17, spread: 0.004, orbit: 0.001 };

async function startBench(opts: { mode: 'pipeline' | 'baseline'; count: number; feed: string; scene?: 'fleet' | 'street'; labels?: boolean; warmupMs?: number }): Promise<string> {
  const street = opts.scene === 'street';
  const map = new maplibregl.Map({ container: 'map', style: bundledStyle(), center: street ? STREET.centre : [110, 32], zoom: street ? STREET.zoom : 4.1 });
  await new Promise<void>((resolve) => map.once('load', () => resolve()));
  const gl = map.painter.context.gl;
  const dbg = gl.getExtension('WEBGL_debug_renderer_info');
  const webgl = dbg ? String(gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL)) : 'unknown';
  const feedUrl = `${opts.feed}?count=${opts.count}&mode=${opts.mode === 'pipeline' ? 'binary' : 'json'}${street ? `&spread=${STREET.spread}&orbit=${STREET.orbit}` : ''}`;
  // For screenshots of the bench scene (tools drive the camera).
  Object.assign(window, { benchMap: map });

  if (opts.mode === 'pipeline') {
    const overlay = new MapboxOverlay({ interleaved: false, layers: [] });
    map.addControl(overlay);
    // The product's live source: the session stream's worker, pointed at the feeder (no reconnects).
    const source = createLiveStream({ url: feedUrl, token: () => 'bench', reconnectAttempts: 0 });
    // Frames the worker posted and stats it reported (a cross-check that the feed arrived and glides).
    const seen = { frames: 0, vehicles: 0, connection: '', errors: 0, stats: 0 };
    source.subscribe((m) => {
      if (m.type === 'frame') {
        seen.frames++;
        seen.vehicles = m.count;
      } else if (m.type === 'status') seen.connection = m.connection;
      else {
        seen.errors = m.errors;
        seen.stats++;
      }
    });
    Object.assign(window, { benchSeen: () => ({ ...seen }), benchDirectory: (ids: number[]) => source.directory(ids), benchController: () => controller });
    const controller = new MonitorController(source, {
      onApplied: (ms) => {
        markUpdate();
        handlerMs.push(ms);
      },
      plateLabels: opts.labels ?? true,
    });
    // As MonitorPage does: the view's bounds (plate labels) and zoom (clusters, arrows) after every move.
    const setView = () => {
      const b = map.getBounds();
      controller.setView({ west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth(), zoom: map.getZoom() });
    };
    setView();
    map.on('moveend', setView);
    Object.assign(window, { benchLabels: () => controller.labelledIds().length });
    controller.subscribeLayers(() => overlay.setProps({ layers: controller.layers() }));
  } else {
    map.addSource('positions', { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, cluster: true, clusterMaxZoom: 14, clusterRadius: 50 });
    map.addLayer({ id: 'positions', type: 'circle', source: 'positions', paint: { 'circle-radius': 4, 'circle-color': '#22a046' } });
    // traccar-web's SocketController: the socket on the main thread, each message parsed there.
    const socket = new WebSocket(feedUrl);
    socket.addEventListener('message', (e: MessageEvent<string>) => {
      const t = performance.now();
      markUpdate();
      const data = JSON.parse(e.data) as { positions: JsonPosition[] };
      const fc: GeoJSON.FeatureCollection = {
        type: 'FeatureCollection',
        features: data.positions.map((p) => ({
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] },
          properties: { deviceId: p.deviceId, rotation: p.course, category: 'car', color: p.attributes.motion ? 'success' : 'neutral' },
        })),
      };
      (map.getSource('positions') as maplibregl.GeoJSONSource).setData(fc);
      handlerMs.push(performance.now() - t);
    });
  }
  // Warm-up: connect, directory and snapshot, first uploads, shader compilation, JIT (a few 1 Hz ticks).
  await new Promise((r) => setTimeout(r, opts.warmupMs ?? 3500));
  startRecording();
  handlerMs.length = 0;
  return webgl;
}

function stopBench(): Omit<BenchResult, 'seconds' | 'webgl'> & { handlerMs: number[] } {
  return { ...stopRecording(), handlerMs: [...handlerMs] };
}

Object.assign(window, { startBench, stopBench });
document.title = 'ready';
