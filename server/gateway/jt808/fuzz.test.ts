import { describe, expect, it } from 'vitest';
import { decodeBody, decodeFrame, encodePacket, type FrameResult } from './codec.ts';
import { Jt808Error } from './errors.ts';
import { FrameSplitter } from './framing.ts';
import type { ProtocolEdition } from './header.ts';
import { Reassembler } from './reassembly.ts';
import { concat, Gen } from './test-support.ts';

/** What a gateway connection does with a chunk: split, decode, reassemble. Must never throw. */
function consume(splitter: FrameSplitter, reassembler: Reassembler, chunk: Uint8Array, out: FrameResult[], errors: Jt808Error[]): void {
  splitter.push(
    chunk,
    (body) => {
      const r = decodeFrame(body);
      if (r.kind === 'fragment') {
        const whole = reassembler.push(r.header, r.body, 0);
        if (typeof whole === 'object') out.push(decodeBody(whole.header, whole.body));
      } else {
        out.push(r);
      }
    },
    (e) => errors.push(e),
  );
}

/** One random mutation of a valid frame: bit flip, byte insert/delete, truncation, duplication. */
function mutate(gen: Gen, frame: Uint8Array): Uint8Array {
  const b = frame.slice();
  switch (gen.int(0, 5)) {
    case 0: {
      const i = gen.int(0, b.length - 1);
      b[i] = b[i]! ^ (1 << gen.int(0, 7));
      return b;
    }
    case 1: {
      const i = gen.int(1, b.length - 1);
      return concat([b.subarray(0, i), gen.nastyBytes(gen.int(1, 4)), b.subarray(i)]);
    }
    case 2: {
      const i = gen.int(1, b.length - 2);
      return concat([b.subarray(0, i), b.subarray(i + 1)]);
    }
    case 3:
      return b.subarray(0, gen.int(1, b.length - 1));
    case 4: {
      // Header bytes are where structure lives: hit them harder.
      const i = gen.int(1, Math.min(22, b.length - 1));
      b[i] = gen.int(0, 255);
      return b;
    }
    default:
      return concat([b, b.subarray(0, gen.int(1, b.length))]);
  }
}

describe('fuzz', () => {
  it('never throws on random bytes and mutated frames, counts every bad frame, and still decodes a clean frame after', () => {
    const gen = new Gen(0xf00d);
    const splitter = new FrameSplitter({ maxBody: 1100 });
    const reassembler = new Reassembler({ maxMessages: 64 });
    const results: FrameResult[] = [];
    const errors: Jt808Error[] = [];
    for (let i = 0; i < 4000; i++) {
      const version: ProtocolEdition = gen.bool() ? 2019 : 2013;
      const valid = encodePacket({ phone: gen.phone(version), serial: gen.int(0, 0xffff), version }, gen.message(version));
      const kind = gen.int(0, 3);
      const data = kind === 0 ? gen.nastyBytes(gen.int(1, 300)) : kind === 1 ? gen.bytes(gen.int(1, 300)) : mutate(gen, valid);
      let o = 0;
      while (o < data.length) {
        const n = gen.int(1, 200);
        expect(() => consume(splitter, reassembler, data.subarray(o, o + n), results, errors)).not.toThrow();
        o += n;
      }
    }
    const bad = results.filter((r) => r.kind === 'error');
    expect(bad.length + errors.length).toBeGreaterThan(1000);
    for (const r of bad) {
      expect(r.kind === 'error' && r.error).toBeInstanceOf(Jt808Error);
    }
    for (const e of errors) expect(e).toBeInstanceOf(Jt808Error);
    const s = splitter.stats;
    expect(errors.length).toBe(s.escapeErrors + s.tooLong + s.tooShort);

    // The stream may be mid-frame; a lone delimiter ends whatever is pending, then a clean frame decodes.
    const after: FrameResult[] = [];
    consume(splitter, reassembler, concat([new Uint8Array([0x7e]), encodePacket({ phone: '13912345678', serial: 42 }, { msgId: 0x0002 })]), after, []);
    const last = after.at(-1);
    expect(last?.kind).toBe('message');
    expect(last?.header?.serial).toBe(42);
  });

  it('never throws when decodeFrame and decodeBody get arbitrary bytes directly', () => {
    const gen = new Gen(7);
    const kinds = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const bytes = gen.bytes(gen.int(0, 120));
      // Give the random bytes a plausible header half the time so body decoders get exercised.
      if (bytes.length > 4 && gen.bool()) {
        bytes[0] = gen.pick([0x00, 0x01, 0x02, 0x07, 0x81, 0x82, 0x83]);
        bytes[1] = gen.pick([0x00, 0x01, 0x02, 0x03, 0x04, 0x00, 0x02]);
      }
      const r = decodeFrame(bytes);
      kinds.add(r.kind);
      const header = { msgId: gen.pick([0x0001, 0x0002, 0x0100, 0x0102, 0x0200, 0x0704, 0x8001, 0x8100, 0x8203, 0x8300]), bodyLength: bytes.length, encryption: 0, subpackage: false, version: gen.pick([2013, 2019] as const), protocolVersion: 1, phone: '1', serial: 0, packageTotal: 0, packageIndex: 0 };
      const b = decodeBody(header, bytes);
      kinds.add(`body:${b.kind}`);
    }
    expect(kinds).toContain('error');
    expect(kinds).toContain('body:error');
    expect(kinds).toContain('body:message');
  });
});
