/**
 * Frame reassembly: joins first / middle / last sub-packages into whole H.264/H.265 access units,
 * audio frames or transparent-data blocks, one stream per SIM + logical channel + kind (video,
 * audio, data). Packets of a frame must arrive in order with consecutive serials (TCP delivers
 * them so); a serial gap, a missing first package or a change of data type / timestamp inside a
 * frame drops the incomplete frame, counts it, and flags the next frame of that stream as a
 * discontinuity so a viewer can wait for the next key frame.
 *
 * Serials: some terminals keep one counter per channel (audio and video interleaved), others one
 * per stream. Each channel learns which from the packets around a switch of kind (audio after
 * video...): the serial follows the channel's previous packet, or the stream's. Until it knows, a
 * packet is in sequence when it follows either. With a channel counter a gap cannot be pinned on
 * one stream, so every stream of the channel drops its incomplete frame and is flagged.
 *
 * Memory is bounded by a per-frame cap, a cap on buffered bytes across streams and a stream count.
 */
import { DATA_TYPE, SUBPACKAGE, streamKind, type DataType, type Jt1078Packet, type StreamKind } from './packet.ts';

export interface AssemblerOptions {
  /** Largest frame kept; a bigger one is dropped (counted `tooLarge`). @default 4 MiB */
  maxFrameBytes?: number;
  /** Bytes of incomplete frames held across all streams. @default 32 MiB */
  maxBytes?: number;
  /** Streams tracked at once; the least recently active is forgotten beyond it. @default 4096 */
  maxStreams?: number;
  /** `sweep()` forgets streams idle this long (their incomplete frame counts as expired). @default 30_000 */
  timeoutMs?: number;
  /** Check packet serials for gaps. Turn off for terminals whose serials are not sequential. @default true */
  checkSerial?: boolean;
}

export interface AssemblerStats {
  /** Whole frames returned. */
  frames: number;
  /** Incomplete frames dropped, for any of the reasons below. */
  dropped: number;
  /** Serial gaps seen (each may or may not have cut a frame). */
  gaps: number;
  /** Middle or last packages with no first package (their frame is dropped once). */
  orphans: number;
  /** A new first / atomic package arrived while a frame was incomplete. */
  interrupted: number;
  /** A package whose data type or timestamp differs from its frame's first package. */
  mismatched: number;
  tooLarge: number;
  expired: number;
  /** Dropped to stay within maxBytes / maxStreams. */
  evicted: number;
  /** Repeated serials (retransmissions), ignored. */
  duplicates: number;
}

export interface MediaFrame {
  sim: string;
  channel: number;
  kind: StreamKind;
  dataType: DataType;
  payloadType: number;
  timestamp: number | undefined;
  lastIFrameInterval: number | undefined;
  lastFrameInterval: number | undefined;
  /** The whole access unit / audio frame (a packet's body as is for atomic packets). */
  data: Uint8Array;
  /** Serial of the frame's first package. */
  serial: number;
  packets: number;
  /**
   * Something was lost on this stream since the previous frame returned: for video, decoding
   * should resume at the next I-frame.
   */
  discontinuity: boolean;
}

/** How a channel's terminal numbers packets, learnt from evidence at each switch of kind. */
interface Channel {
  key: string;
  lastSerial: number;
  lastKind: StreamKind | undefined;
  /** Switches where the serial followed the channel's previous packet but not the stream's. */
  channelVotes: number;
  /** Switches where it followed the stream's previous packet but not the channel's. */
  streamVotes: number;
  streams: Stream[];
}

interface Stream {
  key: string;
  channel: Channel;
  lastSerial: number;
  lastSeen: number;
  /** Set after a loss; cleared by the next returned frame. */
  discontinuity: boolean;
  /** Ignore middle/last packages until the next first/atomic (the frame is already counted). */
  discarding: boolean;
  first: Jt1078Packet | undefined;
  parts: Uint8Array[];
  bytes: number;
}

export class FrameAssembler {
  readonly stats: AssemblerStats = {
    frames: 0,
    dropped: 0,
    gaps: 0,
    orphans: 0,
    interrupted: 0,
    mismatched: 0,
    tooLarge: 0,
    expired: 0,
    evicted: 0,
    duplicates: 0,
  };
  private readonly maxFrameBytes: number;
  private readonly maxBytes: number;
  private readonly maxStreams: number;
  private readonly timeoutMs: number;
  private readonly checkSerial: boolean;
  private readonly streams = new Map<string, Stream>();
  private readonly channels = new Map<string, Channel>();
  private heldBytes = 0;

