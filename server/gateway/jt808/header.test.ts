import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { decodeFrame, encodeFrame, encodeFrameBody, encodePacket, encodeReply, type FrameResult } from './codec.ts';
import { Jt808Error } from './errors.ts';
import { bcc, readHeader } from './header.ts';

/** Recomputes the checksum after a deliberate edit, so only the edited property is wrong. */
function withChecksum(hexWithoutChecksum: string): Uint8Array {
  const b = fromHex(hexWithoutChecksum);
  const out = new Uint8Array(b.length + 1);
  out.set(b);
  out[b.length] = bcc(b);
  return out;
}

function errorOf(r: FrameResult): Jt808Error {
  if (r.kind !== 'error') throw new Error(`expected an error, got ${r.kind}`);
  return r.error;
}

describe('message header', () => {
  it('reads a 2013 header: 12 bytes, BCD[6] phone, no version byte', () => {
    const r = readHeader(fromHex('0002 0000 013912345678 0004 36'));
    expect(r).toEqual({
      header: { msgId: 2, bodyLength: 0, encryption: 0, subpackage: false, version: 2013, protocolVersion: 0, phone: '13912345678', serial: 4, packageTotal: 0, packageIndex: 0 },
      bodyOffset: 12,
    });
  });

  it('reads a 2019 header: version flag, protocol version byte, BCD[10] phone, 17 bytes', () => {
    const r = readHeader(fromHex('0002 4000 01 00000000013912345678 0004 77'));
    expect(r).toEqual({
      header: { msgId: 2, bodyLength: 0, encryption: 0, subpackage: false, version: 2019, protocolVersion: 1, phone: '13912345678', serial: 4, packageTotal: 0, packageIndex: 0 },
      bodyOffset: 17,
    });
  });

  it('gives the same terminal key for a phone in a 2013 and a 2019 header', () => {
    const a = readHeader(fromHex('0002 0000 013912345678 0004'));
    const b = readHeader(fromHex('0002 4000 01 00000000013912345678 0004'));
    expect(a instanceof Jt808Error || b instanceof Jt808Error).toBe(false);
    if (a instanceof Jt808Error || b instanceof Jt808Error) return;
    expect(a.header.phone).toBe(b.header.phone);
  });

  it('reads sub-package fields after the serial in both editions', () => {
    const r13 = decodeFrame(fromHex('0704 2003 013912345678 0014 0003 0002 010203 05'));
    const r19 = decodeFrame(fromHex('0704 6003 01 00000000013912345678 0014 0003 0002 010203 44'));
    for (const r of [r13, r19]) {
      expect(r.kind).toBe('fragment');
      if (r.kind !== 'fragment') continue;
      expect([r.header.packageTotal, r.header.packageIndex, r.header.serial]).toEqual([3, 2, 20]);
      expect(toHex(r.body)).toBe('010203');
    }
  });

  it('writes what it reads, sub-package and encryption bits included', () => {
    const frame = encodeFrameBody({ msgId: 0x0704, phone: '13912345678', serial: 20, version: 2019, packageTotal: 3, packageIndex: 2 }, fromHex('010203'));
    expect(toHex(frame)).toBe('07046003010000000001391234567800140003000201020344');
  });
});

