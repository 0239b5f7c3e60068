import { describe, expect, it } from 'vitest';
import { bucketTolerance, dpImportance, segmentDistance, selectByTolerance, zoomBucket } from './simplify.ts';

function wiggle(n: number): { x: Float64Array; y: Float64Array; order: Uint32Array } {
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < n; i++) {
    x[i] = 116 + i * 1e-4;
    y[i] = 40 + Math.sin(i / 40) * 0.01 + (rnd() - 0.5) * 1e-4;
  }
  return { x, y, order: Uint32Array.from({ length: n }, (_, i) => i) };
}

/** Largest distance of any dropped vertex from the kept polyline segment that spans it. */
function worstError(x: Float64Array, y: Float64Array, kept: Uint32Array): number {
  let worst = 0;
  for (let j = 0; j + 1 < kept.length; j++) {
    const a = kept[j]!;
    const b = kept[j + 1]!;
    for (let i = a + 1; i < b; i++) worst = Math.max(worst, segmentDistance(x[i]!, y[i]!, x[a]!, y[a]!, x[b]!, y[b]!));
  }
  return worst;
}

describe('path simplification per zoom', () => {
  it('keeps the first and last point at every zoom', () => {
    const { x, y, order } = wiggle(5000);
    const imp = dpImportance(x, y, order);
    for (const z of [3, 8, 12, 18]) {
      const kept = selectByTolerance(imp, bucketTolerance(z));
      expect(kept[0]).toBe(0);
      expect(kept[kept.length - 1]).toBe(4999);
    }
  });

  it('stays within one pixel of the full path and keeps more points as the map zooms in', () => {
    const { x, y, order } = wiggle(20_000);
    const imp = dpImportance(x, y, order);
    let previous = 0;
    for (let z = 3; z <= 18; z++) {
      const tol = bucketTolerance(z);
      const kept = selectByTolerance(imp, tol);
      expect(worstError(x, y, kept)).toBeLessThanOrEqual(tol);
      expect(kept.length).toBeGreaterThanOrEqual(previous);
      previous = kept.length;
    }
    expect(selectByTolerance(imp, bucketTolerance(3)).length).toBeLessThan(200);
  });

  it('never drops a forced vertex such as the end of a data gap', () => {
    const { x, y, order } = wiggle(3000);
    const keep = new Uint8Array(3000);
    keep[1234] = 1;
    const kept = selectByTolerance(dpImportance(x, y, order, keep), 1);
    expect([...kept]).toEqual([0, 1234, 2999]);
  });

  it('puts zooms into whole-level buckets between 3 and 18', () => {
    expect(zoomBucket(2)).toBe(3);
    expect(zoomBucket(11.7)).toBe(11);
    expect(zoomBucket(22)).toBe(18);
  });
});