  constructor(options: AssemblerOptions = {}) {
    this.maxFrameBytes = options.maxFrameBytes ?? 4 * 1024 * 1024;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.maxStreams = options.maxStreams ?? 4096;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.checkSerial = options.checkSerial ?? true;
  }

  /** Bytes of incomplete frames currently held. */
  get pendingBytes(): number {
    return this.heldBytes;
  }

  get streamCount(): number {
    return this.streams.size;
  }

  /**
   * Adds one packet; returns the frame it completes, if any. `now` (ms, default the clock) only
   * feeds `sweep()`; pass the same clock to both.
   * Never throws. The packet's body must not be reused by the caller afterwards (the splitter's
   * default copies are fine).
   */
  push(packet: Jt1078Packet, now: number = Date.now()): MediaFrame | undefined {
    const kind = streamKind(packet.dataType);
    const channelKey = `${packet.sim}/${packet.channel}`;
    const key = `${channelKey}/${kind}`;
    let st = this.streams.get(key);
    if (!st) {
      if (this.streams.size >= this.maxStreams) this.evictOldest();
      let ch = this.channels.get(channelKey);
      if (!ch) {
        ch = { key: channelKey, lastSerial: -1, lastKind: undefined, channelVotes: 0, streamVotes: 0, streams: [] };
        this.channels.set(channelKey, ch);
      }
      st = { key, channel: ch, lastSerial: -1, lastSeen: now, discontinuity: false, discarding: false, first: undefined, parts: [], bytes: 0 };
      ch.streams.push(st);
      this.streams.set(key, st);
    }
    st.lastSeen = now;
    if (this.checkSerial && this.sequence(st, kind, packet)) return undefined;

    switch (packet.subpackage) {
      case SUBPACKAGE.ATOMIC:
        if (st.first) this.drop(st, 'interrupted');
        st.discarding = false;
        return this.emit(st, packet, packet.body, 1);
      case SUBPACKAGE.FIRST:
        if (st.first) this.drop(st, 'interrupted');
        st.discarding = false;
        if (packet.body.length > this.maxFrameBytes) {
          this.stats.tooLarge++;
          this.stats.dropped++;
          st.discontinuity = true;
          st.discarding = true;
          return undefined;
        }
        st.first = packet;
        st.parts.push(packet.body);
        this.hold(st, packet.body.length);
        return undefined;
      default: {
        if (st.discarding) return undefined;
        const first = st.first;
        if (!first) {
          this.stats.orphans++;
          this.stats.dropped++;
          st.discontinuity = true;
          st.discarding = true;
          return undefined;
        }
        if (first.dataType !== packet.dataType || first.timestamp !== packet.timestamp) {
          this.drop(st, 'mismatched');
          st.discarding = true;
          return undefined;
        }
        if (st.bytes + packet.body.length > this.maxFrameBytes) {
          this.drop(st, 'tooLarge');
          st.discarding = true;
          return undefined;
        }
        st.parts.push(packet.body);
        this.hold(st, packet.body.length);
        // hold() may have evicted this very frame to respect maxBytes.
        if (packet.subpackage !== SUBPACKAGE.LAST || !st.first) return undefined;
        const data = new Uint8Array(st.bytes);
        let o = 0;
        for (const part of st.parts) {
          data.set(part, o);
          o += part.length;
        }
        const count = st.parts.length;
        this.release(st);
        return this.emit(st, first, data, count);
      }
    }
  }