describe('decodeFrame errors', () => {
  it('reports a checksum mismatch without trusting the header', () => {
    const r = decodeFrame(fromHex('0002 0000 013912345678 0004 37'));
    expect(errorOf(r).code).toBe('checksum');
    expect(r.kind === 'error' && r.header).toBeNull();
  });

  it('reports a declared length that disagrees with a correctly checksummed body, keeping the header for a reply', () => {
    const r = decodeFrame(withChecksum('0001 0006 013912345678 0003 1234 8300 00'));
    expect(errorOf(r).code).toBe('length');
    expect(r.kind === 'error' && r.header?.serial).toBe(3);
  });

  it('reports a frame shorter than its declared body as truncated', () => {
    const full = encodeFrameBody({ msgId: 0x0001, phone: '13912345678', serial: 3 }, fromHex('1234 8300 00'));
    expect(errorOf(decodeFrame(full.subarray(0, full.length - 2))).code).toBe('truncated');
    expect(errorOf(decodeFrame(fromHex('0002 00'))).code).toBe('truncated');
    expect(errorOf(decodeFrame(fromHex('0002 4000 01 0000'))).code).toBe('truncated');
  });

  it('reports the reserved bit and a 2019 header with protocol version 0 as an unknown version', () => {
    expect(errorOf(decodeFrame(withChecksum('0002 8000 013912345678 0004'))).code).toBe('version');
    expect(errorOf(decodeFrame(withChecksum('0002 4000 00 00000000013912345678 0004'))).code).toBe('version');
  });

  it('reports an RSA-encrypted body instead of decoding ciphertext', () => {
    const r = decodeFrame(withChecksum('0002 0400 013912345678 0004'));
    expect(errorOf(r).code).toBe('encrypted');
    expect(r.header?.serial).toBe(4);
  });

  it('reports a phone that is not BCD and a sub-package index outside 1..total as bad fields', () => {
    expect(errorOf(decodeFrame(withChecksum('0002 0000 0139123456a8 0004'))).code).toBe('field');
    expect(errorOf(decodeFrame(withChecksum('0704 2000 013912345678 0014 0003 0004'))).code).toBe('field');
    expect(errorOf(decodeFrame(withChecksum('0704 2000 013912345678 0014 0003 0000'))).code).toBe('field');
  });

  it('reports a malformed body with the header, so the gateway can answer "bad message"', () => {
    const r = decodeFrame(withChecksum('0200 0004 013912345678 0007 00000000'));
    expect(errorOf(r).code).toBe('truncated');
    expect(r.header?.serial).toBe(7);
  });

  it('reports a location time that is not BCD as a bad field and an all-zero time as NaN', () => {
    const body = (time: string): string => `00000000 00000003 01dc9a07 07456246 000c 02d5 005a ${time}`;
    expect(errorOf(decodeFrame(withChecksum(`0200 001c 013912345678 0007 ${body('2611221530a5')}`))).code).toBe('field');
    expect(errorOf(decodeFrame(withChecksum(`0200 001c 013912345678 0007 ${body('261131153045')}`))).code).toBe('field');
    const zero = decodeFrame(withChecksum(`0200 001c 013912345678 0007 ${body('000000000000')}`));
    expect(zero.kind === 'message' && zero.message.msgId === 0x0200 && zero.message.time).toBeNaN();
  });

  it('accepts a heartbeat carrying a stray body byte, so a quirky terminal keeps its connection', () => {
    const r = decodeFrame(withChecksum('0002 0001 013912345678 0004 00'));
    expect(r.kind === 'message' && r.message).toEqual({ msgId: 0x0002 });
  });

  it('hands an unknown message id back as unsupported with its body', () => {
    const r = decodeFrame(withChecksum('0f01 0002 013912345678 0008 abcd'));
    expect(r.kind).toBe('unsupported');
    expect(r.kind === 'unsupported' && toHex(r.body)).toBe('abcd');
  });

  it('keeps a location item of an unexpected length raw instead of failing the report', () => {
    const r = decodeFrame(withChecksum('0200 0023 013912345678 0007 00000000 00000003 01dc9a07 07456246 000c 02d5 005a 261122153045 30 01 19 01 02 0001'));
    expect(r.kind).toBe('message');
    if (r.kind !== 'message' || r.message.msgId !== 0x0200) return;
    expect(r.message.signal).toBe(25);
    expect(r.message.mileage).toBeUndefined();
    expect(r.message.extras?.map((x) => [x.id, toHex(x.data)])).toEqual([[1, '0001']]);
  });
});

describe('encoders', () => {
  it('refuse a body over 1023 bytes in one frame', () => {
    expect(() => encodeFrame({ msgId: 0x0900, phone: '1', serial: 1 }, new Uint8Array(1024))).toThrow(Jt808Error);
  });

  it('refuse values that do not fit their fields with a typed error', () => {
    const bad = [
      () => encodePacket({ phone: '13912345678', serial: 70_000 }, { msgId: 0x0002 }),
      () => encodePacket({ phone: '1391234567x', serial: 1 }, { msgId: 0x0002 }),
      () => encodePacket({ phone: '1234567890123', serial: 1 }, { msgId: 0x0002 }),
      () => encodePacket({ phone: '1', serial: 1 }, { msgId: 0x0100, province: 1, city: 1, makerId: '123456', model: '', terminalId: '', plateColor: 0, plate: '' }),
      () => encodePacket({ phone: '1', serial: 1 }, { msgId: 0x0200, alarm: 0, status: 0, lat: 91, lng: 0, altitude: 0, speed: 0, direction: 0, time: 0 }),
      () => encodePacket({ phone: '1', serial: 1 }, { msgId: 0x0200, alarm: 0, status: 0, lat: 0, lng: 0, altitude: 0, speed: 0, direction: 0, time: Date.UTC(1999, 0, 1) }),
    ];
    for (const f of bad) {
      expect(f).toThrow(Jt808Error);
    }
  });

  it('answer a 2019 terminal in its own edition with the reply serial and id', () => {
    const request = decodeFrame(fromHex('0002 4000 01 00000000013912345678 0004 77'));
    if (request.kind !== 'message') throw new Error(request.kind);
    const reply = encodeReply(request.header, 1, { msgId: 0x8001, replySerial: request.header.serial, replyId: request.header.msgId, result: 0 });
    expect(toHex(reply)).toBe(toHex(encodePacket({ phone: '13912345678', serial: 1, version: 2019 }, { msgId: 0x8001, replySerial: 4, replyId: 2, result: 0 })));
    expect(toHex(reply).slice(2, 36)).toBe('8001400501000000000139123456780001');
  });

  it('write all-zero BCD for a location without a time', () => {
    const frame = encodePacket({ phone: '1', serial: 1 }, { msgId: 0x0200, alarm: 0, status: 0, lat: 0, lng: 0, altitude: 0, speed: 0, direction: 0, time: NaN });
    expect(toHex(frame)).toContain('000000000000');
  });
});
