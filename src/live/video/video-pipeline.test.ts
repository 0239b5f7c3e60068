import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isIdrAccessUnit, splitAccessUnits } from '../../../proto/h264.ts';
import { decodeMediaFrame, encodeMediaFrame, MEDIA_KIND, type MediaFrame } from '../../../proto/media-frame.ts';
import { VideoPipeline, type DecodedFrame, type DecoderLike, type VideoPipelineOptions } from './video-pipeline.ts';

const clip = splitAccessUnits(new Uint8Array(readFileSync(new URL('../../../fixtures/video/main-640x360-25fps-4s.h264', import.meta.url))));

function frame(i: number, opts: { discontinuity?: boolean; arrival?: number } = {}): MediaFrame {
  const au = clip[i % clip.length]!;
  const bytes = encodeMediaFrame({ kind: MEDIA_KIND.H264, key: isIdrAccessUnit(au), discontinuity: opts.discontinuity ?? false, channel: 1, timestamp: i * 40, arrival: opts.arrival ?? 1000 + i * 40, payload: au });
  return decodeMediaFrame(bytes);
}

/** A decoder that holds chunks until `flush(n)` outputs the oldest n, like a busy hardware decoder. */
class FakeDecoder implements DecoderLike {
  state: DecoderLike['state'] = 'unconfigured';
  queue: { type: string; timestamp: number }[] = [];
  configs: string[] = [];
  resets = 0;
  constructor(private readonly output: (f: DecodedFrame) => void) {}
  get decodeQueueSize() {
    return this.queue.length;
  }
  configure(c: { codec: string }) {
    this.state = 'configured';
    this.configs.push(c.codec);
  }
  decode(chunk: unknown) {
    this.queue.push(chunk as { type: string; timestamp: number });
  }
  reset() {
    this.resets++;
    this.queue = [];
    this.state = 'unconfigured';
  }
  close() {
    this.state = 'closed';
  }
  flush(n = Infinity) {
    while (n-- > 0 && this.queue.length) {
      const c = this.queue.shift()!;
      this.output({ timestamp: c.timestamp, displayWidth: 640, displayHeight: 360, close: () => closed.push(c.timestamp) });
    }
  }
}
let closed: number[] = [];

function setup(now = () => 0, options: VideoPipelineOptions = {}) {
  closed = [];
  let decoder: FakeDecoder | undefined;
  const painted: number[] = [];
  const pipeline = new VideoPipeline({
    createDecoder: (output) => (decoder = new FakeDecoder(output)),
    createChunk: (init) => ({ type: init.type, timestamp: init.timestamp }),
    paint: (f) => painted.push(f.timestamp / 1000),
    now,
  }, options);
  return { pipeline, painted, decoder: () => decoder! };
}

describe('the video pipeline', () => {
  it('starts at the first key frame with the codec string read from its SPS', () => {
    const { pipeline, decoder } = setup();
    pipeline.push(frame(20)); // a P-frame: nothing to decode yet
    pipeline.push(frame(25)); // IDR
    pipeline.push(frame(26));
    expect(pipeline.stats.droppedWaiting).toBe(1);
    expect(decoder().configs).toEqual(['avc1.42C01E']);
    expect(decoder().queue.map((c) => c.type)).toEqual(['key', 'delta']);
    expect(pipeline.stats.width).toBe(640);
    expect(pipeline.stats.height).toBe(360);
  });

  it('paints every decoded frame once, closes it, and measures arrival to paint', () => {
    let now = 0;
    const { pipeline, painted, decoder } = setup(() => now);
    for (let i = 0; i < 5; i++) {
      now = 1000 + i * 40 + 2;
      pipeline.push(frame(i, { arrival: 1000 + i * 40 }));
      now = 1000 + i * 40 + 7;
      decoder().flush();
    }
    expect(painted).toEqual([0, 40, 80, 120, 160]);
    expect(closed).toHaveLength(5);
    expect(pipeline.takeLatencies()).toEqual([7, 7, 7, 7, 7]);
    expect(pipeline.takeLatencies()).toEqual([]);
  });

  it('drops a delta frame instead of queueing it behind a busy decoder, then resumes at the next key frame', () => {
    const { pipeline, decoder } = setup(() => 0, { maxQueue: 2 });
    pipeline.push(frame(0));
    pipeline.push(frame(1));
    pipeline.push(frame(2)); // queue holds 2: dropped
    pipeline.push(frame(3)); // waiting for a key frame now
    expect(pipeline.stats.droppedLate).toBe(1);
    expect(pipeline.stats.droppedWaiting).toBe(1);
    decoder().flush();
    pipeline.push(frame(4)); // still waiting: a P-frame without its reference would paint garbage
    pipeline.push(frame(25));
    expect(decoder().queue.map((c) => c.timestamp / 1000)).toEqual([1000]);
  });

  it('lets a key frame jump a backlog by resetting the decoder', () => {
    const { pipeline, decoder } = setup(() => 0, { maxQueue: 2 });
    pipeline.push(frame(0));
    pipeline.push(frame(1));
    pipeline.push(frame(25));
    expect(decoder().resets).toBe(1);
    expect(decoder().queue.map((c) => c.timestamp / 1000)).toEqual([1000]);
    expect(pipeline.stats.droppedLate).toBe(2);
  });

  it('waits for a key frame after a discontinuity', () => {
    const { pipeline, decoder } = setup();
    pipeline.push(frame(0));
    decoder().flush();
    pipeline.push(frame(3, { discontinuity: true }));
    pipeline.push(frame(4));
    pipeline.push(frame(25));
    decoder().flush();
    expect(pipeline.stats.droppedWaiting).toBe(2);
    expect(pipeline.stats.painted).toBe(2);
  });

  it('ignores audio frames', () => {
    const { pipeline } = setup();
    pipeline.push({ ...frame(0), kind: MEDIA_KIND.G711A });
    expect(pipeline.stats.received).toBe(0);
  });
});

