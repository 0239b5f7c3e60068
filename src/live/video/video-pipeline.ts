/**
 * One video channel's decode policy over WebCodecs, without the Worker or the DOM (the decoder, the
 * chunk constructor, the painter and the clock are injected, so unit tests drive it with fakes).
 *
 * Latency over completeness, as an operator watching a cabin wants:
 * - Decoding starts at a key frame (the media server sends the latest one first: no black screen
 *   while waiting), and restarts at the next key frame after a discontinuity or a decoder error.
 * - Behind by a little (policy 'skip-paint', the default): every frame is still decoded (a P-frame
 *   needs its references, and decoding is the cheaper half: bench/video/PROFILE.md), but a decoded
 *   frame more than `maxLagMs` late with a newer one already in the decoder is closed unpainted —
 *   painting (the canvas copy and its raster) is what a busy machine cannot afford, and the newer
 *   picture is on its way.
 * - Behind by a lot: when the decoder already holds `maxQueue` frames, or a delta frame arrives more
 *   than `catchUpMs` later than the channel's best transit, it is dropped and the channel waits for
 *   the next key frame (key-frame catch-up); a key frame behind a backlog resets the decoder and goes
 *   first. Transit is judged against its own recent minimum, so a clock offset cancels out.
 * - Policy 'drop-gop' (the earlier default, kept for the benchmark's comparison) drops to the next key
 *   frame already at `maxLagMs` or 2 queued frames: on a loaded machine one late frame cost the rest
 *   of the GOP (a second of video at the terminals' 25-frame GOP).
 * - Each decoded frame is closed at once after its paint (VideoFrames hold decoder memory).
 */
import { describeAvc, describeHevc } from '../../../proto/h264.ts';
import { MEDIA_KIND, type MediaFrame } from '../../../proto/media-frame.ts';

/** The parts of a WebCodecs VideoFrame this pipeline uses. */
export interface DecodedFrame {
  readonly timestamp: number;
  readonly displayWidth: number;
  readonly displayHeight: number;
  close(): void;
}

/** The parts of a WebCodecs VideoDecoder this pipeline uses. */
export interface DecoderLike {
  readonly state: 'unconfigured' | 'configured' | 'closed';
  readonly decodeQueueSize: number;
  configure(config: { codec: string; optimizeForLatency: boolean; codedWidth?: number; codedHeight?: number }): void;
  decode(chunk: unknown): void;
  reset(): void;
  close(): void;
}

export interface VideoPipelineDeps {
  createDecoder(output: (frame: DecodedFrame) => void, error: (e: Error) => void): DecoderLike;
  /** `new EncodedVideoChunk(init)` in a browser. */
  createChunk(init: { type: 'key' | 'delta'; timestamp: number; data: Uint8Array }): unknown;
  /** Draws the frame; the pipeline closes it afterwards. */
  paint(frame: DecodedFrame): void;
  /** Epoch milliseconds (the media frame's `arrival` clock). */
  now(): number;
  /** Heard after each paint with the painted frame's arrival stamp (benchmarks time the display from it). */
  painted?(arrival: number): void;
}

export type LatePolicy = 'skip-paint' | 'drop-gop';

export interface VideoPipelineOptions {
  /** @default 'skip-paint' */
  policy?: LatePolicy;
  /** Frames the decoder may hold before a delta frame is dropped (key-frame catch-up). */
  maxQueue?: number;
  /** Lateness beyond the best recent transit at which a frame is not worth painting (skip-paint) or decoding (drop-gop). */
  maxLagMs?: number;
  /** skip-paint: lateness at which delta frames are dropped until the next key frame. */
  catchUpMs?: number;
}

export interface VideoStats {
  received: number;
  decoded: number;
  painted: number;
  /** Delta frames dropped because the decoder was behind or they arrived late. */
  droppedLate: number;
  /** Frames decoded but closed unpainted: late, with a newer frame already in the decoder. */
  skippedPaint: number;
  /** Frames skipped while waiting for a key frame (start, loss, error). */
  droppedWaiting: number;
  errors: number;
  codec: string;
  width: number;
  height: number;
}

/** Frames the decoder may hold before a delta frame is dropped: 8 × 40 ms at 25 fps (drop-gop: 2). */
export const DEFAULT_MAX_QUEUE = 8;
const DROP_GOP_MAX_QUEUE = 2;
/** Arrival times kept to pair decoded frames with their arrival (≈ 2 s at 25 fps). */
const ARRIVALS = 64;
/** Lateness beyond the best recent transit that makes a frame not worth painting: 5 frames at 25 fps. */
export const DEFAULT_MAX_LAG_MS = 200;
/** Lateness at which the channel jumps to the next key frame: 1 s, the <video> baseline's live-edge seek is 0.5 s. */
export const DEFAULT_CATCH_UP_MS = 1000;
/** Frames per transit-minimum bucket (5 s at 25 fps); the minimum is over the last two buckets. */
const TRANSIT_BUCKET = 125;

export class VideoPipeline {
  readonly stats: VideoStats = { received: 0, decoded: 0, painted: 0, droppedLate: 0, skippedPaint: 0, droppedWaiting: 0, errors: 0, codec: '', width: 0, height: 0 };
  /** Arrival → paint in ms of painted frames since the last `takeLatencies()`. */
  private latencies: number[] = [];
  private decoder: DecoderLike | null = null;
  private waitingKey = true;
  private readonly arrivalTs = new Float64Array(ARRIVALS).fill(Number.NaN);
  private readonly arrivalAt = new Float64Array(ARRIVALS);
  private arrivalNext = 0;
  private transitMin = Infinity;
  private transitPrevMin = Infinity;
  private transitCount = 0;

