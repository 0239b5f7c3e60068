/**
 * JT/T 1078-2016 stream packets (§5.5.3, table 19): the RTP-like packets a terminal sends on the
 * media port after 0x9101 / 0x9201. Big-endian; all offsets below are for the 6-byte SIM of the
 * 2016 edition, and shift by 4 with the 10-byte SIM used over JT/T 808-2019.
 *
 *   0  frame header 0x30 0x31 0x63 0x64      15  data type (high nibble) | sub-package mark (low)
 *   4  V=2 P X CC (0x81)                     16  timestamp u64 ms        (not for transparent data)
 *   5  M (bit 7) | payload type (bits 0-6)   24  last I-frame interval   (video only)
 *   6  packet serial u16                     26  last frame interval    (video only)
 *   8  SIM BCD[6]                            28  body length u16 (≤ 950), then the body
 *  14  logical channel
 */
import { Jt1078Error } from './errors.ts';

/** "01cd": the frame header that starts every packet. */
export const MAGIC = 0x30316364;
export const MAGIC_BYTES: readonly number[] = [0x30, 0x31, 0x63, 0x64];
/** Body cap of the standard (table 19). */
export const MAX_BODY_LENGTH = 950;

/** Data type, the high nibble of byte 15 (6-byte SIM). */
export const DATA_TYPE = { I_FRAME: 0, P_FRAME: 1, B_FRAME: 2, AUDIO: 3, TRANSPARENT: 4 } as const;
export type DataType = (typeof DATA_TYPE)[keyof typeof DATA_TYPE];

/** Sub-package mark, the low nibble of byte 15. Note the order: 2 is last, 3 is middle. */
export const SUBPACKAGE = { ATOMIC: 0, FIRST: 1, LAST: 2, MIDDLE: 3 } as const;
export type Subpackage = (typeof SUBPACKAGE)[keyof typeof SUBPACKAGE];

/** Payload types of JT/T 1078-2016 table 12 (not the RFC 3551 numbers). */
export const PAYLOAD_TYPE = {
  G721: 1,
  G722: 2,
  G723: 3,
  G728: 4,
  G729: 5,
  G711A: 6,
  G711U: 7,
  G726: 8,
  G729A: 9,
  DVI4_3: 10,
  DVI4_4: 11,
  DVI4_8K: 12,
  DVI4_16K: 13,
  LPC: 14,
  S16BE_STEREO: 15,
  S16BE_MONO: 16,
  MPEGAUDIO: 17,
  LPCM: 18,
  AAC: 19,
  WMA9STD: 20,
  HEAAC: 21,
  PCM_VOICE: 22,
  PCM_AUDIO: 23,
  AACLC: 24,
  MP3: 25,
  ADPCMA: 26,
  MP4AUDIO: 27,
  AMR: 28,
  TRANSPARENT: 91,
  H264: 98,
  H265: 99,
  AVS: 100,
  SVAC: 101,
} as const;
export type PayloadTypeName = keyof typeof PAYLOAD_TYPE;

const PAYLOAD_NAMES = new Map<number, PayloadTypeName>(
  (Object.entries(PAYLOAD_TYPE) as [PayloadTypeName, number][]).map(([name, pt]) => [pt, name]),
);

/** Table-12 name of a payload type, or undefined for reserved values. */
export function payloadTypeName(pt: number): PayloadTypeName | undefined {
  return PAYLOAD_NAMES.get(pt);
}

/** SIM width: BCD[6] in the 2016 edition, BCD[10] when the terminal speaks JT/T 808-2019. */
export type SimLength = 6 | 10;

/** Which reassembly stream a data type belongs to. I, P and B frames share the video stream. */
export type StreamKind = 'video' | 'audio' | 'data';

export function streamKind(dataType: DataType): StreamKind {
  return dataType <= DATA_TYPE.B_FRAME ? 'video' : dataType === DATA_TYPE.AUDIO ? 'audio' : 'data';
}

/** Header bytes before the body for a data type, or -1 for a data type outside the table. */
export function headerLength(dataType: number, simLength: SimLength = 6): number {
  const prefix = 10 + simLength;
  if (dataType <= DATA_TYPE.B_FRAME) return prefix + 14;
  if (dataType === DATA_TYPE.AUDIO) return prefix + 10;
  if (dataType === DATA_TYPE.TRANSPARENT) return prefix + 2;
  return -1;
}

export interface Jt1078Packet {
  payloadType: number;
  /** RTP marker bit: set by terminals on the last (or only) packet of a frame. */
  marker: boolean;
  /** Packet serial, u16, wraps. */
  serial: number;
  /** SIM digits with leading zeros removed, so 6- and 10-byte SIMs (and JT/T 808 phone keys) agree. */
  sim: string;
  channel: number;
  dataType: DataType;
  subpackage: Subpackage;
  /** Milliseconds; undefined for transparent data, which carries none. */
  timestamp: number | undefined;
  /** Video only: ms since the previous I-frame. */
  lastIFrameInterval: number | undefined;
  /** Video only: ms since the previous frame. */
  lastFrameInterval: number | undefined;
  body: Uint8Array;
}

