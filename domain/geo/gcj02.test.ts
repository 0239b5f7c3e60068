import { describe, expect, it } from 'vitest';
import {
  fromDisplay,
  gcj02ToWgs84,
  gcj02ToWgs84Pairs,
  isDisplayCrs,
  outOfChina,
  toDisplay,
  wgs84ToGcj02,
  wgs84ToGcj02Pairs,
} from './gcj02.ts';
import { haversineKm } from '../track/geo.ts';

// Published vectors of the standard transform (eviltransform's test table): WGS-84 → GCJ-02.
const VECTORS: [name: string, wgsLng: number, wgsLat: number, gcjLng: number, gcjLat: number][] = [
  ['Shanghai', 121.5272106, 31.1774276, 121.531541859215, 31.17530398364597],
  ['Shenzhen', 113.912316, 22.543847, 113.9171764808363, 22.540796131694766],
  ['Beijing', 116.377817, 39.911954, 116.38404722455657, 39.91334545536069],
];

describe('GCJ-02 transform', () => {
  for (const [name, wLng, wLat, gLng, gLat] of VECTORS) {
    it(`moves a ${name} position to the published GCJ-02 coordinates`, () => {
      const [lng, lat] = wgs84ToGcj02(wLng, wLat);
      expect(lng).toBeCloseTo(gLng, 9);
      expect(lat).toBeCloseTo(gLat, 9);
    });

    it(`brings the ${name} GCJ-02 position back to WGS-84 within a millimetre`, () => {
      const [lng, lat] = gcj02ToWgs84(gLng, gLat);
      expect(haversineKm(lng, lat, wLng, wLat) * 1e6).toBeLessThan(1);
    });
  }

  it('shifts positions in China by the expected hundreds of metres', () => {
    const [lng, lat] = wgs84ToGcj02(116.397, 39.908);
    const metres = haversineKm(116.397, 39.908, lng, lat) * 1000;
    expect(metres).toBeGreaterThan(100);
    expect(metres).toBeLessThan(1000);
  });

  it('leaves positions outside China and non-finite values unchanged', () => {
    expect(outOfChina(2.35, 48.85)).toBe(true);
    expect(wgs84ToGcj02(2.35, 48.85)).toEqual([2.35, 48.85]);
    expect(gcj02ToWgs84(-74, 40.7)).toEqual([-74, 40.7]);
    const [lng, lat] = wgs84ToGcj02(Number.NaN, 30);
    expect(lng).toBeNaN();
    expect(lat).toBe(30);
  });

  it('converts interleaved pairs in place, matching the single-point transform', () => {
    const pairs = new Float64Array([121.5272106, 31.1774276, 2.35, 48.85, 113.912316, 22.543847]);
    wgs84ToGcj02Pairs(pairs, pairs, 3);
    expect(pairs[0]).toBeCloseTo(121.531541859215, 9);
    expect(pairs[2]).toBe(2.35);
    expect(pairs[5]).toBeCloseTo(22.540796131694766, 9);
    gcj02ToWgs84Pairs(pairs, pairs, 3);
    expect(pairs[0]).toBeCloseTo(121.5272106, 8);
    expect(pairs[5]).toBeCloseTo(22.543847, 8);
  });

  it('converts for display only when the map is drawn in GCJ-02', () => {
    expect(toDisplay('wgs84', 116.4, 39.9)).toEqual([116.4, 39.9]);
    expect(toDisplay('gcj02', 116.4, 39.9)).toEqual(wgs84ToGcj02(116.4, 39.9));
    const [lng, lat] = fromDisplay('gcj02', ...toDisplay('gcj02', 116.4, 39.9));
    expect(lng).toBeCloseTo(116.4, 8);
    expect(lat).toBeCloseTo(39.9, 8);
    expect(isDisplayCrs('gcj02')).toBe(true);
    expect(isDisplayCrs('bd09')).toBe(false);
  });
});
