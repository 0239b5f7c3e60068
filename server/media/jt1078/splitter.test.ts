import { describe, expect, it } from 'vitest';
import type { Jt1078Error } from './errors.ts';
import { DATA_TYPE, encodePacket, headerLength, PAYLOAD_TYPE, type Jt1078Packet, type PacketInit } from './packet.ts';
import { PacketSplitter } from './splitter.ts';
import { chunks, concat, fromHex, hex } from './test-support.ts';

function video(serial: number, body: Uint8Array, simLength: 6 | 10 = 6): Uint8Array {
  const init: PacketInit = { payloadType: PAYLOAD_TYPE.H264, serial, sim: '13800138000', channel: 1, dataType: DATA_TYPE.P_FRAME, timestamp: serial * 40, body };
  return encodePacket(init, { simLength });
}

function bodyOf(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
}

function feed(splitter: PacketSplitter, parts: readonly Uint8Array[]): { packets: Jt1078Packet[]; errors: Jt1078Error[] } {
  const packets: Jt1078Packet[] = [];
  const errors: Jt1078Error[] = [];
  for (const c of parts) splitter.push(c, (p) => packets.push(p), (e) => errors.push(e));
  return { packets, errors };
}

const serials = (ps: readonly Jt1078Packet[]): number[] => ps.map((p) => p.serial);

