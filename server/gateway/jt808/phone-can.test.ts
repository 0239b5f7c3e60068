import { describe, expect, it } from 'vitest';
import type { CanDataUpload } from './can.ts';
import { decodeFrame, encodePacket } from './codec.ts';
import { FrameSplitter } from './framing.ts';

const body = (wire: Uint8Array) => new FrameSplitter().split(wire)[0]!;

const roundTrip = (message: Parameters<typeof encodePacket>[1], version: 2013 | 2019 = 2013) => {
  const r = decodeFrame(body(encodePacket({ phone: '13912345678', serial: 7, version }, message)));
  if (r.kind !== 'message') throw new Error(`decoded as ${r.kind}`);
  return r.message;
};

describe('0x8400 telephone callback', () => {
  it('carries the flag and the number both ways, in both editions', () => {
    expect(roundTrip({ msgId: 0x8400, flag: 1, phone: '13800138000' })).toEqual({ msgId: 0x8400, flag: 1, phone: '13800138000' });
    expect(roundTrip({ msgId: 0x8400, flag: 0, phone: '+8613800138000' }, 2019)).toEqual({ msgId: 0x8400, flag: 0, phone: '+8613800138000' });
  });

  it('refuses to encode an unknown flag or a number over 20 bytes', () => {
    expect(() => encodePacket({ phone: '1', serial: 1 }, { msgId: 0x8400, flag: 2, phone: '110' })).toThrow(/flag 2/);
    expect(() => encodePacket({ phone: '1', serial: 1 }, { msgId: 0x8400, flag: 0, phone: '1'.repeat(21) })).toThrow(/exceeds 20/);
  });
});

describe('0x0705 CAN bus data', () => {
  it('keeps the receive time, the channel / frame-type / averaged bits, the id and the data of every item', () => {
    const msg: CanDataUpload = {
      msgId: 0x0705,
      receiveMsOfDay: ((13 * 60 + 45) * 60 + 9) * 1000 + 123,
      items: [
        { channel: 0, extended: true, averaged: false, id: 0x0cf00400, data: Uint8Array.of(0xf0, 0x7d, 0x7d, 0x98, 0x3a, 0, 0xf0, 0x7d) },
        { channel: 1, extended: false, averaged: true, id: 0x7e8, data: Uint8Array.of(4, 0x41, 0x0c, 0x1a, 0xf8, 0x55, 0x55, 0x55) },
      ],
    };
    expect(roundTrip(msg)).toEqual(msg);
  });

  it('refuses to encode an item whose data is not 8 bytes', () => {
    expect(() => encodePacket({ phone: '1', serial: 1 }, { msgId: 0x0705, receiveMsOfDay: 0, items: [{ channel: 0, extended: true, averaged: false, id: 1, data: new Uint8Array(7) }] })).toThrow(/must be 8/);
  });
});
