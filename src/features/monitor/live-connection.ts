/** The monitor page's live source: the stream worker of src/live/stream (one per page visit). */
import { createLiveStream } from '../../live/stream/client.ts';
import { mapSourceStore } from '../map/map-source-store.ts';
import { displayCrsOf } from '../map/map-sources.ts';
import type { LiveSource } from './live-source.ts';

export function openLiveSource(): LiveSource {
  return createLiveStream({ crs: displayCrsOf(mapSourceStore.get()) });
}
