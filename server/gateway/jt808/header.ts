/**
 * Message header (JT/T 808-2013 §4.4.3 and -2019 §4.5.3) and the BCC checksum.
 *
 * props (WORD): bits 0-9 body length, 10-12 encryption (bit 10 = RSA), 13 sub-package,
 * 14 version flag (2019), 15 reserved.
 * 2013: id(2) props(2) phone BCD[6] serial(2) [total(2) index(2)]            → 12 / 16 bytes
 * 2019: id(2) props(2) version(1) phone BCD[10] serial(2) [total(2) index(2)] → 17 / 21 bytes
 */
import { decodeBcdPhone, type Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export type ProtocolEdition = 2013 | 2019;

export interface Jt808Header {
  msgId: number;
  /** Body length declared in the properties (0..1023). */
  bodyLength: number;
  /** Encryption bits 10-12: 0 plain, 1 RSA. */
  encryption: number;
  subpackage: boolean;
  version: ProtocolEdition;
  /** 2019 protocol version byte (1 for JT/T 808-2019); 0 for 2013 headers. */
  protocolVersion: number;
  /** Terminal phone / id digits without leading zeros, the same for 2013 and 2019 headers. */
  phone: string;
  serial: number;
  /** Total packages of a sub-packaged message; 0 when not sub-packaged. */
  packageTotal: number;
  /** 1-based package index; 0 when not sub-packaged. */
  packageIndex: number;
}

/** What an encoder needs; body length and the sub-package bit are derived. */
export interface HeaderInit {
  msgId: number;
  phone: string;
  serial: number;
  /** @default 2013 */
  version?: ProtocolEdition;
  /** @default 1 for 2019 headers */
  protocolVersion?: number;
  /** @default 0 */
  encryption?: number;
  packageTotal?: number;
  packageIndex?: number;
}

export const MAX_BODY_LENGTH = 0x3ff;
const PROP_SUBPACKAGE = 0x2000;
const PROP_VERSION = 0x4000;
const PROP_RESERVED = 0x8000;

export function headerLength(version: ProtocolEdition, subpackage: boolean): number {
  return (version === 2019 ? 17 : 12) + (subpackage ? 4 : 0);
}

/** XOR of bytes [start, end). */
export function bcc(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let x = 0;
  for (let i = start; i < end; i++) x ^= bytes[i]!;
  return x;
}

/** Parsed header plus where the body starts inside the frame. */
export interface HeaderRead {
  header: Jt808Header;
  bodyOffset: number;
}

/**
 * Reads the header of an unescaped frame (header + body + checksum). Checks the structure only:
 * checksum and declared length are the caller's (decodeFrame) job. Returns, never throws.
 */
export function readHeader(frame: Uint8Array): HeaderRead | Jt808Error {
  const n = frame.length;
  if (n < 4) return new Jt808Error('truncated', `frame of ${n} bytes has no message header`);
  const msgId = (frame[0]! << 8) | frame[1]!;
  const props = (frame[2]! << 8) | frame[3]!;
  if (props & PROP_RESERVED) return new Jt808Error('version', `message 0x${hex4(msgId)}: reserved header bit 15 is set`);
  const version: ProtocolEdition = props & PROP_VERSION ? 2019 : 2013;
  const subpackage = (props & PROP_SUBPACKAGE) !== 0;
  const length = headerLength(version, subpackage);
  if (n < length) return new Jt808Error('truncated', `message 0x${hex4(msgId)}: ${n} bytes, the ${version} header needs ${length}`);
  let o = 4;
  let protocolVersion = 0;
  if (version === 2019) {
    protocolVersion = frame[o++]!;
    if (protocolVersion === 0) return new Jt808Error('version', `message 0x${hex4(msgId)}: 2019 header with protocol version 0`);
  }
  const phoneBytes = version === 2019 ? 10 : 6;
  const phone = decodeBcdPhone(frame, o, phoneBytes);
  if (phone === undefined) return new Jt808Error('field', `message 0x${hex4(msgId)}: terminal phone is not BCD`);
  o += phoneBytes;
  const serial = (frame[o]! << 8) | frame[o + 1]!;
  o += 2;
  let packageTotal = 0;
  let packageIndex = 0;
  if (subpackage) {
    packageTotal = (frame[o]! << 8) | frame[o + 1]!;
    packageIndex = (frame[o + 2]! << 8) | frame[o + 3]!;
    o += 4;
    if (packageTotal === 0 || packageIndex === 0 || packageIndex > packageTotal) {
      return new Jt808Error('field', `message 0x${hex4(msgId)}: package ${packageIndex} of ${packageTotal}`);
    }
  }
  return {
    header: {
      msgId,
      bodyLength: props & MAX_BODY_LENGTH,
      encryption: (props >> 10) & 0x7,
      subpackage,
      version,
      protocolVersion,
      phone,
      serial,
      packageTotal,
      packageIndex,
    },
    bodyOffset: o,
  };
}

/** Writes a header for a body of `bodyLength` bytes; throws Jt808Error('encode') on bad fields. */
export function writeHeader(w: Writer, init: HeaderInit, bodyLength: number): void {
  const version = init.version ?? 2013;
  const total = init.packageTotal ?? 0;
  const index = init.packageIndex ?? 0;
  const encryption = init.encryption ?? 0;
  if (bodyLength > MAX_BODY_LENGTH) {
    throw new Jt808Error('encode', `body of ${bodyLength} bytes exceeds ${MAX_BODY_LENGTH}: split it with encodeFrames`);
  }
  if (!Number.isInteger(encryption) || encryption < 0 || encryption > 7) throw new Jt808Error('encode', `encryption ${encryption} is not 0..7`);
  if (total > 0 && (index < 1 || index > total)) throw new Jt808Error('encode', `package ${index} of ${total}`);
  let props = bodyLength | (encryption << 10);
  if (total > 0) props |= PROP_SUBPACKAGE;
  if (version === 2019) props |= PROP_VERSION;
  w.u16(init.msgId, 'message id');
  w.u16(props);
  if (version === 2019) w.u8(init.protocolVersion ?? 1, 'protocol version');
  w.bcdPhone(init.phone, version === 2019 ? 10 : 6);
  w.u16(init.serial, 'serial');
  if (total > 0) {
    w.u16(total, 'package total');
    w.u16(index, 'package index');
  }
}

export function hex4(id: number): string {
  return id.toString(16).padStart(4, '0');
}
