import { describe, expect, it } from 'vitest';
import { kmByDay } from './KmChart.tsx';

describe('mileage daily curve', () => {
  it('sums the vehicles of each day, dates ascending; a day without odometer counts 0 odometer km', () => {
    const r = kmByDay([
      { date: '2026-11-21', trackKm: 10.004, odometerKm: 10.2 },
      { date: '2026-11-20', trackKm: 3, odometerKm: null },
      { date: '2026-11-21', trackKm: 1.5, odometerKm: 1.4 },
    ]);
    expect(r).toEqual({ dates: ['2026-11-20', '2026-11-21'], track: [3, 11.5], odometer: [0, 11.6] });
  });
});
