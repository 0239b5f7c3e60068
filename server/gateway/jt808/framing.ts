/**
 * 0x7e framing with 0x7d escaping (JT/T 808 §4.4 / 2019 §4.5.1): a streaming splitter for TCP
 * chunks and the escaping encoder.
 *
 * Every 0x7e closes the bytes collected since the previous one, so one lost or corrupt delimiter
 * costs one frame, never the frames after it; terminals that share one 0x7e between two frames
 * also work. Bytes between frames come out as a candidate body that the checksum then rejects.
 */
import { Jt808Error } from './errors.ts';

export const FLAG = 0x7e;
export const ESCAPE = 0x7d;

/** Smallest unescaped body that can be a frame: 12-byte 2013 header + checksum. */
export const MIN_FRAME_BODY = 13;
/**
 * Default cap: 2019 header (17) + sub-package fields (4) + 1023-byte body + checksum = 1045;
 * 2 KiB leaves room for lax terminals while bounding a connection's buffer.
 */
export const DEFAULT_MAX_FRAME_BODY = 2048;

export interface SplitterStats {
  /** Bodies handed to the frame callback. */
  frames: number;
  /** Bytes received before the first 0x7e of the stream. */
  garbageBytes: number;
  /** Frames dropped for a 0x7d not followed by 0x01 / 0x02. */
  escapeErrors: number;
  /** Frames dropped for exceeding the body cap. */
  tooLong: number;
  /** Candidate bodies shorter than any header (truncated frames, noise between frames). */
  tooShort: number;
}

export interface SplitterOptions {
  /** Largest unescaped body accepted, checksum included. */
  maxBody?: number;
  /** Shorter candidates are dropped and counted as `tooShort`. */
  minBody?: number;
}

export type FrameSink = (body: Uint8Array) => void;
export type FrameErrorSink = (error: Jt808Error) => void;

export class FrameSplitter {
  readonly stats: SplitterStats = { frames: 0, garbageBytes: 0, escapeErrors: 0, tooLong: 0, tooShort: 0 };
  private readonly maxBody: number;
  private readonly minBody: number;
  private readonly buf: Uint8Array;
  private len = 0;
  private synced = false;
  private escaped = false;
  /** The frame being collected is already counted as bad: skip to the next 0x7e. */
  private dropping = false;

  constructor(options: SplitterOptions = {}) {
    this.maxBody = options.maxBody ?? DEFAULT_MAX_FRAME_BODY;
    this.minBody = options.minBody ?? MIN_FRAME_BODY;
    this.buf = new Uint8Array(this.maxBody);
  }

  /** Bytes of an unfinished frame held between chunks. */
  get pending(): number {
    return this.len;
  }

  /**
   * Feeds one TCP chunk. `onFrame` gets each unescaped body (header + body + checksum, no
   * delimiters) as a fresh copy; `onError` gets each dropped frame's reason. Never throws on data.
   */
  push(chunk: Uint8Array, onFrame: FrameSink, onError?: FrameErrorSink): void {
    const n = chunk.length;
    let i = 0;
    if (!this.synced) {
      const first = chunk.indexOf(FLAG);
      if (first < 0) {
        this.stats.garbageBytes += n;
        return;
      }
      this.stats.garbageBytes += first;
      this.synced = true;
      i = first + 1;
    }
    // Next 0x7d at or after i (n when none), found with native indexOf and reused across frames.
    let nextEscape = -1;
    while (i < n) {
      // Fast path: a frame that starts and ends inside this chunk is handled without the state machine.
      if (this.len === 0 && !this.escaped && !this.dropping) {
        const end = chunk.indexOf(FLAG, i);
        if (end >= 0) {
          if (end > i) {
            if (nextEscape < i) {
              nextEscape = chunk.indexOf(ESCAPE, i);
              if (nextEscape < 0) nextEscape = n;
            }
            if (nextEscape >= end) {
              if (end - i > this.maxBody) this.count('too-long', `frame body exceeds ${this.maxBody} bytes`, onError);
              else this.close(chunk.slice(i, end), onFrame, onError);
            } else {
              this.whole(chunk, i, nextEscape, end, onFrame, onError);
            }
          }
          i = end + 1;
          continue;
        }
      }
      const b = chunk[i++]!;
      if (b === FLAG) {
        if (this.dropping) this.reset();
        else if (this.escaped) this.fail('escape', 'escape byte 0x7d followed by a frame delimiter', onError, true);
        else if (this.len > 0) this.close(this.buf.slice(0, this.len), onFrame, onError);
        continue;
      }
      if (this.dropping) continue;
      let v = b;
      if (this.escaped) {
        this.escaped = false;
        if (b === 0x02) v = FLAG;
        else if (b === 0x01) v = ESCAPE;
        else {
          this.fail('escape', `escape byte 0x7d followed by 0x${b.toString(16).padStart(2, '0')}`, onError, false);
          continue;
        }
      } else if (b === ESCAPE) {
        this.escaped = true;
        continue;
      }
      if (this.len >= this.maxBody) {
        this.fail('too-long', `frame body exceeds ${this.maxBody} bytes`, onError, false);
        continue;
      }
      this.buf[this.len++] = v;
    }
  }

