import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { decodeFrame, encodeFrameBody, encodePacket } from './codec.ts';
import type { Jt808Error } from './errors.ts';
import { escapeFrame, FrameSplitter, unescapeFrame } from './framing.ts';
import type { ProtocolEdition } from './header.ts';
import { concat, Gen } from './test-support.ts';

function heartbeat(serial: number): Uint8Array {
  return encodePacket({ phone: '13912345678', serial }, { msgId: 0x0002 });
}

/** Random valid frames plus the unescaped bodies the splitter must yield for them. */
function randomFrames(gen: Gen, n: number): { wire: Uint8Array[]; bodies: Uint8Array[] } {
  const wire: Uint8Array[] = [];
  const bodies: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const version: ProtocolEdition = gen.bool() ? 2019 : 2013;
    const init = { phone: gen.phone(version), serial: gen.int(0, 0xffff), version };
    const message = gen.message(version);
    const frame = encodePacket(init, message);
    wire.push(frame);
    const inner = unescapeFrame(frame.subarray(1, frame.length - 1));
    if (inner instanceof Error) throw inner;
    bodies.push(inner);
  }
  return { wire, bodies };
}

/** Cuts `stream` at random points into chunks of 1..maxChunk bytes. */
function chop(gen: Gen, stream: Uint8Array, maxChunk: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < stream.length; ) {
    const n = gen.int(1, maxChunk);
    chunks.push(stream.subarray(i, i + n));
    i += n;
  }
  return chunks;
}

describe('escapeFrame', () => {
  it('escapes 0x7e and 0x7d as in the standard\'s own example', () => {
    // JT/T 808 §4.4.2: 0x30 0x7e 0x08 0x7d 0x55 is sent as 0x7e 0x30 0x7d 0x02 0x08 0x7d 0x01 0x55 0x7e.
    expect(toHex(escapeFrame(fromHex('30 7e 08 7d 55')))).toBe('7e307d02087d01557e');
  });

  it('is undone by unescapeFrame, which reports a bad escape instead of guessing', () => {
    expect(toHex(unescapeFrame(fromHex('30 7d02 08 7d01 55')) as Uint8Array)).toBe('307e087d55');
    expect((unescapeFrame(fromHex('30 7d 03')) as Jt808Error).code).toBe('escape');
  });
});

