/**
 * Byte-level primitives of JT/T 808: big-endian reader and writer, BCD digits and times, GBK
 * strings. Pure (Uint8Array only) so the simulator, workers and benchmarks can share it.
 */
import { Jt808Error } from './errors.ts';

/** BCD byte → 0..99, or -1 when a nibble is above 9. */
const BCD_VALUE = new Int8Array(256).fill(-1);
/** BCD byte → its two digits, for phone numbers. */
const BCD_TEXT: string[] = new Array<string>(256).fill('');
for (let hi = 0; hi < 10; hi++) {
  for (let lo = 0; lo < 10; lo++) {
    BCD_VALUE[(hi << 4) | lo] = hi * 10 + lo;
    BCD_TEXT[(hi << 4) | lo] = `${hi}${lo}`;
  }
}

const GMT8_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Structural type: server/ compiles without the DOM lib, workers without Node types. */
interface TextDecoderLike {
  decode(input: Uint8Array): string;
}

let gbkDecoder: TextDecoderLike | undefined;
/** Unicode code unit → GBK code (one or two bytes), built once from the platform's decoder. */
let gbkTable: Map<number, number> | undefined;

function decoder(): TextDecoderLike {
  // Node's full-ICU build and every browser ship GBK; a small-ICU build fails here, loudly.
  gbkDecoder ??= new TextDecoder('gbk');
  return gbkDecoder;
}

function encoderTable(): Map<number, number> {
  if (gbkTable) return gbkTable;
  // 24k two-byte codes decoded once (≈25 ms); only text with non-ASCII characters pays it.
  const table = new Map<number, number>();
  const d = decoder();
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      pair[0] = lead;
      pair[1] = trail;
      const s = d.decode(pair);
      if (s.length === 1 && s !== '\ufffd' && !table.has(s.charCodeAt(0))) table.set(s.charCodeAt(0), (lead << 8) | trail);
    }
  }
  table.set(0x20ac, 0x80); // GBK's single-byte euro sign
  gbkTable = table;
  return table;
}

/** Decodes GBK bytes; pure ASCII (most plates' tails, codes, IDs) skips the TextDecoder. */
export function decodeGbk(bytes: Uint8Array, start: number, end: number): string {
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    let s = '';
    for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
    return s;
  }
  return decoder().decode(bytes.subarray(start, end));
}

/** GBK bytes of `text`; characters GBK cannot represent become '?' (the terminal shows something). */
export function encodeGbk(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  let n = 0;
  let table: Map<number, number> | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    table ??= encoderTable();
    const code = table.get(c);
    if (code === undefined) {
      out[n++] = 0x3f;
      if (c >= 0xd800 && c <= 0xdbff) i++; // one '?' per astral character, not per surrogate
    } else if (code < 0x100) {
      out[n++] = code;
    } else {
      out[n++] = code >> 8;
      out[n++] = code & 0xff;
    }
  }
  return out.subarray(0, n);
}

/** Sequential big-endian reader over [offset, end); throws Jt808Error('truncated') past the end. */
export class Reader {
  readonly b: Uint8Array;
  o: number;
  readonly end: number;

  constructor(bytes: Uint8Array, offset = 0, end = bytes.length) {
    this.b = bytes;
    this.o = offset;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.o;
  }

  need(n: number, what: string): void {
    if (this.o + n > this.end) throw new Jt808Error('truncated', `${what}: needs ${n} bytes, ${this.end - this.o} left`);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.b[this.o++]!;
  }

  u16(what: string): number {
    this.need(2, what);
    const b = this.b;
    const o = this.o;
    this.o = o + 2;
    return (b[o]! << 8) | b[o + 1]!;
  }

  u32(what: string): number {
    this.need(4, what);
    const b = this.b;
    const o = this.o;
    this.o = o + 4;
    return b[o]! * 0x1000000 + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
  }

  /** A view (not a copy) of the next n bytes. */
  bytes(n: number, what: string): Uint8Array {
    this.need(n, what);
    const v = this.b.subarray(this.o, this.o + n);
    this.o += n;
    return v;
  }

  /** Fixed-width text field: trailing 0x00 and space padding removed. */
  fixedString(n: number, what: string): string {
    this.need(n, what);
    const start = this.o;
    let end = start + n;
    this.o = end;
    while (end > start && (this.b[end - 1] === 0 || this.b[end - 1] === 0x20)) end--;
    return decodeGbk(this.b, start, end);
  }

  /** STRING running to the end of the body; a trailing NUL terminator is dropped. */
  restString(): string {
    const start = this.o;
    let end = this.end;
    this.o = end;
    while (end > start && this.b[end - 1] === 0) end--;
    return decodeGbk(this.b, start, end);
  }

  /** BCD[6] YYMMDDhhmmss in GMT+8 → epoch ms; all zeros (no fix yet) → NaN. */
  bcdTime(what: string): number {
    this.need(6, what);
    const t = decodeBcdTime(this.b, this.o);
    if (t === -1) throw new Jt808Error('field', `${what}: not a valid BCD date-time`);
    this.o += 6;
    return t;
  }
}

/** Decodes BCD[6] at `o`; NaN when all zero, -1 when malformed. */
export function decodeBcdTime(b: Uint8Array, o: number): number {
  const yy = BCD_VALUE[b[o]!]!;
  const mo = BCD_VALUE[b[o + 1]!]!;
  const dd = BCD_VALUE[b[o + 2]!]!;
  const hh = BCD_VALUE[b[o + 3]!]!;
  const mi = BCD_VALUE[b[o + 4]!]!;
  const ss = BCD_VALUE[b[o + 5]!]!;
  if ((yy | mo | dd | hh | mi | ss) === 0) return NaN;
  if (yy < 0 || mo < 1 || mo > 12 || dd < 1 || hh < 0 || hh > 23 || mi < 0 || mi > 59 || ss < 0 || ss > 59) return -1;
  const year = 2000 + yy;
  if (dd > daysInMonth(year, mo)) return -1;
  return daysFromCivil(year, mo, dd) * DAY_MS + hh * 3_600_000 + mi * 60_000 + ss * 1000 - GMT8_MS;
}

