import { describe, expect, it } from 'vitest';
import { circleBBox, contains, distanceOutsideM, haversineM, inWindow, M_PER_DEG, prepareGeometry, windowMinutes } from './geometry.ts';
import { FenceIndex } from './index.ts';
import type { LngLat } from './types.ts';

/** A point `metres` east of `at` (along the parallel). */
function east(at: LngLat, metres: number): LngLat {
  return [at[0] + metres / (M_PER_DEG * Math.cos((at[1] * Math.PI) / 180)), at[1]];
}
const T = (hhmm: string): number => Date.parse(`2026-11-28T${hhmm}:00+08:00`);

describe('circle', () => {
  const center: LngLat = [116.397, 39.909]; // Tiananmen, Beijing
  const g = prepareGeometry({ shape: 'circle', center, radius: 500 });

  it('a point 1 m inside the edge is inside, 1 m outside is not', () => {
    expect(contains(g, ...east(center, 499))).toBe(true);
    expect(contains(g, ...east(center, 501))).toBe(false);
  });

  it('agrees with the great-circle distance at the edge (within centimetres)', () => {
    const p = east(center, 501);
    expect(haversineM(center, p)).toBeCloseTo(501, 1);
    expect(distanceOutsideM(g, ...p)).toBeCloseTo(1, 1);
  });

  it('its bounding box in degrees contains the whole circle at its latitude (longitude span wider than latitude)', () => {
    const b = circleBBox(center, 500);
    expect(b[2] - b[0]).toBeGreaterThan(b[3] - b[1]);
    for (let deg = 0; deg < 360; deg += 15) {
      const r = (deg * Math.PI) / 180;
      const p: LngLat = [center[0] + (500 * Math.cos(r)) / (M_PER_DEG * Math.cos((center[1] * Math.PI) / 180)), center[1] + (500 * Math.sin(r)) / M_PER_DEG];
      expect(p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3]).toBe(true);
    }
  });
});

describe('rectangle', () => {
  const g = prepareGeometry({ shape: 'rect', sw: [121.40, 31.20], ne: [121.50, 31.25] });
  it('holds points between its corners, not beyond, and measures the way out in metres', () => {
    expect(contains(g, 121.45, 31.22)).toBe(true);
    expect(contains(g, 121.51, 31.22)).toBe(false);
    expect(distanceOutsideM(g, 121.45, 31.25 + 100 / M_PER_DEG)).toBeCloseTo(100, 3);
  });
});

describe('polygon with a notch', () => {
  // A "U": a 3×3 block (in 0.01° steps) with the middle column cut from the top down to row 1.
  const u: LngLat[] = [[113, 23], [113.03, 23], [113.03, 23.03], [113.02, 23.03], [113.02, 23.01], [113.01, 23.01], [113.01, 23.03], [113, 23.03]];
  const g = prepareGeometry({ shape: 'polygon', points: u });

  it('the arms and the base are inside, the notch between the arms is not', () => {
    expect(contains(g, 113.005, 23.02)).toBe(true); // left arm
    expect(contains(g, 113.025, 23.02)).toBe(true); // right arm
    expect(contains(g, 113.015, 23.005)).toBe(true); // base
    expect(contains(g, 113.015, 23.02)).toBe(false); // the notch
    expect(contains(g, 113.04, 23.02)).toBe(false); // beside it
  });

  it('a point in the notch is as far out as the nearest arm', () => {
    const d = distanceOutsideM(g, 113.015, 23.02);
    const half = 0.005 * M_PER_DEG * Math.cos((23.02 * Math.PI) / 180);
    expect(d).toBeCloseTo(half, 0);
  });
});

describe('time window (China wall clock)', () => {
  it('a window over midnight (22:00–06:00) is open at 23:30 and 05:59, closed at 06:00 and noon', () => {
    const w = windowMinutes({ startTime: '22:00', endTime: '06:00' });
    expect(inWindow(w, T('23:30'))).toBe(true);
    expect(inWindow(w, T('05:59'))).toBe(true);
    expect(inWindow(w, T('06:00'))).toBe(false);
    expect(inWindow(w, T('12:00'))).toBe(false);
  });

  it('a day window (08:00–18:00) is open in office hours only, whatever the machine time zone', () => {
    const w = windowMinutes({ startTime: '08:00', endTime: '18:00' });
    expect(inWindow(w, T('08:00'))).toBe(true);
    expect(inWindow(w, T('07:59'))).toBe(false);
    expect(inWindow(w, T('18:00'))).toBe(false);
  });

  it('no times (or equal times) is always open', () => {
    expect(windowMinutes({ startTime: null, endTime: null })).toBeNull();
    expect(windowMinutes({ startTime: '09:00', endTime: '09:00' })).toBeNull();
  });
});

describe('FenceIndex', () => {
  it('answers only the fences whose (grown) box holds the point, and matches a full scan', () => {
    const geoms = [];
    for (let i = 0; i < 400; i++) {
      const center: LngLat = [100 + (i % 20) * 0.5, 30 + Math.floor(i / 20) * 0.5];
      geoms.push(prepareGeometry({ shape: 'circle', center, radius: 1000 + i * 10 }));
    }
    const index = new FenceIndex(geoms, 20);
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let k = 0; k < 2000; k++) {
      const lng = 100 + rnd() * 10, lat = 30 + rnd() * 10;
      const byIndex = index.near(lng, lat).filter((i) => contains(geoms[i]!, lng, lat)).sort((a, b) => a - b);
      const byScan = geoms.map((g, i) => (contains(g, lng, lat) ? i : -1)).filter((i) => i >= 0);
      expect(byIndex).toEqual(byScan);
    }
    expect(index.near(100, 30)).toEqual([0]);
    expect(index.near(0, 0)).toEqual([]);
  });

  it('a province-sized fence (100 km circle, kept in the R-tree) is found beside the small ones in the grid', () => {
    const geoms = [
      prepareGeometry({ shape: 'circle', center: [113.26, 23.13], radius: 100_000 }),
      prepareGeometry({ shape: 'rect', sw: [113.25, 23.12], ne: [113.27, 23.14] }),
      prepareGeometry({ shape: 'circle', center: [114.06, 22.54], radius: 300 }),
    ];
    const index = new FenceIndex(geoms, 20);
    expect([...index.near(113.26, 23.13)].sort()).toEqual([0, 1]);
    expect([...index.near(113.9, 23.5)]).toEqual([0]); // 70 km out: only the big one
    expect([...index.near(114.06, 22.54)].sort()).toEqual([0, 2]);
    expect([...index.near(116.4, 39.9)]).toEqual([]);
  });

  it('an empty index answers nothing', () => {
    expect(new FenceIndex([]).near(116, 39)).toEqual([]);
  });
});
