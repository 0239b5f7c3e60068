import { describe, expect, it } from 'vitest';
import { address, locate, NEAR_KM } from './geocoder.ts';

// Known coordinates (WGS-84) against the county boundaries of china-counties.bin. The old geocoder
// answered "a province + the nearest of ~70 cities, N km away" for all of these; an invented street
// or a city hundreds of kilometres off is what these tests keep out.
describe('the offline county geocoder', () => {
  it('names the district of a municipality once: Dongcheng, Beijing (Tiananmen east)', () => {
    expect(address(116.416, 39.928, 'zh')).toBe('北京市东城区附近');
    expect(address(116.416, 39.928, 'en')).toBe('near 东城区, Beijing');
    expect(locate(116.416, 39.928)).toMatchObject({ county: '东城区', code: '110101', km: 0 });
  });

  it('tells neighbouring districts apart: Pudong, not Huangpu, across the river from the Bund', () => {
    expect(address(121.544, 31.221, 'zh')).toBe('上海市浦东新区附近');
    expect(address(121.490, 31.240, 'zh')).toBe('上海市黄浦区附近');
  });

  it('names province, prefecture and county of a rural county on the plateau (Madoi, Golog)', () => {
    expect(address(98.21, 34.92, 'zh')).toBe('青海省果洛藏族自治州玛多县附近');
    expect(address(98.21, 34.92, 'en')).toBe('near 玛多县, Guoluo Prefecture, Qinghai');
  });

  it('gives an autonomous region its full name and a city its district (Urumqi)', () => {
    expect(address(87.62, 43.83, 'zh')).toMatch(/^新疆维吾尔自治区乌鲁木齐市.+区附近$/);
  });

  it('names a county-level city directly under its province once (Xiantao, Hubei)', () => {
    expect(address(113.45, 30.36, 'zh')).toBe('湖北省仙桃市附近');
    expect(address(113.45, 30.36, 'en')).toBe('near Xiantao, Hubei');
  });

  it('still says "near" the coast within NEAR_KM offshore, with the distance, and never a street', () => {
    const p = locate(120.50, 36.06); // east of Laoshan, Qingdao, in the Yellow Sea
    expect(p).toMatchObject({ county: '崂山区', city: { zh: '青岛市' } });
    expect(p.km).toBeGreaterThan(0);
    expect(p.km).toBeLessThanOrEqual(NEAR_KM);
    expect(address(120.50, 36.06, 'zh')).toBe('山东省青岛市崂山区附近');
  });

  it('says honestly that a point in the open sea or abroad is in no county of China', () => {
    for (const [lng, lat] of [[123.0, 30.0], [125.5, 28.0], [139.69, 35.69], [2.35, 48.85]] as const) {
      expect(locate(lng, lat)).toEqual({ province: null, city: null, county: null, code: '', km: null });
      expect(address(lng, lat, 'zh')).toBe('不在中国任何区县内（境外或海上）');
      expect(address(lng, lat, 'en')).toBe('Not in any county of China (abroad or at sea)');
    }
  });

  it('answers different counties for different places (not one answer for every input)', () => {
    const points = [[116.416, 39.928], [121.544, 31.221], [113.26, 23.13], [104.06, 30.66], [126.63, 45.75], [91.13, 29.65]] as const;
    const counties = new Set(points.map(([lng, lat]) => locate(lng, lat).code));
    expect(counties.size).toBe(points.length);
  });

  it('looks a point up in microseconds once loaded (grid index, not a scan of 3,253 counties)', () => {
    locate(116.4, 39.9);
    const n = 20_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) locate(100 + (i % 300) * 0.1, 25 + ((i * 7) % 200) * 0.1);
    const usPerLookup = ((performance.now() - t0) * 1000) / n;
    // ≈ 4 µs measured on a loaded 2-core machine; a linear scan of every county polygon is ≈ 1000× that.
    expect(usPerLookup).toBeLessThan(200);
  });
});
