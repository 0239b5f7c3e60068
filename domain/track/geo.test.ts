import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_KM, haversineKm, impliedSpeedKmh, speedBetweenKmh } from './geo.ts';

// Hand-computed: along a meridian or the equator the haversine is exactly R·Δθ.
const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180; // 111.19508 km

describe('great-circle distance', () => {
  it('uses the mean Earth radius 6371.0088 km', () => {
    expect(EARTH_RADIUS_KM).toBe(6371.0088);
  });

  it('measures a quarter meridian, equator to pole, as R·π/2 = 10007.557 km', () => {
    expect(haversineKm(116.4, 0, 116.4, 90)).toBeCloseTo(10007.557, 3);
  });

  it('measures one degree of the equator as 111.195 km and 0.1° of latitude at Beijing as 11.120 km', () => {
    expect(haversineKm(0, 0, 1, 0)).toBeCloseTo(111.195, 3);
    expect(haversineKm(116.4, 39.9, 116.4, 40.0)).toBeCloseTo(0.1 * KM_PER_DEGREE, 6);
  });

  it('measures antipodal points as half the circumference without NaN', () => {
    expect(haversineKm(0, 0, 180, 0)).toBeCloseTo(20015.114, 3);
    expect(haversineKm(-90, 45, 90, -45)).toBeCloseTo(20015.114, 3);
  });

  it('is symmetric, zero for the same point, and crosses the antimeridian the short way', () => {
    expect(haversineKm(116.4, 39.9, 121.47, 31.23)).toBe(haversineKm(121.47, 31.23, 116.4, 39.9));
    expect(haversineKm(116.4, 39.9, 116.4, 39.9)).toBe(0);
    expect(haversineKm(179.5, 0, -179.5, 0)).toBeCloseTo(KM_PER_DEGREE, 6);
  });
});

describe('implied speed', () => {
  it('is distance over time in km/h', () => {
    expect(impliedSpeedKmh(10, 6 * 60_000)).toBeCloseTo(100, 10);
    expect(speedBetweenKmh([0, 3_600_000], [116.4, 116.4], [39.9, 40.9], 0, 1)).toBeCloseTo(KM_PER_DEGREE, 6);
  });

  it('ignores the sign of the time difference', () => {
    expect(impliedSpeedKmh(10, -6 * 60_000)).toBeCloseTo(100, 10);
  });

  it('treats movement in zero time as infinitely fast and a duplicate report as standing still', () => {
    expect(impliedSpeedKmh(0.001, 0)).toBe(Infinity);
    expect(impliedSpeedKmh(0, 0)).toBe(0);
  });
});
