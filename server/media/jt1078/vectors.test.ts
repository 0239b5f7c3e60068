import { describe, expect, it } from 'vitest';
import { Jt1078Error } from './errors.ts';
import { DATA_TYPE, decodePacket, encodePacket, PAYLOAD_TYPE, payloadTypeName, SUBPACKAGE, type PacketInit } from './packet.ts';
import { fromHex, hex } from './test-support.ts';

// Hand-assembled from JT/T 1078-2016 table 19; field by field on each line.
const VIDEO_I_ATOMIC = [
  '30 31 63 64', // frame header
  '81', // V=2 P=0 X=0 CC=1
  'e2', // M=1, PT=98 (H.264)
  '01 02', // serial 258
  '01 38 00 13 80 00', // SIM 013800138000
  '01', // logical channel 1
  '00', // I-frame, atomic
  '00 00 01 8b cf e5 68 7b', // timestamp 1,700,000,000,123 ms
  '03 e8', // last I-frame interval 1000
  '00 28', // last frame interval 40
  '00 03', // body length
  'ab cd ef',
].join(' ');

const AUDIO = '30 31 63 64 81 86 00 05 01 38 00 13 80 00 02 30 00 00 00 00 00 00 00 28 00 02 d5 d5';
const TRANSPARENT = '30 31 63 64 81 db ff ff 01 38 00 13 80 00 03 40 00 01 7e';
// 10-byte SIM (JT/T 808-2019 terminals), P-frame middle package, marker clear.
const VIDEO_P_MIDDLE_SIM10 = '30 31 63 64 81 62 00 07 00 00 00 00 01 38 00 13 80 00 04 13 00 00 00 00 00 00 0f a0 00 c8 00 28 00 01 00';

const videoInit: PacketInit = {
  payloadType: PAYLOAD_TYPE.H264,
  serial: 258,
  sim: '13800138000',
  channel: 1,
  dataType: DATA_TYPE.I_FRAME,
  timestamp: 1_700_000_000_123,
  lastIFrameInterval: 1000,
  lastFrameInterval: 40,
  body: fromHex('abcdef'),
};

