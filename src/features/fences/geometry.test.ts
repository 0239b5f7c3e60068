import { describe, expect, it } from 'vitest';
import { toDisplay } from '../../../domain/geo/gcj02.ts';
import type { FenceGeometry } from '../../../domain/fence/types.ts';
import { bounds, contains, fromDrawnRing, ringDisplay, ruleParts, toDrawFeature } from './geometry.ts';

const circle: FenceGeometry = { shape: 'circle', center: [113.9, 22.5], radius: 500 };
const rect: FenceGeometry = { shape: 'rect', sw: [113.9, 22.5], ne: [113.91, 22.51] };
const tri: FenceGeometry = { shape: 'polygon', points: [[113.9, 22.5], [113.92, 22.5], [113.91, 22.52]] };

describe('fence geometry on the map', () => {
  it('a circle drawn on a GCJ-02 basemap comes back as the same WGS-84 centre and radius', () => {
    const back = fromDrawnRing('circle', ringDisplay(circle, 'gcj02'), 'gcj02');
    expect(back.shape).toBe('circle');
    if (back.shape !== 'circle') return;
    expect(back.center[0]).toBeCloseTo(113.9, 5);
    expect(back.center[1]).toBeCloseTo(22.5, 5);
    expect(Math.abs(back.radius - 500)).toBeLessThanOrEqual(1);
  });

  it('the GCJ-02 outline is shifted by the datum offset (hundreds of metres), the WGS-84 one is not', () => {
    const [x, y] = ringDisplay(rect, 'gcj02')[0]!;
    expect([x, y]).toEqual(toDisplay('gcj02', 113.9, 22.5));
    expect(Math.abs(x - 113.9) + Math.abs(y - 22.5)).toBeGreaterThan(0.001);
    expect(ringDisplay(rect, 'wgs84')[0]).toEqual([113.9, 22.5]);
  });

  it('a rectangle and a polygon survive the round trip through the display CRS and terra-draw\'s closed ring', () => {
    const r = fromDrawnRing('rect', toDrawFeature('x', rect, 'gcj02').geometry.coordinates[0]!, 'gcj02');
    expect(r.shape).toBe('rect');
    if (r.shape === 'rect') {
      expect(r.sw[0]).toBeCloseTo(113.9, 6);
      expect(r.ne[1]).toBeCloseTo(22.51, 6);
    }
    const p = fromDrawnRing('polygon', toDrawFeature('y', tri, 'wgs84').geometry.coordinates[0]!, 'wgs84');
    expect(p).toEqual(tri);
  });

  it('a circle feature carries terra-draw\'s mode and radius so it can be edited as a circle', () => {
    const f = toDrawFeature('c', circle, 'wgs84');
    expect(f.properties).toEqual({ mode: 'circle', radiusKilometers: 0.5 });
    expect(f.geometry.coordinates[0]!.length).toBe(65);
  });

  it('bounds cover the whole circle and containment follows the shape', () => {
    const [w, s, e, n] = bounds(circle);
    expect(w).toBeLessThan(113.9 - 0.004);
    expect(n).toBeGreaterThan(22.5 + 0.004);
    expect(e - w).toBeGreaterThan(n - s); // a degree of longitude is shorter than one of latitude at 22.5°
    expect(contains(circle, 113.9, 22.5039)).toBe(true);
    expect(contains(circle, 113.9, 22.506)).toBe(false);
    expect(contains(tri, 113.91, 22.51)).toBe(true);
    expect(contains(tri, 113.9, 22.52)).toBe(false);
    expect(contains(rect, 113.905, 22.505)).toBe(true);
  });

  it('the rule summary lists the flags that are on, the speed limit and the window', () => {
    expect(ruleParts({ alarmIn: true, alarmOut: false, forbidIn: false, forbidOut: true, maxSpeed: 60, overspeedSeconds: 10, startTime: '22:00', endTime: '06:00' })).toEqual({
      flags: ['alarmIn', 'forbidOut'], speed: { speed: 60, seconds: 10 }, window: '22:00–06:00',
    });
  });
});