  private readonly policy: LatePolicy;
  private readonly maxQueue: number;
  private readonly maxLagMs: number;
  private readonly catchUpMs: number;

  constructor(
    private readonly deps: VideoPipelineDeps,
    options: VideoPipelineOptions = {},
  ) {
    this.policy = options.policy ?? 'skip-paint';
    this.maxQueue = options.maxQueue ?? (this.policy === 'drop-gop' ? DROP_GOP_MAX_QUEUE : DEFAULT_MAX_QUEUE);
    this.maxLagMs = options.maxLagMs ?? DEFAULT_MAX_LAG_MS;
    this.catchUpMs = options.catchUpMs ?? (this.policy === 'drop-gop' ? this.maxLagMs : DEFAULT_CATCH_UP_MS);
  }

  push(frame: MediaFrame): void {
    if (frame.kind !== MEDIA_KIND.H264 && frame.kind !== MEDIA_KIND.H265) return;
    this.stats.received++;
    if (frame.discontinuity) this.waitingKey = true;
    const lag = this.lagOf(frame.arrival);
    if (!frame.key) {
      if (this.waitingKey || !this.decoder) {
        this.stats.droppedWaiting++;
        return;
      }
      if (this.decoder.decodeQueueSize >= this.maxQueue || lag > this.catchUpMs) {
        this.stats.droppedLate++;
        this.waitingKey = true;
        return;
      }
    } else if (!this.prepareForKey(frame)) {
      this.stats.droppedWaiting++;
      return;
    }
    this.waitingKey = false;
    const slot = this.arrivalNext;
    this.arrivalNext = (slot + 1) % ARRIVALS;
    this.arrivalTs[slot] = frame.timestamp;
    this.arrivalAt[slot] = frame.arrival;
    // WebCodecs timestamps are microseconds; the terminal's are milliseconds.
    this.decoder!.decode(this.deps.createChunk({ type: frame.key ? 'key' : 'delta', timestamp: frame.timestamp * 1000, data: frame.payload }));
  }

  /** How much later than the best recent transit this frame arrived (ms). */
  private lagOf(arrival: number): number {
    const transit = this.deps.now() - arrival;
    if (++this.transitCount >= TRANSIT_BUCKET) {
      this.transitPrevMin = this.transitMin;
      this.transitMin = Infinity;
      this.transitCount = 0;
    }
    if (transit < this.transitMin) this.transitMin = transit;
    return transit - Math.min(this.transitMin, this.transitPrevMin);
  }

  /** Latencies (ms) of the frames painted since the previous call. */
  takeLatencies(): number[] {
    const out = this.latencies;
    this.latencies = [];
    return out;
  }

  close(): void {
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = null;
  }

  /** (Re)configures for a key frame's parameter sets; false when they cannot be read. */
  private prepareForKey(frame: MediaFrame): boolean {
    const info = frame.kind === MEDIA_KIND.H264 ? describeAvc(frame.payload) : describeHevc(frame.payload);
    if (!info) {
      if (!this.decoder || this.decoder.state !== 'configured') return false;
    } else if (!this.decoder || this.decoder.state !== 'configured' || info.codec !== this.stats.codec || info.width !== this.stats.width || info.height !== this.stats.height) {
      this.configure(info.codec, info.width, info.height);
      return true;
    }
    // A key frame behind a backlog: drop the backlog, the key frame starts clean.
    if (this.decoder.decodeQueueSize >= this.maxQueue) {
      this.stats.droppedLate += this.decoder.decodeQueueSize;
      this.decoder.reset();
      this.decoder.configure({ codec: this.stats.codec, optimizeForLatency: true, codedWidth: this.stats.width, codedHeight: this.stats.height });
    }
    return true;
  }

  private configure(codec: string, width: number, height: number): void {
    if (!this.decoder || this.decoder.state === 'closed') {
      this.decoder = this.deps.createDecoder(
        (f) => this.onFrame(f),
        () => {
          this.stats.errors++;
          // A closed decoder is replaced at the next key frame.
          this.waitingKey = true;
        },
      );
    } else {
      this.decoder.reset();
    }
    this.decoder.configure({ codec, optimizeForLatency: true, codedWidth: width, codedHeight: height });
    this.stats.codec = codec;
    this.stats.width = width;
    this.stats.height = height;
  }

  private onFrame(frame: DecodedFrame): void {
    this.stats.decoded++;
    try {
      const ts = frame.timestamp / 1000;
      if (this.policy === 'skip-paint' && (this.decoder?.decodeQueueSize ?? 0) > 0) {
        const slot = this.arrivalTs.indexOf(ts);
        const lag = slot < 0 ? 0 : this.deps.now() - this.arrivalAt[slot]! - Math.min(this.transitMin, this.transitPrevMin);
        if (lag > this.maxLagMs) {
          this.stats.skippedPaint++;
          if (slot >= 0) this.arrivalTs[slot] = Number.NaN;
          return;
        }
      }
      this.deps.paint(frame);
      this.stats.painted++;
      for (let i = 0; i < ARRIVALS; i++) {
        if (this.arrivalTs[i] === ts) {
          this.latencies.push(this.deps.now() - this.arrivalAt[i]!);
          this.deps.painted?.(this.arrivalAt[i]!);
          this.arrivalTs[i] = Number.NaN;
          break;
        }
      }
    } finally {
      frame.close();
    }
  }
}
