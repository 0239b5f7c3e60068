/**
 * Console bench page: one run per page load, `window.runBench({mode, count, seconds})`.
 *   pipeline — our path: typed-array frames from a worker → MonitorController (copy, colours,
 *              binary deck.gl layers, cluster worker) → MapboxOverlay.setProps.
 *   baseline — what Traccar's console does: JSON text parsed on the main thread, a GeoJSON
 *              FeatureCollection rebuilt and `setData` on a clustered maplibre source.
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
import type { LiveFrame, LiveMessage, LiveSource } from '../../src/features/monitor/live-source.ts';

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

/** Plates for the directory (the labels' text): Beijing-style plates, CJK glyphs as in the console. */
function plateOf(id: number): string {
  return `京${String.fromCharCode(65 + (id % 26))}${String(id % 100_000).padStart(5, '0')}`;
}

async function startBench(opts: { mode: 'pipeline' | 'baseline'; count: number; scene?: 'fleet' | 'street'; labels?: boolean }): Promise<string> {
  const street = opts.scene === 'street';
  const map = new maplibregl.Map({ container: 'map', style: bundledStyle(), center: street ? STREET.centre : [110, 32], zoom: street ? STREET.zoom : 4.1 });
  await new Promise<void>((resolve) => map.once('load', () => resolve()));
  const gl = map.painter.context.gl;
  const dbg = gl.getExtension('WEBGL_debug_renderer_info');
  const webgl = dbg ? String(gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL)) : 'unknown';
  const worker = new Worker(new URL('./frames.worker.ts', import.meta.url), { type: 'module' });
  // For screenshots of the bench scene (tools drive the camera).
  Object.assign(window, { benchMap: map });

  if (opts.mode === 'pipeline') {
    const overlay = new MapboxOverlay({ interleaved: false, layers: [] });
    map.addControl(overlay);
    const listeners = new Set<(m: LiveMessage) => void>();
    const source: LiveSource = {
      subscribe(l) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      release(f: LiveFrame) {
        const buffers = { ids: f.ids, positions: f.positions, headings: f.headings, states: f.states, alarm: f.alarm };
        worker.postMessage({ type: 'next', buffers }, [f.ids.buffer, f.positions.buffer, f.headings.buffer, f.states.buffer, f.alarm.buffer]);
      },
      setDisplayCrs() {},
      // Plates only matter to the street scene's labels (the fleet scene has none in view at zoom 4).
      directory: (ids) => Promise.resolve(street ? ids.map((vehicleId) => ({ vehicleId, plate: plateOf(vehicleId), companyId: 1, deviceNo: String(vehicleId) })) : []),
      dispose() {
        worker.terminate();
      },
    };
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
    worker.addEventListener('message', (e: MessageEvent<LiveFrame>) => {
      for (const l of listeners) l(e.data);
    });
  } else {
    map.addSource('positions', { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, cluster: true, clusterMaxZoom: 14, clusterRadius: 50 });
    map.addLayer({ id: 'positions', type: 'circle', source: 'positions', paint: { 'circle-radius': 4, 'circle-color': '#22a046' } });
    worker.addEventListener('message', (e: MessageEvent<{ text: string }>) => {
      const t = performance.now();
      markUpdate();
      const data = JSON.parse(e.data.text) as { positions: JsonPosition[] };
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
      worker.postMessage({ type: 'next' });
    });
  }
  worker.postMessage({
    type: 'start', mode: opts.mode === 'pipeline' ? 'binary' : 'json', count: opts.count,
    ...(street ? { spread: STREET.spread, orbit: STREET.orbit } : {}),
  });
  // Warm-up: first uploads, shader compilation, JIT.
  await new Promise((r) => setTimeout(r, 1500));
  startRecording();
  handlerMs.length = 0;
  return webgl;
}

function stopBench(): Omit<BenchResult, 'seconds' | 'webgl'> & { handlerMs: number[] } {
  return { ...stopRecording(), handlerMs: [...handlerMs] };
}

Object.assign(window, { startBench, stopBench });
document.title = 'ready';
