/**
 * Playback bench page: one run per page load, `window.startBench({mode})` then `stopBench()`.
 *   pipeline — ours: GET the binary track → track worker (decode, analyzeTrack, DP importance) →
 *              transferred columns → PlaybackController (binary search per frame, binary deck.gl
 *              layers) → MapboxOverlay.
 *   baseline — the old console: JSON pages of points fetched and parsed on the main thread into
 *              per-point objects; each frame a linear scan for the current point and a GeoJSON
 *              FeatureCollection (driven line so far + vehicle) rebuilt and `setData` on maplibre.
 * Both play at the fastest speed (1200× real time) from the middle of the week; the camera stays put (a
 * moving camera re-renders the basemap each frame, which on llvmpipe dwarfs both data paths).
 */
import { markUpdate, startRecording, stopRecording } from '../console/instrument.ts';

import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { MapboxOverlay } from '@deck.gl/mapbox';
import { bundledStyle } from '../../src/features/map/basemap-style.ts';
import { createTrackClient } from '../../src/live/track/client.ts';
import { SPEED_FACTORS } from '../../src/live/track/clock.ts';
import { PlaybackController } from '../../src/features/track/playback-controller.ts';

maplibregl.setWorkerUrl(workerUrl);

interface JsonPoint {
  lng: number;
  lat: number;
  speed: number;
  direction: number;
  gpsTime: number;
}

let firstFrameMs = Number.NaN;
let points = 0;
let timings: Record<string, number> = {};

async function startBench(opts: { mode: 'pipeline' | 'baseline'; vehicleId: number; startTime: number; endTime: number; pages: number }): Promise<{ firstFrameMs: number; points: number; timings: Record<string, number> }> {
  const map = new maplibregl.Map({ container: 'map', style: bundledStyle(), center: [116.3, 39.9], zoom: 9 });
  await new Promise<void>((resolve) => map.once('load', () => resolve()));

  if (opts.mode === 'pipeline') {
    let drawn: (() => void) | null = null;
    const overlay = new MapboxOverlay({ interleaved: false, layers: [], onAfterRender: () => drawn?.() });
    map.addControl(overlay);
    const controller = new PlaybackController({ client: createTrackClient() });
    await controller.setZoom(map.getZoom());
    controller.subscribeLayers(() => overlay.setProps({ layers: [...controller.layers()] }));
    controller.onFrame(() => markUpdate());
    // The page has been open a moment before the operator asks for a track: the worker has started
    // and the empty layers have been drawn once (shaders compiled), as in the console.
    await new Promise((r) => setTimeout(r, 500));
    const t0 = performance.now();
    const r = await controller.load(opts.vehicleId, opts.startTime, opts.endTime, 'wgs84');
    const loadedAt = performance.now();
    if (r.kind !== 'added') throw new Error(`load: ${r.kind}`);
    // The controller scheduled a frame with the track: deck.gl's next render draws it.
    await new Promise<void>((resolve) => (drawn = resolve));
    firstFrameMs = performance.now() - t0;
    points = r.track.count;
    timings = { ...r.track.timings, loadedAtMs: loadedAt - t0 };
    drawn = null;
    // Mid-week: the baseline's per-frame cost grows with the driven line, so both start halfway.
    controller.seek((r.track.time[0]! + r.track.time[r.track.count - 1]!) / 2);
    controller.setSpeed('extremelyFast');
    controller.play();
  } else {
    const t0 = performance.now();
    const all: JsonPoint[] = [];
    for (let p = 1; p <= opts.pages; p++) {
      const res = await fetch(`/service-monitor/trail?current=${p}`);
      const body = JSON.parse(await res.text()) as { data: { records: JsonPoint[] } };
      for (const r of body.data.records) all.push(r);
    }
    points = all.length;
    map.addSource('track', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({ id: 'track-line', type: 'line', source: 'track', filter: ['==', '$type', 'LineString'], paint: { 'line-color': '#1e6edc', 'line-width': 4 } });
    map.addLayer({ id: 'track-car', type: 'circle', source: 'track', filter: ['==', '$type', 'Point'], paint: { 'circle-radius': 8, 'circle-color': '#e03131' } });
    const frameAt = (t: number): GeoJSON.FeatureCollection => {
      // The old replay: scan for the current point, rebuild the driven line and the car every frame.
      let i = 0;
      while (i + 1 < all.length && all[i + 1]!.gpsTime <= t) i++;
      const line = all.slice(0, i + 1).map((p) => [p.lng, p.lat]);
      const car = all[i]!;
      return {
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', geometry: { type: 'LineString', coordinates: line.length > 1 ? line : [line[0]!, line[0]!] }, properties: {} },
          { type: 'Feature', geometry: { type: 'Point', coordinates: [car.lng, car.lat] }, properties: { heading: car.direction } },
        ],
      };
    };
    const start = all[0]!.gpsTime;
    (map.getSource('track') as maplibregl.GeoJSONSource).setData(frameAt(all[all.length - 1]!.gpsTime));
    await new Promise<void>((resolve) => map.once('idle', () => resolve()));
    firstFrameMs = performance.now() - t0;
    let last = performance.now();
    // Mid-week, as the pipeline (see above).
    let t = (start + all[all.length - 1]!.gpsTime) / 2;
    const loop = () => {
      const now = performance.now();
      t += (now - last) * SPEED_FACTORS.extremelyFast;
      last = now;
      markUpdate();
      const fc = frameAt(t);
      (map.getSource('track') as maplibregl.GeoJSONSource).setData(fc);
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }
  // Warm-up: shader compilation, JIT.
  await new Promise((r) => setTimeout(r, 1000));
  startRecording();
  return { firstFrameMs, points, timings };
}

function stopBench() {
  return stopRecording();
}

Object.assign(window, { startBench, stopBench });
document.title = 'ready';
