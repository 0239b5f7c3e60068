/**
 * The frame log's block (issue 17, day file format 2): the frames of one terminal within one minute,
 * packed into one blob, so the writer thread inserts one small-indexed row per terminal-minute instead
 * of one row per frame with three indexes (which cost most of the log's CPU; see bench/gateway-framelog.bench.ts).
 *
 * Layout, little-endian: u8 format (BLOCK_FORMAT), f64 base time (ms, the first frame's), then per frame
 * in record order: i32 time − base (ms), u8 direction, u32 length, the frame (unescaped) itself.
 * Times are whole milliseconds (the log's clock is Date.now).
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

/** Packs frames given as parallel arrays (what the writer accumulates; no object per frame). */
export function packBlock(times: readonly number[], dirs: readonly number[], raws: readonly Uint8Array[]): Uint8Array {
  const n = raws.length;
  if (n === 0 || times.length !== n || dirs.length !== n) throw new Error(`packBlock: ${n} frames, ${times.length} times, ${dirs.length} directions`);
  let size = BLOCK_HEAD;
  for (let i = 0; i < n; i++) size += FRAME_HEAD + raws[i]!.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const base = Math.round(times[0]!);
  view.setUint8(0, BLOCK_FORMAT);
  view.setFloat64(1, base, true);
  let o = BLOCK_HEAD;
  for (let i = 0; i < n; i++) {
    const raw = raws[i]!;
    view.setInt32(o, Math.round(times[i]!) - base, true);
    view.setUint8(o + 4, dirs[i]! === 1 ? 1 : 0);
    view.setUint32(o + 5, raw.length, true);
    out.set(raw, o + FRAME_HEAD);
    o += FRAME_HEAD + raw.length;
  }
  return out;
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
