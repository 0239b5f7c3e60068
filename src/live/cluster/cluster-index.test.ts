import { describe, expect, it } from 'vitest';
import { ClusterIndex, clusterRadiusPx } from './cluster-index.ts';

/** n vehicles within ~100 m of (lng, lat). */
function blob(lng: number, lat: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(lng + (i % 10) * 1e-4, lat + Math.floor(i / 10) * 1e-4);
  return out;
}

describe('ClusterIndex', () => {
  it('folds a dense group into one cluster at country zoom and hides its vehicles', () => {
    const idx = new ClusterIndex();
    const positions = new Float32Array([...blob(116.4, 39.9, 50), 121.47, 31.23]);
    idx.load(positions, 51);
    const r = idx.query(4.1);
    expect(r.clusterCount).toBe(1);
    expect(r.sizes[0]).toBe(50);
    expect(r.positions[0]).toBeCloseTo(116.4, 1);
    expect(Array.from(r.hidden.subarray(0, 50)).every((h) => h === 1)).toBe(true);
    expect(r.hidden[50]).toBe(0); // the lone Shanghai vehicle is drawn as itself
  });

  it('needs at least three vehicles to form a cluster', () => {
    const idx = new ClusterIndex();
    idx.load(new Float32Array([116.4, 39.9, 116.4001, 39.9001]), 2);
    const r = idx.query(4);
    expect(r.clusterCount).toBe(0);
    expect(Array.from(r.hidden)).toEqual([0, 0]);
  });

  it('shows every vehicle above zoom 16', () => {
    const idx = new ClusterIndex();
    idx.load(new Float32Array(blob(116.4, 39.9, 30)), 30);
    expect(idx.query(16).clusterCount).toBeGreaterThan(0);
    const r = idx.query(17);
    expect(r.clusterCount).toBe(0);
    expect(r.hidden.every((h) => h === 0)).toBe(true);
  });

  it('skips vehicles without a position and keeps them hidden', () => {
    const idx = new ClusterIndex();
    idx.load(new Float32Array([Number.NaN, Number.NaN, 116.4, 39.9]), 2);
    const r = idx.query(10);
    expect(Array.from(r.hidden)).toEqual([1, 0]);
  });

  it('reuses the index across loads as vehicles move apart', () => {
    const idx = new ClusterIndex();
    const positions = new Float32Array(blob(116.4, 39.9, 20));
    idx.load(positions, 20);
    expect(idx.query(8).clusterCount).toBe(1);
    for (let i = 0; i < 20; i++) positions[2 * i] = 80 + i * 2; // spread over 40° of longitude
    idx.load(positions, 20);
    expect(idx.query(8).clusterCount).toBe(0);
  });

  it('tells the zoom at which a cluster splits', () => {
    const idx = new ClusterIndex();
    idx.load(new Float32Array([...blob(116.4, 39.9, 10), ...blob(116.6, 39.9, 10)]), 20);
    const r = idx.query(3);
    expect(r.clusterCount).toBe(1);
    const z = idx.expansionZoom(r.ids[0] as number);
    expect(z).toBeGreaterThan(3);
    expect(idx.query(z).clusterCount).toBeGreaterThanOrEqual(2);
  });

  it('grows the circle with the logarithm of the size', () => {
    expect(clusterRadiusPx(3)).toBeLessThan(clusterRadiusPx(1000));
    expect(clusterRadiusPx(100_000)).toBeLessThan(40);
  });
});
