/**
 * The monitor page's live source: a handle on the session's shared stream worker
 * (src/live/stream/session-stream.ts), so the page and the global alarm pop-up share one socket.
 */
import { acquireLiveStream } from '../../live/stream/session-stream.ts';
import { mapSourceStore } from '../map/map-source-store.ts';
import { displayCrsOf } from '../map/map-sources.ts';
import type { LiveSource } from './live-source.ts';

export function openLiveSource(): LiveSource {
  const source = acquireLiveStream({ crs: displayCrsOf(mapSourceStore.get()) });
  // The stream may have started elsewhere with another display CRS.
  source.setDisplayCrs(displayCrsOf(mapSourceStore.get()));
  return source;
}
