/**
 * Track worker entry: hosts a TrackCore (src/live/track/track-core.ts) behind Comlink. Control calls are few (load, a path per zoom bucket, stops per filter
 * change), so Comlink's ≈ 80 µs per call does not matter; answers with columns are wrapped in
 * `Comlink.transfer` so their buffers move to the main thread instead of being copied.
 */
import * as Comlink from 'comlink';
import { decodeTrack } from '../proto/track-codec.ts';
import type { TrackControl } from '../src/live/track/protocol.ts';
import { TrackCore, transferablesOf } from '../src/live/track/track-core.ts';

const core = new TrackCore({ fetch: (url, init) => fetch(url, init), decode: decodeTrack });

const control: TrackControl = {
  async load(req) {
    const answer = await core.load(req);
    return Comlink.transfer(answer, transferablesOf(answer));
  },
  path(key, bucket) {
    const p = core.path(key, bucket);
    return p ? Comlink.transfer(p, transferablesOf(p)) : null;
  },
  stops: (key, minutes) => core.stops(key, minutes),
  release: (key) => core.release(key),
};

// No raw data messages share this worker's port (unlike the stream worker), so Comlink takes it whole.
Comlink.expose(control);
