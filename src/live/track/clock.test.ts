import { describe, expect, it } from 'vitest';
import { PlaybackClock, SPEED_FACTORS } from './clock.ts';

function clockAt(start = 0, end = 3_600_000) {
  let now = 0;
  const clock = new PlaybackClock(() => now);
  clock.setRange(start, end);
  return { clock, step: (ms: number) => (now += ms) };
}

describe('the playback clock', () => {
  it('moves track time by wall time times the speed only while playing', () => {
    const { clock, step } = clockAt();
    step(1000);
    expect(clock.tick()).toBe(0);
    clock.play();
    step(1000);
    expect(clock.tick()).toBe(1000 * SPEED_FACTORS.normal);
    clock.pause();
    step(5000);
    expect(clock.tick()).toBe(60_000);
    expect(clock.get().playing).toBe(false);
  });

  it('counts the time already played at the old speed when the speed changes', () => {
    const { clock, step } = clockAt();
    clock.play();
    step(100);
    clock.setSpeed('extremelyFast');
    step(100);
    expect(clock.tick()).toBe(100 * 60 + 100 * 1200);
    expect(clock.get().speed).toBe('extremelyFast');
  });

  it('jumps to a sought time, kept inside the range, and plays on from there', () => {
    const { clock, step } = clockAt(1000, 2_000_000);
    clock.seek(500_000);
    clock.play();
    step(10);
    expect(clock.tick()).toBe(500_000 + 600);
    clock.seek(-5);
    expect(clock.currentTime).toBe(1000);
    clock.seek(9e9);
    expect(clock.currentTime).toBe(2_000_000);
  });

  it('stops at the end and starts again from the beginning on play', () => {
    const { clock, step } = clockAt(0, 60_000);
    clock.play();
    step(2000);
    expect(clock.tick()).toBe(60_000);
    expect(clock.isPlaying).toBe(false);
    clock.play();
    expect(clock.currentTime).toBe(0);
  });

  it('tells listeners about play, pause, seek and speed, and keeps one snapshot between changes', () => {
    const { clock } = clockAt();
    let heard = 0;
    clock.subscribe(() => heard++);
    const { get } = clock;
    const a = get();
    expect(get()).toBe(a);
    clock.play();
    clock.setSpeed('fast');
    clock.seek(10);
    clock.pause();
    expect(heard).toBe(4);
    expect(clock.get()).not.toBe(a);
  });
});
