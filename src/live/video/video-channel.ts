/**
 * Main-thread handle of one video tile. With WebCodecs (Chromium, Edge, Safari 16.4+, Firefox 130+)
 * the canvas is transferred to a video worker that owns the socket and decodes; without it, jmuxer
 * remuxes the same frames into fragmented MP4 for a <video> element over MSE on the main thread.
 */
import JMuxer from 'jmuxer';
import { decodeMediaFrame, MEDIA_KIND, MediaFrameError, type MediaStatus } from '../../../proto/media-frame.ts';
import { ReconnectingSocket, type SocketLike } from '../stream/socket.ts';
import { AudioOutput } from './audio-output.ts';
import { decodeG711 } from './g711.ts';
import type { VideoWorkerIn, VideoWorkerOut } from './protocol.ts';
import type { LatePolicy, VideoStats } from './video-pipeline.ts';

export interface VideoChannelEvents {
  status?(status: MediaStatus | { type: 'status'; state: 'reconnecting'; attempt: number }): void;
  /** About once a second (WebCodecs path): counters and the latencies of frames painted since. */
  stats?(stats: VideoStats, latencies: Float64Array, at: number): void;
  /**
   * Benchmarks (WebCodecs path): each picture the worker drew, its arrival stamp and when it was drawn
   * (epoch ms), heard when the message lands here. One message per frame: tiles do not ask.
   */
  painted?(arrival: number, drawnAt: number): void;
}

export interface VideoChannel {
  readonly decoder: 'webcodecs' | 'mse';
  connect(url: string): void;
  /** One media frame (proto/media-frame.ts); the buffer is transferred and must not be reused. */
  feed(bytes: Uint8Array): void;
  setAudio(on: boolean): void;
  snapshot(): Promise<Blob | null>;
  dispose(): void;
}

export function supportsWebCodecs(): boolean {
  return typeof globalThis.VideoDecoder === 'function' && typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function';
}

/** `options.policy` (benchmarks): the worker's late-frame policy (video-pipeline.ts). */
export function openWebCodecsChannel(canvas: HTMLCanvasElement, events: VideoChannelEvents = {}, options: { policy?: LatePolicy } = {}): VideoChannel {
  const worker = new Worker(new URL('../../../workers/video.worker.ts', import.meta.url), { type: 'module', name: 'video' });
  const post = (msg: VideoWorkerIn, transfer: Transferable[] = []) => worker.postMessage(msg, transfer);
  const offscreen = canvas.transferControlToOffscreen();
  post({ type: 'init', canvas: offscreen, reportPaints: events.painted !== undefined, policy: options.policy }, [offscreen]);
  const audio = new AudioOutput();
  const snapshots = new Map<number, (b: Blob | null) => void>();
  let seq = 0;
  worker.onmessage = (e: MessageEvent<VideoWorkerOut>) => {
    const msg = e.data;
    if (msg.type === 'status') events.status?.(msg.status);
    else if (msg.type === 'stats') events.stats?.(msg.stats, msg.latencies, msg.at);
    else if (msg.type === 'painted') events.painted?.(msg.arrival, msg.drawnAt);
    else if (msg.type === 'pcm') audio.play(msg.samples, msg.sampleRate);
    else if (msg.type === 'snapshot') {
      snapshots.get(msg.seq)?.(msg.blob);
      snapshots.delete(msg.seq);
    }
  };
  return {
    decoder: 'webcodecs',
    connect: (url) => post({ type: 'connect', url }),
    feed: (bytes) => {
      const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
      post({ type: 'frame', bytes: buffer }, [buffer]);
    },
    setAudio: (on) => {
      post({ type: 'audio', on });
      if (!on) audio.close();
    },
    snapshot: () => new Promise((resolve) => {
      const s = ++seq;
      snapshots.set(s, resolve);
      post({ type: 'snapshot', seq: s });
    }),
    dispose: () => {
      // Detach first: the worker's goodbye (its socket closing) is not news for a tile that is gone.
      worker.onmessage = null;
      post({ type: 'close' });
      audio.close();
      for (const resolve of snapshots.values()) resolve(null);
      snapshots.clear();
    },
  };
}

/** 25 fps: the duration jmuxer stamps on each frame (terminals send 25 fps; the timestamps say so too). */
const FRAME_MS = 40;

/** `onFed` (benchmarks) hears the arrival stamp of every video frame handed to jmuxer, in order. */
export function openMseChannel(video: HTMLVideoElement, events: VideoChannelEvents = {}, onFed?: (arrival: number) => void): VideoChannel {
  const muxer = new JMuxer({ node: video, mode: 'video', flushingTime: 0, clearBuffer: true, fps: 1000 / FRAME_MS, debug: false });
  const audio = new AudioOutput();
  let audioOn = false;
  let waitingKey = true;
  let socket: ReconnectingSocket | null = null;
  /** The server ended the session with its reason: no reconnect, later socket events say nothing. */
  let ended = false;
  const onFrame = (bytes: Uint8Array) => {
    let frame;
    try {
      frame = decodeMediaFrame(bytes);
    } catch (e) {
      if (e instanceof MediaFrameError) return;
      throw e;
    }
    if (frame.kind === MEDIA_KIND.G711A || frame.kind === MEDIA_KIND.G711U) {
      if (audioOn) audio.play(decodeG711(frame.payload, frame.kind === MEDIA_KIND.G711A ? 'alaw' : 'ulaw'), 8000);
      return;
    }
    // jmuxer muxes H.264 only; H.265 needs WebCodecs.
    if (frame.kind !== MEDIA_KIND.H264) return;
    if (frame.discontinuity) waitingKey = true;
    if (waitingKey && !frame.key) return;
    waitingKey = false;
    muxer.feed({ video: frame.payload, duration: FRAME_MS });
    onFed?.(frame.arrival);
    // Live: stay at the edge of what is buffered instead of drifting behind.
    const b = video.buffered;
    if (b.length > 0 && b.end(b.length - 1) - video.currentTime > 0.5) video.currentTime = b.end(b.length - 1) - 0.05;
  };
  return {
    decoder: 'mse',
    connect(url) {
      socket?.dispose();
      ended = false;
      socket = new ReconnectingSocket(() => url, (u) => new WebSocket(u) as unknown as SocketLike, {
        status: (connection, attempt) => {
          if (ended) return;
          if (connection === 'reconnecting') events.status?.({ type: 'status', state: 'reconnecting', attempt });
          else if (connection === 'closed') events.status?.({ type: 'status', state: 'stopped', reason: 'connectFailed' });
        },
        open: () => undefined,
        message: (data) => {
          if (typeof data === 'string') {
            let status: MediaStatus;
            try {
              status = JSON.parse(data) as MediaStatus;
            } catch {
              return; // a malformed status line costs only itself
            }
            events.status?.(status);
            if (status.state === 'stopped') {
              ended = true;
              socket?.dispose();
              socket = null;
            }
          } else onFrame(new Uint8Array(data));
        },
      }, { attempts: 3, delayMs: 2000 });
      socket.start();
    },
    feed: onFrame,
    setAudio(on) {
      audioOn = on;
      if (!on) audio.close();
    },
    async snapshot() {
      if (video.videoWidth === 0) return null;
      const canvas = new OffscreenCanvas(video.videoWidth, video.videoHeight);
      canvas.getContext('2d')?.drawImage(video, 0, 0);
      return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
    },
    dispose() {
      socket?.dispose();
      socket = null;
      muxer.destroy();
      audio.close();
    },
  };
}
