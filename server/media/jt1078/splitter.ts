/**
 * Streaming splitter for the media port: TCP chunks in, decoded packets out. JT/T 1078 packets
 * have no delimiter, so a packet's end comes from its header; after garbage or a damaged header
 * the splitter scans for the next 0x30316364 frame header and carries on. A declared length that
 * runs into the next packet's header is caught by looking at the bytes just after the packet.
 *
 * Memory per connection is bounded by one packet (header + maxBody bytes).
 */
import { Jt1078Error } from './errors.ts';
import {
  BAD_HEADER,
  BAD_MAGIC,
  headerLength,
  inspect,
  inspectError,
  MAGIC_BYTES,
  MAX_BODY_LENGTH,
  NEED_MORE,
  readPacket,
  type Jt1078Packet,
  type PacketOptions,
  type SimLength,
} from './packet.ts';

export interface SplitterStats {
  /** Packets handed to the packet callback. */
  packets: number;
  /** Bytes skipped while looking for a frame header (garbage, and the rest of damaged packets). */
  garbageBytes: number;
  /** Packets with a frame header but a bad version, data type or sub-package mark. */
  badHeader: number;
  /** Packets whose declared body length exceeds maxBody. */
  tooLong: number;
  /** Packets cut short: a new frame header appears before the declared length ends. */
  truncated: number;
  /** Packets with a non-BCD SIM (dropped; the stream stays in sync). */
  badSim: number;
}

export interface SplitterOptions extends PacketOptions {
  /** Hand out bodies as copies (safe to keep). Views into the chunk when false. @default true */
  copy?: boolean;
}

export type PacketSink = (packet: Jt1078Packet) => void;
export type PacketErrorSink = (error: Jt1078Error) => void;

const M0 = MAGIC_BYTES[0]!;
const M1 = MAGIC_BYTES[1]!;
const M2 = MAGIC_BYTES[2]!;
const M3 = MAGIC_BYTES[3]!;

/** First position ≥ from where a frame header starts (or its prefix, cut by `end`), else -1. */
function findMagic(b: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end) {
    i = b.indexOf(M0, i);
    if (i < 0 || i >= end) return -1;
    if ((i + 1 >= end || b[i + 1] === M1) && (i + 2 >= end || b[i + 2] === M2) && (i + 3 >= end || b[i + 3] === M3)) return i;
    i++;
  }
  return -1;
}

function isMagic(b: Uint8Array, p: number): boolean {
  return b[p] === M0 && b[p + 1] === M1 && b[p + 2] === M2 && b[p + 3] === M3;
}

export class PacketSplitter {
  readonly stats: SplitterStats = { packets: 0, garbageBytes: 0, badHeader: 0, tooLong: 0, truncated: 0, badSim: 0 };
  private readonly simLength: SimLength;
  private readonly maxBody: number;
  private readonly maxPacket: number;
  private readonly copy: boolean;
  private readonly buf: Uint8Array;
  private len = 0;

  constructor(options: SplitterOptions = {}) {
    this.simLength = options.simLength ?? 6;
    this.maxBody = options.maxBody ?? MAX_BODY_LENGTH;
    this.copy = options.copy ?? true;
    this.maxPacket = headerLength(0, this.simLength) + this.maxBody;
    this.buf = new Uint8Array(this.maxPacket);
  }

  /** Bytes of an unfinished packet held between chunks. */
  get pending(): number {
    return this.len;
  }

  /** Forgets a partial packet (e.g. after the connection's stream was switched). */
  reset(): void {
    this.len = 0;
  }

