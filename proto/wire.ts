/**
 * Protobuf wire primitives (varint, zigzag, length-delimited), written for the columnar push frames:
 * no Node imports so the same code runs in the server and the stream worker.
 */

export const WireType = { Varint: 0, Fixed64: 1, LengthDelimited: 2, Fixed32: 5 } as const;

/** A frame that cannot be decoded; the caller counts it and keeps its state. */
export class FrameError extends Error {
  override readonly name = 'FrameError';
}

export function zigzag(v: number): number {
  return ((v << 1) ^ (v >> 31)) >>> 0;
}

export function unzigzag(v: number): number {
  return (v >>> 1) ^ -(v & 1);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Growable byte buffer with protobuf writers. `reset()` keeps the memory for the next frame. */
export class ProtoWriter {
  buf: Uint8Array;
  pos = 0;
  private view: DataView;

  constructor(initial = 1024) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  reset(): this {
    this.pos = 0;
    return this;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Unsigned varint of a value in [0, 2^32). */
  uint32(v: number): void {
    this.ensure(5);
    const b = this.buf;
    let p = this.pos;
    v >>>= 0;
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p++] = v;
    this.pos = p;
  }

  sint32(v: number): void {
    this.uint32(zigzag(v));
  }

  tag(field: number, wireType: number): void {
    this.uint32((field << 3) | wireType);
  }

  double(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  bytes(data: Uint8Array): void {
    this.uint32(data.length);
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  /** A length-delimited field holding what `other` wrote. */
  embed(field: number, other: ProtoWriter): void {
    this.tag(field, WireType.LengthDelimited);
    this.bytes(other.buf.subarray(0, other.pos));
  }

  stringField(field: number, s: string): void {
    if (s.length === 0) return;
    this.tag(field, WireType.LengthDelimited);
    this.bytes(encoder.encode(s));
  }

  uint32Field(field: number, v: number): void {
    if (v === 0) return;
    this.tag(field, WireType.Varint);
    this.uint32(v);
  }

  doubleField(field: number, v: number): void {
    if (v === 0) return;
    this.tag(field, WireType.Fixed64);
    this.double(v);
  }

  /** A copy of the written bytes (the writer is reused). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** Sequential reader over one message (or a sub-range of it). */
export class ProtoReader {
  pos: number;
  readonly end: number;
  private readonly view: DataView;

  constructor(readonly buf: Uint8Array, start = 0, end = buf.length) {
    this.pos = start;
    this.end = end;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  uint32(): number {
    const b = this.buf;
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.pos >= this.end) throw new FrameError('truncated varint');
      const byte = b[this.pos++]!;
      result |= (byte & 0x7f) << shift;
      if (byte < 0x80) return result >>> 0;
    }
    // A 64-bit varint (negative int32 written by another encoder): skip the high bytes.
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.end) throw new FrameError('truncated varint');
      if (b[this.pos++]! < 0x80) return result >>> 0;
    }
    throw new FrameError('varint longer than 10 bytes');
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new FrameError('truncated double');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Start and end of a length-delimited field's content; moves past it. */
  range(): [number, number] {
    const len = this.uint32();
    const start = this.pos;
    const end = start + len;
    if (end > this.end) throw new FrameError('length-delimited field runs past the end of the frame');
    this.pos = end;
    return [start, end];
  }

  string(): string {
    const [start, end] = this.range();
    try {
      return decoder.decode(this.buf.subarray(start, end));
    } catch {
      throw new FrameError('string field is not valid UTF-8');
    }
  }

  skip(wireType: number): void {
    switch (wireType) {
      case WireType.Varint: this.uint32(); return;
      case WireType.Fixed64: this.advance(8); return;
      case WireType.LengthDelimited: this.range(); return;
      case WireType.Fixed32: this.advance(4); return;
      default: throw new FrameError(`unknown wire type ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new FrameError('truncated field');
    this.pos += n;
  }
}

/** Values in a packed varint run: one terminating byte (high bit clear) per value. */
export function countVarints(buf: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) if (buf[i]! < 0x80) n++;
  return n;
}
