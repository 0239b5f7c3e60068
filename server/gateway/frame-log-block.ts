/**
 * The frame log's block (issue 17, day file format 2): the frames of one terminal within one minute,
 * packed into one blob, so the writer thread inserts one small-indexed row per terminal-minute instead
 * of one row per frame with three indexes (which cost most of the log's CPU; see bench/gateway-framelog.bench.ts).
 *
 * Layout, little-endian: u8 format (BLOCK_FORMAT), f64 base time (ms, the first frame's), then per frame
 * in record order: i32 time − base (ms), u8 direction, u32 length, the frame (unescaped) itself.
 * Times are whole milliseconds (the log's clock is Date.now).
 *
 * The writer thread builds a block frame by frame as frames arrive (`BlockBuilder`: the frame's bytes
 * are copied into the block's own growing buffer at once, so the block holds no object per frame and
 * keeps no view of the batch the frame came in); `packBlock` is the same from parallel arrays.
 */

export const BLOCK_FORMAT = 1;
const BLOCK_HEAD = 9;
const FRAME_HEAD = 9;

export interface BlockFrame {
  readonly time: number;
  /** 0 terminal → platform, 1 platform → terminal. */
  readonly direction: 0 | 1;
  /** Unescaped frame. */
  readonly raw: Uint8Array;
}

/** The f64 base time's bytes (little-endian on every platform Node runs on; checked below). */
const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** A block being filled: frames appended in record order, each copied in at once. */
export class BlockBuilder {
  private buf: Uint8Array;
  private len = BLOCK_HEAD;
  private base = 0;
  /** Frames appended. */
  n = 0;
  /** Least and greatest frame time (rounded to ms). */
  tMin = Infinity;
  tMax = -Infinity;

  constructor(capacity = 512) {
    this.buf = new Uint8Array(Math.max(capacity, BLOCK_HEAD + FRAME_HEAD));
    this.buf[0] = BLOCK_FORMAT;
  }

  /** Bytes of frames held (heads included, block head not). */
  get size(): number {
    return this.len - BLOCK_HEAD;
  }

  /** Appends `src[from, to)` (an unescaped frame) recorded at `time` in `direction`. */
  append(time: number, direction: number, src: Uint8Array, from: number, to: number): void {
    const t = Math.round(time);
    const length = to - from;
    const need = this.len + FRAME_HEAD + length;
    if (need > this.buf.length) this.grow(need);
    const buf = this.buf;
    if (this.n === 0) {
      this.base = t;
      f64[0] = t;
      if (LITTLE_ENDIAN) buf.set(f64Bytes, 1);
      else for (let k = 0; k < 8; k++) buf[1 + k] = f64Bytes[7 - k]!;
    }
    if (t < this.tMin) this.tMin = t;
    if (t > this.tMax) this.tMax = t;
    const d = t - this.base;
    let o = this.len;
    buf[o] = d & 0xff;
    buf[o + 1] = (d >> 8) & 0xff;
    buf[o + 2] = (d >> 16) & 0xff;
    buf[o + 3] = (d >> 24) & 0xff;
    buf[o + 4] = direction === 1 ? 1 : 0;
    buf[o + 5] = length & 0xff;
    buf[o + 6] = (length >> 8) & 0xff;
    buf[o + 7] = (length >> 16) & 0xff;
    buf[o + 8] = (length >>> 24) & 0xff;
    o += FRAME_HEAD;
    // Short frames (most: reports and acks) are copied byte by byte: cheaper than a subarray and a native copy.
    if (length <= 64) for (let k = from; k < to; k++) buf[o++] = src[k]!;
    else buf.set(src.subarray(from, to), o);
    this.len = need;
    this.n++;
  }

  /** The packed block (a view of the builder's buffer; valid until the next append). */
  finish(): Uint8Array {
    if (this.n === 0) throw new Error('a frame block needs at least one frame');
    return this.buf.subarray(0, this.len);
  }

  private grow(need: number): void {
    const next = new Uint8Array(Math.max(need, this.buf.length * 2));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
}

/** Packs frames given as parallel arrays. */
export function packBlock(times: readonly number[], dirs: readonly number[], raws: readonly Uint8Array[]): Uint8Array {
  const n = raws.length;
  if (n === 0 || times.length !== n || dirs.length !== n) throw new Error(`packBlock: ${n} frames, ${times.length} times, ${dirs.length} directions`);
  let size = BLOCK_HEAD;
  for (let i = 0; i < n; i++) size += FRAME_HEAD + raws[i]!.length;
  const b = new BlockBuilder(size);
  for (let i = 0; i < n; i++) b.append(times[i]!, dirs[i]!, raws[i]!, 0, raws[i]!.length);
  return b.finish();
}

/** The frames of a block, in record order; `raw` views the blob (no copy). Throws on a damaged blob. */
export function unpackBlock(blob: Uint8Array): BlockFrame[] {
  if (blob.length < BLOCK_HEAD) throw new Error(`frame block of ${blob.length} bytes has no head`);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const format = view.getUint8(0);
  if (format !== BLOCK_FORMAT) throw new Error(`frame block format ${format} is not ${BLOCK_FORMAT}`);
  const base = view.getFloat64(1, true);
  const frames: BlockFrame[] = [];
  let o = BLOCK_HEAD;
  while (o < blob.length) {
    if (o + FRAME_HEAD > blob.length) throw new Error(`frame block cut inside a frame head at byte ${o}`);
    const len = view.getUint32(o + 5, true);
    const end = o + FRAME_HEAD + len;
    if (end > blob.length) throw new Error(`frame block cut inside a frame of ${len} bytes at byte ${o}`);
    frames.push({ time: base + view.getInt32(o, true), direction: view.getUint8(o + 4) === 1 ? 1 : 0, raw: blob.subarray(o + FRAME_HEAD, end) });
    o = end;
  }
  return frames;
}
