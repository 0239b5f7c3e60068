import { describe, expect, it } from 'vitest';
import { analyzeTrack } from './analyze.ts';
import { columnsFromPoints } from './columns.ts';
import type { TrackColumns, TrackPoint } from './columns.ts';
import { DEFAULT_STOP_MINUTES, findStops, StopDetector } from './stops.ts';

const T0 = Date.UTC(2024, 2, 1, 2, 0);

/** One point every 30 s. A segment: n points at `speed` km/h moving `dLat`° of latitude per point. */
function build(segments: Array<{ n: number; speed: number; dLat: number }>): TrackColumns {
  const pts: TrackPoint[] = [];
  let lat = 30;
  for (const s of segments) {
    for (let k = 0; k < s.n; k++) {
      pts.push({ time: T0 + pts.length * 30_000, lng: 116.4, lat, speed: s.speed });
      lat += s.dLat;
    }
  }
  return columnsFromPoints(pts);
}

const DRIVE = { n: 4, speed: 60, dLat: 0.0045 }; // 500 m per 30 s
// Drive 0–3, stop 2 min (4–8: five points, 4 × 30 s), drive 9–12, stop 4 min (13–21), drive 22–25.
const TRACK = build([DRIVE, { n: 5, speed: 0, dLat: 0 }, DRIVE, { n: 9, speed: 0, dLat: 0 }, DRIVE]);

describe('stops with the minutes filter', () => {
  it('defaults to 3 minutes, so only the 4-minute stop is kept', () => {
    expect(DEFAULT_STOP_MINUTES).toBe(3);
    expect(analyzeTrack(TRACK).stops).toEqual([{ from: 13, to: 21, minutes: 4 }]);
  });

  it('keeps both stops with a 1-minute filter and none with a 5-minute filter', () => {
    expect(analyzeTrack(TRACK, { stopMinutes: 1 }).stops).toEqual([
      { from: 4, to: 8, minutes: 2 },
      { from: 13, to: 21, minutes: 4 },
    ]);
    expect(analyzeTrack(TRACK, { stopMinutes: 5 }).stops).toEqual([]);
  });

  it('keeps a stop exactly as long as the filter', () => {
    expect(analyzeTrack(TRACK, { stopMinutes: 2 }).stops[0]).toEqual({ from: 4, to: 8, minutes: 2 });
  });

  it('ends a stop at a point reporting 1 km/h or more', () => {
    const d = new StopDetector({ stopMinutes: 0 });
    d.push(0, T0, 116.4, 30, 0.866, 0.99);
    d.push(1, T0 + 60_000, 116.4, 30, 0.866, 0.99);
    d.push(2, T0 + 120_000, 116.4, 30, 0.866, 1);
    d.push(3, T0 + 180_000, 116.4, 30, 0.866, 0);
    expect(d.finish()).toEqual([{ from: 0, to: 1, minutes: 1 }]);
  });

  it('rides out GPS scatter within 50 m of where the stop began, and starts a new stop 100 m away', () => {
    // 0.0001° of latitude = 11.1 m; all speeds 0, 30 s apart.
    const lats = [30, 30.0002, 30.0004, 30.0001, 30.001, 30.0012, 30.0011];
    const c = columnsFromPoints(lats.map((lat, i) => ({ time: T0 + i * 30_000, lng: 116.4, lat, speed: 0 })));
    expect(findStops(c, undefined, { stopMinutes: 0 })).toEqual([
      { from: 0, to: 3, minutes: 1.5 },
      { from: 4, to: 6, minutes: 1 },
    ]);
  });

  it('keeps one stop for a vehicle parked on the antimeridian', () => {
    const c = columnsFromPoints([179.9999, -179.9999, 179.9998].map((lng, i) => ({ time: T0 + i * 120_000, lng, lat: 0, speed: 0 })));
    expect(findStops(c, undefined)).toEqual([{ from: 0, to: 2, minutes: 4 }]);
  });

  it('does not let a drift point inside a stop split it', () => {
    const c = build([{ n: 10, speed: 0, dLat: 0 }]);
    c.lat[5] = 30.1; // 11 km away and back within 30 s each way
    const r = analyzeTrack(c);
    expect(Array.from(r.drift)).toEqual([5]);
    expect(r.stops).toEqual([{ from: 0, to: 9, minutes: 4.5 }]);
    expect(findStops(c, r.driftFlags)).toEqual(r.stops);
  });

  it('refuses a negative or non-numeric filter', () => {
    expect(() => analyzeTrack(TRACK, { stopMinutes: -1 })).toThrow(RangeError);
    expect(() => analyzeTrack(TRACK, { stopMinutes: Number.NaN })).toThrow(RangeError);
  });
});