export interface PacketInit {
  payloadType: number;
  /** @default true for atomic and last packets */
  marker?: boolean;
  serial: number;
  sim: string;
  channel: number;
  dataType: DataType;
  /** @default SUBPACKAGE.ATOMIC */
  subpackage?: Subpackage;
  /** Required for video and audio; ignored for transparent data. */
  timestamp?: number | undefined;
  lastIFrameInterval?: number | undefined;
  lastFrameInterval?: number | undefined;
  body: Uint8Array;
}

export interface PacketOptions {
  /** @default 6 */
  simLength?: SimLength;
  /** Largest body accepted or written. @default 950 */
  maxBody?: number;
}

export type PacketResult =
  | { kind: 'packet'; packet: Jt1078Packet; length: number }
  | { kind: 'error'; error: Jt1078Error };

/** `inspect` outcomes below zero. */
export const NEED_MORE = -1;
export const BAD_MAGIC = -2;
export const BAD_HEADER = -3;
export const TOO_LONG = -4;

/**
 * Length of the packet starting at `p` (header + body), judged from the header alone (the body may
 * not have arrived yet: compare with `end`), or one of
 * NEED_MORE / BAD_MAGIC / BAD_HEADER / TOO_LONG. Checks every field as soon as its bytes are
 * present, so garbage is rejected without waiting for more data.
 */
export function inspect(b: Uint8Array, p: number, end: number, simLength: SimLength, maxBody: number): number {
  const avail = end - p;
  const m = avail < 4 ? avail : 4;
  for (let i = 0; i < m; i++) if (b[p + i] !== MAGIC_BYTES[i]) return BAD_MAGIC;
  if (avail < 5) return NEED_MORE;
  if ((b[p + 4]! & 0xc0) !== 0x80) return BAD_HEADER;
  const typeAt = p + 9 + simLength;
  if (typeAt >= end) return NEED_MORE;
  const t = b[typeAt]!;
  if ((t & 0x0f) > 3) return BAD_HEADER;
  const hlen = headerLength(t >> 4, simLength);
  if (hlen < 0) return BAD_HEADER;
  if (avail < hlen) return NEED_MORE;
  const len = (b[p + hlen - 2]! << 8) | b[p + hlen - 1]!;
  if (len > maxBody) return TOO_LONG;
  return hlen + len;
}

const HEX = '0123456789abcdef';

/** BCD SIM → digits without leading zeros ('0' for all zeros), or undefined on a non-BCD nibble. */
export function decodeSim(b: Uint8Array, start: number, n: number): string | undefined {
  let s = '';
  for (let i = start; i < start + n; i++) {
    const v = b[i]!;
    const hi = v >> 4;
    const lo = v & 0x0f;
    if (hi > 9 || lo > 9) return undefined;
    if (s !== '' || hi !== 0) s += HEX[hi]!;
    if (s !== '' || lo !== 0) s += HEX[lo]!;
  }
  return s === '' ? '0' : s;
}

function u16(b: Uint8Array, o: number): number {
  return (b[o]! << 8) | b[o + 1]!;
}

function u32(b: Uint8Array, o: number): number {
  return ((b[o]! << 24) >>> 0) + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
}

/**
 * Builds the packet object for a range `inspect` accepted. The body is a copy when `copy` is set,
 * else a view of `b`. Returns undefined for a non-BCD SIM.
 */
export function readPacket(b: Uint8Array, p: number, total: number, simLength: SimLength, copy: boolean): Jt1078Packet | undefined {
  const sim = decodeSim(b, p + 8, simLength);
  if (sim === undefined) return undefined;
  const o = p + 8 + simLength;
  const t = b[o + 1]!;
  const dataType = (t >> 4) as DataType;
  let timestamp: number | undefined;
  let lastIFrameInterval: number | undefined;
  let lastFrameInterval: number | undefined;
  let h = o + 2;
  if (dataType !== DATA_TYPE.TRANSPARENT) {
    // Exact up to 2^53 ms (285,000 years); beyond that only the low bits lose precision.
    timestamp = u32(b, h) * 4294967296 + u32(b, h + 4);
    h += 8;
    if (dataType <= DATA_TYPE.B_FRAME) {
      lastIFrameInterval = u16(b, h);
      lastFrameInterval = u16(b, h + 2);
      h += 4;
    }
  }
  const bodyStart = h + 2;
  const bodyEnd = p + total;
  return {
    payloadType: b[p + 5]! & 0x7f,
    marker: (b[p + 5]! & 0x80) !== 0,
    serial: u16(b, p + 6),
    sim,
    channel: b[o]!,
    dataType,
    subpackage: (t & 0x0f) as Subpackage,
    timestamp,
    lastIFrameInterval,
    lastFrameInterval,
    body: copy ? b.slice(bodyStart, bodyEnd) : b.subarray(bodyStart, bodyEnd),
  };
}

