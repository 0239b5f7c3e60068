/**
 * What a video worker does, as a plain class (workers/video.worker.ts only builds it): media frames
 * from the socket or the main thread → VideoPipeline (WebCodecs) → the tile's OffscreenCanvas; G.711
 * → PCM for the main thread's audio when the tile's sound is on; stats once a second.
 */
import { decodeMediaFrame, MEDIA_KIND, MediaFrameError, type MediaStatus } from '../../../proto/media-frame.ts';
import { ReconnectingSocket, type SocketLike } from '../stream/socket.ts';
import { decodeG711 } from './g711.ts';
import type { VideoWorkerIn, VideoWorkerOut } from './protocol.ts';
import { VideoPipeline, type LatePolicy, type VideoPipelineDeps } from './video-pipeline.ts';

export interface VideoWorkerDeps {
  post(msg: VideoWorkerOut, transfer?: Transferable[]): void;
  createSocket(url: string): SocketLike;
  /** WebCodecs pieces (fakes in tests). */
  codecs: Pick<VideoPipelineDeps, 'createDecoder' | 'createChunk'>;
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Reconnect a live channel 3 times, 2 s apart, before reporting it stopped (the tile offers a retry). */
const VIDEO_RECONNECT = { attempts: 3, delayMs: 2000 };

export class VideoWorkerCore {
  private canvas: OffscreenCanvas | null = null;
  private ctx: OffscreenCanvasRenderingContext2D | null = null;
  private socket: ReconnectingSocket | null = null;
  private audioOn = false;
  /** The server ended the session (with its reason): no reconnect, and later socket events say nothing. */
  private ended = false;
  private malformed = 0;
  private reportPaints = false;
  private pipeline: VideoPipeline;
  private readonly statsTimer: unknown;

  constructor(private readonly deps: VideoWorkerDeps) {
    this.pipeline = this.newPipeline();
    this.statsTimer = deps.setInterval(() => this.postStats(), 1000);
  }

  private newPipeline(policy?: LatePolicy): VideoPipeline {
    const deps = this.deps;
    return new VideoPipeline({ ...deps.codecs, now: deps.now, paint: (f) => this.paint(f as unknown as VideoFrame), painted: (arrival) => this.onPainted(arrival) }, { policy });
  }

  handle(msg: VideoWorkerIn): void {
    switch (msg.type) {
      case 'init':
        this.canvas = msg.canvas;
        this.reportPaints = msg.reportPaints === true;
        if (msg.policy) {
          this.pipeline.close();
          this.pipeline = this.newPipeline(msg.policy);
        }
        this.ctx = msg.canvas.getContext('2d', { alpha: false, desynchronized: true });
        break;
      case 'connect':
        this.socket?.dispose();
        this.ended = false;
        this.socket = new ReconnectingSocket(() => msg.url, this.deps.createSocket, {
          status: (connection, attempt) => {
            if (this.ended) return;
            if (connection === 'reconnecting') this.deps.post({ type: 'status', status: { type: 'status', state: 'reconnecting', attempt } });
            else if (connection === 'closed') this.deps.post({ type: 'status', status: { type: 'status', state: 'stopped', reason: 'connectFailed' } });
          },
          open: () => undefined,
          message: (data) => (typeof data === 'string' ? this.onText(data) : this.onFrame(new Uint8Array(data))),
        }, VIDEO_RECONNECT);
        this.socket.start();
        break;
      case 'frame':
        this.onFrame(new Uint8Array(msg.bytes));
        break;
      case 'audio':
        this.audioOn = msg.on;
        break;
      case 'snapshot':
        void this.snapshot(msg.seq);
        break;
      case 'close':
        this.close();
        break;
    }
  }

  close(): void {
    this.socket?.dispose();
    this.socket = null;
    this.pipeline.close();
    this.deps.clearInterval(this.statsTimer);
  }

  private onText(text: string): void {
    try {
      const status = JSON.parse(text) as MediaStatus;
      if (status.type !== 'status') return;
      this.deps.post({ type: 'status', status });
      if (status.state === 'stopped') {
        // A refusal (not online, daily limit …) or a timeout: reconnecting would only repeat it.
        this.ended = true;
        this.socket?.dispose();
        this.socket = null;
      }
    } catch {
      this.malformed++;
    }
  }

  private onFrame(bytes: Uint8Array): void {
    let frame;
    try {
      frame = decodeMediaFrame(bytes);
    } catch (e) {
      // A bad frame costs only itself; the pipeline waits for the next key frame if it was video.
      if (e instanceof MediaFrameError) this.malformed++;
      else throw e;
      return;
    }
    if (frame.kind === MEDIA_KIND.G711A || frame.kind === MEDIA_KIND.G711U) {
      if (!this.audioOn) return;
      const pcm = decodeG711(frame.payload, frame.kind === MEDIA_KIND.G711A ? 'alaw' : 'ulaw');
      this.deps.post({ type: 'pcm', samples: pcm, sampleRate: 8000 }, [pcm.buffer]);
      return;
    }
    this.pipeline.push(frame);
  }

  private paint(frame: VideoFrame): void {
    const canvas = this.canvas;
    const ctx = this.ctx;
    if (!canvas || !ctx) return;
    if (canvas.width !== frame.displayWidth || canvas.height !== frame.displayHeight) {
      canvas.width = frame.displayWidth;
      canvas.height = frame.displayHeight;
    }
    ctx.drawImage(frame, 0, 0);
  }

  /** Benchmarks: each drawn picture's arrival stamp and when it was drawn (it reaches the compositor when this task ends). */
  private onPainted(arrival: number): void {
    if (this.reportPaints) this.deps.post({ type: 'painted', arrival, drawnAt: this.deps.now() });
  }

  private async snapshot(seq: number): Promise<void> {
    const blob = this.canvas && this.canvas.width > 0 ? await this.canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 }) : null;
    this.deps.post({ type: 'snapshot', seq, blob });
  }

  private postStats(): void {
    const latencies = Float64Array.from(this.pipeline.takeLatencies());
    this.deps.post({ type: 'stats', stats: { ...this.pipeline.stats, errors: this.pipeline.stats.errors + this.malformed }, latencies, at: this.deps.now() }, [latencies.buffer]);
  }
}
