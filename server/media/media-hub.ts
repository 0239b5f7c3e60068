/**
 * Live video fan-out: one upstream per terminal channel however many viewers watch it.
 *
 * - The first viewer of a channel asks the terminal to stream (`Signalling.openLive`, JT/T 1078
 *   0x9101 over its JT/T 808 session); later viewers join what is already flowing.
 * - A new viewer starts at the latest key frame: the hub keeps the frames since the last key frame
 *   (the GOP, ≤ 1 s at the simulated terminals' GOP 25) and sends them first, so the picture appears
 *   at once instead of after up to a GOP of black. The console's pipeline decodes that burst and
 *   catches up to live.
 * - Each frame is encoded once (proto/media-frame.ts) and the same bytes go to every viewer.
 * - A viewer whose socket is backed up (> `maxViewerBufferBytes`) skips delta frames until the next
 *   key frame, so one slow operator neither grows server memory nor delays the others.
 * - The terminal is told to stop (`closeLive`, 0x9102 close) only when the last viewer leaves.
 * - No frame within `startTimeoutMs` of the request: every viewer gets "stopped: timeout" (spec §8
 *   "video real-time timeout, retry") and the channel is released.
 * - A channel takes frames from one terminal connection only: the one the media port bound to it
 *   (its first packet named this SIM and channel while the channel awaited a connection). Frames of
 *   any other connection naming the same SIM and channel are dropped, and only the bound
 *   connection closing sends the viewers back to "connecting".
 */
import { encodeMediaFrame, MEDIA_KIND, type MediaKind, type MediaStatus } from '../../proto/media-frame.ts';
import { DATA_TYPE, PAYLOAD_TYPE, type MediaFrame } from './jt1078/index.ts';
import type { FrameSink, Upstream } from './media-port.ts';

export interface ChannelTarget {
  /** The vehicle whose terminal streams (the JT/T 808 session is found by it). */
  readonly vehicleId: number;
  /** The terminal's SIM / phone number as it appears in its 1078 packets (BCD digits). */
  readonly sim: string;
  /** Logical channel (JT/T 1076 table 2), 1-based. */
  readonly channel: number;
  /** 0 main stream, 1 sub stream (what the first viewer asked for; later viewers join it). */
  readonly stream: 0 | 1;
}

/** Why a live request failed; each maps to a spec §8 video message in the console. */
export type LiveRefusal = 'deviceOffline' | 'vehicleOffline' | 'noResponse' | 'connectFailed' | 'timeout';

export interface Signalling {
  /** Asks the terminal to stream the channel here; resolves when it accepted, rejects with a LiveRefusal otherwise. */
  openLive(target: ChannelTarget): Promise<void>;
  /** Tells the terminal to stop streaming the channel. */
  closeLive(target: ChannelTarget): Promise<void>;
}

export interface Viewer {
  send(data: Uint8Array | string): void;
  readonly bufferedAmount: number;
  /** True once the viewer's socket is closing or closed (its 'close' may not have been handled yet). */
  readonly gone?: boolean;
}

export interface MediaHubOptions {
  now?: () => number;
  /** @default 10_000 (the terminal has this long to deliver the first frame) */
  startTimeoutMs?: number;
  /** @default 1 MiB ≈ 13 s of a 600 kbit/s main stream */
  maxViewerBufferBytes?: number;
  /** Frames kept since the latest key frame, at most. @default 150 (6 s at 25 fps) */
  maxGopFrames?: number;
}

export interface MediaHubStats {
  channels: number;
  viewers: number;
  framesIn: number;
  framesOut: number;
  /** Delta frames a backed-up viewer skipped. */
  skipped: number;
  /** Frames of a kind the console cannot play (e.g. AAC, transparent data): dropped. */
  unsupported: number;
  /** Frames from a connection other than the channel's bound one (a previous request's, draining): dropped. */
  staleUpstream: number;
}

interface ViewerState {
  readonly viewer: Viewer;
  needsKey: boolean;
}

