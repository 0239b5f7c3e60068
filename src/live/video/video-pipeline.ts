/**
 * One video channel's decode policy over WebCodecs, without the Worker or the DOM (the decoder, the
 * chunk constructor, the painter and the clock are injected, so unit tests drive it with fakes).
 *
 * Latency over completeness, as an operator watching a cabin wants:
 * - Decoding starts at a key frame (the media server sends the latest one first: no black screen
 *   while waiting), and restarts at the next key frame after a discontinuity or a decoder error.
 * - A frame is never queued behind a backlog: when the decoder already holds `maxQueue` frames, a
 *   delta frame is dropped and the channel waits for the next key frame (a P-frame without its
 *   reference would paint garbage); a key frame resets the decoder and goes first.
 * - A delta frame that arrives more than `maxLagMs` later than the channel's best transit (a worker
 *   that was busy, a burst after a network stall) is dropped too: painting a backlog fast-forwards
 *   old pictures. Transit is judged against its own recent minimum, so a clock offset between the
 *   server and this machine cancels out.
 * - Each decoded frame is painted at once and closed (VideoFrames hold decoder memory).
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

export interface VideoStats {
  received: number;
  decoded: number;
  painted: number;
  /** Delta frames dropped because the decoder was behind or they arrived late. */
  droppedLate: number;
  /** Frames skipped while waiting for a key frame (start, loss, error). */
  droppedWaiting: number;
  errors: number;
  codec: string;
  width: number;
  height: number;
}

/** Frames the decoder may hold before a delta frame is dropped: 2 × 40 ms at 25 fps. */
export const DEFAULT_MAX_QUEUE = 2;
/** Arrival times kept to pair decoded frames with their arrival (≈ 2 s at 25 fps). */
const ARRIVALS = 64;
/** Lateness beyond the best recent transit that drops a delta frame: 5 frames at 25 fps. */
export const DEFAULT_MAX_LAG_MS = 200;
/** Frames per transit-minimum bucket (5 s at 25 fps); the minimum is over the last two buckets. */
const TRANSIT_BUCKET = 125;

export class VideoPipeline {
  readonly stats: VideoStats = { received: 0, decoded: 0, painted: 0, droppedLate: 0, droppedWaiting: 0, errors: 0, codec: '', width: 0, height: 0 };
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

  constructor(
    private readonly deps: VideoPipelineDeps,
    private readonly maxQueue = DEFAULT_MAX_QUEUE,
    private readonly maxLagMs = DEFAULT_MAX_LAG_MS,
  ) {}

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
      if (this.decoder.decodeQueueSize >= this.maxQueue || lag > this.maxLagMs) {
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
      this.deps.paint(frame);
      this.stats.painted++;
      const ts = frame.timestamp / 1000;
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