describe('media port splitter', () => {
  const stream = concat([video(1, bodyOf(950, 1)), video(2, bodyOf(0, 2)), video(3, bodyOf(17, 3)), video(4, bodyOf(500, 4))]);

  it('returns the same packets whether the stream comes whole, byte by byte or in random chunks', () => {
    const whole = new PacketSplitter().split(stream);
    expect(serials(whole)).toEqual([1, 2, 3, 4]);
    expect(whole[0]!.body).toEqual(bodyOf(950, 1));
    const bytewise = feed(new PacketSplitter(), Array.from(stream, (b) => Uint8Array.of(b)));
    expect(bytewise.packets).toEqual(whole);
    for (let seed = 1; seed <= 20; seed++) {
      const s = new PacketSplitter();
      const r = feed(s, chunks(stream, seed, 700));
      expect(r.packets).toEqual(whole);
      expect(r.errors).toEqual([]);
      expect(s.pending).toBe(0);
    }
  });

  it('hands out bodies that survive the chunk being overwritten', () => {
    const chunk = stream.slice();
    const got = new PacketSplitter().split(chunk);
    chunk.fill(0);
    expect(got[3]!.body).toEqual(bodyOf(500, 4));
  });

  it('skips garbage before, between and after packets and counts every skipped byte', () => {
    const junk = fromHex('00 30 31 63 ff 7e 30');
    const s = new PacketSplitter();
    const r = feed(s, chunks(concat([junk, video(1, bodyOf(10, 1)), junk, junk, video(2, bodyOf(10, 2)), junk]), 3, 5));
    expect(serials(r.packets)).toEqual([1, 2]);
    // The final junk ends in 0x30, which could start a header: it is held, not yet counted.
    expect(s.stats.garbageBytes).toBe(junk.length * 4 - 1);
    expect(s.pending).toBe(1);
    expect(r.errors.every((e) => e.code === 'magic')).toBe(true);
  });

  it('drops a packet with a bad version or data type, counts it and resynchronises on the next header', () => {
    const bad = video(2, bodyOf(40, 2));
    bad[4] = 0x41;
    const badType = video(3, bodyOf(40, 3));
    badType[15] = 0x70;
    const s = new PacketSplitter();
    const r = feed(s, [concat([video(1, bodyOf(40, 1)), bad, badType, video(4, bodyOf(40, 4))])]);
    expect(serials(r.packets)).toEqual([1, 4]);
    expect(s.stats.badHeader).toBe(2);
    expect(r.errors.map((e) => e.code)).toEqual(['header', 'header']);
  });

  it('rejects a declared length above 950 bytes and finds the following packet', () => {
    const big = video(2, bodyOf(40, 2));
    big[28] = 0x04; // length 0x0428 = 1064
    const s = new PacketSplitter();
    const r = feed(s, [concat([big, video(3, bodyOf(40, 3))])]);
    expect(serials(r.packets)).toEqual([3]);
    expect(s.stats.tooLong).toBe(1);
  });

  it('accepts bigger bodies when maxBody is raised for lax terminals', () => {
    const init: PacketInit = { payloadType: 98, serial: 9, sim: '1', channel: 1, dataType: DATA_TYPE.I_FRAME, timestamp: 0, body: bodyOf(1400, 9) };
    const s = new PacketSplitter({ maxBody: 1500 });
    expect(serials(feed(s, chunks(encodePacket(init, { maxBody: 1500 }), 2, 100)).packets)).toEqual([9]);
  });

  it('recovers the next packet when a declared length overruns into it', () => {
    const long = video(2, bodyOf(40, 2));
    long[29] = 90; // claims 90 bytes; the next packet starts after 40
    const s = new PacketSplitter();
    const r = feed(s, [concat([video(1, bodyOf(40, 1)), long, video(3, bodyOf(40, 3)), video(4, bodyOf(40, 4))])]);
    expect(serials(r.packets)).toEqual([1, 3, 4]);
    expect(s.stats.truncated).toBe(1);
  });

  it('drops a packet whose declared length is too short, and loses nothing after it', () => {
    const short = video(2, bodyOf(40, 2));
    short[29] = 20;
    const s = new PacketSplitter();
    const r = feed(s, [concat([video(1, bodyOf(40, 1)), short, video(3, bodyOf(40, 3))])]);
    // Packet 2 comes out with its first 20 bytes (the codec cannot know), then 20 bytes are skipped.
    expect(serials(r.packets)).toEqual([1, 2, 3]);
    expect(r.packets[1]!.body.length).toBe(20);
    expect(s.stats.garbageBytes).toBe(20);
  });

  it('drops a packet with a non-BCD SIM but stays in step', () => {
    const bad = video(2, bodyOf(40, 2));
    bad[9] = 0xab;
    const s = new PacketSplitter();
    const r = feed(s, [concat([bad, video(3, bodyOf(40, 3))])]);
    expect(serials(r.packets)).toEqual([3]);
    expect(s.stats.badSim).toBe(1);
    expect(r.errors.map((e) => e.code)).toEqual(['field']);
  });

  it('splits 10-byte-SIM streams when configured', () => {
    const s = new PacketSplitter({ simLength: 10 });
    const stream10 = concat([video(1, bodyOf(950, 1), 10), video(2, bodyOf(3, 2), 10)]);
    const r = feed(s, chunks(stream10, 7, 300));
    expect(serials(r.packets)).toEqual([1, 2]);
    expect(r.packets[0]!.sim).toBe('13800138000');
  });

  it('holds at most one packet between chunks, whatever arrives', () => {
    const s = new PacketSplitter();
    const maxPacket = headerLength(0) + 950;
    const noise = new Uint8Array(1 << 20);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    for (const c of chunks(noise, 5, 4000)) {
      s.push(c, () => undefined);
      expect(s.pending).toBeLessThan(maxPacket);
    }
    // A header announcing 950 bytes, then silence: held until the body completes.
    const partial = video(1, bodyOf(950, 1)).subarray(0, 500);
    s.reset();
    s.push(partial, () => undefined);
    expect(s.pending).toBe(500);
  });

  it('formats what it could not parse as typed errors', () => {
    const errors: string[] = [];
    new PacketSplitter().push(fromHex('01 02 03'), () => undefined, (e) => errors.push(`${e.name}:${e.code}`));
    expect(errors).toEqual(['Jt1078Error:magic']);
    expect(hex(new Uint8Array(0))).toBe('');
  });
});
