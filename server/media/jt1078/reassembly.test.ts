import { describe, expect, it } from 'vitest';
import { DATA_TYPE, PAYLOAD_TYPE, SUBPACKAGE, type DataType, type Jt1078Packet } from './packet.ts';
import { packetizeFrame } from './packetizer.ts';
import { FrameAssembler, type MediaFrame } from './reassembly.ts';

function data(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i + seed * 13) & 0xff;
  return b;
}

/** The packets of one frame as the splitter would hand them over. */
function frame(serial: number, dataType: DataType, bytes: Uint8Array, opts: { channel?: number; timestamp?: number; sim?: string } = {}): Jt1078Packet[] {
  const audio = dataType === DATA_TYPE.AUDIO;
  return packetizeFrame(
    {
      sim: opts.sim ?? '13800138000',
      channel: opts.channel ?? 1,
      dataType,
      payloadType: audio ? PAYLOAD_TYPE.G711A : PAYLOAD_TYPE.H264,
      timestamp: opts.timestamp ?? serial * 10,
      lastIFrameInterval: audio ? undefined : 0,
      lastFrameInterval: audio ? undefined : 40,
      data: bytes,
    },
    serial,
  ).map((p) => ({
    payloadType: p.payloadType,
    marker: p.subpackage === SUBPACKAGE.ATOMIC || p.subpackage === SUBPACKAGE.LAST,
    serial: p.serial,
    sim: p.sim.replace(/^0+(?=\d)/, ''),
    channel: p.channel,
    dataType: p.dataType,
    subpackage: p.subpackage ?? SUBPACKAGE.ATOMIC,
    timestamp: p.timestamp,
    lastIFrameInterval: p.lastIFrameInterval,
    lastFrameInterval: p.lastFrameInterval,
    body: p.body,
  }));
}

function run(a: FrameAssembler, packets: readonly Jt1078Packet[]): MediaFrame[] {
  const out: MediaFrame[] = [];
  for (const p of packets) {
    const f = a.push(p);
    if (f) out.push(f);
  }
  return out;
}