describe('the video pipeline on a late burst', () => {
  it('drop-gop (the earlier policy): drops delta frames that arrive well after the best recent transit, and resumes at the next key frame', () => {
    let now = 0;
    const { pipeline, decoder } = setup(() => now, { policy: 'drop-gop' });
    // Frames 0–2 arrive 5 ms after they were sent; the decoder keeps up.
    for (let i = 0; i < 3; i++) {
      now = 1000 + i * 40 + 5;
      pipeline.push(frame(i));
      decoder().flush();
    }
    // The worker was busy for a second: frames 3–10 are delivered at once, up to 325 ms late.
    now = 1000 + 10 * 40 + 5;
    for (let i = 3; i <= 10; i++) pipeline.push(frame(i));
    decoder().flush();
    // Frame 3 arrives 280 ms later than the best transit: dropped, and 4–10 wait for a key frame.
    expect(pipeline.stats.droppedLate).toBe(1);
    expect(pipeline.stats.droppedWaiting).toBe(7);
    expect(pipeline.stats.painted).toBe(3);
  });

  it('skip-paint (the default): decodes a late burst whole but paints only its newest frame, and keeps playing', () => {
    let now = 0;
    const { pipeline, painted, decoder } = setup(() => now);
    for (let i = 0; i < 3; i++) {
      now = 1000 + i * 40 + 5;
      pipeline.push(frame(i));
      decoder().flush();
    }
    // The worker was busy: frames 3–10 are delivered at once, up to 325 ms late, and decoded together.
    now = 1000 + 10 * 40 + 5;
    for (let i = 3; i <= 10; i++) pipeline.push(frame(i));
    decoder().flush();
    expect(pipeline.stats.droppedLate).toBe(0);
    expect(pipeline.stats.droppedWaiting).toBe(0);
    expect(pipeline.stats.decoded).toBe(11);
    // 3 and 4 are 280 and 240 ms late with newer frames behind them: not painted; 5–10 are within 200 ms.
    expect(pipeline.stats.skippedPaint).toBe(2);
    expect(painted).toEqual([0, 40, 80, 200, 240, 280, 320, 360, 400]);
    expect(closed).toHaveLength(11);
    // The next frame on time plays on: no wait for a key frame.
    now = 1000 + 11 * 40 + 5;
    pipeline.push(frame(11));
    decoder().flush();
    expect(painted.at(-1)).toBe(440);
  });

  it('skip-paint: a frame more than a second late makes the channel jump to the next key frame', () => {
    let now = 0;
    const { pipeline, painted, decoder } = setup(() => now);
    for (let i = 0; i < 3; i++) {
      now = 1000 + i * 40 + 5;
      pipeline.push(frame(i));
      decoder().flush();
    }
    now = 1000 + 2 * 40 + 5 + 1500; // frame 3 arrives 1.5 s later than its transit should be
    pipeline.push(frame(3));
    pipeline.push(frame(4));
    expect(pipeline.stats.droppedLate).toBe(1);
    expect(pipeline.stats.droppedWaiting).toBe(1);
    pipeline.push(frame(25, { arrival: now - 5 }));
    decoder().flush();
    expect(painted.at(-1)).toBe(1000); // frame 25's timestamp: 25 × 40 ms
  });

  it('is not fooled by a clock offset between the server and this machine', () => {
    let now = 0;
    const { pipeline, decoder } = setup(() => now);
    // This machine's clock is 30 s ahead: every transit reads ≈ 30 s, none is late.
    for (let i = 0; i < 20; i++) {
      now = 31_000 + i * 40 + 5;
      pipeline.push(frame(i));
      decoder().flush();
    }
    expect(pipeline.stats.painted).toBe(20);
    expect(pipeline.stats.droppedLate).toBe(0);
  });
});

describe('paint reports (benchmarks)', () => {
  it('tells each painted frame\'s arrival stamp, in paint order, and nothing for frames not painted', () => {
    const arrivals: number[] = [];
    let decoder: FakeDecoder | undefined;
    const pipeline = new VideoPipeline({
      createDecoder: (output) => (decoder = new FakeDecoder(output)),
      createChunk: (init) => ({ type: init.type, timestamp: init.timestamp }),
      paint: () => undefined,
      now: () => 1000,
      painted: (arrival) => arrivals.push(arrival),
    });
    for (let i = 0; i < 3; i++) pipeline.push(frame(i, { arrival: 900 + i }));
    decoder!.flush(2);
    expect(arrivals).toEqual([900, 901]);
  });
});
