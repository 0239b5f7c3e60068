import { describe, expect, it } from 'vitest';
import { PlaybackClock } from './clock.ts';
import { MAX_TRACKS, TrackSet, type SetTrack } from './track-set.ts';

function track(key: number, start: number, lng0: number): SetTrack {
  // Two points 100 s apart moving 0.1° east.
  return {
    key, vehicleId: 100 + key, time: Float64Array.from([start, start + 100_000]), lng: Float64Array.from([lng0, lng0 + 0.1]),
    lat: Float64Array.from([30, 30]), heading: Uint16Array.from([90, 90]), speed: Float32Array.from([40, 40]),
  };
}

describe('several tracks on one clock', () => {
  it('plays every loaded vehicle at the same instant of the shared clock', () => {
    const set = new TrackSet<SetTrack>();
    set.add(track(1, 0, 116));
    set.add(track(2, 50_000, 120));
    expect(set.range()).toEqual({ start: 0, end: 150_000 });
    let now = 0;
    const clock = new PlaybackClock(() => now);
    const r = set.range()!;
    clock.setRange(r.start, r.end);
    clock.setSpeed('slow');
    clock.play();
    now = 2500; // 25 s of track time
    set.sampleAll(clock.tick());
    expect(set.visible[0]).toBe(1);
    expect(set.positions[0]).toBeCloseTo(116.025, 5);
    // The second vehicle's track starts at 50 s: not on the map yet.
    expect(set.visible[1]).toBe(0);
    now = 7500; // 75 s
    set.sampleAll(clock.tick());
    expect(set.positions[0]).toBeCloseTo(116.075, 5);
    expect(set.visible[1]).toBe(1);
    expect(set.positions[2]).toBeCloseTo(120.025, 5);
  });

  it('refuses the 21st vehicle and a vehicle already loaded', () => {
    const set = new TrackSet<SetTrack>();
    for (let k = 1; k <= MAX_TRACKS; k++) expect(set.add(track(k, 0, 100 + k))).toBe('added');
    expect(set.add(track(99, 0, 116))).toBe('limit');
    expect(set.add({ ...track(98, 0, 116), vehicleId: 101 })).toBe('duplicate');
    expect(set.size).toBe(20);
  });

  it('gives each track its own colour and reuses a removed track’s colour', () => {
    const set = new TrackSet<SetTrack>();
    set.add(track(1, 0, 116));
    set.add(track(2, 0, 117));
    expect(set.color(1)).not.toEqual(set.color(2));
    const c1 = set.color(1);
    set.remove(1);
    set.add(track(3, 0, 118));
    expect(set.color(3)).toEqual(c1);
  });
});