  /**
   * Serial bookkeeping for one packet; true when it is a repeat to ignore. On a gap, drops the
   * incomplete frames it may have cut and flags the streams concerned.
   */
  private sequence(st: Stream, kind: StreamKind, packet: Jt1078Packet): boolean {
    const ch = st.channel;
    const serial = packet.serial;
    if (serial === st.lastSerial) {
      this.stats.duplicates++;
      return true;
    }
    const followsStream = st.lastSerial >= 0 && serial === ((st.lastSerial + 1) & 0xffff);
    const followsChannel = ch.lastSerial >= 0 && serial === ((ch.lastSerial + 1) & 0xffff);
    if (ch.lastKind !== undefined && ch.lastKind !== kind && st.lastSerial >= 0) {
      if (followsChannel && !followsStream) ch.channelVotes++;
      else if (followsStream && !followsChannel) ch.streamVotes++;
    }
    const mode = ch.channelVotes > ch.streamVotes ? 'channel' : ch.streamVotes > ch.channelVotes ? 'stream' : 'unknown';
    let hit: Stream[] = [];
    if (mode === 'channel') {
      if (ch.lastSerial >= 0 && !followsChannel) hit = ch.streams;
    } else if (mode === 'stream') {
      if (st.lastSerial >= 0 && !followsStream) hit = [st];
    } else if (st.lastSerial >= 0 && !followsStream && !followsChannel) {
      hit = [st];
    }
    if (hit.length > 0) {
      this.stats.gaps++;
      for (const s of hit) {
        s.discontinuity = true;
        if (s.first) {
          this.drop(s, 'gaps-only');
          s.discarding = true;
        }
      }
      // Middle/last packages right after a gap belong to a frame whose start may be lost.
      if (packet.subpackage === SUBPACKAGE.MIDDLE || packet.subpackage === SUBPACKAGE.LAST) st.discarding = true;
    }
    st.lastSerial = serial;
    ch.lastSerial = serial;
    ch.lastKind = kind;
    return false;
  }

  /** Forgets streams idle longer than the timeout; their incomplete frames count as expired. */
  sweep(now: number): void {
    for (const st of this.streams.values()) {
      if (now - st.lastSeen <= this.timeoutMs) continue;
      if (st.first) this.drop(st, 'expired');
      this.forgetStream(st);
    }
  }

  /** Forgets every stream of a SIM (its media connection closed), or only one channel's. */
  close(sim: string, channel?: number): void {
    const prefix = channel === undefined ? `${sim}/` : `${sim}/${channel}/`;
    for (const st of this.streams.values()) {
      if (!st.key.startsWith(prefix)) continue;
      this.release(st);
      this.forgetStream(st);
    }
  }

  private emit(st: Stream, first: Jt1078Packet, data: Uint8Array, packets: number): MediaFrame {
    this.stats.frames++;
    const discontinuity = st.discontinuity;
    st.discontinuity = false;
    return {
      sim: first.sim,
      channel: first.channel,
      kind: streamKind(first.dataType),
      dataType: first.dataType,
      payloadType: first.payloadType,
      timestamp: first.timestamp,
      lastIFrameInterval: first.lastIFrameInterval,
      lastFrameInterval: first.lastFrameInterval,
      data,
      serial: first.serial,
      packets,
      discontinuity,
    };
  }

  private drop(st: Stream, reason: 'gaps-only' | 'interrupted' | 'mismatched' | 'tooLarge' | 'expired' | 'evicted'): void {
    if (reason !== 'gaps-only') this.stats[reason]++;
    this.stats.dropped++;
    st.discontinuity = true;
    this.release(st);
  }

  private release(st: Stream): void {
    this.heldBytes -= st.bytes;
    st.first = undefined;
    st.parts = [];
    st.bytes = 0;
  }

  private hold(st: Stream, n: number): void {
    st.bytes += n;
    this.heldBytes += n;
    while (this.heldBytes > this.maxBytes) {
      // Drop the incomplete frame idle longest (possibly this one).
      let victim: Stream | undefined;
      for (const s of this.streams.values()) if (s.first && (!victim || s.lastSeen < victim.lastSeen)) victim = s;
      if (!victim) break;
      this.drop(victim, 'evicted');
      victim.discarding = true;
    }
  }

  private evictOldest(): void {
    let victim: Stream | undefined;
    for (const s of this.streams.values()) if (!victim || s.lastSeen < victim.lastSeen) victim = s;
    if (!victim) return;
    if (victim.first) this.drop(victim, 'evicted');
    this.forgetStream(victim);
  }

  private forgetStream(st: Stream): void {
    this.streams.delete(st.key);
    const ch = st.channel;
    ch.streams = ch.streams.filter((s) => s !== st);
    if (ch.streams.length === 0) this.channels.delete(ch.key);
  }
}

/** Whether a frame is a video key frame (data type I-frame). */
export function isKeyFrame(frame: MediaFrame): boolean {
  return frame.dataType === DATA_TYPE.I_FRAME;
}
