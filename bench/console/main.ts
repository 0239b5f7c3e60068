/**
 * Console bench page: one run per page load, `window.runBench({mode, count, seconds})`.
 *   pipeline — our path: typed-array frames from a worker → MonitorController (copy, colours,
 *              binary deck.gl layers, cluster worker) → MapboxOverlay.setProps.
 *   baseline — what Traccar's console does: JSON text parsed on the main thread, a GeoJSON
 *              FeatureCollection rebuilt and `setData` on a clustered maplibre source.
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

async function startBench(opts: { mode: 'pipeline' | 'baseline'; count: number }): Promise<string> {
  const map = new maplibregl.Map({ container: 'map', style: bundledStyle(), center: [110, 32], zoom: 4.1 });
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
      directory: () => Promise.resolve([]),
      dispose() {
        worker.terminate();
      },
    };
    const controller = new MonitorController(source, {
      onApplied: (ms) => {
        markUpdate();
        handlerMs.push(ms);
      },
    });
    controller.setZoom(map.getZoom());
    map.on('moveend', () => controller.setZoom(map.getZoom()));
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
  worker.postMessage({ type: 'start', mode: opts.mode === 'pipeline' ? 'binary' : 'json', count: opts.count });
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