  /**
   * Feeds one TCP chunk. `onPacket` gets each packet in order; `onError` gets each dropped packet's
   * reason and one 'magic' error per run of garbage. Never throws on data (only if a callback does).
   */
  push(chunk: Uint8Array, onPacket: PacketSink, onError?: PacketErrorSink): void {
    const n = chunk.length;
    let i = 0;
    if (this.len > 0 && this.completeHeld(chunk, onPacket, onError)) {
      if (this.len > 0) return; // the whole chunk was appended to the held packet
      i = this.consumed;
    } else if (this.len > 0) {
      // General case (held bytes are garbage or a partial header): work on a bounded copy of the
      // held bytes + at most one packet of the chunk.
      const held = this.len;
      const take = n < this.maxPacket ? n : this.maxPacket;
      const work = new Uint8Array(held + take);
      work.set(this.buf.subarray(0, held));
      work.set(chunk.subarray(0, take), held);
      const p = this.drain(work, 0, work.length, held, onPacket, onError);
      if (p < held) {
        // Only possible when the whole chunk fitted in `work`: still waiting for more bytes.
        this.hold(work, p, work.length);
        return;
      }
      this.len = 0;
      i = p - held;
    }
    const p = this.drain(chunk, i, n, n, onPacket, onError);
    this.hold(chunk, p, n);
  }

  /** Splits a complete byte stream (tests, files). Trailing partial packets stay pending. */
  split(bytes: Uint8Array, onError?: PacketErrorSink): Jt1078Packet[] {
    const out: Jt1078Packet[] = [];
    this.push(bytes, (p) => out.push(p), onError);
    return out;
  }

  /** Bytes of the chunk used by `completeHeld`. */
  private consumed = 0;

  /**
   * Fast path for the usual straddle: the held bytes are a packet with a complete header. Copies
   * the missing bytes (or the whole chunk, if still short) into the held buffer, no allocation.
   * Returns false to leave the chunk to the general path.
   */
  private completeHeld(chunk: Uint8Array, onPacket: PacketSink, onError: PacketErrorSink | undefined): boolean {
    const held = this.len;
    const total = inspect(this.buf, 0, held, this.simLength, this.maxBody);
    if (total <= 0) return false;
    const need = total - held;
    if (need > chunk.length) {
      this.buf.set(chunk, held);
      this.len = held + chunk.length;
      return true;
    }
    // The next bytes do not start a packet: let the general path check the declared length.
    if (need + 4 <= chunk.length && !isMagic(chunk, need)) return false;
    this.buf.set(chunk.subarray(0, need), held);
    this.len = 0;
    this.consumed = need;
    // The held buffer is reused: the body must be a copy whatever the option says.
    this.emit(this.buf, 0, total, true, onPacket, onError);
    return true;
  }

  private emit(b: Uint8Array, p: number, total: number, copy: boolean, onPacket: PacketSink, onError: PacketErrorSink | undefined): void {
    const packet = readPacket(b, p, total, this.simLength, copy);
    if (packet) {
      this.stats.packets++;
      onPacket(packet);
    } else {
      this.stats.badSim++;
      onError?.(new Jt1078Error('field', 'SIM is not BCD'));
    }
  }

  private hold(b: Uint8Array, from: number, end: number): void {
    // Bounded: an incomplete packet is shorter than maxPacket, a header prefix shorter than 4.
    this.buf.set(b.subarray(from, end));
    this.len = end - from;
  }

  /** Emits packets starting before `limit`; returns where the unconsumed bytes begin. */
  private drain(b: Uint8Array, from: number, end: number, limit: number, onPacket: PacketSink, onError: PacketErrorSink | undefined): number {
    const s = this.stats;
    let p = from;
    while (p < limit) {
      const total = inspect(b, p, end, this.simLength, this.maxBody);
      if (total > 0) {
        const next = p + total;
        if (next > end) return p;
        if (next + 4 <= end && !isMagic(b, next)) {
          // Not followed by a packet: if a header starts inside this one, its length was wrong.
          const inner = findMagic(b, p + 1, next);
          if (inner >= 0) {
            s.truncated++;
            onError?.(new Jt1078Error('truncated', 'packet cut short by the next frame header'));
            s.garbageBytes += inner - p;
            p = inner;
            continue;
          }
        }
        this.emit(b, p, total, this.copy, onPacket, onError);
        p = next;
        continue;
      }
      if (total === NEED_MORE) return p;
      if (total === BAD_MAGIC) {
        onError?.(inspectError(total, this.maxBody));
      } else {
        if (total === BAD_HEADER) s.badHeader++;
        else s.tooLong++;
        onError?.(inspectError(total, this.maxBody));
      }
      const q = findMagic(b, p + 1, end);
      const to = q < 0 ? end : q;
      s.garbageBytes += to - p;
      p = to;
    }
    return p;
  }
}