describe('JT/T 1078 packet vectors', () => {
  it('encodes an atomic H.264 I-frame packet to the hand-checked bytes', () => {
    expect(hex(encodePacket(videoInit))).toBe(VIDEO_I_ATOMIC);
  });

  it('decodes the I-frame packet into every header field', () => {
    const r = decodePacket(fromHex(VIDEO_I_ATOMIC));
    expect(r.kind).toBe('packet');
    if (r.kind !== 'packet') return;
    expect(r.length).toBe(33);
    expect({ ...r.packet, body: hex(r.packet.body) }).toEqual({
      payloadType: 98,
      marker: true,
      serial: 258,
      sim: '13800138000',
      channel: 1,
      dataType: 0,
      subpackage: 0,
      timestamp: 1_700_000_000_123,
      lastIFrameInterval: 1000,
      lastFrameInterval: 40,
      body: 'ab cd ef',
    });
  });

  it('writes audio packets without the video interval fields', () => {
    const bytes = encodePacket({ payloadType: PAYLOAD_TYPE.G711A, serial: 5, sim: '13800138000', channel: 2, dataType: DATA_TYPE.AUDIO, timestamp: 40, body: fromHex('d5d5') });
    expect(hex(bytes)).toBe(AUDIO);
    const r = decodePacket(bytes);
    expect(r.kind === 'packet' && r.packet).toMatchObject({ dataType: 3, payloadType: 6, timestamp: 40, lastIFrameInterval: undefined, lastFrameInterval: undefined });
  });

  it('writes transparent data without a timestamp', () => {
    const bytes = encodePacket({ payloadType: PAYLOAD_TYPE.TRANSPARENT, serial: 0xffff, sim: '13800138000', channel: 3, dataType: DATA_TYPE.TRANSPARENT, timestamp: 99, body: fromHex('7e') });
    expect(hex(bytes)).toBe(TRANSPARENT);
    const r = decodePacket(bytes);
    expect(r.kind === 'packet' && r.packet).toMatchObject({ dataType: 4, payloadType: 91, serial: 0xffff, timestamp: undefined });
  });

  it('uses a 10-byte SIM when asked, and both SIM widths give the same SIM key', () => {
    const init: PacketInit = {
      payloadType: PAYLOAD_TYPE.H264,
      marker: false,
      serial: 7,
      sim: '13800138000',
      channel: 4,
      dataType: DATA_TYPE.P_FRAME,
      subpackage: SUBPACKAGE.MIDDLE,
      timestamp: 4000,
      lastIFrameInterval: 200,
      lastFrameInterval: 40,
      body: fromHex('00'),
    };
    expect(hex(encodePacket(init, { simLength: 10 }))).toBe(VIDEO_P_MIDDLE_SIM10);
    const r10 = decodePacket(fromHex(VIDEO_P_MIDDLE_SIM10), 0, { simLength: 10 });
    const r6 = decodePacket(encodePacket(init));
    expect(r10.kind === 'packet' && r10.packet.sim).toBe('13800138000');
    expect(r6.kind === 'packet' && r6.packet.sim).toBe('13800138000');
    expect(r10.kind === 'packet' && r10.packet).toMatchObject({ marker: false, subpackage: 3, dataType: 1 });
  });

  it('keeps timestamps beyond 32 bits exact', () => {
    const ts = 2 ** 40 + 12345;
    const r = decodePacket(encodePacket({ ...videoInit, timestamp: ts }));
    expect(r.kind === 'packet' && r.packet.timestamp).toBe(ts);
  });

  it('decodes a packet at an offset and reports only its own length', () => {
    const buf = fromHex(`ff ff ${VIDEO_I_ATOMIC} 30 31`);
    const r = decodePacket(buf, 2);
    expect(r.kind === 'packet' && r.length).toBe(33);
  });

  it.each([
    ['truncated', VIDEO_I_ATOMIC.slice(0, -3)],
    ['truncated', '30 31 63 64 81'],
    ['magic', `31 ${VIDEO_I_ATOMIC.slice(3)}`],
    ['header', `30 31 63 64 41 ${VIDEO_I_ATOMIC.slice(15)}`], // RTP version 1
    ['header', VIDEO_I_ATOMIC.replace('01 00 00 00 01', '01 50 00 00 01')], // data type 5
    ['header', VIDEO_I_ATOMIC.replace('01 00 00 00 01', '01 04 00 00 01')], // sub-package mark 4
    ['too-long', VIDEO_I_ATOMIC.replace('00 28 00 03', '00 28 03 b7')], // 951 bytes
    ['field', VIDEO_I_ATOMIC.replace('01 38 00 13 80 00', '01 38 00 1a 80 00')], // non-BCD SIM
  ])('reports a %s error without throwing', (code, text) => {
    const r = decodePacket(fromHex(text));
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.error.code).toBe(code);
  });

  it('refuses to encode values that do not fit', () => {
    const bad: Partial<PacketInit>[] = [
      { body: new Uint8Array(951) },
      { sim: '1380013800012' },
      { sim: '1380-138000' },
      { serial: 65536 },
      { channel: 256 },
      { timestamp: undefined },
      { timestamp: -1 },
      { lastFrameInterval: 70000 },
      { payloadType: 128 },
    ];
    for (const patch of bad) {
      expect(() => encodePacket({ ...videoInit, ...patch }), JSON.stringify(patch)).toThrow(Jt1078Error);
    }
    expect(() => encodePacket({ ...videoInit, dataType: 5 as never })).toThrow(Jt1078Error);
  });

  it('names payload types by the standard table, not RFC 3551', () => {
    expect([6, 7, 8, 26, 91, 98, 99].map(payloadTypeName)).toEqual(['G711A', 'G711U', 'G726', 'ADPCMA', 'TRANSPARENT', 'H264', 'H265']);
    expect(payloadTypeName(50)).toBeUndefined();
  });
});