  /** Convenience for tests and tools: the bodies of one chunk as an array. */
  split(chunk: Uint8Array, onError?: FrameErrorSink): Uint8Array[] {
    const out: Uint8Array[] = [];
    this.push(chunk, (body) => out.push(body), onError);
    return out;
  }

  /** Unescapes and emits chunk[from, to), a complete frame whose first 0x7d is at `k`. */
  private whole(chunk: Uint8Array, from: number, k: number, to: number, onFrame: FrameSink, onError: FrameErrorSink | undefined): void {
    // Unescape into the scratch buffer, then one exact-size copy out.
    const buf = this.buf;
    const max = this.maxBody;
    let n = k - from;
    if (n > max) {
      this.count('too-long', `frame body exceeds ${max} bytes`, onError);
      return;
    }
    buf.set(chunk.subarray(from, k), 0);
    for (; k < to; k++) {
      let b = chunk[k]!;
      if (b === ESCAPE) {
        const next = ++k < to ? chunk[k]! : FLAG;
        if (next === 0x02) b = FLAG;
        else if (next !== 0x01) {
          const what = next === FLAG ? 'a frame delimiter' : `0x${next.toString(16).padStart(2, '0')}`;
          this.count('escape', `escape byte 0x7d followed by ${what}`, onError);
          return;
        }
      }
      if (n >= max) {
        this.count('too-long', `frame body exceeds ${max} bytes`, onError);
        return;
      }
      buf[n++] = b;
    }
    this.close(buf.slice(0, n), onFrame, onError);
  }

  private close(body: Uint8Array, onFrame: FrameSink, onError: FrameErrorSink | undefined): void {
    this.reset();
    if (body.length < this.minBody) {
      this.stats.tooShort++;
      onError?.(new Jt808Error('truncated', `frame body of ${body.length} bytes is shorter than a header`));
      return;
    }
    this.stats.frames++;
    onFrame(body);
  }

  /** Counts a bad frame; unless the error was found at a 0x7e, skips to the next delimiter. */
  private fail(code: 'escape' | 'too-long', message: string, onError: FrameErrorSink | undefined, atFlag: boolean): void {
    this.len = 0;
    this.escaped = false;
    this.dropping = !atFlag;
    this.count(code, message, onError);
  }

  private count(code: 'escape' | 'too-long', message: string, onError: FrameErrorSink | undefined): void {
    if (code === 'escape') this.stats.escapeErrors++;
    else this.stats.tooLong++;
    onError?.(new Jt808Error(code, message));
  }

  private reset(): void {
    this.len = 0;
    this.escaped = false;
    this.dropping = false;
  }
}

/** Escapes `body` (header + body + checksum) and wraps it in 0x7e delimiters. */
export function escapeFrame(body: Uint8Array): Uint8Array {
  let extra = 0;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (b === FLAG || b === ESCAPE) extra++;
  }
  const out = new Uint8Array(body.length + extra + 2);
  out[0] = FLAG;
  let o = 1;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (b === FLAG) {
      out[o++] = ESCAPE;
      out[o++] = 0x02;
    } else if (b === ESCAPE) {
      out[o++] = ESCAPE;
      out[o++] = 0x01;
    } else {
      out[o++] = b;
    }
  }
  out[o] = FLAG;
  return out;
}

/**
 * Unescapes one frame's inner bytes (no delimiters) in a single call, for tools and tests.
 * Returns a Jt808Error('escape') instead of throwing.
 */
export function unescapeFrame(escaped: Uint8Array): Uint8Array | Jt808Error {
  const out = new Uint8Array(escaped.length);
  let n = 0;
  for (let i = 0; i < escaped.length; i++) {
    const b = escaped[i]!;
    if (b === FLAG) return new Jt808Error('escape', 'unescaped 0x7e inside a frame');
    if (b !== ESCAPE) {
      out[n++] = b;
      continue;
    }
    const next = escaped[++i];
    if (next === 0x02) out[n++] = FLAG;
    else if (next === 0x01) out[n++] = ESCAPE;
    else return new Jt808Error('escape', 'escape byte 0x7d not followed by 0x01 or 0x02');
  }
  return out.subarray(0, n);
}
