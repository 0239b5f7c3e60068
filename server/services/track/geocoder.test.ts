import { describe, expect, it } from 'vitest';
import { address, locate } from './geocoder.ts';

describe('the offline geocoder', () => {
  it('names a municipality once', () => {
    expect(address(116.40, 39.91, 'zh')).toMatch(/^北京市 附近 \d+(\.\d)? 公里$/);
    expect(address(116.40, 39.91, 'en')).toMatch(/^Beijing, \d+(\.\d)? km away$/);
  });

  it('names an autonomous region with its full suffix', () => {
    expect(address(87.62, 43.83, 'zh')).toMatch(/^新疆维吾尔自治区 乌鲁木齐市 附近/);
  });

  it('answers only the nearest city for a point outside every province, with the distance', () => {
    const p = locate(125.5, 28.0);
    expect(p.province).toBeNull();
    expect(p.km).toBeGreaterThan(100);
    expect(address(125.5, 28.0, 'en')).toMatch(/^[A-Za-z ]+, \d+(\.\d)? km away$/);
  });
});
