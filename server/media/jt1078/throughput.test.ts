import { describe, expect, it } from 'vitest';
import { FrameAssembler } from './reassembly.ts';
import { PacketSplitter } from './splitter.ts';
import { measurePacketRate, mediaStream } from './throughput.ts';

describe('receive-path throughput helper', () => {
  it('builds a stream that reassembles into every video and audio frame', () => {
    const splitter = new PacketSplitter();
    const assembler = new FrameAssembler();
    const kinds: string[] = [];
    splitter.push(mediaStream(50), (p) => {
      const f = assembler.push(p);
      if (f) kinds.push(f.kind);
    });
    expect(kinds.filter((k) => k === 'video')).toHaveLength(50);
    expect(kinds.filter((k) => k === 'audio')).toHaveLength(50);
    expect(assembler.stats.dropped).toBe(0);
  });

  it('reports a positive rate from real splitting and reassembly', () => {
    const r = measurePacketRate({ frames: 50, minMs: 20 });
    expect(r.frames).toBeGreaterThanOrEqual(100);
    expect(r.packetsPerSecond).toBeGreaterThan(0);
  });
});
