import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { decodeBody, decodeFrame, encodeFrames } from './codec.ts';
import { Jt808Error } from './errors.ts';
import { unescapeFrame } from './framing.ts';
import type { Jt808Header } from './header.ts';
import { decodeMessage, encodeBody, isSupported, type Jt808MessageInput } from './messages.ts';
import type { MediaLocation, Multimedia } from './multimedia.ts';
import { Reassembler } from './reassembly.ts';
import { Gen } from './test-support.ts';

// 2026-11-22 08:30:00 China time (GMT+8).
const T0 = Date.UTC(2026, 10, 22, 0, 30);
const T1 = Date.UTC(2026, 10, 22, 1, 0);
const LOC: MediaLocation = { alarm: 1, status: 3, lat: 31.230416, lng: 121.473701, altitude: 12, speed: 36.5, direction: 90, time: T0 };
// alarm 1, status 3, lat 31230416, lng 121473701, altitude 12, speed 365, direction 90, time.
const LOC_HEX = '00000001' + '00000003' + '01dc89d0' + '073d8aa5' + '000c' + '016d' + '005a' + '261122083000';

function decode(msgId: number, bytes: Uint8Array, version: 2013 | 2019 = 2013) {
  return decodeMessage(msgId, version, bytes, 0, bytes.length);
}

function roundTrip(msg: Multimedia, version: 2013 | 2019 = 2013): unknown {
  const body = encodeBody(msg as Jt808MessageInput, version);
  return decode(msg.msgId, body, version);
}

