import { describe, expect, it } from 'vitest';
import { analyzeTrack } from './analyze.ts';
import { columnsFromPoints } from './columns.ts';
import type { TrackColumns } from './columns.ts';
import { classifyGaps, gapBand } from './continuity.ts';

const T0 = Date.UTC(2024, 2, 1, 2, 0); // 2024-03-01 10:00 China time
const MIDDLE = 0.05; // ° of latitude = 5.560 km
const SHORT = 0.01; // 1.112 km
const LONG = 0.1; // 11.120 km

/** Points on the meridian 116.4°E, 10 minutes apart (≤ 66.7 km/h, never drift), stepping by `steps`° of latitude. */
function stepping(steps: number[]): TrackColumns {
  let lat = 30;
  const pts = [{ time: T0, lng: 116.4, lat, speed: 40 }];
  steps.forEach((d, i) => {
    lat += d;
    pts.push({ time: T0 + (i + 1) * 600_000, lng: 116.4, lat, speed: 40 });
  });
  return columnsFromPoints(pts);
}

describe('continuity bands (spec §9)', () => {
  it('puts exactly 2 km and exactly 10 km in the middle band', () => {
    expect(gapBand(1.9999)).toBe('short');
    expect(gapBand(2)).toBe('middle');
    expect(gapBand(10)).toBe('middle');
    expect(gapBand(10.0001)).toBe('long');
  });

  it('counts five 2–10 km gaps in a row as continuous and the sixth as discontinuous', () => {
    expect(classifyGaps([5, 5, 5, 5, 5, 5])).toEqual([true, true, true, true, true, false]);
    expect(classifyGaps([2, 10, 2, 10, 2, 10, 2])).toEqual([true, true, true, true, true, false, false]);
  });

  it('restarts the count after a gap under 2 km', () => {
    expect(classifyGaps([5, 5, 5, 5, 5, 1.9, 5, 5, 5, 5, 5, 5])).toEqual([
      true, true, true, true, true, true, true, true, true, true, true, false,
    ]);
  });

  it('calls any gap over 10 km discontinuous, and counts it in the run rather than restarting it', () => {
    expect(classifyGaps([10.5])).toEqual([false]);
    expect(classifyGaps([1, 10.5, 1])).toEqual([true, false, true]);
    expect(classifyGaps([5, 5, 10.5, 5, 5, 5])).toEqual([true, true, false, true, true, false]);
  });
});

describe('gaps on a track', () => {
  it('lists six 5.56 km gaps with the sixth discontinuous', () => {
    const r = analyzeTrack(stepping([MIDDLE, MIDDLE, MIDDLE, MIDDLE, MIDDLE, MIDDLE]));
    expect(r.drift).toHaveLength(0);
    expect(r.gaps.map((g) => [g.from, g.to, g.continuous])).toEqual([
      [0, 1, true], [1, 2, true], [2, 3, true], [3, 4, true], [4, 5, true], [5, 6, false],
    ]);
    for (const g of r.gaps) expect(g.km).toBeCloseTo(5.5598, 4);
    expect(r.discontinuous).toBe(1);
    expect(r.lossKm).toBeCloseTo(5.5598, 4);
    expect(r.lossHours).toBeCloseTo(10 / 60, 10);
  });

  it('does not list a short gap but lets it restart the run', () => {
    const r = analyzeTrack(stepping([MIDDLE, MIDDLE, MIDDLE, MIDDLE, MIDDLE, SHORT, MIDDLE]));
    expect(r.gaps.map((g) => [g.from, g.to, g.continuous])).toEqual([
      [0, 1, true], [1, 2, true], [2, 3, true], [3, 4, true], [4, 5, true], [6, 7, true],
    ]);
    expect(r.discontinuous).toBe(0);
  });

  it('marks a single gap over 10 km discontinuous and keeps it out of continuous mileage', () => {
    const r = analyzeTrack(stepping([SHORT, LONG, SHORT]));
    expect(r.gaps).toHaveLength(1);
    expect(r.gaps[0]).toMatchObject({ from: 1, to: 2, continuous: false });
    expect(r.gaps[0]!.km).toBeCloseTo(11.1195, 4);
    expect(r.mileageKm).toBeCloseTo(11.1195 + 2 * 1.11195, 4);
    expect(r.continuousMileageKm).toBeCloseTo(2 * 1.11195, 4);
    expect(r.mileageKm).toBeCloseTo(r.continuousMileageKm + r.lossKm, 10);
  });

  it('joins the points on either side of a drift point into one pair', () => {
    // 0 → 2 is 3.34 km in 2 minutes (100 km/h); point 1 is a spike 11 km away.
    const c = columnsFromPoints([
      { time: T0, lng: 116.4, lat: 30, speed: 100 },
      { time: T0 + 60_000, lng: 116.4, lat: 30.1, speed: 100 },
      { time: T0 + 120_000, lng: 116.4, lat: 30.03, speed: 100 },
      { time: T0 + 180_000, lng: 116.4, lat: 30.04, speed: 100 },
    ]);
    const r = analyzeTrack(c);
    expect(Array.from(r.drift)).toEqual([1]);
    expect(r.gaps.map((g) => [g.from, g.to, g.continuous])).toEqual([[0, 2, true]]);
    expect(r.mileageKm).toBeCloseTo(0.04 * 111.19508, 4);
  });
});
