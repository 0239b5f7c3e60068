import { describe, expect, it } from 'vitest';
import { analyzeTrack } from './analyze.ts';
import { columnsFromPoints } from './columns.ts';
import type { TrackColumns } from './columns.ts';
import { DRIFT_SPEED_KMH, findDrift, isDriftTriple } from './drift.ts';
import { speedBetweenKmh } from './geo.ts';

const T0 = Date.UTC(2024, 2, 1, 2, 0); // 2024-03-01 10:00 China time
const LNG = 116.4;

/** Points on the meridian 116.4°E: [seconds after T0, latitude]. 0.05° of latitude = 5.560 km. */
function meridian(points: Array<[number, number]>): TrackColumns {
  return columnsFromPoints(points.map(([s, lat]) => ({ time: T0 + s * 1000, lng: LNG, lat, speed: 40 })));
}

function driftIndices(c: TrackColumns): number[] {
  const flags = findDrift(c);
  const fromAnalysis = Array.from(analyzeTrack(c).drift);
  const fromFlags = [...flags.keys()].filter((i) => flags[i] === 1);
  expect(fromAnalysis).toEqual(fromFlags); // both walks implement one rule
  return fromFlags;
}

describe('drift (spec §9: both legs over 160 km/h → the middle point)', () => {
  it('flags the middle point when both legs are fast: 5.56 km out and back within a minute each (333.6 km/h)', () => {
    expect(driftIndices(meridian([[0, 39.9], [60, 39.95], [120, 39.9], [180, 39.9]]))).toEqual([1]);
  });

  it('does not flag a point with one fast leg: a jump that stays where it landed', () => {
    const c = meridian([[0, 39.9], [60, 39.95], [120, 39.95], [180, 39.9501]]);
    expect(speedBetweenKmh(c.time, c.lng, c.lat, 0, 1)).toBeGreaterThan(DRIFT_SPEED_KMH);
    expect(driftIndices(c)).toEqual([]);
  });

  it('does not flag a point whose inbound leg is slow and outbound leg fast', () => {
    expect(driftIndices(meridian([[0, 39.9], [600, 39.91], [660, 39.96], [720, 39.96]]))).toEqual([]);
  });

  it('requires speeds strictly over 160 km/h', () => {
    expect(isDriftTriple(160, 161)).toBe(false);
    expect(isDriftTriple(161, 160)).toBe(false);
    expect(isDriftTriple(160.001, 160.001)).toBe(true);
  });

  it('never flags the first or the last point', () => {
    expect(driftIndices(meridian([[0, 39.0], [60, 39.9]]))).toEqual([]);
    expect(driftIndices(meridian([[0, 39.0], [60, 39.9], [120, 39.9]]))).toEqual([]);
    expect(driftIndices(meridian([[0, 39.9], [60, 39.9], [120, 39.0]]))).toEqual([]);
  });

  it('judges the next triple with a drift point removed, so a good point between two spikes stays good', () => {
    // 0 good, 1 spike, 2 good (55 m from 0), 3 spike, 4 good.
    const c = meridian([[0, 39.9], [60, 40.0], [120, 39.9005], [180, 40.0], [240, 39.901]]);
    // Judged naively against the spike before it, point 2 would be drift too:
    const { time, lng, lat } = c;
    expect(isDriftTriple(speedBetweenKmh(time, lng, lat, 1, 2), speedBetweenKmh(time, lng, lat, 2, 3))).toBe(true);
    expect(driftIndices(c)).toEqual([1, 3]);
  });

  it('peels two spikes in a row one at a time', () => {
    expect(driftIndices(meridian([[0, 39.9], [60, 40.0], [120, 40.2], [180, 39.9005], [240, 39.901]]))).toEqual([1, 2]);
  });

  it('counts a position change under the same timestamp as infinitely fast, and a duplicate report as still', () => {
    expect(driftIndices(meridian([[0, 39.9], [0, 39.95], [60, 39.9], [120, 39.9]]))).toEqual([1]);
    expect(driftIndices(meridian([[0, 39.9], [0, 39.9], [0, 39.9], [60, 39.9]]))).toEqual([]);
  });

  it('agrees with analyzeTrack on a long noisy track', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const pts: Array<[number, number]> = [];
    let lat = 39.9;
    for (let i = 0; i < 5000; i++) {
      lat += (rnd() - 0.5) * 0.0005;
      pts.push([i * 10, rnd() < 0.03 ? lat + (rnd() - 0.5) * 0.5 : lat]);
    }
    const found = driftIndices(meridian(pts));
    expect(found.length).toBeGreaterThan(50);
  });
});