interface ChannelState {
  readonly key: string;
  readonly target: ChannelTarget;
  readonly viewers: Map<Viewer, ViewerState>;
  state: 'connecting' | 'playing';
  /** The media connection bound to this channel (media-port.ts), null while awaiting one. */
  upstream: number | null;
  requestedAt: number;
  gop: Uint8Array[];
}

const VIDEO_KINDS: Record<number, MediaKind> = { [PAYLOAD_TYPE.H264]: MEDIA_KIND.H264, [PAYLOAD_TYPE.H265]: MEDIA_KIND.H265 };
const AUDIO_KINDS: Record<number, MediaKind> = { [PAYLOAD_TYPE.G711A]: MEDIA_KIND.G711A, [PAYLOAD_TYPE.G711U]: MEDIA_KIND.G711U };

/** What the console's player gets of a terminal frame (kind and key frame); undefined for a codec it cannot play. */
export function frameKind(frame: MediaFrame): { kind: MediaKind; key: boolean } | undefined {
  if (frame.kind === 'video') {
    const kind = VIDEO_KINDS[frame.payloadType];
    return kind === undefined ? undefined : { kind, key: frame.dataType === DATA_TYPE.I_FRAME };
  }
  if (frame.kind === 'audio') {
    const kind = AUDIO_KINDS[frame.payloadType];
    return kind === undefined ? undefined : { kind, key: false };
  }
  return undefined;
}

/** 2013 terminals send a 6-byte BCD SIM (12 digits), 2019 ones 10 bytes (20): compare without leading zeros. */
export function normalizeSim(sim: string): string {
  return sim.replace(/^0+(?=.)/, '');
}

export function channelKey(sim: string, channel: number): string {
  return `${normalizeSim(sim)}:${channel}`;
}

export class MediaHub implements FrameSink {
  readonly stats: MediaHubStats = { channels: 0, viewers: 0, framesIn: 0, framesOut: 0, skipped: 0, unsupported: 0, staleUpstream: 0 };
  private readonly channels = new Map<string, ChannelState>();
  private readonly now: () => number;
  private readonly startTimeoutMs: number;
  private readonly maxViewerBuffer: number;
  private readonly maxGop: number;

  constructor(private readonly signalling: Signalling, options: MediaHubOptions = {}) {
    this.now = options.now ?? Date.now;
    this.startTimeoutMs = options.startTimeoutMs ?? 10_000;
    this.maxViewerBuffer = options.maxViewerBufferBytes ?? 1 << 20;
    this.maxGop = options.maxGopFrames ?? 150;
  }

  /** The vehicle of a requested channel that no connection is bound to yet (media-port.ts binds at the first packet). */
  awaiting(sim: string, channel: number): number | undefined {
    const ch = this.channels.get(channelKey(sim, channel));
    return ch && ch.upstream === null ? ch.target.vehicleId : undefined;
  }

  bind(sim: string, channel: number, upstream: Upstream): void {
    const ch = this.channels.get(channelKey(sim, channel));
    if (ch && ch.upstream === null) ch.upstream = upstream.id;
  }

  /** Adds a viewer; answers the function that removes it. */
  addViewer(target: ChannelTarget, viewer: Viewer): () => void {
    const key = channelKey(target.sim, target.channel);
    let ch = this.channels.get(key);
    const state: ViewerState = { viewer, needsKey: false };
    if (ch) {
      ch.viewers.set(viewer, state);
      this.count();
      if (ch.state === 'playing') {
        status(viewer, { type: 'status', state: 'playing' });
        for (const bytes of ch.gop) this.deliver(state, bytes, false);
      } else status(viewer, { type: 'status', state: 'connecting' });
    } else {
      ch = { key, target, viewers: new Map([[viewer, state]]), state: 'connecting', upstream: null, requestedAt: this.now(), gop: [] };
      this.channels.set(key, ch);
      this.count();
      status(viewer, { type: 'status', state: 'connecting' });
      const requested = ch;
      this.signalling.openLive(target).catch((reason: unknown) => {
        if (this.channels.get(key) === requested) this.stop(requested, typeof reason === 'string' ? reason : 'connectFailed', false);
      });
    }
    const joined = ch;
    return () => {
      if (!joined.viewers.delete(viewer)) return;
      this.count();
      if (joined.viewers.size === 0 && this.channels.get(key) === joined) {
        this.channels.delete(key);
        this.count();
        void this.signalling.closeLive(joined.target).catch(() => undefined);
      }
    };
  }