describe('FrameSplitter', () => {
  it('yields every frame whole however the TCP stream is chunked', () => {
    const gen = new Gen(808);
    for (let round = 0; round < 20; round++) {
      const { wire, bodies } = randomFrames(gen, 40);
      const splitter = new FrameSplitter();
      const got: Uint8Array[] = [];
      for (const chunk of chop(gen, concat(wire), gen.pick([1, 3, 17, 64, 1460, 5000]))) {
        splitter.push(chunk, (b) => got.push(b));
      }
      expect(got.map(toHex)).toEqual(bodies.map(toHex));
      expect(splitter.stats).toEqual({ frames: 40, garbageBytes: 0, escapeErrors: 0, tooLong: 0, tooShort: 0 });
      expect(splitter.pending).toBe(0);
    }
  });

  it('yields several frames from one chunk and keeps a partial frame for the next chunk', () => {
    const a = heartbeat(1);
    const b = heartbeat(2);
    const c = heartbeat(3);
    const splitter = new FrameSplitter();
    const first = splitter.split(concat([a, b, c.subarray(0, 5)]));
    expect(first).toHaveLength(2);
    expect(splitter.pending).toBe(4);
    const second = splitter.split(c.subarray(5));
    expect(second).toHaveLength(1);
    const r = decodeFrame(second[0]!);
    expect(r.kind === 'message' && r.header.serial).toBe(3);
  });

  it('counts garbage before the first frame and rejects garbage between frames without losing the next frame', () => {
    const splitter = new FrameSplitter();
    const errors: string[] = [];
    const bodies = splitter.split(
      concat([fromHex('00 11 22 33'), heartbeat(1), fromHex('de ad be ef 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d'), heartbeat(2), fromHex('ff'), heartbeat(3)]),
      (e) => errors.push(e.code),
    );
    expect(splitter.stats.garbageBytes).toBe(4);
    const results = bodies.map(decodeFrame);
    const serials = results.flatMap((r) => (r.kind === 'message' ? [r.header.serial] : []));
    expect(serials).toEqual([1, 2, 3]);
    // The 17 noise bytes look like a frame until the checksum; the single 0xff is too short.
    expect(results.filter((r) => r.kind === 'error')).toHaveLength(1);
    expect(errors).toEqual(['truncated']);
  });

  it('drops a frame with a bad escape and keeps the frames around it', () => {
    const bad = fromHex('7e 0002 0000 013912345678 0009 7d03 36 7e');
    const splitter = new FrameSplitter();
    const errors: string[] = [];
    const bodies = splitter.split(concat([heartbeat(1), bad, heartbeat(2)]), (e) => errors.push(e.code));
    expect(bodies.map((b) => decodeFrame(b).header?.serial)).toEqual([1, 2]);
    expect(splitter.stats.escapeErrors).toBe(1);
    expect(errors).toEqual(['escape']);
  });

  it('treats 0x7d right before a delimiter as a bad escape and starts the next frame at that delimiter', () => {
    const splitter = new FrameSplitter();
    const next = heartbeat(7);
    const bodies = splitter.split(concat([fromHex('7e 0002 0000 0139 7d'), next.subarray(0)]));
    expect(splitter.stats.escapeErrors).toBe(1);
    expect(bodies).toHaveLength(1);
    expect(decodeFrame(bodies[0]!).header?.serial).toBe(7);
  });

  it('drops a frame longer than the cap without buffering it and keeps the next frame', () => {
    const splitter = new FrameSplitter({ maxBody: 64 });
    const long = concat([fromHex('7e'), new Uint8Array(5000).fill(0x41), fromHex('7e')]);
    const bodies: Uint8Array[] = [];
    for (const chunk of chop(new Gen(1), concat([long, heartbeat(1)]), 100)) {
      splitter.push(chunk, (b) => bodies.push(b));
      expect(splitter.pending).toBeLessThanOrEqual(64);
    }
    expect(splitter.stats.tooLong).toBe(1);
    expect(bodies.map((b) => decodeFrame(b).header?.serial)).toEqual([1]);
  });

  it('reports a frame cut short by the next frame\'s delimiter and still decodes that next frame', () => {
    const cut = encodePacket({ phone: '13912345678', serial: 1 }, { msgId: 0x8300, flags: 0, textType: 0, text: 'a text long enough' });
    const splitter = new FrameSplitter();
    const bodies = splitter.split(concat([cut.subarray(0, cut.length - 6), heartbeat(2)]));
    const results = bodies.map(decodeFrame);
    expect(results.map((r) => r.kind)).toEqual(['error', 'message']);
    expect(results[0]!.kind === 'error' && results[0]!.error.code).toBe('truncated');
  });

  it('gives the same frames and error counts whether bad input arrives whole or byte by byte', () => {
    const stream = concat([
      fromHex('99 98'),
      heartbeat(1),
      fromHex('7e 0002 0000 013912345678 0009 7d03 36 7e'), // bad escape
      heartbeat(2),
      fromHex('7e 0002 0000 0139 7d'), // escape right before the next delimiter
      heartbeat(3),
      concat([fromHex('7e'), new Uint8Array(300).fill(0x7d), fromHex('7e')]), // bad escapes and too long
      concat([fromHex('7e'), new Uint8Array(300).fill(0x41), fromHex('7e')]), // too long
      heartbeat(4),
    ]);
    const outcomes = [stream.length, 7, 1].map((size) => {
      const splitter = new FrameSplitter({ maxBody: 128 });
      const serials: (number | undefined)[] = [];
      for (const chunk of chop(new Gen(size), stream, size)) {
        splitter.push(chunk, (b) => serials.push(decodeFrame(b).header?.serial));
      }
      return { serials, stats: splitter.stats };
    });
    expect(outcomes[0]).toEqual({ serials: [1, 2, 3, 4], stats: { frames: 4, garbageBytes: 2, escapeErrors: 3, tooLong: 1, tooShort: 0 } });
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[2]).toEqual(outcomes[0]);
  });

  it('accepts terminals that share one 0x7e between consecutive frames', () => {
    const a = encodeFrameBody({ phone: '13912345678', serial: 1, msgId: 0x0002 }, new Uint8Array(0));
    const b = encodeFrameBody({ phone: '13912345678', serial: 2, msgId: 0x0002 }, new Uint8Array(0));
    const wire = concat([fromHex('7e'), a, fromHex('7e'), b, fromHex('7e')]);
    const bodies = new FrameSplitter().split(wire);
    expect(bodies.map((x) => decodeFrame(x).header?.serial)).toEqual([1, 2]);
  });
});