export function inspectError(code: number, maxBody: number): Jt1078Error {
  switch (code) {
    case NEED_MORE:
      return new Jt1078Error('truncated', 'packet is shorter than its header or declared body length');
    case BAD_MAGIC:
      return new Jt1078Error('magic', 'packet does not start with the frame header 0x30316364');
    case TOO_LONG:
      return new Jt1078Error('too-long', `declared body length exceeds ${maxBody} bytes`);
    default:
      return new Jt1078Error('header', 'RTP version is not 2, or data type / sub-package mark is out of range');
  }
}

/**
 * Decodes one packet at `offset`. The body is a view of `bytes` (copy it to keep it past a buffer
 * reuse). `length` is the bytes consumed; trailing bytes are left for the caller. Never throws.
 */
export function decodePacket(bytes: Uint8Array, offset = 0, options: PacketOptions = {}): PacketResult {
  const simLength = options.simLength ?? 6;
  const maxBody = options.maxBody ?? MAX_BODY_LENGTH;
  const total = inspect(bytes, offset, bytes.length, simLength, maxBody);
  if (total < 0) return { kind: 'error', error: inspectError(total, maxBody) };
  if (offset + total > bytes.length) return { kind: 'error', error: inspectError(NEED_MORE, maxBody) };
  const packet = readPacket(bytes, offset, total, simLength, false);
  if (!packet) return { kind: 'error', error: new Jt1078Error('field', 'SIM is not BCD') };
  return { kind: 'packet', packet, length: total };
}

/** Bytes `writePacket` will produce for this packet. */
export function encodedLength(packet: PacketInit, simLength: SimLength = 6): number {
  const hlen = headerLength(packet.dataType, simLength);
  check(hlen > 0 && isU(packet.dataType, 4), `data type ${packet.dataType} is not 0-4`);
  return hlen + packet.body.length;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Jt1078Error('encode', what);
}

function isU(v: number, max: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= max;
}

/** Writes one packet into `out` at `offset`; returns the bytes written. Throws Jt1078Error('encode'). */
export function writePacket(out: Uint8Array, offset: number, packet: PacketInit, options: PacketOptions = {}): number {
  const simLength = options.simLength ?? 6;
  const maxBody = options.maxBody ?? MAX_BODY_LENGTH;
  const { dataType, body } = packet;
  const sub = packet.subpackage ?? SUBPACKAGE.ATOMIC;
  const hlen = headerLength(dataType, simLength);
  check(hlen > 0 && isU(dataType, 4), `data type ${dataType} is not 0-4`);
  check(isU(sub, 3), `sub-package mark ${sub} is not 0-3`);
  check(isU(packet.payloadType, 127), `payload type ${packet.payloadType} is not 0-127`);
  check(isU(packet.serial, 0xffff), `serial ${packet.serial} is not a u16`);
  check(isU(packet.channel, 0xff), `channel ${packet.channel} is not a u8`);
  check(body.length <= maxBody, `body of ${body.length} bytes exceeds ${maxBody}; split the frame with packetizeFrame`);
  check(/^\d+$/.test(packet.sim) && packet.sim.length <= simLength * 2, `SIM "${packet.sim}" is not up to ${simLength * 2} decimal digits`);
  check(offset + hlen + body.length <= out.length, 'output buffer too small');
  const marker = packet.marker ?? (sub === SUBPACKAGE.ATOMIC || sub === SUBPACKAGE.LAST);
  const dv = new DataView(out.buffer, out.byteOffset + offset, hlen);
  dv.setUint32(0, MAGIC);
  dv.setUint8(4, 0x81);
  dv.setUint8(5, (marker ? 0x80 : 0) | packet.payloadType);
  dv.setUint16(6, packet.serial);
  const digits = packet.sim.padStart(simLength * 2, '0');
  for (let i = 0; i < simLength; i++) {
    dv.setUint8(8 + i, ((digits.charCodeAt(2 * i) - 48) << 4) | (digits.charCodeAt(2 * i + 1) - 48));
  }
  let h = 8 + simLength;
  dv.setUint8(h, packet.channel);
  dv.setUint8(h + 1, (dataType << 4) | sub);
  h += 2;
  if (dataType !== DATA_TYPE.TRANSPARENT) {
    const ts = packet.timestamp ?? NaN;
    check(Number.isSafeInteger(ts) && ts >= 0, `timestamp ${ts} is not a non-negative integer of ms`);
    dv.setUint32(h, Math.floor(ts / 4294967296));
    dv.setUint32(h + 4, ts % 4294967296);
    h += 8;
    if (dataType <= DATA_TYPE.B_FRAME) {
      const li = packet.lastIFrameInterval ?? 0;
      const lf = packet.lastFrameInterval ?? 0;
      check(isU(li, 0xffff) && isU(lf, 0xffff), `frame intervals ${li} / ${lf} are not u16`);
      dv.setUint16(h, li);
      dv.setUint16(h + 2, lf);
      h += 4;
    }
  }
  dv.setUint16(h, body.length);
  out.set(body, offset + hlen);
  return hlen + body.length;
}

/** One packet as a fresh byte array. Throws Jt1078Error('encode') for values that do not fit. */
export function encodePacket(packet: PacketInit, options: PacketOptions = {}): Uint8Array {
  const out = new Uint8Array(encodedLength(packet, options.simLength ?? 6));
  writePacket(out, 0, packet, options);
  return out;
}
