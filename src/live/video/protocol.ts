/**
 * Messages between a video tile (main thread) and its video worker. Media arrives in the worker over
 * its own websocket (or, for recordings and benchmarks, fed from the main thread as transferred
 * buffers); only status, stats, audio PCM and snapshots come back.
 */
import type { MediaStatus } from '../../../proto/media-frame.ts';
import type { LatePolicy, VideoStats } from './video-pipeline.ts';

export type VideoWorkerIn =
  /** `reportPaints` (benchmarks): post a `painted` message per painted frame; `policy` (benchmarks): the late-frame policy, default skip-paint. */
  | { type: 'init'; canvas: OffscreenCanvas; reportPaints?: boolean; policy?: LatePolicy }
  /** Open the channel's media websocket (the worker reconnects on its own). */
  | { type: 'connect'; url: string }
  /** One encoded media frame (proto/media-frame.ts bytes), transferred. */
  | { type: 'frame'; bytes: ArrayBuffer }
  /** Sound on or off for this tile: when on, G.711 frames come back as PCM. */
  | { type: 'audio'; on: boolean }
  | { type: 'snapshot'; seq: number }
  | { type: 'close' };

export type VideoWorkerOut =
  | { type: 'status'; status: MediaStatus | { type: 'status'; state: 'reconnecting'; attempt: number } }
  /** About once a second: counters, the arrival → paint latencies (ms) of the frames painted since the last one, and when (epoch ms). */
  | { type: 'stats'; stats: VideoStats; latencies: Float64Array; at: number }
  /** Only when asked at init: a picture was drawn on the canvas (`drawnAt`, epoch ms); `arrival` is its media-server stamp. */
  | { type: 'painted'; arrival: number; drawnAt: number }
  | { type: 'pcm'; samples: Float32Array; sampleRate: number }
  | { type: 'snapshot'; seq: number; blob: Blob | null }
  | { type: 'error'; message: string };
