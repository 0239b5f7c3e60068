/**
 * Main-thread half of the track worker (workers/track.worker.ts): one worker per playback page,
 * Comlink control calls, and `dispose()` that releases the proxy and terminates the worker.
 */
import * as Comlink from 'comlink';
import { API_BASE } from '../../api/http.ts';
import { currentLang } from '../../i18n/index.ts';
import { applyTokenHeader, session } from '../../session/store.ts';
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import type { TrackStop } from '../../../domain/track/stops.ts';
import type { LoadAnswer, PathBuffers, TrackControl } from './protocol.ts';

export const TRAIL_BINARY_PATH = '/service-monitor/trail/binary';

export interface TrackClient {
  load(vehicleId: number, startTime: number, endTime: number, opts: { crs: DisplayCrs; zoom: number; stopMinutes?: number }): Promise<LoadAnswer>;
  path(key: number, bucket: number): Promise<PathBuffers | null>;
  stops(key: number, minutes: number): Promise<TrackStop[] | null>;
  release(key: number): void;
  dispose(): void;
}

function absolute(path: string): string {
  const base = /^https?:\/\//.test(API_BASE) ? API_BASE : `${location.origin}${API_BASE}`;
  return base + path;
}

export function createTrackClient(factory?: () => Worker): TrackClient {
  const worker = factory?.() ?? new Worker(new URL('../../../workers/track.worker.ts', import.meta.url), { type: 'module', name: 'track' });
  const control = Comlink.wrap<TrackControl>(worker);
  let disposed = false;
  return {
    async load(vehicleId, startTime, endTime, opts) {
      // The token is read at call time: the worker has no access to the session store.
      const answer = await control.load({
        url: absolute(TRAIL_BINARY_PATH), token: session.token, lang: currentLang(), vehicleId, startTime, endTime,
        crs: opts.crs, zoom: opts.zoom, stopMinutes: opts.stopMinutes,
      });
      if (answer.ok) applyTokenHeader(answer.track.jwt);
      return answer;
    },
    path: (key, bucket) => control.path(key, bucket),
    stops: (key, minutes) => control.stops(key, minutes),
    release(key) {
      if (!disposed) void control.release(key);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      control[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
