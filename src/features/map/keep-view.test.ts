import { describe, expect, it } from 'vitest';
import { recentreOn } from './keep-view.ts';

describe('recentreOn (the map narrowed or widened)', () => {
  it('leaves a vehicle that is still well inside the map where it is (the centre is kept)', () => {
    expect(recentreOn(400, 300, 900, 600)).toBe(false);
  });

  it('brings back a vehicle the narrower map cut off on the right', () => {
    // 1200 px wide before the pop-up docked, 900 after: a vehicle at x = 1000 is now off the map.
    expect(recentreOn(1000, 300, 900, 600)).toBe(true);
  });

  it('brings back a vehicle sitting on the edge (half its arrow off the canvas)', () => {
    expect(recentreOn(880, 300, 900, 600)).toBe(true);
    expect(recentreOn(10, 300, 900, 600)).toBe(true);
    expect(recentreOn(450, 590, 900, 600)).toBe(true);
  });

  it('does nothing without a position or a map size', () => {
    expect(recentreOn(Number.NaN, 300, 900, 600)).toBe(false);
    expect(recentreOn(400, 300, 0, 0)).toBe(false);
  });

  it('keeps the margin sensible on a tiny map', () => {
    expect(recentreOn(50, 50, 100, 100)).toBe(false);
  });
});
