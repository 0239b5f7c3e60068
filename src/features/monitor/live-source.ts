/**
 * What the monitor page needs from the live stream (LIVE.md "Contract L3 → L4"): the subset of
 * src/live/stream/client.ts's LiveStream the page uses, so the page, its tests and the console
 * benchmark can drive it with the real stream or with synthetic frames.
 */
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';

export type { Connection, DirectoryEntry, LiveCounts, LiveFrame, LiveMessage, LiveStats, LiveStatus } from '../../live/stream/protocol.ts';
import type { DirectoryEntry, LiveFrame, LiveMessage } from '../../live/stream/protocol.ts';

export interface LiveSource {
  subscribe(listener: (msg: LiveMessage) => void): () => void;
  /** Hands a frame's buffers back to the worker (double buffering). */
  release(frame: LiveFrame): void;
  setDisplayCrs(crs: DisplayCrs): void;
  setSelection?(vehicleIds: readonly number[]): void;
  /** Plates etc. of a few vehicles (visible list rows), never the whole fleet. */
  directory(ids: readonly number[]): Promise<DirectoryEntry[]>;
  dispose(): void;
}
