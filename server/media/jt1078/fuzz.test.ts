import { describe, expect, it } from 'vitest';
import { prng } from '../../../domain/random.ts';
import type { Jt1078Error } from './errors.ts';
import { describeAvc, describeHevc, splitAccessUnits, splitNalUnits } from '../../../proto/h264.ts';
import { decodePacket, headerLength, type SimLength } from './packet.ts';
import { Packetizer } from './packetizer.ts';
import { FrameAssembler, type MediaFrame } from './reassembly.ts';
import { PacketSplitter } from './splitter.ts';
import { chunks, concat, fixture } from './test-support.ts';

/** What a media-port connection does with a chunk. Must never throw. */
function consume(splitter: PacketSplitter, assembler: FrameAssembler, chunk: Uint8Array, frames: MediaFrame[], errors: Jt1078Error[]): void {
  splitter.push(
    chunk,
    (p) => {
      const f = assembler.push(p);
      if (f) frames.push(f);
    },
    (e) => errors.push(e),
  );
}

/** A valid stream as a list of per-frame byte blocks (sub clip, audio interleaved). */
function frameBlocks(simLength: SimLength): { blocks: Uint8Array[]; aus: Uint8Array[] } {
  const aus = splitAccessUnits(fixture('sub-320x180-25fps-4s.h264'));
  const sender = new Packetizer({ sim: '13800138000', channel: 1, simLength });
  const blocks: Uint8Array[] = [];
  aus.forEach((au, i) => {
    blocks.push(sender.video(au, i * 40, i % 25 === 0));
    blocks.push(sender.audio(new Uint8Array(320).fill(0x55), i * 40));
  });
  return { blocks, aus };
}

function mutate(rnd: () => number, b: Uint8Array): Uint8Array {
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const out = b.slice();
  switch (int(0, 5)) {
    case 0: {
      const i = int(0, out.length - 1);
      out[i] = out[i]! ^ (1 << int(0, 7));
      return out;
    }
    case 1: {
      // Overwrite a header byte: the likeliest place to hurt framing.
      const i = int(0, Math.min(33, out.length - 1));
      out[i] = int(0, 255);
      return out;
    }
    case 2: {
      const i = int(0, out.length);
      const junk = new Uint8Array(int(1, 40)).map(() => int(0, 255));
      return concat([out.subarray(0, i), junk, out.subarray(i)]);
    }
    case 3: {
      const i = int(0, out.length - 1);
      return concat([out.subarray(0, i), out.subarray(Math.min(out.length, i + int(1, 200)))]);
    }
    case 4:
      return out.subarray(0, int(0, out.length - 1));
    default:
      return concat([out, out]);
  }
}

describe('media port fuzzing', () => {
  it('never throws on random bytes in random chunks, and holds at most one packet', () => {
    for (const simLength of [6, 10] as const) {
      const rnd = prng(simLength);
      const splitter = new PacketSplitter({ simLength });
      const assembler = new FrameAssembler();
      const frames: MediaFrame[] = [];
      const errors: Jt1078Error[] = [];
      // Random bytes sprinkled with real frame headers so the header paths run too.
      const noise = new Uint8Array(2_000_000).map(() => Math.floor(rnd() * 256));
      for (let i = 0; i < noise.length - 40; i += 1 + Math.floor(rnd() * 3000)) {
        noise.set([0x30, 0x31, 0x63, 0x64, 0x81], i);
      }
      for (const c of chunks(noise, simLength * 7, 5000)) {
        expect(() => consume(splitter, assembler, c, frames, errors)).not.toThrow();
        expect(splitter.pending).toBeLessThan(headerLength(0, simLength) + 950);
      }
      const s = splitter.stats;
      expect(s.garbageBytes).toBeGreaterThan(1_000_000);
      expect(s.badHeader + s.tooLong + s.truncated + s.badSim).toBeGreaterThan(100);
      expect(errors.length).toBeGreaterThan(100);
      expect(assembler.pendingBytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    }
  });

  it('never throws on mutated packets, counts the damage and keeps most frames intact', () => {
    const { blocks, aus } = frameBlocks(6);
    const rnd = prng(42);
    let intact = 0;
    let damaged = 0;
    for (let round = 0; round < 5; round++) {
      const sent = blocks.map((b, i) => (i % 2 === 0 && rnd() < 0.1 ? mutate(rnd, b) : b));
      const splitter = new PacketSplitter();
      const assembler = new FrameAssembler();
      const frames: MediaFrame[] = [];
      const errors: Jt1078Error[] = [];
      for (const c of chunks(concat(sent), round + 100, 3000)) {
        expect(() => consume(splitter, assembler, c, frames, errors)).not.toThrow();
      }
      const expected = new Set(aus.map((au) => Buffer.from(au).toString('base64')));
      for (const f of frames) {
        if (f.kind !== 'video') continue;
        if (expected.has(Buffer.from(f.data).toString('base64'))) intact++;
        else damaged++;
      }
      const s = splitter.stats;
      const counted = s.garbageBytes + s.badHeader + s.tooLong + s.truncated + s.badSim + assembler.stats.dropped + assembler.stats.duplicates;
      expect(counted).toBeGreaterThan(0);
    }
    // ~10% of video frames are damaged; the rest must come back byte-identical.
    expect(intact).toBeGreaterThan(5 * 100 * 0.8);
    // A body bit flip cannot be detected (no checksum in JT/T 1078): those frames arrive damaged.
    expect(damaged).toBeLessThan(5 * 100 * 0.1);
  });

  it('decodePacket and the H.264 helpers never throw on random input', () => {
    const rnd = prng(7);
    let packets = 0;
    expect(() => {
      for (let i = 0; i < 20_000; i++) {
        const b = new Uint8Array(Math.floor(rnd() * 80)).map(() => Math.floor(rnd() * 256));
        if (b.length > 5 && rnd() < 0.5) b.set([0x30, 0x31, 0x63, 0x64, 0x81]);
        if (decodePacket(b, 0, { simLength: rnd() < 0.5 ? 6 : 10 }).kind === 'packet') packets++;
        splitAccessUnits(b);
        splitNalUnits(b);
        describeAvc(concat([Uint8Array.of(0, 0, 1, 0x67), b]));
        describeHevc(concat([Uint8Array.of(0, 0, 1, 0x42, 0x01), b]));
      }
    }).not.toThrow();
    // Some random tails do form a well-framed packet; the rest are typed errors.
    expect(packets).toBeLessThan(20_000);
  });
});
