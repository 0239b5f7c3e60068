import { describe, expect, it } from 'vitest';
import { decodeFrame } from './codec.ts';
import { FrameSplitter } from './framing.ts';
import { locationStream, measureDecodeRate } from './throughput.ts';

describe('decode throughput helper', () => {
  it('builds a stream in which every frame is a valid location report', () => {
    const bodies = new FrameSplitter().split(locationStream(500));
    expect(bodies).toHaveLength(500);
    const kinds = bodies.map((b) => {
      const r = decodeFrame(b);
      return r.kind === 'message' ? r.message.msgId : r.kind;
    });
    expect(new Set(kinds)).toEqual(new Set([0x0200]));
  });

  it('reports a positive rate from real decoding', () => {
    const r = measureDecodeRate({ frames: 200, minMs: 20 });
    expect(r.reports).toBeGreaterThanOrEqual(200);
    expect(r.perSecond).toBeGreaterThan(0);
  });
});