  /** A whole frame from the media port, `arrival` when its last package arrived (epoch ms). */
  onFrame(frame: MediaFrame, arrival: number, upstream: Upstream): void {
    const ch = this.channels.get(channelKey(frame.sim, frame.channel));
    if (!ch) return;
    if (ch.upstream !== upstream.id) {
      this.stats.staleUpstream++;
      return;
    }
    this.stats.framesIn++;
    const known = frameKind(frame);
    if (known === undefined) {
      this.stats.unsupported++;
      return;
    }
    const { kind, key } = known;
    const bytes = encodeMediaFrame({ kind, key, discontinuity: frame.discontinuity, channel: frame.channel, timestamp: frame.timestamp ?? arrival, arrival, payload: frame.data });
    if (frame.kind === 'video') {
      if (key) ch.gop = [bytes];
      else if (ch.gop.length > 0 && ch.gop.length < this.maxGop && !frame.discontinuity) ch.gop.push(bytes);
      else ch.gop = [];
    }
    if (ch.state === 'connecting') {
      ch.state = 'playing';
      for (const v of ch.viewers.values()) status(v.viewer, { type: 'status', state: 'playing' });
    }
    for (const v of ch.viewers.values()) this.deliver(v, bytes, frame.kind === 'video' && !key);
  }

  /** Times out channels that never delivered a frame; call every second or so. */
  sweep(): void {
    const now = this.now();
    for (const ch of [...this.channels.values()]) {
      if (ch.state === 'connecting' && now - ch.requestedAt > this.startTimeoutMs) this.stop(ch, 'timeout', true);
    }
  }

  /**
   * The channel's bound media connection closed: the channel awaits a connection again (the terminal
   * may reconnect) until the timeout. Another connection closing, even one naming this SIM, changes nothing.
   */
  upstreamClosed(sim: string, channel: number, upstream: Upstream): void {
    const ch = this.channels.get(channelKey(sim, channel));
    if (!ch || ch.upstream !== upstream.id) return;
    ch.upstream = null;
    if (ch.state !== 'playing') return;
    ch.state = 'connecting';
    ch.requestedAt = this.now();
    ch.gop = [];
    for (const v of ch.viewers.values()) {
      v.needsKey = true;
      status(v.viewer, { type: 'status', state: 'connecting' });
    }
  }

  private deliver(v: ViewerState, bytes: Uint8Array, delta: boolean): void {
    if (delta && (v.needsKey || v.viewer.bufferedAmount > this.maxViewerBuffer)) {
      v.needsKey = true;
      this.stats.skipped++;
      return;
    }
    if (!delta) v.needsKey = false;
    v.viewer.send(bytes);
    this.stats.framesOut++;
  }

  private stop(ch: ChannelState, reason: string, tellTerminal: boolean): void {
    this.channels.delete(ch.key);
    for (const v of ch.viewers.values()) status(v.viewer, { type: 'status', state: 'stopped', reason });
    ch.viewers.clear();
    this.count();
    if (tellTerminal) void this.signalling.closeLive(ch.target).catch(() => undefined);
  }

  private count(): void {
    this.stats.channels = this.channels.size;
    let viewers = 0;
    for (const ch of this.channels.values()) viewers += ch.viewers.size;
    this.stats.viewers = viewers;
  }
}

function status(viewer: Viewer, s: MediaStatus): void {
  viewer.send(JSON.stringify(s));
}