/** BCD phone digits with leading zeros removed, so 2013 (12 digits) and 2019 (20) keys agree. */
export function decodeBcdPhone(b: Uint8Array, start: number, n: number): string | undefined {
  let s = '';
  for (let i = start; i < start + n; i++) {
    const v = b[i]!;
    if (BCD_VALUE[v]! < 0) return undefined;
    if (s === '') {
      if (v === 0) continue;
      s = v < 0x10 ? BCD_TEXT[v]!.charAt(1) : BCD_TEXT[v]!;
    } else {
      s += BCD_TEXT[v]!;
    }
  }
  return s === '' ? '0' : s;
}

function toBcd(v: number): number {
  return ((v / 10) | 0) * 16 + (v % 10);
}

/** Growable big-endian writer. */
export class Writer {
  private buf: Uint8Array;
  private n = 0;

  constructor(capacity = 64) {
    this.buf = new Uint8Array(capacity);
  }

  get length(): number {
    return this.n;
  }

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }

  private check(v: number, max: number, what: string): void {
    if (!Number.isInteger(v) || v < 0 || v > max) throw new Jt808Error('encode', `${what}: ${v} is not an integer in 0..${max}`);
  }

  u8(v: number, what = 'BYTE'): this {
    this.check(v, 0xff, what);
    this.room(1);
    this.buf[this.n++] = v;
    return this;
  }

  u16(v: number, what = 'WORD'): this {
    this.check(v, 0xffff, what);
    this.room(2);
    this.buf[this.n++] = v >>> 8;
    this.buf[this.n++] = v & 0xff;
    return this;
  }

  u32(v: number, what = 'DWORD'): this {
    this.check(v, 0xffffffff, what);
    this.room(4);
    this.buf[this.n++] = v >>> 24;
    this.buf[this.n++] = (v >>> 16) & 0xff;
    this.buf[this.n++] = (v >>> 8) & 0xff;
    this.buf[this.n++] = v & 0xff;
    return this;
  }

  bytes(v: Uint8Array): this {
    this.room(v.length);
    this.buf.set(v, this.n);
    this.n += v.length;
    return this;
  }

  /** Text padded with 0x00 to exactly `width` bytes; longer text is an encode error, not a cut. */
  fixedString(text: string, width: number, what: string): this {
    const bytes = encodeGbk(text);
    if (bytes.length > width) throw new Jt808Error('encode', `${what}: "${text}" is ${bytes.length} bytes, the field holds ${width}`);
    this.room(width);
    this.buf.set(bytes, this.n);
    this.buf.fill(0, this.n + bytes.length, this.n + width);
    this.n += width;
    return this;
  }

  string(text: string): this {
    return this.bytes(encodeGbk(text));
  }

  /** Phone digits right-aligned in `width` BCD bytes. */
  bcdPhone(phone: string, width: number): this {
    if (!/^\d+$/.test(phone) || phone.length > width * 2) {
      throw new Jt808Error('encode', `phone: "${phone}" is not up to ${width * 2} decimal digits`);
    }
    const digits = phone.padStart(width * 2, '0');
    this.room(width);
    for (let i = 0; i < width; i++) {
      this.buf[this.n++] = ((digits.charCodeAt(2 * i) - 48) << 4) | (digits.charCodeAt(2 * i + 1) - 48);
    }
    return this;
  }

  /** Epoch ms → BCD[6] YYMMDDhhmmss GMT+8 (seconds truncated); NaN → all zeros. */
  bcdTime(ms: number, what = 'time'): this {
    this.room(6);
    if (Number.isNaN(ms)) {
      this.buf.fill(0, this.n, this.n + 6);
      this.n += 6;
      return this;
    }
    const d = new Date(ms + GMT8_MS);
    const year = d.getUTCFullYear();
    if (!Number.isFinite(ms) || year < 2000 || year > 2099) throw new Jt808Error('encode', `${what}: ${ms} is outside 2000..2099`);
    const b = this.buf;
    b[this.n++] = toBcd(year - 2000);
    b[this.n++] = toBcd(d.getUTCMonth() + 1);
    b[this.n++] = toBcd(d.getUTCDate());
    b[this.n++] = toBcd(d.getUTCHours());
    b[this.n++] = toBcd(d.getUTCMinutes());
    b[this.n++] = toBcd(d.getUTCSeconds());
    return this;
  }

  /** Reserves `k` bytes to patch later (a length prefix); returns their offset. */
  reserve(k: number): number {
    this.room(k);
    const at = this.n;
    this.buf.fill(0, at, at + k);
    this.n += k;
    return at;
  }

  patchU16(at: number, v: number): void {
    this.buf[at] = v >>> 8;
    this.buf[at + 1] = v & 0xff;
  }

  patchU8(at: number, v: number): void {
    this.buf[at] = v;
  }

  /** A copy of the bytes written so far. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.n);
  }
}

/** Lower-case hex, for logs and tests. */
export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += (b < 0x10 ? '0' : '') + b.toString(16);
  return s;
}

/** Parses hex (spaces allowed); throws Jt808Error('encode') on an odd length or a non-hex digit. */
export function fromHex(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) throw new Jt808Error('encode', `not a hex string: ${hex}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}