describe('JT/T 808 multimedia messages', () => {
  it('encodes a camera shoot command (0x8801) byte for byte', () => {
    const body = encodeBody({ msgId: 0x8801, channel: 2, command: 3, interval: 5, saveFlag: 0, resolution: 1, quality: 5, brightness: 128, contrast: 64, saturation: 64, chroma: 128 });
    // channel 2, 3 photos, every 5 s, upload at once, 320x240, quality 5, brightness/contrast/saturation/chroma.
    expect(toHex(body)).toBe('02' + '0003' + '0005' + '00' + '01' + '05' + '80' + '40' + '40' + '80');
  });

  it('reads a camera answer (0x0805) with its media ids, and a refusal without them', () => {
    const ok = fromHex('0011' + '00' + '0002' + '00000065' + '00000066');
    expect(decode(0x0805, ok)).toEqual({ msgId: 0x0805, replySerial: 17, result: 0, mediaIds: [101, 102] });
    const refused = fromHex('0011' + '02');
    expect(decode(0x0805, refused)).toEqual({ msgId: 0x0805, replySerial: 17, result: 2, mediaIds: [] });
  });

  it('reads a multimedia data upload (0x0801): header, the 28-byte location, and the data', () => {
    const bytes = fromHex('00000065' + '00' + '00' + '00' + '03' + LOC_HEX + 'ffd8ffe0' + 'ffd9');
    const msg = decode(0x0801, bytes);
    expect(msg).toEqual({ msgId: 0x0801, mediaId: 101, mediaType: 0, format: 0, eventCode: 0, channel: 3, location: LOC, data: fromHex('ffd8ffe0ffd9') });
    expect(toHex(encodeBody(msg as Jt808MessageInput))).toBe(toHex(bytes));
  });

  it('encodes the upload answer (0x8800) with the packages to send again', () => {
    expect(toHex(encodeBody({ msgId: 0x8800, mediaId: 101, retransmit: [] }))).toBe('00000065' + '00');
    expect(toHex(encodeBody({ msgId: 0x8800, mediaId: 101, retransmit: [2, 7] }))).toBe('00000065' + '02' + '0002' + '0007');
    expect(decode(0x8800, fromHex('00000065'))).toEqual({ msgId: 0x8800, mediaId: 101, retransmit: [] });
  });

  it('reads a multimedia event (0x0800)', () => {
    expect(decode(0x0800, fromHex('00000007' + '00' + '00' + '02' + '01'))).toEqual({ msgId: 0x0800, mediaId: 7, mediaType: 0, format: 0, eventCode: 2, channel: 1 });
  });

  it('encodes the stored-media search (0x8802) and reads its answer (0x0802)', () => {
    expect(toHex(encodeBody({ msgId: 0x8802, mediaType: 0, channel: 0, eventCode: 0, startTime: T0, endTime: T1 }))).toBe('000000' + '261122083000' + '261122090000');
    const list = fromHex('0009' + '0001' + '00000065' + '00' + '02' + '00' + LOC_HEX);
    expect(decode(0x0802, list)).toEqual({ msgId: 0x0802, replySerial: 9, items: [{ mediaId: 101, mediaType: 0, channel: 2, eventCode: 0, location: LOC }] });
  });

  it('round-trips every message in both editions', () => {
    const messages: Multimedia[] = [
      { msgId: 0x0800, mediaId: 0xffffffff, mediaType: 2, format: 4, eventCode: 7, channel: 4 },
      { msgId: 0x0801, mediaId: 1, mediaType: 0, format: 0, eventCode: 3, channel: 1, location: { ...LOC, status: 3 | 4 | 8, lat: -12.5, lng: -70.25, time: NaN }, data: new Uint8Array(3000).map((_, i) => i) },
      { msgId: 0x8800, mediaId: 5, retransmit: [1, 2, 3] },
      { msgId: 0x8801, channel: 1, command: 0xffff, interval: 30, saveFlag: 1, resolution: 8, quality: 1, brightness: 0, contrast: 127, saturation: 127, chroma: 255 },
      { msgId: 0x0805, replySerial: 65535, result: 0, mediaIds: [1, 2, 3] },
      { msgId: 0x0805, replySerial: 1, result: 1, mediaIds: [] },
      { msgId: 0x8802, mediaType: 0, channel: 3, eventCode: 1, startTime: NaN, endTime: NaN },
      { msgId: 0x0802, replySerial: 3, items: [{ mediaId: 1, mediaType: 0, channel: 1, eventCode: 0, location: LOC }, { mediaId: 2, mediaType: 0, channel: 2, eventCode: 2, location: LOC }] },
      { msgId: 0x8803, mediaType: 0, channel: 0, eventCode: 0, startTime: T0, endTime: T1, deleteFlag: 0 },
      { msgId: 0x8805, mediaId: 77, deleteFlag: 1 },
    ];
    for (const version of [2013, 2019] as const) {
      for (const m of messages) {
        expect(isSupported(m.msgId)).toBe(true);
        expect(roundTrip(m, version)).toEqual(m);
      }
    }
  });

  it('refuses malformed bodies with typed errors: truncation, impossible counts, trailing bytes, bad times', () => {
    const bad: [number, string][] = [
      [0x0801, '00000065000000'], // header cut short
      [0x0801, '00000065' + '00000003' + LOC_HEX.slice(0, 40)], // location cut short
      [0x0805, '0011' + '00' + 'ffff' + '00000001'], // 65535 ids announced, one present
      [0x0802, '0009' + '0100'], // 256 items announced, none present
      [0x8800, '00000065' + '03' + '0001'], // 3 package ids announced, one present
      [0x8805, '00000001' + '00' + '00'], // trailing byte
      [0x8802, '000000' + '261322083000' + '261122090000'], // month 13
      [0x0800, '000000'],
    ];
    for (const [id, hex] of bad) {
      const bytes = fromHex(hex);
      expect(() => decode(id, bytes), `0x${id.toString(16)} ${hex}`).toThrow(Jt808Error);
    }
  });

  it('refuses values that do not fit on encoding', () => {
    expect(() => encodeBody({ msgId: 0x8801, channel: 256, command: 1, interval: 0, saveFlag: 0, resolution: 1, quality: 5, brightness: 0, contrast: 0, saturation: 0, chroma: 0 })).toThrow(Jt808Error);
    expect(() => encodeBody({ msgId: 0x8800, mediaId: 1, retransmit: Array.from({ length: 256 }, (_, i) => i) })).toThrow(Jt808Error);
    expect(() => encodeBody({ msgId: 0x0805, replySerial: 1, result: 1, mediaIds: [1] })).toThrow(Jt808Error);
  });

  it('a sub-packaged 0x0801 (a JPEG of 20 KB) comes back whole through the reassembler, in any order', () => {
    const gen = new Gen(11);
    const data = gen.bytes(20_000);
    const msg: Multimedia = { msgId: 0x0801, mediaId: 9, mediaType: 0, format: 0, eventCode: 0, channel: 2, location: LOC, data };
    const frames = encodeFrames({ msgId: 0x0801, phone: '13912345678', serial: 100, version: 2019 }, encodeBody(msg as Jt808MessageInput, 2019), 900);
    expect(frames.length).toBe(Math.ceil((20_000 + 36) / 900));
    const reassembler = new Reassembler();
    const order = frames.map((_, i) => i).reverse();
    let whole: { header: Jt808Header; body: Uint8Array } | null = null;
    for (const i of order) {
      const raw = unescapeFrame(frames[i]!.subarray(1, -1));
      if (raw instanceof Jt808Error) throw raw;
      const r = decodeFrame(raw);
      expect(r.kind).toBe('fragment');
      if (r.kind === 'fragment') {
        const pushed = reassembler.push(r.header, r.body, 0);
        if (typeof pushed === 'object') whole = pushed;
      }
    }
    expect(whole).not.toBeNull();
    const r = decodeBody(whole!.header, whole!.body);
    expect(r.kind === 'message' && r.message).toEqual(msg);
  });

  it('never throws on random bodies for any multimedia id', () => {
    const gen = new Gen(0x801);
    const kinds = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const id = gen.pick([0x0800, 0x0801, 0x8800, 0x8801, 0x0805, 0x8802, 0x0802, 0x8803, 0x8805]);
      const bytes = gen.bytes(gen.int(0, 80));
      const header: Jt808Header = { msgId: id, bodyLength: bytes.length, encryption: 0, subpackage: false, version: 2013, protocolVersion: 0, phone: '1', serial: 0, packageTotal: 0, packageIndex: 0 };
      const r = decodeBody(header, bytes);
      kinds.add(r.kind);
      if (r.kind === 'error') expect(r.error).toBeInstanceOf(Jt808Error);
    }
    expect(kinds).toEqual(new Set(['message', 'error']));
  });
});
