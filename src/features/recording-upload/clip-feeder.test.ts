import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeMediaFrame, MEDIA_KIND } from '../../../proto/media-frame.ts';
import { ClipFeeder } from './clip-feeder.ts';

// Two loops of the 4 s clip, as simRecordingFile writes an 8 s recording.
const clip = new Uint8Array(readFileSync(new URL('../../../fixtures/video/main-640x360-25fps-4s.h264', import.meta.url)));
const file = new Uint8Array(clip.length * 2);
file.set(clip, 0);
file.set(clip, clip.length);

/** A manual clock and a single pending timer. */
function harness() {
  let now = 10_000;
  let pending: { fn: () => void; at: number } | null = null;
  const fed: ReturnType<typeof decodeMediaFrame>[] = [];
  const feeder = new ClipFeeder(file, {
    feed: (b) => fed.push(decodeMediaFrame(b)),
    now: () => now,
    setTimer: (fn, ms) => (pending = { fn, at: now + ms }),
    clearTimer: () => (pending = null),
  });
  const advance = (ms: number) => {
    const end = now + ms;
    while (pending && pending.at <= end) {
      const p: { fn: () => void; at: number } = pending;
      pending = null;
      now = Math.max(now, p.at);
      p.fn();
    }
    now = end;
  };
  return { feeder, fed, advance, late: (ms: number) => (now += ms), fire: () => pending?.fn() };
}

describe('ClipFeeder', () => {
  it('feeds the file access unit by access unit at 25 fps, starting with a key frame that carries SPS and PPS', () => {
    const { feeder, fed, advance } = harness();
    expect(feeder.units.length).toBe(200);
    expect(feeder.playable).toBe(true);
    expect(feeder.durationMs).toBe(8000);
    feeder.play();
    expect(fed).toHaveLength(1);
    expect(fed[0]).toMatchObject({ kind: MEDIA_KIND.H264, key: true, discontinuity: true, timestamp: 0, arrival: 10_000 });
    advance(1000);
    // One second later: frames 0..25 (the first at once, then one per 40 ms).
    expect(fed).toHaveLength(26);
    expect(fed.map((f) => f.timestamp).slice(0, 4)).toEqual([0, 40, 80, 120]);
    expect(fed[25]!.arrival).toBe(11_000);
  });

  it('holds still while paused, resumes where it was, and ends after the last frame', () => {
    const { feeder, fed, advance } = harness();
    feeder.play();
    advance(400);
    feeder.pause();
    const at = fed.length;
    advance(5000);
    expect(fed).toHaveLength(at);
    expect(feeder.status).toBe('paused');
    feeder.resume();
    advance(20_000);
    expect(fed).toHaveLength(200);
    expect(feeder.status).toBe('ended');
    // The second loop starts with a key frame again (the recording is a loop of whole GOPs).
    expect(fed[100]!.key).toBe(true);
    expect(fed.filter((f) => f.key).length).toBeGreaterThanOrEqual(2);
  });

  it('catches up at most three frames after a late tick instead of bursting', () => {
    const { feeder, fed, late, fire } = harness();
    feeder.play();
    late(1000);
    fire();
    expect(fed).toHaveLength(4);
  });

  it('finds nothing playable in bytes that are not H.264', () => {
    const f = new ClipFeeder(new Uint8Array([1, 2, 3, 4, 5]), { feed: () => undefined, now: () => 0, setTimer: () => 0, clearTimer: () => undefined });
    expect(f.playable).toBe(false);
  });
});
