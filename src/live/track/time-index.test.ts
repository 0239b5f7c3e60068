import { describe, expect, it } from 'vitest';
import { emptySample, indexAtOrBefore, lerpHeading, sampleAt } from './time-index.ts';

const cols = (time: number[], lng: number[], lat: number[], heading: number[]) => ({
  time: Float64Array.from(time), lng: Float64Array.from(lng), lat: Float64Array.from(lat), heading: Uint16Array.from(heading),
  speed: Float32Array.from(time.map(() => 30)),
});

describe('the time index', () => {
  it('finds the last point at or before a time by binary search', () => {
    const time = Float64Array.from([0, 10, 10, 20, 30]);
    expect(indexAtOrBefore(time, -1)).toBe(-1);
    expect(indexAtOrBefore(time, 0)).toBe(0);
    expect(indexAtOrBefore(time, 9.9)).toBe(0);
    expect(indexAtOrBefore(time, 10)).toBe(2);
    expect(indexAtOrBefore(time, 25)).toBe(3);
    expect(indexAtOrBefore(time, 99)).toBe(4);
    expect(indexAtOrBefore(new Float64Array(0), 5)).toBe(-1);
  });

  it('shows the vehicle halfway between two points halfway between their times', () => {
    const s = emptySample();
    expect(sampleAt(cols([0, 1000], [116, 117], [39, 40], [0, 90]), 500, s)).toBe(true);
    expect(s.lng).toBeCloseTo(116.5, 9);
    expect(s.lat).toBeCloseTo(39.5, 9);
    expect(s.heading).toBeCloseTo(45, 9);
    expect(s.index).toBe(0);
  });

  it('turns a vehicle heading 350° towards 10° through north, not back through south', () => {
    expect(lerpHeading(350, 10, 0.5)).toBeCloseTo(0, 9);
    expect(lerpHeading(350, 10, 0.25)).toBeCloseTo(355, 9);
    expect(lerpHeading(10, 350, 0.75)).toBeCloseTo(355, 9);
    expect(lerpHeading(90, 270, 0.5)).toBeCloseTo(180, 9);
    const s = emptySample();
    sampleAt(cols([0, 1000], [0, 0], [0, 0], [350, 10]), 750, s);
    expect(s.heading).toBeCloseTo(5, 9);
  });

  it('hides the vehicle before its first point and holds it at its last point afterwards', () => {
    const c = cols([1000, 2000], [116, 117], [39, 40], [0, 0]);
    const s = emptySample();
    expect(sampleAt(c, 999, s)).toBe(false);
    expect(sampleAt(c, 5000, s)).toBe(true);
    expect([s.lng, s.lat, s.index]).toEqual([117, 40, 1]);
  });
});