describe('frame reassembly', () => {
  it('returns an atomic packet as a frame and joins first, middle and last packages in order', () => {
    const big = data(2500, 1);
    const a = new FrameAssembler();
    const out = run(a, [...frame(0, DATA_TYPE.I_FRAME, big), ...frame(3, DATA_TYPE.P_FRAME, data(100, 2))]);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ kind: 'video', dataType: 0, packets: 3, serial: 0, timestamp: 0, discontinuity: false, sim: '13800138000', channel: 1 });
    expect(out[0]!.data).toEqual(big);
    expect(out[1]).toMatchObject({ dataType: 1, packets: 1, timestamp: 30 });
    expect(a.pendingBytes).toBe(0);
  });

  it('drops a frame that lost a middle package, counts it and flags the next frame', () => {
    const lossy = frame(0, DATA_TYPE.I_FRAME, data(3000, 1));
    lossy.splice(2, 1);
    const a = new FrameAssembler();
    const out = run(a, [...lossy, ...frame(4, DATA_TYPE.P_FRAME, data(10, 2)), ...frame(5, DATA_TYPE.P_FRAME, data(10, 3))]);
    expect(out.map((f) => [f.serial, f.discontinuity])).toEqual([
      [4, true],
      [5, false],
    ]);
    expect(a.stats).toMatchObject({ frames: 2, dropped: 1, gaps: 1 });
  });

  it('drops a frame whose packages arrive out of order and keeps the frames after it', () => {
    const shuffled = frame(0, DATA_TYPE.I_FRAME, data(2000, 1));
    [shuffled[1], shuffled[2]] = [shuffled[2]!, shuffled[1]!];
    const a = new FrameAssembler();
    const next = data(1900, 4);
    const out = run(a, [...shuffled, ...frame(3, DATA_TYPE.I_FRAME, next)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.data).toEqual(next);
    expect(out[0]!.discontinuity).toBe(true);
    expect(a.stats.dropped).toBe(1);
  });

  it('counts middle and last packages without a first package once per lost frame', () => {
    const headless = frame(10, DATA_TYPE.P_FRAME, data(3000, 1)).slice(1);
    const a = new FrameAssembler();
    const out = run(a, [...headless, ...frame(14, DATA_TYPE.P_FRAME, data(5, 2))]);
    expect(out.map((f) => f.serial)).toEqual([14]);
    expect(a.stats).toMatchObject({ orphans: 1, dropped: 1 });
  });

  it('drops an incomplete frame interrupted by a new one', () => {
    const cut = frame(0, DATA_TYPE.I_FRAME, data(3000, 1)).slice(0, 2);
    const a = new FrameAssembler({ checkSerial: false });
    const out = run(a, [...cut, ...frame(2, DATA_TYPE.P_FRAME, data(5, 2))]);
    expect(out.map((f) => [f.serial, f.discontinuity])).toEqual([[2, true]]);
    expect(a.stats).toMatchObject({ interrupted: 1, dropped: 1 });
  });

  it('drops a frame whose packages disagree on the timestamp', () => {
    const parts = frame(0, DATA_TYPE.P_FRAME, data(2000, 1));
    parts[1] = { ...parts[1]!, timestamp: 999 };
    const a = new FrameAssembler();
    expect(run(a, parts)).toEqual([]);
    expect(a.stats).toMatchObject({ mismatched: 1, dropped: 1, orphans: 0 });
  });

  it('accepts audio interleaved with video under one channel counter, or separate counters per stream', () => {
    // One counter: video 0-2 (3 packages), audio 3, video 4, audio 5.
    const shared = [...frame(0, DATA_TYPE.I_FRAME, data(2000, 1)), ...frame(3, DATA_TYPE.AUDIO, data(320, 2)), ...frame(4, DATA_TYPE.P_FRAME, data(10, 3)), ...frame(5, DATA_TYPE.AUDIO, data(320, 4))];
    const a = new FrameAssembler();
    expect(run(a, shared).map((f) => f.kind)).toEqual(['video', 'audio', 'video', 'audio']);
    expect(a.stats.gaps).toBe(0);
    // Separate counters: video 100.., audio 7..
    const separate = [...frame(100, DATA_TYPE.I_FRAME, data(2000, 1)), ...frame(7, DATA_TYPE.AUDIO, data(320, 2)), ...frame(103, DATA_TYPE.P_FRAME, data(10, 3)), ...frame(8, DATA_TYPE.AUDIO, data(320, 4))];
    const b = new FrameAssembler();
    expect(run(b, separate).map((f) => [f.kind, f.discontinuity])).toEqual([
      ['video', false],
      ['audio', false],
      ['video', false],
      ['audio', false],
    ]);
    expect(b.stats.gaps).toBe(0);
  });

  it('learns a one-counter channel and drops a video frame whose lost package is hidden behind audio', () => {
    // Counter per channel: video I 0-2, audio 3, video P 4, audio 5 teach the mode...
    const learn = [...frame(0, DATA_TYPE.I_FRAME, data(2000, 1)), ...frame(3, DATA_TYPE.AUDIO, data(320, 2)), ...frame(4, DATA_TYPE.P_FRAME, data(10, 3)), ...frame(5, DATA_TYPE.AUDIO, data(320, 4))];
    // ...then a 3-package video frame goes out as 6, 7, (audio 8), 9 and package 7 is lost.
    const lossy = frame(6, DATA_TYPE.P_FRAME, data(2000, 5));
    const tail = [lossy[0]!, ...frame(8, DATA_TYPE.AUDIO, data(320, 6)), { ...lossy[2]!, serial: 9 }, ...frame(10, DATA_TYPE.P_FRAME, data(10, 7))];
    const a = new FrameAssembler();
    const out = run(a, [...learn, ...tail]);
    expect(out.map((f) => [f.kind, f.serial, f.discontinuity])).toEqual([
      ['video', 0, false],
      ['audio', 3, false],
      ['video', 4, false],
      ['audio', 5, false],
      ['audio', 8, true],
      ['video', 10, true],
    ]);
    expect(a.stats).toMatchObject({ gaps: 1, dropped: 1 });
  });

  it('does not hold a lost audio frame against video when each stream has its own counter', () => {
    const a = new FrameAssembler();
    const video = frame(100, DATA_TYPE.I_FRAME, data(2000, 1));
    const packets = [
      ...frame(7, DATA_TYPE.AUDIO, data(320, 1)),
      video[0]!,
      ...frame(8, DATA_TYPE.AUDIO, data(320, 2)),
      video[1]!,
      // audio 9 is lost
      ...frame(10, DATA_TYPE.AUDIO, data(320, 3)),
      video[2]!,
      ...frame(103, DATA_TYPE.P_FRAME, data(10, 4)),
    ];
    const out = run(a, packets);
    expect(out.map((f) => [f.kind, f.serial, f.discontinuity])).toEqual([
      ['audio', 7, false],
      ['audio', 8, false],
      ['audio', 10, true],
      ['video', 100, false],
      ['video', 103, false],
    ]);
    expect(a.stats).toMatchObject({ gaps: 1, dropped: 0 });
  });

  it('keeps channels and terminals apart when their packages interleave', () => {
    const a1 = frame(0, DATA_TYPE.I_FRAME, data(2000, 1), { channel: 1 });
    const a2 = frame(0, DATA_TYPE.I_FRAME, data(2000, 2), { channel: 2 });
    const b1 = frame(0, DATA_TYPE.I_FRAME, data(2000, 3), { sim: '13900000000' });
    const mixed: Jt1078Packet[] = [];
    for (let i = 0; i < 3; i++) mixed.push(a1[i]!, a2[i]!, b1[i]!);
    const out = run(new FrameAssembler(), mixed);
    expect(out.map((f) => `${f.sim}/${f.channel}`)).toEqual(['13800138000/1', '13800138000/2', '13900000000/1']);
    expect(out[1]!.data).toEqual(data(2000, 2));
  });

  it('ignores a repeated package and crosses the serial wrap without a gap', () => {
    const parts = frame(65534, DATA_TYPE.I_FRAME, data(2000, 1));
    expect(parts.map((p) => p.serial)).toEqual([65534, 65535, 0]);
    const a = new FrameAssembler();
    const out = run(a, [parts[0]!, parts[1]!, parts[1]!, parts[2]!, ...frame(1, DATA_TYPE.P_FRAME, data(4, 2))]);
    expect(out.map((f) => f.packets)).toEqual([3, 1]);
    expect(out[0]!.data).toEqual(data(2000, 1));
    expect(a.stats).toMatchObject({ duplicates: 1, gaps: 0, dropped: 0 });
  });

  it('drops frames above the size cap', () => {
    const a = new FrameAssembler({ maxFrameBytes: 1500 });
    const out = run(a, [...frame(0, DATA_TYPE.I_FRAME, data(2000, 1)), ...frame(3, DATA_TYPE.P_FRAME, data(1200, 2))]);
    expect(out.map((f) => f.serial)).toEqual([3]);
    expect(a.stats).toMatchObject({ tooLarge: 1, dropped: 1 });
    expect(a.pendingBytes).toBe(0);
  });

  it('bounds the bytes of incomplete frames across streams', () => {
    const a = new FrameAssembler({ maxBytes: 5000 });
    // Ten channels each start a 3-package frame and never finish it.
    for (let ch = 1; ch <= 10; ch++) run(a, frame(0, DATA_TYPE.I_FRAME, data(2800, ch), { channel: ch }).slice(0, 2));
    expect(a.pendingBytes).toBeLessThanOrEqual(5000);
    expect(a.stats.evicted).toBeGreaterThanOrEqual(7);
  });

  it('bounds the number of streams tracked', () => {
    const a = new FrameAssembler({ maxStreams: 8 });
    for (let ch = 1; ch <= 50; ch++) run(a, frame(0, DATA_TYPE.P_FRAME, data(10, ch), { channel: ch }));
    expect(a.streamCount).toBe(8);
  });

  it('expires idle streams and forgets a closed terminal', () => {
    const a = new FrameAssembler({ timeoutMs: 1000 });
    a.push(frame(0, DATA_TYPE.I_FRAME, data(2000, 1))[0]!, 0);
    a.push(frame(0, DATA_TYPE.AUDIO, data(10, 1), { sim: '2' })[0]!, 900);
    a.sweep(1500);
    expect(a.stats.expired).toBe(1);
    expect(a.streamCount).toBe(1);
    expect(a.pendingBytes).toBe(0);
    a.close('2');
    expect(a.streamCount).toBe(0);
  });
});
