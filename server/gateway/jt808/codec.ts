/**
 * Frame-level entry points: an unescaped frame body in, a typed result out (never a throw), and
 * the reverse for outgoing frames (header + body + checksum, escaped and delimited).
 */
import { Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { escapeFrame } from './framing.ts';
import { bcc, hex4, MAX_BODY_LENGTH, readHeader, writeHeader, type HeaderInit, type Jt808Header } from './header.ts';
import { decodeMessage, writeMessage, type Jt808Message, type Jt808MessageInput } from './messages.ts';

export type FrameResult =
  /** A supported message, decoded. */
  | { kind: 'message'; header: Jt808Header; message: Jt808Message }
  /** A well-formed frame whose id the codec does not know (answer with result 3). */
  | { kind: 'unsupported'; header: Jt808Header; body: Uint8Array }
  /** One package of a sub-packaged message: give it to a Reassembler, then decodeBody. */
  | { kind: 'fragment'; header: Jt808Header; body: Uint8Array }
  /**
   * A bad frame. `header` is set only once the checksum verified it, so a reply (result 2)
   * goes to the right terminal; checksum, truncated and header errors have none.
   */
  | { kind: 'error'; error: Jt808Error; header: Jt808Header | null };

function fail(error: Jt808Error, header: Jt808Header | null): FrameResult {
  return { kind: 'error', error, header };
}

/**
 * Decodes one unescaped frame (what FrameSplitter yields: header + body + checksum, no 0x7e).
 * Order: header structure, checksum (a length mismatch in a corrupt frame reports as
 * truncated/length), declared length, encryption, body.
 */
export function decodeFrame(frame: Uint8Array): FrameResult {
  const read = readHeader(frame);
  if (read instanceof Jt808Error) return fail(read, null);
  const { header, bodyOffset } = read;
  const n = frame.length;
  const actual = n - 1 - bodyOffset;
  if (actual < 0) return fail(new Jt808Error('truncated', `message 0x${hex4(header.msgId)}: no checksum byte`), null);
  if (bcc(frame, 0, n - 1) !== frame[n - 1]) {
    if (actual < header.bodyLength) {
      return fail(new Jt808Error('truncated', `message 0x${hex4(header.msgId)}: body of ${actual} bytes, header declares ${header.bodyLength}`), null);
    }
    if (actual !== header.bodyLength) {
      return fail(new Jt808Error('length', `message 0x${hex4(header.msgId)}: body of ${actual} bytes, header declares ${header.bodyLength}`), null);
    }
    return fail(new Jt808Error('checksum', `message 0x${hex4(header.msgId)}: checksum mismatch`), null);
  }
  if (actual !== header.bodyLength) {
    return fail(new Jt808Error('length', `message 0x${hex4(header.msgId)}: body of ${actual} bytes, header declares ${header.bodyLength}`), header);
  }
  if (header.encryption !== 0) {
    return fail(new Jt808Error('encrypted', `message 0x${hex4(header.msgId)}: encrypted body (mode ${header.encryption})`), header);
  }
  if (header.subpackage) return { kind: 'fragment', header, body: frame.subarray(bodyOffset, n - 1) };
  return decodeAt(header, frame, bodyOffset, n - 1);
}

/** Decodes a body on its own, e.g. one a Reassembler returned. Never throws. */
export function decodeBody(header: Jt808Header, body: Uint8Array): FrameResult {
  return decodeAt(header, body, 0, body.length);
}

function decodeAt(header: Jt808Header, bytes: Uint8Array, start: number, end: number): FrameResult {
  try {
    const message = decodeMessage(header.msgId, header.version, bytes, start, end);
    if (message === null) return { kind: 'unsupported', header, body: bytes.subarray(start, end) };
    return { kind: 'message', header, message };
  } catch (e) {
    if (e instanceof Jt808Error) return fail(e, header);
    // Not expected from the decoders; still reported as a typed error, never rethrown.
    return fail(new Jt808Error('field', `message 0x${hex4(header.msgId)}: ${e instanceof Error ? e.message : String(e)}`), header);
  }
}

/** Unescaped frame body (header + body + checksum), for tests and re-framing. */
export function encodeFrameBody(init: HeaderInit, body: Uint8Array): Uint8Array {
  const w = new Writer(body.length + 26);
  writeHeader(w, init, body.length);
  w.bytes(body);
  const at = w.reserve(1);
  const out = w.finish();
  out[at] = bcc(out, 0, at);
  return out;
}

/** A complete wire frame: header + body + checksum, escaped, between 0x7e delimiters. */
export function encodeFrame(init: HeaderInit, body: Uint8Array): Uint8Array {
  return escapeFrame(encodeFrameBody(init, body));
}

/** Encodes `message` with a header for its id: the usual way to build a reply or a report. */
export function encodePacket(init: Omit<HeaderInit, 'msgId'>, message: Jt808MessageInput): Uint8Array {
  const w = new Writer(96);
  writeMessage(w, message, init.version ?? 2013);
  // Not `{ ...init, msgId }`: one per acknowledgement, and that shape costs a hidden class per object (server/CONTEXT.md).
  return encodeFrame(Object.assign({}, init, { msgId: message.msgId }), w.finish());
}

/**
 * A platform reply to `request` (same terminal, edition and protocol version), e.g.
 * `encodeReply(h, nextSerial, { msgId: 0x8001, replySerial: h.serial, replyId: h.msgId, result: 0 })`.
 */
export function encodeReply(request: Jt808Header, serial: number, message: Jt808MessageInput): Uint8Array {
  return encodePacket({ phone: request.phone, serial, version: request.version, protocolVersion: request.protocolVersion || 1 }, message);
}

/**
 * Frames for a body of any size: one frame when it fits 1023 bytes, else packages of at most
 * `packageSize` bytes with consecutive serials from `init.serial` (wrapping at 0xffff).
 */
export function encodeFrames(init: HeaderInit, body: Uint8Array, packageSize = MAX_BODY_LENGTH): Uint8Array[] {
  if (body.length <= MAX_BODY_LENGTH && packageSize >= body.length) return [encodeFrame(init, body)];
  if (!Number.isInteger(packageSize) || packageSize < 1 || packageSize > MAX_BODY_LENGTH) {
    throw new Jt808Error('encode', `package size ${packageSize} is not 1..${MAX_BODY_LENGTH}`);
  }
  const total = Math.ceil(body.length / packageSize);
  if (total > 0xffff) throw new Jt808Error('encode', `body of ${body.length} bytes needs ${total} packages (max 65535)`);
  const frames: Uint8Array[] = [];
  for (let i = 0; i < total; i++) {
    const part = body.subarray(i * packageSize, Math.min(body.length, (i + 1) * packageSize));
    frames.push(encodeFrame({ ...init, serial: (init.serial + i) & 0xffff, packageTotal: total, packageIndex: i + 1 }, part));
  }
  return frames;
}
